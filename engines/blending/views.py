"""Observations, spectator views and their text rendering (DECISIONS B20).

The map, blends, primers and discard pile are tuples (JSON arrays once serialised) shared between
views while they are unchanged, which keeps a view cheap to build; views are read-only values.

A seat sees its own hand in full, rivals' hands as counts by pips, every guardian pile and the
discard pile face up, and the stock as a count. `render` reads only the view dict. `last_fight`
(the flips, loss discards and end of the last fight that ended) is shown while its last line is
still among the recent events.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..jsonread import arr, at, edit, ints, num, obj, objs, text, texts
from ..protocol import JSON
from .board import cheb
from .eras.endgame import rounds_shown
from .eras.views import era_head, era_lines, era_pile, era_view, score_words
from .memo import Memo
from .odds import PASS_TEXT
from .scoring import breakdown
from .state import State
from .tiles import CLASS_HOME, CLASS_NAME, KIND_NAME, LAND_LETTER, LAND_NAME, START, face_text

_TEXTS: Memo[tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]] = Memo()
_SQUARES: Memo[tuple[tuple[int, int, int], ...]] = Memo()
_PRIMERS: Memo[tuple[tuple[int, int, int], ...]] = Memo()
_BLENDS: Memo[tuple[tuple[int, int, str, str, int, int], ...]] = Memo()
_DISCARD: Memo[tuple[tuple[str, str], ...]] = Memo()
_SCORES: Memo[list[dict[str, int]]] = Memo()


def _texts(s: State) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """Per tile id (index t): its name, its face text and its pips; fixed for a game."""

    def make() -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
        names = ("", *(f"t{i + 1}" for i in range(len(s.faces))))
        faces = ("", *(face_text(f) for f in s.faces))
        counts = (0, *(len(set(f)) for f in s.faces))
        return names, faces, counts

    return _TEXTS.get((s.faces,), make)


def _pips(size: tuple[int, ...], tiles: tuple[int, ...]) -> list[int]:
    counts = [0, 0, 0, 0]
    for t in tiles:
        counts[size[t]] += 1
    return counts[1:]


def _reading(e: tuple[tuple[int, int], object]) -> tuple[int, int]:
    return (e[0][1], e[0][0])


def view(s: State, seat: int | None, full: bool) -> dict[str, JSON]:
    n = s.rules.players
    primers = s.stacks if s.rules.land == "territories" else None  # primers score there (BE15)
    keys = (s.squares, s.blends, s.guardians, s.rules, s.faces, primers)
    scores = _SCORES.get(keys, lambda: breakdown(s))
    names, texts, size = _texts(s)

    def _tile(t: int) -> list[JSON]:
        return [names[t], texts[t]]

    raised = [0] * n
    for g in s.guardians:
        raised[g.owner] += 1
    players = []
    for p in range(n):
        hidden = (*s.hands[p], *(s.picked if p == s.seat and s.phase == "pick" else ()))
        entry: dict[str, JSON] = {
            "seat": p,
            "class": CLASS_NAME[p % 3],
            "home": LAND_LETTER[CLASS_HOME[p % 3]],
            "hero": list(s.heroes[p]),
            "walk": s.walks[p],
            "hand_pips": _pips(size, hidden),
            "hand_size": len(hidden),
            "guardians_left": s.rules.guardians_per_player - raised[p],
            "score_now": scores[p]["total"],
            "score_parts": [scores[p]["land"], scores[p]["blends"]],
        }
        if full:
            entry["hand"] = [_tile(t) for t in s.hands[p]]
        players.append(entry)
    out: dict[str, JSON] = {
        "game": "blending",
        "seat": seat,
        "phase": s.phase,
        "to_act": None if s.phase == "over" else s.seat,
        "round": s.round,
        "rounds": rounds_shown(s),
        "hand_limit": s.rules.hand_limit,
        "native_speed": s.rules.native_speed,
        "triple_match": s.rules.triple_match,
        "players": players,
        "squares": _SQUARES.get(
            (s.squares,),
            lambda: tuple((p[0], p[1], v) for p, v in sorted(s.squares.items(), key=_reading)),
        ),
        "primers": _PRIMERS.get(
            (s.stacks,),
            lambda: tuple(
                (p[0], p[1], len(v) - 1)
                for p, v in sorted((p, v) for p, v in s.stacks.items() if len(v) > 1)
            ),
        ),
        "blends": _BLENDS.get(
            (s.blends, s.faces),
            lambda: tuple(
                (p[0], p[1], names[t], texts[t], rot, by)
                for p, (t, rot, by) in sorted(s.blends.items(), key=_reading)
            ),
        ),
        "guardians": [
            {
                "id": f"G{g.gid}",
                "owner": g.owner,
                "at": [g.x, g.y],
                "land": LAND_LETTER[g.land],
                "pile": [[names[t], texts[t], base] for t, base in g.pile],
            }
            for g in s.guardians
        ],
        "discard": _DISCARD.get(
            (s.discard, s.faces), lambda: tuple((names[t], texts[t]) for t in s.discard)
        ),
        "stock": len(s.stock),
        "stats": {
            "fights": s.stats.fights,
            "kills": s.stats.kills,
            "bolsters": s.stats.bolsters,
            "reshuffles": s.stats.reshuffles,
        },
        "log": list(s.log),
        "ended": s.ended,
    }
    era_view(s, seat, full, out)
    if s.phase != "over":
        out["turn"] = {
            "moves_left": s.moves_left,
            "placed": s.placed,
            "placement_mode": s.mode,
            "main": s.main,
        }
    if s.fight is not None:
        f = s.fight
        g = next(x for x in s.guardians if x.gid == f.gid)
        out["fight"] = {
            "guardian": f"G{f.gid}",
            "row": [
                [
                    f"t{t}",
                    texts[t],
                    "beaten" if t in f.beaten else "taken" if t in f.taken else "live",
                ]
                for t in f.row
            ],
            "laid": [[pos + 1, f"t{t}", KIND_NAME[k]] for pos, t, k in sorted(f.laid)],
            "flipped": [p + 1 for p in f.flipped],
            "set_aside": [f"t{t}" for t in f.beaten],
            "taken": [f"t{t}" for t in f.taken],
            "pass": f.passes,
            "max_passes": s.rules.max_passes,
            "results": list(f.results[-12:]),
            "pile_size": len(g.pile),
        }
    if s.last_fight and s.last_fight[-1] in s.log:
        out["last_fight"] = list(s.last_fight)
    if s.phase == "pick":
        out["pick"] = {"for": s.pick_for, "at": list(s.pick_at), "count": len(s.picked)}
    if seat is not None:
        out["hand"] = [_tile(t) for t in s.hands[seat]]
        if s.phase == "pick" and s.seat == seat:
            edit(out["pick"])["picked"] = [_tile(t) for t in s.picked]
    return out


# ---- text ----------------------------------------------------------------------------------


CELL = 6


def _grid(v: Mapping[str, JSON]) -> list[str]:
    squares = {(x, y): land for x, y, land in map(ints, arr(v["squares"]))}
    heroes: dict[tuple[int, int], list[int]] = {}
    for p in objs(v["players"]):
        hero = ints(p["hero"])
        heroes.setdefault((hero[0], hero[1]), []).append(num(p["seat"]))
    guards = {tuple(ints(g["at"])): g["owner"] for g in objs(v["guardians"])}
    blends = {(num(b[0]), num(b[1])): len(set(text(b[3]))) for b in map(arr, arr(v["blends"]))}
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


def _tiles(pairs: JSON) -> str:
    return " ".join(f"{t}:{f}" for t, f in map(arr, arr(pairs)))


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
                f"{b[2]}:{b[3]} r{b[4]} at {b[0]},{b[1]} (seat {b[5]})"
                for b in map(arr, arr(v["blends"]))
            )
        )
    if v["primers"]:
        out.append(
            "Primers: " + ", ".join(f"{x},{y} x{k}" for x, y, k in map(arr, arr(v["primers"])))
        )
    out += ["", "Guardians (piles face up, top first; * a bolster tile):"]
    if not v["guardians"]:
        out.append("  none yet")
    for g in objs(v["guardians"]):
        pile = era_pile(g) or " ".join(
            f"{t}:{face}{'' if base else '*'}" for t, face, base in map(arr, arr(g["pile"]))
        )
        land = LAND_NAME["MFP".index(text(g["land"]))]
        x, y = arr(g["at"])
        out.append(f"  {g['id']} seat {g['owner']} {land} at {x},{y}: {pile}")
    out += ["", f"Players (score if the game ended now = {score_words(v)}):"]
    for p in objs(v["players"]):
        you = " (you)" if p["seat"] == seat else ""
        one, two, three = arr(p["hand_pips"])
        hero, parts = arr(p["hero"]), arr(p["score_parts"])
        out.append(
            f"  seat {p['seat']}{you}: {p['class']} (home {p['home']}) at "
            f"{hero[0]},{hero[1]}; hand {p['hand_size']} ({one} single, {two} double,"
            f" {three} triple); guardians left {p['guardians_left']}; score {p['score_now']}"
            f" ({parts[0]} + {parts[1]})"
        )
        if "hand" in p:
            out.append("    hand: " + _tiles(p["hand"]))
    if "hand" in v:
        out += [
            "",
            "Your hand (corners clockwise from top-left): " + (_tiles(v["hand"]) or "empty"),
        ]
    discard = arr(v["discard"])
    out.append(
        f"Stock: {v['stock']} tiles. Discard pile: {len(discard)} tiles"
        + (" (last: " + _tiles(discard[-12:]) + ")" if discard else "")
        + "."
    )
    out += era_lines(v)
    if "turn" in v and v["phase"] != "walk":
        t = obj(v["turn"])
        out.append(
            f"This turn: moves left {t['moves_left']}/{v['native_speed']} of a step; placed "
            f"{t['placed']} ({t['placement_mode'] or 'none yet'}); main action: "
            f"{t['main'] or 'not taken'}."
        )
    if "fight" in v:
        f = obj(v["fight"])
        out += [
            "",
            f"Fight against {f['guardian']}, pass {f['pass']} of at most {f['max_passes']}:",
        ]
        for i, (tile, face, state) in enumerate(map(arr, arr(f["row"])), start=1):
            laid = next((f"{lt} as {k}" for p, lt, k in map(arr, arr(f["laid"])) if p == i), "-")
            flipped = " (flipped)" if i in arr(f["flipped"]) else ""
            out.append(f"  {i}. {tile}:{face} [{state}] vs {laid}{flipped}")
        if f["set_aside"] or f["taken"]:
            aside = " ".join(texts(f["set_aside"])) or "-"
            out.append(f"  set aside: {aside}; taken: {' '.join(texts(f['taken'])) or '-'}")
        out += ["  " + line for line in texts(f["results"])]
        out.append(
            "  Lay entries in legal_moves show each lay's win / tie / loss odds; "
            f"stop is a {PASS_TEXT}."
        )
    if "pick" in v:
        p = obj(v["pick"])
        picked = _tiles(p.get("picked", []))
        out.append(f"Picking tiles for {p['for']}: {p['count']} picked {picked}".rstrip())
    if v.get("last_fight"):
        out += ["", "Last fight:"] + ["  " + line for line in texts(v["last_fight"])]
    if v["log"]:
        out += ["", "Recent events:"] + ["  " + line for line in texts(v["log"])[-8:]]
    return "\n".join(out)


def near_rival_guardians(v: Mapping[str, JSON], seat: int) -> list[Mapping[str, JSON]]:
    hero = ints(at(v, "players", seat, "hero"))
    return [
        g
        for g in objs(v["guardians"])
        if g["owner"] != seat
        and cheb((num(at(g, "at", 0)), num(at(g, "at", 1))), (hero[0], hero[1])) <= 1
    ]
