"""The fixed room: walls, vats, vents, spill rings, homes, and cached BFS distance fields.

Cells are flat indices `y * WIDTH + x`. Distance fields are tuples indexed by cell and cached at
module level, keyed by the layout and the target cells, because the walls never change between
games: recomputing them inside a game would dominate the cost of a tick.
"""

from __future__ import annotations

from collections import deque

WIDTH = 32
HEIGHT = 18
CELLS = WIDTH * HEIGHT
FAR = 1_000_000
"""Distance of a cell no target can reach (walls, or an empty target set)."""

SPECIES = ("resin", "spark", "brine", "glitter", "quartz")
FEEDSTOCKS = 3
"""Species 0..2 are feedstocks; 3..4 are the inert distractors."""
VENT_CELLS = ((4, 3), (28, 3), (16, 15), (9, 3), (23, 3))

VATS = ("amber", "beryl", "cobalt")
VAT_CENTRES = ((16, 4), (23, 11), (9, 11))
VAT_TAKES = ((0, 1), (1, 2), (0, 2))

ALIASES = ("Argon", "Borax", "Cinder", "Dram", "Ember", "Flint", "Gilt", "Hob")
HOME_CELLS = ((2, 2), (2, 4), (2, 6), (2, 8), (29, 2), (29, 4), (29, 6), (29, 8))

PILLARS = ((13, 8), (14, 8), (13, 9), (14, 9), (18, 8), (19, 8), (18, 9), (19, 9))

# Action codes shared by the kernel, the tick and the raw per-tick moves.
WAIT, MOVE_N, MOVE_E, MOVE_S, MOVE_W, TAKE, DROP = range(7)
DELTAS = (0, -WIDTH, 1, WIDTH, -1, 0, 0)


def cell(x: int, y: int) -> int:
    return y * WIDTH + x


def xy(c: int) -> tuple[int, int]:
    return c % WIDTH, c // WIDTH


def _walls() -> tuple[bool, ...]:
    walls = [False] * CELLS
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if x in (0, WIDTH - 1) or y in (0, HEIGHT - 1):
                walls[cell(x, y)] = True
    for x, y in PILLARS:
        walls[cell(x, y)] = True
    return tuple(walls)


WALL = _walls()
LAYOUT = "fixed-32x18"
"""Key of the one layout; distance caches are keyed by it so another layout could coexist."""


def _neighbours() -> tuple[tuple[tuple[int, int], ...], ...]:
    out: list[tuple[tuple[int, int], ...]] = []
    for c in range(CELLS):
        if WALL[c]:
            out.append(())
            continue
        row = []
        for code in (MOVE_N, MOVE_E, MOVE_S, MOVE_W):
            n = c + DELTAS[code]
            if not WALL[n]:
                row.append((code, n))
        out.append(tuple(row))
    return tuple(out)


NEIGH = _neighbours()
"""Floor neighbours of each cell in N, E, S, W order, as (move code, cell)."""

HOMES = tuple(cell(x, y) for x, y in HOME_CELLS)
VENTS = tuple(cell(x, y) for x, y in VENT_CELLS)
CENTRES = tuple(cell(x, y) for x, y in VAT_CENTRES)
PADS = tuple(
    tuple(cell(cx + dx, cy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    for cx, cy in VAT_CENTRES
)


def _ring(cx: int, cy: int) -> tuple[int, ...]:
    cells = []
    for y in range(cy - 2, cy + 3):
        for x in range(cx - 2, cx + 3):
            if max(abs(x - cx), abs(y - cy)) != 2 or (abs(x - cx) == 2 and abs(y - cy) == 2):
                continue
            if 0 <= x < WIDTH and 0 <= y < HEIGHT and not WALL[cell(x, y)]:
                cells.append(cell(x, y))
    return tuple(cells)


RINGS = tuple(_ring(cx, cy) for cx, cy in VAT_CENTRES)


def pad_map(present: tuple[int, ...]) -> tuple[int, ...]:
    """Per cell: the vat whose pad it is (only present vats have pads), else -1."""
    return _PAD_MAPS.setdefault(present, _make_pad_map(present))


def _make_pad_map(present: tuple[int, ...]) -> tuple[int, ...]:
    out = [-1] * CELLS
    for v in present:
        for c in PADS[v]:
            out[c] = v
    return tuple(out)


_PAD_MAPS: dict[tuple[int, ...], tuple[int, ...]] = {}


def vent_targets(vent: int, pads: tuple[int, ...]) -> tuple[int, ...]:
    """Where a vent may emit, in N, E, S, W order: floor that is not a pad."""
    return tuple(n for _, n in NEIGH[vent] if pads[n] < 0)


# ---- distance fields --------------------------------------------------------------------------

_FIELDS: dict[tuple[str, tuple[int, ...]], tuple[int, ...]] = {}
_FIELD_LIMIT = 4096


def _bfs(sources: tuple[int, ...]) -> tuple[int, ...]:
    dist = [FAR] * CELLS
    queue: deque[int] = deque()
    for s in sources:
        if not WALL[s] and dist[s] != 0:
            dist[s] = 0
            queue.append(s)
    while queue:
        c = queue.popleft()
        d = dist[c] + 1
        for _, n in NEIGH[c]:
            if dist[n] > d:
                dist[n] = d
                queue.append(n)
    return tuple(dist)


def field(sources: tuple[int, ...]) -> tuple[int, ...]:
    """Multi-source BFS distance over floor to the nearest of `sources` (a sorted tuple)."""
    key = (LAYOUT, sources)
    found = _FIELDS.get(key)
    if found is None:
        if len(_FIELDS) >= _FIELD_LIMIT:
            _FIELDS.clear()
        found = _bfs(sources)
        _FIELDS[key] = found
    return found


_SINGLE: list[tuple[int, ...] | None] = [None] * CELLS


def single(c: int) -> tuple[int, ...]:
    """Distance field from one cell (a plain list lookup: the kernel calls it most)."""
    found = _SINGLE[c]
    if found is None:
        found = _SINGLE[c] = _bfs((c,))
    return found


def manhattan(a: int, b: int) -> int:
    return abs(a % WIDTH - b % WIDTH) + abs(a // WIDTH - b // WIDTH)


_RING_ORDER: dict[tuple[int, int], tuple[int, ...]] = {}


def ring_order(vat: int, anchor: int) -> tuple[int, ...]:
    """The vat's ring cells by Manhattan distance to `anchor`, ties by (row, col)."""
    key = (vat, anchor)
    found = _RING_ORDER.get(key)
    if found is None:
        found = tuple(
            sorted(RINGS[vat], key=lambda c: (manhattan(c, anchor), c // WIDTH, c % WIDTH))
        )
        _RING_ORDER[key] = found
    return found
