"""The fixed hex lattice, the reference board generator and the lookup tables built once per board.

The lattice (radius 7, 169 tiles, nine hearths on ring 5) never changes, so its distance and
neighbourhood tables are module constants. Yields come from the reference's mulberry32 draws so a
seed gives the same board here and in the reference.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

RADIUS = 7
SEATS = 9
ALIASES: tuple[str, ...] = (
    "Sable",
    "Ochre",
    "Verdant",
    "Cobalt",
    "Amber",
    "Violet",
    "Teal",
    "Rose",
    "Ash",
)
ALIAS_INDEX: dict[str, int] = {name.lower(): i for i, name in enumerate(ALIASES)}
SHORT: tuple[str, ...] = ("Sa", "Oc", "Ve", "Co", "Am", "Vi", "Te", "Ro", "As")

WALL, CRACKED, RUBBLE = 0, 1, 2
STATE_NAMES: tuple[str, ...] = ("wall", "cracked", "rubble")

_M32 = 0xFFFFFFFF


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def on_board(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


# T2: q ascending, then r ascending; the yield draws follow this order.
COORDS: tuple[tuple[int, int], ...] = tuple(
    (q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1) if on_board(q, r)
)
N_TILES = len(COORDS)
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
KEYS: tuple[str, ...] = tuple(f"{q},{r}" for q, r in COORDS)
KEY_INDEX: dict[str, int] = {k: i for i, k in enumerate(KEYS)}
KEY_RANK: tuple[int, ...] = tuple(
    sorted(range(len(KEYS)), key=KEYS.__getitem__).index(i) for i in range(len(KEYS))
)
"""Each tile's position in the lexicographic order of tile keys (the bots' last tie-break)."""
DIST: tuple[tuple[int, ...], ...] = tuple(tuple(hex_distance(a, b) for b in COORDS) for a in COORDS)
ORIGIN = INDEX[(0, 0)]


def _ring_walk(radius: int) -> list[tuple[int, int]]:
    steps = ((0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1))
    q, r = radius, 0
    out = []
    for dq, dr in steps:
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


_RING5 = _ring_walk(5)
HEARTH_COORDS: tuple[tuple[int, int], ...] = tuple(
    _RING5[(len(_RING5) * i) // SEATS] for i in range(SEATS)
)
HEARTHS: tuple[int, ...] = tuple(INDEX[c] for c in HEARTH_COORDS)
HOME_RINGS: tuple[frozenset[int], ...] = tuple(
    frozenset(j for j in range(N_TILES) if DIST[h][j] <= 1) for h in HEARTHS
)
RING_OWNER: tuple[int, ...] = tuple(
    next((s for s in range(SEATS) if j in HOME_RINGS[s]), -1) for j in range(N_TILES)
)
HEARTH_OF: tuple[int, ...] = tuple(HEARTHS.index(j) if j in HEARTHS else -1 for j in range(N_TILES))


# Tile masks live on a padded grid, bit (q+7)*16 + (r+7), so that growing a set by one step is a
# handful of shifts: the neighbours of a bit are ±1, ±15 and ±16 and column 15 is an empty guard.
_STRIDE = 16
_PAD: tuple[int, ...] = tuple((q + RADIUS) * _STRIDE + (r + RADIUS) for q, r in COORDS)
BIT: tuple[int, ...] = tuple(1 << p for p in _PAD)
BOARD_MASK = sum(BIT)
HOME_MASKS: tuple[int, ...] = tuple(sum(BIT[j] for j in ring) for ring in HOME_RINGS)
_NBYTES = ((2 * RADIUS + 1) * _STRIDE + 7) // 8
_TILE_AT: dict[int, int] = {p: j for j, p in enumerate(_PAD)}
_BYTE_TILES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(_TILE_AT[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i in _TILE_AT)
        for b in range(256)
    )
    for k in range(_NBYTES)
)
_BYTE_KEYS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(KEYS[j] for j in tiles) for tiles in row) for row in _BYTE_TILES
)


def _span(mask: int) -> tuple[int, bytes]:
    """The first byte index and the bytes of a mask between its lowest and highest set bits:
    reach masks cover a few columns of the grid, so most of the 30 bytes are empty."""
    if not mask:
        return 0, b""
    lo = ((mask & -mask).bit_length() - 1) >> 3
    rest = mask >> (lo << 3)
    return lo, rest.to_bytes((rest.bit_length() + 7) >> 3, "little")


def bits(mask: int) -> list[int]:
    """The tile indices set in a tile mask, ascending (the padded grid keeps T2 order)."""
    out: list[int] = []
    lo, data = _span(mask)
    for k, b in enumerate(data, lo):
        if b:
            out += _BYTE_TILES[k][b]
    return out


def mask_keys(mask: int) -> list[str]:
    """The keys of the tiles set in a tile mask, in board order."""
    out: list[str] = []
    lo, data = _span(mask)
    for k, b in enumerate(data, lo):
        if b:
            out += _BYTE_KEYS[k][b]
    return out


def grow(mask: int) -> int:
    """The tiles within distance 1 of a tile set (hex distance on the convex board)."""
    return (
        mask | mask << 1 | mask >> 1 | mask << 15 | mask >> 15 | mask << 16 | mask >> 16
    ) & BOARD_MASK


# ---- the reference generator ----------------------------------------------------------------

_NUMERIC = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def seed_u32(seed: int | str) -> int:
    """The seed as the reference's unsigned 32-bit integer: an int modulo 2^32; a numeric string
    truncated toward zero; any other string by Java's String.hashCode over UTF-16 code units."""
    if isinstance(seed, int):
        return seed & _M32
    text = seed.strip()
    if _NUMERIC.match(text):
        value = float(text)
        return 0 if not math.isfinite(value) else math.trunc(value) & _M32
    h = 0
    data = seed.encode("utf-16-le")
    for k in range(0, len(data), 2):
        h = (31 * h + (data[k] | (data[k + 1] << 8))) & _M32
    return h


