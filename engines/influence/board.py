"""The board: which hexes are cells, their caps, their neighbours and the starting values.

A board is built once per map and shared by every state of a game, so a transition only copies a
tuple of cell values indexed by the board's cell index. Cells are sorted by (row, col); that order
is the index order, the menu order and the order of the values in the state.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

Cell = tuple[int, int]

SMALL_CAP = 8
BIG_CAP = 12
DIRECTIONS: tuple[Cell, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))
"""The six neighbour vectors (influence.md §1.2)."""

MAX_COORD = 99
"""Coordinates are 0..99 so that every cell reads as plain digits in the move notation."""
MAX_CELLS = 1600
MAX_RHOMBUS = 40
DEFAULT_OFFSET = 1
WHITE_START = 5
BLACK_START = -7

_KEY = re.compile(r"^\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*$")


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def hex_distance(a: Cell, b: Cell) -> int:
    dr, dc = b[0] - a[0], b[1] - a[1]
    return max(abs(dr), abs(dc), abs(dr - dc))


@dataclass(frozen=True, eq=False)
class Board:
    cells: tuple[Cell, ...]
    index: Mapping[Cell, int]
    caps: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    init: tuple[int, ...]
    big: tuple[Cell, ...]
    walls: tuple[Cell, ...]
    """Non-cell hexes inside the board's bounding rows and columns (holes drawn as walls)."""
    map_id: str
    """A short name of the map ("rhombus:11" or "custom:<sha256 prefix>") for caches and views."""
    labels: tuple[str, ...]
    """Each cell as "row,col", the form the notation uses."""
    origin: Cell
    """(first row, first column) of the bounding box, which views draw as a grid."""
    layout: tuple[tuple[int, ...], ...]
    """Per box row, per box column: the cell's index, or −1 for a wall."""
    dense: bool
    """No walls inside the box: box row k is the index slice [k·width, (k+1)·width)."""

    def cap(self, cell: Cell) -> int:
        return self.caps[self.index[cell]]


class MapError(ValueError):
    """A custom map was rejected; the message names the bad entry."""


def _coord(value: object, where: str) -> Cell:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise MapError(f"{where}: {value!r} is not a [row, col] pair of integers")
    cell = (int(value[0]), int(value[1]))
    if not (0 <= cell[0] <= MAX_COORD and 0 <= cell[1] <= MAX_COORD):
        raise MapError(f"{where}: cell {cell_text(cell)} is outside rows/cols 0..{MAX_COORD}")
    return cell


def _rhombus(text: str) -> list[Cell]:
    match = re.fullmatch(r"\s*rhombus\s*:\s*(\d+)\s*", text)
    if not match:
        raise MapError(f'cells: {text!r} is neither a list of [row, col] pairs nor "rhombus:N"')
    n = int(match.group(1))
    if not 2 <= n <= MAX_RHOMBUS:
        raise MapError(f"cells: rhombus size {n} is outside 2..{MAX_RHOMBUS}")
    return [(r, c) for r in range(n) for c in range(n)]


def _parse_cells(raw: object) -> list[Cell]:
    if isinstance(raw, str):
        return _rhombus(raw)
    if not isinstance(raw, (list, tuple)):
        raise MapError('cells: expected a list of [row, col] pairs or "rhombus:N"')
    cells: list[Cell] = []
    seen: set[Cell] = set()
    for i, item in enumerate(raw):
        cell = _coord(item, f"cells[{i}]")
        if cell in seen:
            raise MapError(f"cells[{i}]: cell {cell_text(cell)} is listed twice")
        seen.add(cell)
        cells.append(cell)
    if len(cells) > MAX_CELLS:
        raise MapError(f"cells: {len(cells)} cells is more than the limit of {MAX_CELLS}")
    if len(cells) < 2:
        raise MapError("cells: a board needs at least 2 cells")
    return cells


