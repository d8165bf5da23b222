"""The seeded opening (ruleset `opening: "seeded"`, DECISIONS I7: "the seed only selects maps"):
a map drawn from the game's seed on the N×N rhombus, with walls, big cells and the two starting
cells, point-symmetric so the board favours neither colour.

The point reflection (r, c) → (N−1−r, N−1−c) maps the rhombus onto itself and each neighbour
vector onto its opposite, so it preserves adjacency: every wall, big cell and start is drawn as a
pair {x, mirror(x)}, and White's start mirrors Black's. The starting values stay the rules' own
(+5 White, −7 Black, influence.md §3): only the board varies. Every drawn board is connected, so
both starts reach each other and every cell is playable.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..rng import Stream
from .board import BLACK_START, DIRECTIONS, WHITE_START, Board, Cell, cell_text, parse_map

STREAM = "influence/opening"
WALL_SHARE = (0.06, 0.16)
"""The range the wall share of the rhombus is drawn from."""
BIG_PAIRS = (1, 4)
"""The range of big-cell pairs (each big cell and its mirror)."""
WALL_TRIES = 8
"""Wall draws tried before the board is left without walls (a draw may cut the starts apart)."""
MIN_START_GAP = 3
"""The least hex distance between the two starts (so neither can attack the other at once)."""


def mirror(cell: Cell, size: int) -> Cell:
    return (size - 1 - cell[0], size - 1 - cell[1])


def _distance(a: Cell, b: Cell) -> int:
    dr, dc = b[0] - a[0], b[1] - a[1]
    return max(abs(dr), abs(dc), abs(dr - dc))


def _component(cells: set[Cell], start: Cell) -> set[Cell]:
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS:
            other = (r + dr, c + dc)
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _draw(size: int, rng: Stream) -> dict[str, object]:
    rhombus = [(r, c) for r in range(size) for c in range(size)]
    # One representative per mirror pair, in board order, so every draw is a draw of pairs.
    pairs = [cell for cell in rhombus if cell <= mirror(cell, size)]
    starts = [cell for cell in pairs if _distance(cell, mirror(cell, size)) >= MIN_START_GAP]
    white = rng.choice(starts)
    if rng.below(2):
        white = mirror(white, size)
    black = mirror(white, size)
    keep = {white, black}
    for cell in (white, black):
        keep.update((cell[0] + dr, cell[1] + dc) for dr, dc in DIRECTIONS)
    free = [cell for cell in pairs if cell not in keep and mirror(cell, size) not in keep]
    low, high = WALL_SHARE
    board = set(rhombus)
    for _ in range(WALL_TRIES):
        share = low + (high - low) * rng.random()
        walls: set[Cell] = set()
        for cell in rng.shuffled(free)[: int(share * len(rhombus) / 2)]:
            walls.update((cell, mirror(cell, size)))
        # The part of the board White's start cannot reach is walled up too; the reflection
        # maps that component onto Black's, so when it holds Black's start it is symmetric.
        reach = _component({cell for cell in rhombus if cell not in walls}, white)
        if black in reach:
            board = reach
            break
    # else: every draw cut the board between the starts; the board stays without walls.
    singles = [cell for cell in pairs if cell in board and cell not in (white, black)]
    big: set[Cell] = set()
    for cell in rng.shuffled(singles)[: BIG_PAIRS[0] + rng.below(BIG_PAIRS[1] - BIG_PAIRS[0] + 1)]:
        big.update((cell, mirror(cell, size)))
    return {
        "cells": [list(cell) for cell in sorted(board)],
        "big": [list(cell) for cell in sorted(big)],
        "init": {cell_text(white): WHITE_START, cell_text(black): BLACK_START},
    }


def seeded_map(size: int, seed: int | str) -> dict[str, object]:
    """The map JSON (DECISIONS I6 format) the seed draws on the size×size rhombus."""
    return _draw(size, Stream(seed, f"{STREAM}/{size}"))


@lru_cache(maxsize=64)
def seeded_board(size: int, seed: int | str) -> Board:
    """The board of `seeded_map`, shared by every state of the game."""
    board = parse_map(seeded_map(size, seed))
    # Named for where it came from; the digest part is the custom map's, as unique.
    return replace(board, map_id="seeded:" + board.map_id.split(":", 1)[1])
