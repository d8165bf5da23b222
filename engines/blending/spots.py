"""Where tiles may go on a map, kept up to date move by move.

Every menu needs, per land, the squares a single of that land may go on, and every free blend
spot with the four lands under it. Rebuilding them scans the whole map, while a move adds at most
one square or one blend; so the last result is kept and, when the new map is the old one plus one
square (or plus one blend), updated locally. A pure cache: the result is always what a full scan
gives (tests/test_blending_rules.py checks the two agree over whole games).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .board import ORTHO, blend_spots, covered, frontier
from .state import Pos
from .tiles import START, Face

Blends = dict[Pos, tuple[int, int, int]]
Singles = tuple[list[tuple[Pos, bool]], ...]
"""Per land: (square, is_primer) in reading order."""
BlendSpots = list[tuple[Pos, Face]]


def _key(p: Pos) -> tuple[int, int]:
    return (p[1], p[0])


@dataclass
class Spots:
    squares: dict[Pos, int]
    blends: Blends
    singles: Singles
    blend_spots: BlendSpots


def full_scan(squares: dict[Pos, int], blends: Blends) -> Spots:
    singles: Singles = ([], [], [])
    for p in sorted(frontier(squares) | set(squares), key=_key):
        here = squares.get(p)
        if here is None:
            for spots in singles:
                spots.append((p, False))
        elif here != START and not covered(blends, p):
            singles[here].append((p, True))
    out: BlendSpots = []
    for tl in sorted(blend_spots(squares, blends), key=_key):
        out.append((tl, _pattern(squares, tl)))
    return Spots(squares, blends, singles, out)


def _pattern(squares: dict[Pos, int], tl: Pos) -> Face:
    x, y = tl
    return (squares[(x, y)], squares[(x + 1, y)], squares[(x + 1, y + 1)], squares[(x, y + 1)])


def _insert(items: list[tuple[Pos, bool]], entry: tuple[Pos, bool]) -> None:
    i = bisect_left(items, _key(entry[0]), key=lambda e: _key(e[0]))
    items.insert(i, entry)


def _remove(items: list[tuple[Pos, bool]], p: Pos) -> None:
    i = bisect_left(items, _key(p), key=lambda e: _key(e[0]))
    if i < len(items) and items[i][0] == p:
        del items[i]


def _added_square(old: dict[Pos, int], new: dict[Pos, int]) -> Pos | None:
    if len(new) != len(old) + 1:
        return None
    for p, v in old.items():
        if new.get(p) != v:
            return None
    for p in new:
        if p not in old:
            return p
    return None


def _added_blend(old: Blends, new: Blends) -> Pos | None:
    if len(new) != len(old) + 1:
        return None
    for p, v in old.items():
        if new.get(p) != v:
            return None
    for p in new:
        if p not in old:
            return p
    return None


def _with_square(last: Spots, squares: dict[Pos, int], q: Pos) -> Spots:
    land = squares[q]
    singles: Singles = (list(last.singles[0]), list(last.singles[1]), list(last.singles[2]))
    for spots in singles:
        _remove(spots, q)
    if land != START and not covered(last.blends, q):
        _insert(singles[land], (q, True))
    for dx, dy in ORTHO:
        n = (q[0] + dx, q[1] + dy)
        if n in squares:
            continue
        was_frontier = any((n[0] + ex, n[1] + ey) in last.squares for ex, ey in ORTHO)
        if not was_frontier:
            for spots in singles:
                _insert(spots, (n, False))
    blends = list(last.blend_spots)
    for tl in ((q[0] - 1, q[1] - 1), (q[0], q[1] - 1), (q[0] - 1, q[1]), (q[0], q[1])):
        if tl in last.blends:
            continue
        x, y = tl
        under = (
            squares.get((x, y)),
            squares.get((x + 1, y)),
            squares.get((x + 1, y + 1)),
            squares.get((x, y + 1)),
        )
        if None in under or START in under:
            continue
        i = bisect_left(blends, _key(tl), key=lambda e: _key(e[0]))
        blends.insert(i, (tl, _pattern(squares, tl)))
    return Spots(squares, last.blends, singles, blends)


def _with_blend(last: Spots, blends: Blends, tl: Pos) -> Spots:
    singles: Singles = (list(last.singles[0]), list(last.singles[1]), list(last.singles[2]))
    x, y = tl
    for p in ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)):
        land = last.squares[p]
        if land != START and not covered(last.blends, p):
            _remove(singles[land], p)
    spots = [e for e in last.blend_spots if e[0] != tl]
    return Spots(last.squares, blends, singles, spots)


_LAST: list[Spots] = []


def spots_for(squares: dict[Pos, int], blends: Blends) -> Spots:
    last = _LAST[0] if _LAST else None
    if last is not None and last.squares is squares and last.blends is blends:
        return last
    result = None
    if last is not None:
        if last.blends is blends or last.blends == blends:
            q = _added_square(last.squares, squares)
            if q is not None:
                result = _with_square(last, squares, q)
                result.blends = blends
        elif last.squares is squares or last.squares == squares:
            tl = _added_blend(last.blends, blends)
            if tl is not None:
                result = _with_blend(last, blends, tl)
                result.squares = squares
    if result is None:
        result = full_scan(squares, blends)
    _LAST[:] = [result]
    return result