def mulberry32(seed: int, count: int) -> list[float]:
    """`count` floats in [0, 1) from the standard mulberry32 seeded with `seed`."""
    a = seed & _M32
    out = []
    for _ in range(count):
        a = (a + 0x6D2B79F5) & _M32
        t = ((a ^ (a >> 15)) * (1 | a)) & _M32
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & _M32)) & _M32) ^ t
        out.append(((t ^ (t >> 14)) & _M32) / 4294967296)
    return out


@dataclass(frozen=True, slots=True)
class Board:
    """What a seed and a map variant fix for the whole game."""

    yields: tuple[int, ...]
    states: tuple[int, ...]
    """Tile states at the start (the `rooms` overlay starts some tiles as rubble)."""


def draw_yields(seed: int | str, thresholds: tuple[float, float, float]) -> tuple[int, ...]:
    t0, t1, t2 = thresholds
    return tuple(
        0 if u < t0 else 1 if u < t1 else 2 if u < t2 else 3
        for u in mulberry32(seed_u32(seed), N_TILES)
    )


@lru_cache(maxsize=64)
def make_board(seed: int | str, variant: str, thresholds: tuple[float, float, float]) -> Board:
    yields = list(draw_yields(seed, thresholds))
    states = [WALL] * N_TILES
    if variant == "rooms":
        ring2 = [[j for j in range(N_TILES) if DIST[h][j] == 2] for h in HEARTHS]
        # T19: each room keeps its door, the ring-2 tile nearest the centre; among ring tiles
        # equally near, the one whose key "q,r" sorts first as a string (not board order). The
        # door stays open even where another room's wall would cover it, and home rings stay
        # playable.
        doors = {min(tiles, key=lambda j: (DIST[ORIGIN][j], KEYS[j])) for tiles in ring2}
        for tiles in ring2:
            for j in tiles:
                if j not in doors and RING_OWNER[j] < 0:
                    states[j] = RUBBLE
        for h in HEARTHS:
            for j in range(N_TILES):
                if DIST[h][j] == 1:
                    yields[j] = 3
    elif variant == "inside_out":
        for j in range(N_TILES):
            d = DIST[ORIGIN][j]
            if d <= 2:
                yields[j] = 3
            elif d >= 6:
                yields[j] = 0
    return Board(tuple(yields), tuple(states))


class BoardSeed(str):
    """A seed that carries its own board. A search plans on states sampled from one seat's
    observation, which shows every yield that still matters but never the game's seed, so such a
    state's board cannot be drawn from a seed; resolve copies the seed, so the board goes along."""

    board: Board

    def __new__(cls, name: str, board: Board) -> BoardSeed:
        seed = super().__new__(cls, name)
        seed.board = board
        return seed


def effective(state: int, base: int) -> int:
    return base if state == WALL else base // 2 if state == CRACKED else 0
