"""Territories (blending.md §3.3 #5, §3.4b, §7; `land: "territories"`; BE14-BE18).

A territory is a patch of squares of one land connected up, down, left or right (BE14). A guardian
claims an unclaimed patch of at least `territory_min` squares from its hero's square; the patch
grows as squares of its land are painted next to it, and patches of one land that come to touch
become one territory with every guardian on them (Carcassonne). At the end each territory with a
living guardian is worth its tiles (1 per single, primers included; 2 per double and 3 per triple
lying on it, in full for each territory they lie on), plus `guarded_per_tile` per tile; the player
with most living guardians on it takes it all, a tie splitting it (rounded down) or paying each.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...protocol import JSON
from ..board import ORTHO, block
from ..memo import Memo
from ..state import Pos, State
from ..tiles import START, pips

Patch = frozenset[Pos]

_PATCHES: Memo[tuple[dict[Pos, Patch], tuple[Patch, ...]]] = Memo()


def patches(squares: dict[Pos, int]) -> tuple[dict[Pos, Patch], tuple[Patch, ...]]:
    """Every same-land patch of the map (orthogonal connection), and the patch of each square;
    remembered while the map is the same object (states share it until a tile is placed)."""

    def make() -> tuple[dict[Pos, Patch], tuple[Patch, ...]]:
        of: dict[Pos, Patch] = {}
        found: list[Patch] = []
        for start, land in sorted(squares.items()):
            if start in of or land == START:
                continue
            seen, todo = {start}, [start]
            while todo:
                x, y = todo.pop()
                for dx, dy in ORTHO:
                    p = (x + dx, y + dy)
                    if p not in seen and squares.get(p) == land:
                        seen.add(p)
                        todo.append(p)
            patch = frozenset(seen)
            found.append(patch)
            for p in patch:
                of[p] = patch
        return of, tuple(found)

    return _PATCHES.get((squares,), make)


def territory_of(s: State, pos: Pos) -> Patch:
    return patches(s.squares)[0].get(pos, frozenset())


def site_problem(s: State) -> str:
    """'' if the seat may claim the patch under its hero now (§3.3 #5), else why not."""
    at = s.heroes[s.seat]
    land = s.squares.get(at)
    if land is None or land == START:
        return "your hero must stand on a land square"
    patch = territory_of(s, at)
    if len(patch) < s.rules.territory_min:
        return f"the patch holds {len(patch)} squares, {s.rules.territory_min} needed"
    held = [g for g in s.guardians if (g.x, g.y) in patch]
    if held:
        return f"that territory already has a guardian (G{held[0].gid})"
    return ""


def claimed(s: State) -> list[tuple[Patch, dict[int, int], list[int]]]:
    """Each territory with a living guardian: its squares, guardians per owner, and gids."""
    of = patches(s.squares)[0]
    found: dict[Patch, tuple[dict[int, int], list[int]]] = {}
    for g in s.guardians:
        patch = of.get((g.x, g.y))
        if patch is None:
            continue
        owners, gids = found.setdefault(patch, ({}, []))
        owners[g.owner] = owners.get(g.owner, 0) + 1
        gids.append(g.gid)
    return [(p, owners, gids) for p, (owners, gids) in found.items()]


def worth(s: State, patch: Patch) -> tuple[int, int]:
    """(tile points, blend points) of a territory, the guarded bonus in the first (§7)."""
    singles = sum(len(s.stacks.get(p, ())) for p in patch)
    blend_pts = 0
    tiles = singles
    for tl, (tile, _rot, _by) in s.blends.items():
        if any(q in patch for q in block(tl)):
            size = pips(s.faces[tile - 1])
            blend_pts += s.rules.double_points if size == 2 else s.rules.triple_points
            tiles += 1
    return singles + s.rules.guarded_per_tile * tiles, blend_pts


def holders(s: State, owners: dict[int, int]) -> list[int]:
    top = max(owners.values())
    return sorted(o for o, n in owners.items() if n == top)


def breakdown(s: State) -> list[dict[str, int]]:
    """Per seat: territory tile points, blend points and the total (§7, BE16)."""
    n = s.rules.players
    land, blends = [0] * n, [0] * n
    for patch, owners, _ in claimed(s):
        tiles, blend_pts = worth(s, patch)
        who = holders(s, owners)
        k = len(who) if s.rules.guardians_tie == "split" else 1
        share_total, share_blends = (tiles + blend_pts) // k, blend_pts // k
        for seat in who:
            land[seat] += share_total - share_blends
            blends[seat] += share_blends
    return [{"land": a, "blends": b, "total": a + b} for a, b in zip(land, blends, strict=True)]


def merge_squares(s: State, land: int) -> set[Pos]:
    """Blank squares where a single of `land` would join two or more claimed territories of that
    land (BE17: only such a merge pays `merge_tax`)."""
    of = patches(s.squares)[0]
    guarded = {of[(g.x, g.y)] for g in s.guardians if (g.x, g.y) in of}
    out: set[Pos] = set()
    for patch in guarded:
        if s.squares[next(iter(patch))] != land:
            continue
        for x, y in patch:
            for dx, dy in ORTHO:
                p = (x + dx, y + dy)
                if p in s.squares or p in out:
                    continue
                near = {of[q] for q in _around(p) if q in of and of[q] in guarded}
                if sum(1 for q in near if s.squares[next(iter(q))] == land) >= 2:
                    out.add(p)
    return out


def _around(p: Pos) -> Iterable[Pos]:
    x, y = p
    return ((x + dx, y + dy) for dx, dy in ORTHO)


def view(s: State) -> list[dict[str, JSON]]:
    """The claimed territories as a view lists them (all public)."""
    out: list[dict[str, JSON]] = []
    for patch, owners, gids in sorted(claimed(s), key=lambda e: min(e[2])):
        tiles, blend_pts = worth(s, patch)
        out.append(
            {
                "land": "MFP"[s.squares[next(iter(patch))]],
                "squares": len(patch),
                "points": tiles + blend_pts,
                "guardians": [f"G{g}" for g in sorted(gids)],
                "holders": holders(s, owners),
            }
        )
    return out
