"""The brief text of a Blending seat view: the step's situation around the seat's hero.

Sent after a move instead of the whole view (`views.render`): the seat's hand, hero and turn so
far, the map around its hero, where it can place near its hero, the guardians within reach with
their piles and estates, the rivals in one line each, and a fight or pick under way. The whole
map, its legend, far guardians and the recent events are left out: what the others did heads the
view as its news (once), and `show` gives everything whenever asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import ORTHO, cheb, spot_pattern
from .eras.dispatch import era_lines, era_pile
from .estates import ESTATE_FORMAT, estate_text, square_letter
from .render import render
from .state import Pos
from .tiles import face_from_text, face_text, fits, pips

AROUND = 1
"""The brief map shows the hero's 3x3: where it steps and places near."""
GUARDIANS_NEAR = 2
"""Guardians within this many squares are listed: fight and bolster reach 1, a new guardian
needs none within 2."""


def render_brief(v: Mapping[str, Any]) -> str:
    seat = v.get("seat")
    if seat is None:
        return render(v)
    if v["phase"] == "over":
        return _over(v, seat)
    squares: dict[Pos, int] = {(x, y): land for x, y, land in v["squares"]}
    me = v["players"][seat]
    hero: Pos = (me["hero"][0], me["hero"][1])
    who = "you" if v["to_act"] == seat else f"seat {v['to_act']}"
    out = [
        f"Blending, round {v['round']} of {v['rounds']} - {who} to act ({v['phase']}). You: seat "
        f"{seat} {me['class']} (home {me['home']}) at {hero[0]},{hero[1]}, score "
        f"{me['score_now']}, guardians left {me['guardians_left']}."
    ]
    hand = " ".join(f"{t}:{f}" for t, f in v.get("hand", []))
    out.append(f"Your hand: {hand or 'empty'}.")
    if "turn" in v and v["phase"] != "walk":
        t = v["turn"]
        out.append(
            f"This turn: moves left {t['moves_left']}/{v['native_speed']}, placed {t['placed']} "
            f"({t['placement_mode'] or 'none yet'}), main action: {t['main'] or 'not taken'}."
        )
    # A fight or a pick is decided with the hand and the row or pick alone.
    if v["phase"] not in ("walk", "fight", "pick"):
        out += _around(v, squares, hero)
        if v["phase"] == "turn" and v["to_act"] == seat:
            out.append(_near_spots(v, squares, hero))
        out += _guardians(v, hero)
    if v["phase"] not in ("fight", "pick"):
        out.append(_rivals(v, seat))
    # Older rule eras: their territories, endgame and strikes, as the full view writes them.
    out += [line for line in era_lines(v) if line]
    out += _fight_and_pick(v)
    return "\n".join(out)


def _rivals(v: Mapping[str, Any], seat: int) -> str:
    return (
        "Rivals (seat hero hand score): "
        + "; ".join(
            f"{p['seat']} {p['hero'][0]},{p['hero'][1]} {p['hand_size']} {p['score_now']}"
            for p in v["players"]
            if p["seat"] != seat
        )
        + "."
    )


def _over(v: Mapping[str, Any], seat: int) -> str:
    """The end: the scores, as the full view's players list gives them, without the map."""
    out = [f"Blending, round {v['round']} of {v['rounds']} - game over ({v['ended']})."]
    for p in v["players"]:
        you = " (you)" if p["seat"] == seat else ""
        out.append(
            f"  seat {p['seat']}{you}: score {p['score_now']} ({p['score_parts'][0]} + "
            f"{p['score_parts'][1]}), guardians left {p['guardians_left']}"
        )
    return "\n".join(out)


def _around(v: Mapping[str, Any], squares: Mapping[Pos, int], hero: Pos) -> list[str]:
    heroes: dict[Pos, list[int]] = {}
    for p in v["players"]:
        heroes.setdefault((p["hero"][0], p["hero"][1]), []).append(p["seat"])
    guards = {(g["at"][0], g["at"][1]): g["owner"] for g in v["guardians"]}
    xs = range(hero[0] - AROUND, hero[0] + AROUND + 1)
    lines = ["Around your hero:"]
    lines.append("  y\\x " + "".join(f"{x:<6}" for x in xs).rstrip())
    blends = {(b[0], b[1]): len(set(b[3])) for b in v["blends"]}
    for y in range(hero[1] - AROUND, hero[1] + AROUND + 1):
        row = f"{y:>4}  "
        for x in xs:
            cell = square_letter(squares.get((x, y)))
            if (x, y) in guards:
                cell += f"g{guards[(x, y)]}"
            here = heroes.get((x, y))
            if here:
                cell += f"@{here[0]}" if len(here) == 1 else "@*"
            mark = blends.get((x, y))
            if mark is not None:
                cell += "d" if mark == 2 else "t"
            row += cell.ljust(6)
        lines.append(row.rstrip())
    return lines


