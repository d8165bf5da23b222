"""The numbered menu of what the seat to act may do now, in a fixed order.

Placements list one tile per face (the lowest id of identical tiles in the hand); any tile of the
same face may be named instead, with the same effect.
"""

from __future__ import annotations

from collections.abc import Callable

from ..protocol import MoveInfo
from .board import blend_near, cheb, single_ok
from .match import fight_problem, next_pair
from .memo import Memo
from .odds import flip_text, lay_odds, odds_text, stop_text
from .rules import guardian_problem, placement_mode, step_options, walk_choices
from .spots import Singles, spots_for
from .state import Pos, State
from .tiles import KIND_NAME, LAND_NAME, Face, describe, face_text, fits

_INFO: dict[tuple[object, ...], MoveInfo] = {}
"""Menu entries are immutable and recur from decision to decision; building them is most of a
menu's cost, so they are memoised (a pure cache: it never changes what the menu says)."""
_SINGLES: dict[tuple[int, int, Pos, bool, bool], MoveInfo] = {}


def _info(key: tuple[object, ...], make: Callable[[], MoveInfo]) -> MoveInfo:
    got = _INFO.get(key)
    if got is None:
        if len(_INFO) > 200_000:
            _INFO.clear()
        got = _INFO[key] = make()
    return got


def _single_spots(squares: dict[Pos, int], blends: dict[Pos, tuple[int, int, int]]) -> Singles:
    return spots_for(squares, blends).singles


def _all_blend_spots(
    squares: dict[Pos, int], blends: dict[Pos, tuple[int, int, int]]
) -> list[tuple[Pos, Face]]:
    return spots_for(squares, blends).blend_spots


def _single_info(tile: int, land: int, p: Pos, primer: bool, where: str) -> MoveInfo:
    # The notation names the tile and the square already: the description adds what it is.
    return MoveInfo(
        f"place t{tile} {p[0]},{p[1]}",
        f"{LAND_NAME[land]} single{', a primer' if primer else ''}, {where}",
        "placement",
    )


def _blend_info(tile: int, face: Face, tl: Pos, rot: int, where: str) -> MoveInfo:
    def make() -> MoveInfo:
        return MoveInfo(
            f"place t{tile} {tl[0]},{tl[1]} r{rot}",
            f"{describe(face)} over {tl[0]},{tl[1]}..{tl[0] + 1},{tl[1] + 1}, {where}",
            "placement",
        )

    return _info(("b", tile, face, tl, rot, where), make)


_FAR: Memo[dict[int, tuple[list[MoveInfo], dict[Pos, int], list[bool]]]] = Memo()


def _far_singles(
    squares: dict[Pos, int], blends: dict[Pos, tuple[int, int, int]], tile: int, land: int
) -> tuple[list[MoveInfo], dict[Pos, int], list[bool]]:
    """Every placement of a single as if none were near the hero, with each square's index
    and primer flag, so the caller only swaps in the few near ones."""
    table = _FAR.get((squares, blends), dict)
    got = table.get(tile)
    if got is None:
        spots = _single_spots(squares, blends)[land]
        cache = _SINGLES
        infos = []
        for p, primer in spots:
            key = (tile, land, p, primer, False)
            info = cache.get(key)
            if info is None:
                info = cache[key] = _single_info(tile, land, p, primer, FAR)
            infos.append(info)
        index = {p: i for i, (p, _) in enumerate(spots)}
        got = table[tile] = (infos, index, [primer for _, primer in spots])
    return got


NEAR = "near your hero"
FAR = "anywhere (then your only placement)"