def parse_map(spec: Mapping[str, object]) -> Board:
    """Builds a board from the JSON map format of DECISIONS I6:
    `{"cells": [[r, c], ...] | "rhombus:N", "big": [[r, c], ...], "init": {"r,c": v}}`.
    Raises MapError with a reason naming the bad cell."""
    unknown = sorted(set(spec) - {"cells", "big", "init"})
    if unknown:
        raise MapError(f"unknown map key(s) {', '.join(unknown)}; allowed: cells, big, init")
    if "cells" not in spec:
        raise MapError('cells: missing (a list of [row, col] pairs or "rhombus:N")')
    cells = _parse_cells(spec["cells"])
    on_board = set(cells)
    raw_big = spec.get("big", [])
    if not isinstance(raw_big, (list, tuple)):
        raise MapError("big: expected a list of [row, col] pairs")
    big: set[Cell] = set()
    for i, item in enumerate(raw_big):
        cell = _coord(item, f"big[{i}]")
        if cell not in on_board:
            raise MapError(f"big[{i}]: cell {cell_text(cell)} is not on the board (it is a wall)")
        big.add(cell)
    raw_init = spec.get("init", {})
    if not isinstance(raw_init, Mapping):
        raise MapError('init: expected an object {"row,col": value}')
    init: dict[Cell, int] = {}
    for key, value in raw_init.items():
        match = _KEY.match(key) if isinstance(key, str) else None
        if not match:
            raise MapError(f'init: key {key!r} is not of the form "row,col" (e.g. "9,1")')
        cell = (int(match.group(1)), int(match.group(2)))
        where = f"init[{key!r}]"
        if cell in init:
            raise MapError(f"{where}: cell {cell_text(cell)} is given twice")
        if isinstance(value, bool) or not isinstance(value, int):
            raise MapError(f"{where}: value {value!r} is not an integer")
        if cell not in on_board:
            raise MapError(f"{where}: cell {cell_text(cell)} is not on the board (it is a wall)")
        cap = BIG_CAP if cell in big else SMALL_CAP
        if abs(value) > cap:
            size = "big" if cell in big else "small"
            raise MapError(
                f"{where}: |{value}| exceeds the cap {cap} of {size} cell {cell_text(cell)}"
            )
        init[cell] = value
    if not any(v > 0 for v in init.values()):
        raise MapError("init: White has no starting cell (needs at least one positive value)")
    if not any(v < 0 for v in init.values()):
        raise MapError("init: Black has no starting cell (needs at least one negative value)")
    return _build(cells, big, init, "custom:" + _map_digest(cells, big, init))


def _map_digest(cells: Sequence[Cell], big: set[Cell], init: Mapping[Cell, int]) -> str:
    text = json.dumps(
        [sorted(cells), sorted(big), sorted((list(c), v) for c, v in init.items())],
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_board(size: int) -> Board:
    return _default_board(size)


@lru_cache(maxsize=16)
def _default_board(size: int) -> Board:
    """The N×N rhombus with White (N−1−d, d) = +5 and Black (d, N−1−d) = −7 (influence.md §3)."""
    d = DEFAULT_OFFSET
    cells = [(r, c) for r in range(size) for c in range(size)]
    init = {(size - 1 - d, d): WHITE_START, (d, size - 1 - d): BLACK_START}
    return _build(cells, set(), init, f"rhombus:{size}")


@lru_cache(maxsize=64)
def board_from_json(text: str) -> Board:
    """Memoised `parse_map` over the canonical JSON of a map: every state of a game, and every
    game on the same map, shares one board."""
    spec = json.loads(text)
    assert isinstance(spec, dict)
    return parse_map(spec)


def _build(cells: Sequence[Cell], big: set[Cell], init: Mapping[Cell, int], map_id: str) -> Board:
    ordered = tuple(sorted(cells))
    index = {cell: i for i, cell in enumerate(ordered)}
    caps = tuple(BIG_CAP if cell in big else SMALL_CAP for cell in ordered)
    neighbours = tuple(
        tuple(sorted(index[(r + dr, c + dc)] for dr, dc in DIRECTIONS if (r + dr, c + dc) in index))
        for r, c in ordered
    )
    rows = [r for r, _ in ordered]
    cols = [c for _, c in ordered]
    walls = tuple(
        (r, c)
        for r in range(min(rows), max(rows) + 1)
        for c in range(min(cols), max(cols) + 1)
        if (r, c) not in index
    )
    values = tuple(init.get(cell, 0) for cell in ordered)
    labels = tuple(cell_text(cell) for cell in ordered)
    layout = tuple(
        tuple(index.get((r, c), -1) for c in range(min(cols), max(cols) + 1))
        for r in range(min(rows), max(rows) + 1)
    )
    return Board(
        cells=ordered,
        index=index,
        caps=caps,
        neighbours=neighbours,
        init=values,
        big=tuple(sorted(big)),
        walls=walls,
        map_id=map_id,
        labels=labels,
        origin=(min(rows), min(cols)),
        layout=layout,
        dense=not walls,
    )