def _near_spots(v: Mapping[str, Any], squares: Mapping[Pos, int], hero: Pos) -> str:
    """Where a tile of the hand can go near the hero: blank squares of its 3x3 that touch a
    filled one (any single), and free 2x2 blocks of land inside the 3x3 with the hand's blends
    that fit each and their rotation."""
    t = v.get("turn") or {}
    if t.get("placement_mode") == "far":
        return "Placements: none more this turn (you placed far)."
    if t.get("placement_mode") == "near" and int(t.get("placed", 0)) >= int(v["near_count"]):
        return f"Placements: none more this turn (you placed {v['near_count']} near your hero)."
    singles = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            p = (hero[0] + dx, hero[1] + dy)
            if p not in squares and any((p[0] + a, p[1] + b) in squares for a, b in ORTHO):
                singles.append(f"{p[0]},{p[1]}")
    blended = {(b[0], b[1]) for b in v["blends"]}
    faces: dict[str, str] = {}
    for name, face in v.get("hand", []):
        faces.setdefault(face, name)  # one tile per face, as the menu lists them
    hand = [(name, face_from_text(face)) for face, name in faces.items()]
    blocks = []
    for tl in ((hero[0] - 1, hero[1] - 1), (hero[0], hero[1] - 1), (hero[0] - 1, hero[1]), hero):
        spot = spot_pattern(dict(squares), tl)
        if spot is None or tl in blended:
            continue
        tiles = []
        for name, face in hand:
            rot = fits(face, v["triple_match"]).get(spot) if pips(face) > 1 else None
            if rot is not None:
                tiles.append(f"{name} r{rot}")  # the notation names r0 too
        if tiles:
            blocks.append(f"{tl[0]},{tl[1]} ({face_text(spot)}): {' '.join(tiles)}")
    return (
        "Near: singles on "
        + (" ".join(singles) or "none")
        + "; your blends on (top-left block) "
        + (", ".join(blocks) or "none")
        + "."
    )


def _guardians(v: Mapping[str, Any], hero: Pos) -> list[str]:
    near = [g for g in v["guardians"] if cheb((g["at"][0], g["at"][1]), hero) <= GUARDIANS_NEAR]
    far = len(v["guardians"]) - len(near)
    rest = f"; {far} further away" if far else ""
    if not near:
        return [f"Guardians within {GUARDIANS_NEAR}: none{rest}."]
    estates = "; " + ESTATE_FORMAT if any("estate" in g for g in near) else ""
    out = [f"Guardians within {GUARDIANS_NEAR} (pile top first, * bolster{estates}){rest}:"]
    for g in near:
        pile = era_pile(g) or " ".join(
            f"{t}:{face}{'' if base else '*'}" for t, face, base in g["pile"]
        )
        where = f"{g['at'][0]},{g['at'][1]}"
        text = estate_text(g)
        # One's own pile matters only to bolster it: its size says whether it can be.
        mine = g["owner"] == v["seat"]
        whose = f"(yours, pile {len(g['pile'])})" if mine else f"(seat {g['owner']}): {pile}"
        out.append(f"  {g['id']} {g['land']} at {where} {whose}" + (f"; {text}" if text else ""))
    return out


def _fight_and_pick(v: Mapping[str, Any]) -> list[str]:
    """A fight or a pick under way, as the full view writes it (the seat decides with it), and
    the seat's own last fight (another seat's fight is in the news already). Older eras'
    fights are in their era lines."""
    starts = ["Picking tiles for ", "Last fight:"]
    if "fight" in v:
        starts.append("Fight against ")
    # The seat's own fight of this turn: shown for the rest of the turn only.
    mine = v["to_act"] == v["seat"] and (v.get("turn") or {}).get("main") == "fight"
    own = f"seat {v['seat']} fought "
    full = render(v).split("\n")
    out: list[str] = []
    for at, line in enumerate(full):
        if not line.startswith(tuple(starts)):
            continue
        block: list[str] = []
        for item in full[at + 1 :]:
            if not item.startswith("  "):
                break
            block.append(item)
        if line == "Last fight:":
            if not (mine and block and own in block[0]):
                continue
            # How it went and how it ended, not every flip again.
            block = block[:1] + block[-1:] if len(block) > 2 else block
        elif line.startswith("Fight against "):
            block = _recent_flips(block)
        out += [line, *block]
    return out


RECENT_FLIPS = 2
"""Flips of the fight under way the brief repeats: the latest ones (`show` has them all)."""


def _recent_flips(block: list[str]) -> list[str]:
    """The fight's pairs and hint whole, its flip history cut to the latest lines."""
    history = [i for i, item in enumerate(block) if item.startswith(("  pos ", "  seat "))]
    if len(history) <= RECENT_FLIPS:
        return block
    keep = set(history[-RECENT_FLIPS:])
    cut = len(history) - RECENT_FLIPS
    out = [item for i, item in enumerate(block) if i not in history or i in keep]
    out.insert(history[0], f"  ({cut} earlier flips and losses of this fight: `show` has them)")
    return out
