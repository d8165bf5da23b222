"""What the builder bot reads of an observation: the map, its 2x2 blocks, the guardians'
estates and crowded squares, and the values of a single or a blend on a square. A few
one-slot caches keyed by identity keep it fast; they never change a choice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .tiles import CLASS_HOME, START, Face, face_from_text

Pos = tuple[int, int]


def hand_of(obs: Mapping[str, Any]) -> list[tuple[int, Face]]:
    return [(int(t[1:]), face_from_text(f)) for t, f in obs["hand"]]


def home_of(obs: Mapping[str, Any]) -> int:
    return CLASS_HOME[int(obs["seat"]) % 3]


def cheb(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


_MAP: dict[int, tuple[object, dict[Pos, int]]] = {}


def squares_of(rows: Sequence[Sequence[int]]) -> dict[Pos, int]:
    """The map as a dict, remembered while the observation shares the same (immutable) rows."""
    got = _MAP.get(0)
    if got is not None and got[0] is rows:
        return got[1]
    squares = {(r[0], r[1]): r[2] for r in rows}
    if isinstance(rows, tuple):
        _MAP[0] = (rows, squares)
    return squares


_BLOCKS: dict[int, tuple[dict[Pos, int], dict[Pos, Face]]] = {}


def blocks_of(squares: dict[Pos, int]) -> dict[Pos, Face]:
    """The four lands under every 2x2 block of land squares, by top-left square. The map changes
    only when a tile is placed, far less often than the builder looks for blend spots, so the
    blocks are remembered with the map they were read from."""
    got = _BLOCKS.get(0)
    if got is not None and got[0] is squares:
        return got[1]
    blocks: dict[Pos, Face] = {}
    for x, y in squares:
        spot = (
            squares[(x, y)],
            squares.get((x + 1, y), -1),
            squares.get((x + 1, y + 1), -1),
            squares.get((x, y + 1), -1),
        )
        if min(spot) >= 0 and START not in spot:
            blocks[(x, y)] = spot
    _BLOCKS[0] = (squares, blocks)
    return blocks


NEAR9 = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))

_SITES: dict[
    int, tuple[tuple[tuple[int, Pos, int], ...], dict[Pos, list[tuple[int, int]]], set[Pos]]
] = {}


class BoardView:
    """The parts of an observation the builder reasons over."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.obs = obs
        self.seat = seat = int(obs["seat"])
        self.home = home_of(obs)
        self.squares = squares_of(obs["squares"])
        self.blends: set[Pos] = {(b[0], b[1]) for b in obs["blends"]}
        self.guardians: list[tuple[int, Pos, int, Mapping[str, Any]]] = [
            (g["owner"], (g["at"][0], g["at"][1]), "MFP".index(g["land"]), g)
            for g in obs["guardians"]
        ]
        self.mine = [g for g in self.guardians if g[0] == seat]
        self.heroes = [(p["hero"][0], p["hero"][1]) for p in obs["players"]]
        self.hero = self.heroes[seat]
        self.hand = hand_of(obs)
        self.first: dict[Face, int] = {}
        for t, face in self.hand:
            self.first.setdefault(face, t)
        self.left = obs["players"][seat]["guardians_left"]
        self._estate: dict[Pos, list[tuple[int, int]]] | None = None
        self._crowded: set[Pos] | None = None

    def _sites(self) -> tuple[dict[Pos, list[tuple[int, int]]], set[Pos]]:
        """Estates and crowded squares depend only on where the guardians stand, which changes
        a few times a game, so the last pair is remembered by the guardians' places (compared
        by value: every observation lists them afresh)."""
        key = tuple((owner, at, land) for owner, at, land, _ in self.guardians)
        got = _SITES.get(0)
        if got is not None and got[0] == key:
            return got[1], got[2]
        estate: dict[Pos, list[tuple[int, int]]] = {}
        for owner, (gx, gy), land in key:
            for dx, dy in NEAR9:
                estate.setdefault((gx + dx, gy + dy), []).append((owner, land))
        crowded = {
            (gx + dx, gy + dy)
            for _, (gx, gy), _ in key
            for dx in range(-2, 3)
            for dy in range(-2, 3)
        }
        _SITES[0] = (key, estate, crowded)
        return estate, crowded

    @property
    def estate(self) -> dict[Pos, list[tuple[int, int]]]:
        """Squares inside estates, with the (owner, land) of each estate covering them."""
        if self._estate is None:
            self._estate, self._crowded = self._sites()
        return self._estate

    @property
    def crowded(self) -> set[Pos]:
        """Squares within 2 of a guardian: no new guardian there."""
        if self._crowded is None:
            self._estate, self._crowded = self._sites()
        return self._crowded

    def land_count(self, center: Pos, land: int) -> int:
        x, y = center
        sq = self.squares
        return sum(1 for dx, dy in NEAR9 if sq.get((x + dx, y + dy)) == land)

    def site_ok(self, at: Pos) -> bool:
        land = self.squares.get(at)
        if land is None or land == START:
            return False
        if at in self.crowded:
            return False
        return self.land_count(at, land) >= 3

    def single_value(self, p: Pos, land: int) -> float:
        covering = self.estate.get(p)
        if covering:
            value = 0.0
            for owner, gland in covering:
                if owner == self.seat:
                    value += 1.2 if land == gland else -0.4
                else:
                    value += -0.6 if land == gland else 0.3
            return value
        if land == self.home:
            value = 0.3 + 0.1 * self.land_count(p, land)
            if p in self.crowded:
                value -= 0.2
            return value
        return 0.02

    def blend_value(self, tl: Pos, face: Face) -> float:
        points = 2.0 if len(set(face)) == 2 else 3.0
        x, y = tl
        owners = {
            owner
            for owner, (gx, gy), _, _ in self.guardians
            if gx - 2 <= x <= gx + 1 and gy - 2 <= y <= gy + 1
        }
        mine = self.seat in owners
        return (points if mine else 0.15) - 0.5 * points * len(owners - {self.seat})
