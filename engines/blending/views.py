"""Observations and spectator views (DECISIONS B20; their text is in `render.py`).

The map, blends, primers and discard pile are tuples (JSON arrays once serialised) shared between
views while they are unchanged, which keeps a view cheap to build; views are read-only values.

A seat sees its own hand in full, rivals' hands as counts by pips, every guardian pile and the
discard pile face up, and the stock as a count. `last_fight`
(the flips, loss discards and end of the last fight that ended) is shown while its last line is
still among the recent events.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..jsonread import at, edit, ints, num, objs
from ..protocol import JSON
from .board import cheb
from .eras import rounds_shown
from .eras.dispatch import era_view
from .estates import estate
from .memo import Memo
from .scoring import breakdown
from .state import State
from .tiles import CLASS_HOME, CLASS_NAME, KIND_NAME, LAND_LETTER, face_text

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
        "near_count": s.rules.near_count,
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
        "guardians": _guardians(s, names, texts),
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


def near_rival_guardians(v: Mapping[str, JSON], seat: int) -> list[Mapping[str, JSON]]:
    hero = ints(at(v, "players", seat, "hero"))
    return [
        g
        for g in objs(v["guardians"])
        if g["owner"] != seat
        and cheb((num(at(g, "at", 0)), num(at(g, "at", 1))), (hero[0], hero[1])) <= 1
    ]


def _guardians(s: State, names: tuple[str, ...], texts: tuple[str, ...]) -> list[JSON]:
    estates = s.rules.land == "estates"  # territories score patches, not 3x3 estates
    personal = s.rules.estate_blends == "personal"
    out: list[JSON] = []
    for g in s.guardians:
        entry: dict[str, JSON] = {
            "id": f"G{g.gid}",
            "owner": g.owner,
            "at": [g.x, g.y],
            "land": LAND_LETTER[g.land],
            "pile": [[names[t], texts[t], base] for t, base in g.pile],
        }
        if estates:
            entry["estate"] = estate(g, s.squares, s.blends, personal)
        out.append(entry)
    return out