def placements(s: State) -> list[MoveInfo]:
    mode = placement_mode(s)
    if mode == "none":
        return []
    hero = s.heroes[s.seat]
    hx, hy = hero
    first: dict[Face, int] = {}
    for t in s.hands[s.seat]:
        first.setdefault(s.faces[t - 1], t)
    if not first:
        return []
    near_only = mode == "near"
    squares, blends = s.squares, s.blends
    blend_tls: list[tuple[Pos, Face]] | None = None
    out: list[MoveInfo] = []
    if len(_SINGLES) > 200_000:
        _SINGLES.clear()
    cache = _SINGLES
    for face, tile in first.items():
        if face[0] == face[1] == face[2] == face[3]:
            land = face[0]
            if not near_only:
                infos, index, flags = _far_singles(squares, blends, tile, land)
                mine = list(infos)
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        p = (hx + dx, hy + dy)
                        i = index.get(p)
                        if i is not None:
                            key = (tile, land, p, flags[i], True)
                            info = cache.get(key)
                            if info is None:
                                info = cache[key] = _single_info(tile, land, p, flags[i], NEAR)
                            mine[i] = info
                out.extend(mine)
                continue
            spots = [
                (p, p in squares)
                for p in ((hx + dx, hy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
                if not single_ok(squares, blends, p, land)
            ]
            for p, primer in spots:
                near = True
                key = (tile, land, p, primer, near)
                info = cache.get(key)
                if info is None:
                    info = cache[key] = _single_info(tile, land, p, primer, NEAR if near else FAR)
                out.append(info)
        else:
            if blend_tls is None:
                blend_tls = _all_blend_spots(squares, blends)
                if near_only:
                    blend_tls = [e for e in blend_tls if blend_near(hero, e[0])]
            pats = fits(face, s.rules.triple_match)
            for tl, spot in blend_tls:
                rot = pats.get(spot)
                if rot is None:
                    continue
                where = NEAR if near_only or blend_near(hero, tl) else FAR
                out.append(_blend_info(tile, face, tl, rot, where))
    return out


def turn_entries(s: State) -> list[MoveInfo]:
    seat = s.seat
    hand = s.hands[seat]
    speed = s.rules.native_speed
    out = []
    for p, c in step_options(s):
        key: tuple[object, ...] = ("move", p, c, speed)
        info = _INFO.get(key)
        if info is None:
            info = _INFO[key] = MoveInfo(
                f"move {p[0]},{p[1]}", f"step to {p[0]},{p[1]} (costs {c}/{speed})", "move"
            )
        out.append(info)
    out.extend(placements(s))
    if s.main in ("", "more"):
        for t in hand:
            face = s.faces[t - 1]
            key = ("more", t, face)
            info = _INFO.get(key)
            if info is None:
                info = _INFO[key] = MoveInfo(
                    f"more t{t}", f"pay t{t} ({describe(face)}) for one more move", "more"
                )
            out.append(info)
    if not s.main:
        hero = s.heroes[seat]
        close = [g for g in s.guardians if cheb((g.x, g.y), hero) <= 1]
        for g in close:
            if not fight_problem(s, g.gid):
                desc = f"fight G{g.gid} (seat {g.owner}, pile {_pile(s, g.pile)})"
                out.append(MoveInfo(f"fight G{g.gid}", desc, "fight"))
        for g in close:
            if len(g.pile) >= s.rules.pile_max:
                continue
            for t in hand:
                face = s.faces[t - 1]
                key = ("bolster", t, face, g.gid, g.owner)
                info = _INFO.get(key)
                if info is None:
                    info = _INFO[key] = MoveInfo(
                        f"bolster t{t} G{g.gid}",
                        f"put t{t} ({describe(face)}) under G{g.gid} (seat {g.owner})",
                        "bolster",
                    )
                out.append(info)
        if not guardian_problem(s):
            hx, hy = hero
            land = LAND_NAME[s.squares[(hx, hy)]]
            desc = f"raise a {land} guardian on {hx},{hy} (then pick {s.rules.guardian_pile} tiles)"
            out.append(MoveInfo("guardian", desc, "guardian"))
        if hand:
            out.append(MoveInfo("swap", "swap tiles: pick them, then done", "swap"))
    out.append(END)
    return out


END = MoveInfo("end", "end your turn (pass)", "end")


def _tile(s: State, t: int) -> str:
    return f"t{t} ({describe(s.faces[t - 1])})"


def _pile(s: State, pile: tuple[tuple[int, bool], ...]) -> str:
    return " ".join(f"t{t}:{face_text(s.faces[t - 1])}" for t, _ in pile)


PICK_PURPOSE = {
    "guardian": "for the new guardian's pile",
    "swap": "to swap",
    "rebuild": "for a guardian on the dead one's square",
}


def entries(s: State) -> list[MoveInfo]:
    """The menu of the seat to act, in a fixed order."""
    phase = s.phase
    if phase == "turn":
        return turn_entries(s)
    if phase == "walk":
        n = s.rules.walk_length
        return [
            MoveInfo(f"walk {d}", f"walk {n} squares {d} from the start square", "setup")
            for d in walk_choices(s)
        ]
    hand = s.hands[s.seat]
    if phase == "pick":
        purpose = PICK_PURPOSE[s.pick_for]
        out = [MoveInfo(f"pick t{t}", f"pick {_tile(s, t)} {purpose}", "pick") for t in hand]
        if s.pick_for == "swap" and s.picked:
            out.append(MoveInfo("done", f"swap the {len(s.picked)} picked tiles", "done"))
        if s.pick_for == "rebuild":
            out.append(MoveInfo("skip", "do not rebuild; leave the square unguarded", "skip"))
        return out
    if phase == "fight":
        f = s.fight
        assert f is not None
        out = []
        if not f.flipped:
            taken = {p for p, _, _ in f.laid}
            for t in hand:
                lands = sorted(set(s.faces[t - 1]))
                for pos in range(1, len(f.row) + 1):
                    if pos - 1 in taken:
                        continue
                    target_tile = f.row[pos - 1]
                    target = _tile(s, target_tile)
                    for k in lands:
                        odds = odds_text(lay_odds(s.faces[target_tile - 1], k))
                        out.append(
                            MoveInfo(
                                f"lay t{t}@{pos} {KIND_NAME[k]}",
                                f"lay t{t} as {KIND_NAME[k]} against {target}: {odds}",
                                "lay",
                            )
                        )
        pair = next_pair(f)
        if pair is not None:
            out.append(MoveInfo("flip", flip_text(s, f, pair), "flip"))
        out.append(MoveInfo("stop", stop_text(s, f), "stop"))
        return out
    if phase == "loss":
        return [
            MoveInfo(f"discard t{t}", f"discard {_tile(s, t)} (lost pair)", "discard") for t in hand
        ]
    if phase == "discard":
        over = len(hand) - s.rules.hand_limit
        return [
            MoveInfo(f"discard t{t}", f"discard {_tile(s, t)} ({over} over the limit)", "discard")
            for t in hand
        ]
    return []
