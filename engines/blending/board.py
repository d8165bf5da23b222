"""Map geometry: adjacency, nearness, which spots take which tiles (DECISIONS B1-B7, B25)."""

from __future__ import annotations

from collections.abc import Iterable

from .state import Guardian, Pos
from .tiles import START, Face

ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))
KING = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def cheb(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def block(tl: Pos) -> tuple[Pos, Pos, Pos, Pos]:
    """The 4 squares under a blend keyed by its top-left square, clockwise from the top-left."""
    x, y = tl
    return ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))


def spot_pattern(squares: dict[Pos, int], tl: Pos) -> Face | None:
    """The 4 dots under a blend spot, or None if any square is blank or the start square."""
    x, y = tl
    a = squares.get((x, y), -1)
    b = squares.get((x + 1, y), -1)
    c = squares.get((x + 1, y + 1), -1)
    d = squares.get((x, y + 1), -1)
    if a < 0 or b < 0 or c < 0 or d < 0 or START in (a, b, c, d):
        return None
    return (a, b, c, d)


def covered(blends: dict[Pos, tuple[int, int, int]], pos: Pos) -> bool:
    """True when a blend lies over part of the square."""
    x, y = pos
    return (
        (x - 1, y - 1) in blends or (x, y - 1) in blends or (x - 1, y) in blends or (x, y) in blends
    )


def single_ok(
    squares: dict[Pos, int], blends: dict[Pos, tuple[int, int, int]], pos: Pos, land: int
) -> str:
    """'' if a single of `land` may go on `pos`, else why not (B2, B3)."""
    here = squares.get(pos)
    if here is None:
        x, y = pos
        for dx, dy in ORTHO:
            if (x + dx, y + dy) in squares:
                return ""
        return "a single must share an edge with a placed square"
    if here == START:
        return "the start square takes no tile"
    if here != land:
        return "a primer must go on a single of the same land"
    if covered(blends, pos):
        return "nothing goes on top of a double or triple"
    return ""


def frontier(squares: dict[Pos, int]) -> set[Pos]:
    """Blank squares sharing an edge with a placed one."""
    out: set[Pos] = set()
    for x, y in squares:
        for dx, dy in ORTHO:
            p = (x + dx, y + dy)
            if p not in squares:
                out.add(p)
    return out


def blend_spots(squares: dict[Pos, int], blends: dict[Pos, tuple[int, int, int]]) -> list[Pos]:
    """Top-left squares of every free 2x2 block of four land squares."""
    seen: set[Pos] = set()
    out: list[Pos] = []
    for x, y in squares:
        for tl in ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)):
            if tl in seen:
                continue
            seen.add(tl)
            if tl not in blends and spot_pattern(squares, tl) is not None:
                out.append(tl)
    return out


def single_near(hero: Pos, pos: Pos) -> bool:
    return cheb(hero, pos) <= 1


def blend_near(hero: Pos, tl: Pos) -> bool:
    """All 4 covered squares in the hero's 3x3: the blend sits on a corner of the hero's square."""
    return tl[0] in (hero[0] - 1, hero[0]) and tl[1] in (hero[1] - 1, hero[1])


def land_in_box(squares: dict[Pos, int], center: Pos, land: int) -> int:
    x, y = center
    return sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if squares.get((x + dx, y + dy)) == land)


def guardian_site_problem(
    squares: dict[Pos, int], guardians: Iterable[Guardian], at: Pos, spacing: int, min_land: int
) -> str:
    """'' if a guardian may be raised on `at` (B25), else why not."""
    land = squares.get(at)
    if land is None or land == START:
        return "your hero must stand on a land square"
    for g in guardians:
        if cheb((g.x, g.y), at) <= spacing:
            return f"guardian G{g.gid} is within {spacing} squares"
    have = land_in_box(squares, at, land)
    if have < min_land:
        return f"the 3x3 holds {have} squares of that land, {min_land} needed"
    return ""


def blend_touches(tl: Pos, center: Pos) -> bool:
    """A blend touches an estate if one of its 4 squares lies in the estate's 3x3 (B33)."""
    return center[0] - 2 <= tl[0] <= center[0] + 1 and center[1] - 2 <= tl[1] <= center[1] + 1
