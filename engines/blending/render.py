"""The text rendering of a Blending view (seat or spectator), from the view dict only: the map
as a grid of land letters with heroes, guardians and blends, the players, the hand, the fight in
progress, the last fight and the recent events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .eras.dispatch import era_head, era_lines, era_pile, score_words
from .estates import ESTATE_FORMAT, estate_text
from .odds import PASS_TEXT
from .tiles import LAND_LETTER, LAND_NAME, START

JSON = Any

CELL = 6


def _grid(v: Mapping[str, JSON]) -> list[str]:
    squares = {(x, y): land for x, y, land in v["squares"]}
    heroes: dict[tuple[int, int], list[int]] = {}
    for p in v["players"]:
        heroes.setdefault((p["hero"][0], p["hero"][1]), []).append(p["seat"])
    guards = {(g["at"][0], g["at"][1]): g["owner"] for g in v["guardians"]}
    blends = {(b[0], b[1]): len(set(b[3])) for b in v["blends"]}
    xs = range(min(x for x, _ in squares) - 1, max(x for x, _ in squares) + 2)
    ys = range(min(y for _, y in squares) - 1, max(y for _, y in squares) + 2)
    lines = ["  y\\x " + "".join(f"{x:<{CELL}}" for x in xs).rstrip()]
    for y in ys:
        row = f"{y:>4}  "
        between = "      "
        for x in xs:
            land = squares.get((x, y))
            cell = "." if land is None else "#" if land == START else LAND_LETTER[land]
            if (x, y) in guards:
                cell += f"g{guards[(x, y)]}"
            here = heroes.get((x, y))
            if here:
                cell += f"@{here[0]}" if len(here) == 1 else "@*"
            row += cell.ljust(CELL)
            mark = blends.get((x, y))
            between += " " * (CELL - 1) + (" " if mark is None else "d" if mark == 2 else "t")
        lines.append(row.rstrip())
        if between.strip():
            lines.append(between.rstrip())
    return lines


def _tiles(pairs: Sequence[Sequence[str]]) -> str:
    return " ".join(f"{t}:{f}" for t, f in pairs)


def render(v: Mapping[str, JSON]) -> str:
    seat = v.get("seat")
    head = f"Blending, round {v['round']} of {v['rounds']}{era_head(v)}"
    if v["phase"] == "over":
        head += f" - game over ({v['ended']})"
    elif v["to_act"] is not None:
        who = "you" if v["to_act"] == seat else f"seat {v['to_act']}"
        head += f" - {who} to act ({v['phase']})"
    out = [head + (f". You are seat {seat}." if seat is not None else "."), ""]
    out += [
        "Map: x grows east, y grows south. # start square, M/F/P Mountain/Forest/Plains, . blank.",
        "gN: a guardian of seat N; @N: seat N's hero (@* several). A d/t just below-right of a",
        "square: a double/triple over the 2x2 block whose top-left square that is.",
    ]
    out += _grid(v)
    if v["blends"]:
        out.append(
            "Blends: "
            + "; ".join(
                f"{b[2]}:{b[3]} r{b[4]} at {b[0]},{b[1]} (seat {b[5]})" for b in v["blends"]
            )
        )
    if v["primers"]:
        out.append("Primers: " + ", ".join(f"{x},{y} x{k}" for x, y, k in v["primers"]))
    estates = "; " + ESTATE_FORMAT if any("estate" in g for g in v["guardians"]) else ""
    out += ["", f"Guardians (piles face up, top first; * a bolster tile{estates}):"]
    if not v["guardians"]:
        out.append("  none yet")
    for g in v["guardians"]:
        pile = era_pile(g) or " ".join(
            f"{t}:{face}{'' if base else '*'}" for t, face, base in g["pile"]
        )
        land = LAND_NAME["MFP".index(g["land"])]
        out.append(f"  {g['id']} seat {g['owner']} {land} at {g['at'][0]},{g['at'][1]}: {pile}")
        if text := estate_text(g):
            out[-1] += f"; {text}"
    out += ["", f"Players (score if the game ended now = {score_words(v)}):"]
    for p in v["players"]:
        you = " (you)" if p["seat"] == seat else ""
        one, two, three = p["hand_pips"]
        out.append(
            f"  seat {p['seat']}{you}: {p['class']} (home {p['home']}) at "
            f"{p['hero'][0]},{p['hero'][1]}; hand {p['hand_size']} ({one} single, {two} double,"
            f" {three} triple); guardians left {p['guardians_left']}; score {p['score_now']}"
            f" ({p['score_parts'][0]} + {p['score_parts'][1]})"
        )
        if "hand" in p:
            out.append("    hand: " + _tiles(p["hand"]))
    if "hand" in v:
        out += [
            "",
            "Your hand (corners clockwise from top-left): " + (_tiles(v["hand"]) or "empty"),
        ]
    discard = v["discard"]
    out.append(
        f"Stock: {v['stock']} tiles. Discard pile: {len(discard)} tiles"
        + (" (last: " + _tiles(discard[-12:]) + ")" if discard else "")
        + "."
    )
    out += era_lines(v)
    if "turn" in v and v["phase"] != "walk":
        t = v["turn"]
        out.append(
            f"This turn: moves left {t['moves_left']}/{v['native_speed']} of a step; placed "
            f"{t['placed']} ({t['placement_mode'] or 'none yet'}); main action: "
            f"{t['main'] or 'not taken'}."
        )
    if "fight" in v:
        f = v["fight"]
        out += [
            "",
            f"Fight against {f['guardian']}, pass {f['pass']} of at most {f['max_passes']}:",
        ]
        for i, (t, face, state) in enumerate(f["row"], start=1):
            laid = next((f"{lt} as {k}" for p, lt, k in f["laid"] if p == i), "-")
            flipped = " (flipped)" if i in f["flipped"] else ""
            out.append(f"  {i}. {t}:{face} [{state}] vs {laid}{flipped}")
        if f["set_aside"] or f["taken"]:
            aside = " ".join(f["set_aside"]) or "-"
            out.append(f"  set aside: {aside}; taken: {' '.join(f['taken']) or '-'}")
        out += ["  " + line for line in f["results"]]
        out.append(
            "  Lay entries in legal_moves show each lay's win / tie / loss odds; "
            f"stop is a {PASS_TEXT}."
        )
    if "pick" in v:
        p = v["pick"]
        picked = _tiles(p.get("picked", []))
        out.append(f"Picking tiles for {p['for']}: {p['count']} picked {picked}".rstrip())
    if v.get("last_fight"):
        out += ["", "Last fight:"] + ["  " + line for line in v["last_fight"]]
    if v["log"]:
        out += ["", "Recent events:"] + ["  " + line for line in v["log"][-8:]]
    return "\n".join(out)
