"""End-of-game scoring under estates (blending.md §7, DECISIONS B33-B35)."""

from __future__ import annotations

from .board import blend_touches
from .eras import territory_breakdown
from .state import State
from .tiles import pips


def breakdown(s: State) -> list[dict[str, int]]:
    """Per seat: estate squares, blend points and the total, as if the game ended now."""
    if s.rules.land == "territories":
        return territory_breakdown(s)
    n = s.rules.players
    land_pts = [0] * n
    blends_for: list[set[tuple[int, int]]] = [set() for _ in range(n)]
    personal = s.rules.estate_blends == "personal"
    for g in s.guardians:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if s.squares.get((g.x + dx, g.y + dy)) == g.land:
                    land_pts[g.owner] += 1
        center = (g.x, g.y)
        for tl, (_tile, _rot, placer) in s.blends.items():
            if personal and placer != g.owner:
                continue
            if blend_touches(tl, center):
                blends_for[g.owner].add(tl)
    out = []
    for seat in range(n):
        blend_pts = 0
        for tl in blends_for[seat]:
            size = pips(s.faces[s.blends[tl][0] - 1])
            blend_pts += s.rules.double_points if size == 2 else s.rules.triple_points
        out.append(
            {"land": land_pts[seat], "blends": blend_pts, "total": land_pts[seat] + blend_pts}
        )
    return out


def totals(s: State) -> tuple[int, ...]:
    return tuple(b["total"] for b in breakdown(s))
