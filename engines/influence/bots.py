"""Bots: `random`, `greedy` and `greedy-seeded`. Each sees only its observation and menu, and
answers with one canonical move; in the reinforce phase each answers with a whole allocation,
which is the same as spending the points one at a time (I3) and saves a decision per point."""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .board import BIG_CAP, DIRECTIONS, SMALL_CAP, Cell
from .moves import make_reinforce, move_text


@dataclass(frozen=True)
class _Geometry:
    cells: tuple[Cell, ...]
    caps: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    index: Mapping[str, int]
    """"row,col" → cell index, to read the observation's legal attacks."""


_GEOMETRY: dict[str, _Geometry] = {}
_GEOMETRY_LIMIT = 64


def _geometry(obs: Mapping[str, Any]) -> _Geometry:
    """The adjacency of the observed board, cells in (row, col) order. Memoised by the map's id:
    it depends only on the map, never on the game, so the memo cannot change a bot's answer."""
    key = str(obs["map"])
    geo = _GEOMETRY.get(key)
    if geo is not None:
        return geo
    r0, c0 = (int(x) for x in obs["origin"])
    cells = tuple(
        (r0 + k, c0 + m)
        for k, line in enumerate(obs["grid"])
        for m, v in enumerate(line)
        if v is not None
    )
    index = {cell: i for i, cell in enumerate(cells)}
    big = {(int(r), int(c)) for r, c in obs["big"]}
    geo = _Geometry(
        cells,
        tuple(BIG_CAP if cell in big else SMALL_CAP for cell in cells),
        tuple(
            tuple(index[(r + dr, c + dc)] for dr, dc in DIRECTIONS if (r + dr, c + dc) in index)
            for r, c in cells
        ),
        {f"{r},{c}": i for i, (r, c) in enumerate(cells)},
    )
    if len(_GEOMETRY) >= _GEOMETRY_LIMIT:
        _GEOMETRY.clear()
    _GEOMETRY[key] = geo
    return geo


def _relative(obs: Mapping[str, Any]) -> list[int]:
    """Cell values in (row, col) order from the bot's side: own > 0, enemy < 0."""
    if obs["seat"] == 0:
        return [v for line in obs["grid"] for v in line if v is not None]
    return [-v for line in obs["grid"] for v in line if v is not None]


def _attack_text(geo: _Geometry, i: int, j: int) -> str:
    (r1, c1), (r2, c2) = geo.cells[i], geo.cells[j]
    return f"{r1},{c1}>{r2},{c2}"


def _allocation_text(geo: _Geometry, given: Mapping[int, int]) -> str:
    return move_text(make_reinforce({geo.cells[i]: k for i, k in given.items()}))


def _spendable(geo: _Geometry, rel: Sequence[int], points: int) -> int:
    room = sum(cap - v for v, cap in zip(rel, geo.caps, strict=True) if v > 0)
    return min(points, room)


# ---- random ---------------------------------------------------------------------------------


def random_bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    """Uniform over the menu in the attack phase (so `end` is as likely as any one attack);
    in the reinforce phase each point goes to a uniformly chosen own cell below its cap."""
    if obs["phase"] != "reinforce":
        return rng.choice(menu.moves).notation
    geo = _geometry(obs)
    rel = _relative(obs)
    open_cells = [[i, geo.caps[i] - v] for i, v in enumerate(rel) if 0 < v < geo.caps[i]]
    given: dict[int, int] = {}
    for _ in range(_spendable(geo, rel, int(obs["points_left"]))):
        k = rng.below(len(open_cells))
        entry = open_cells[k]
        given[entry[0]] = given.get(entry[0], 0) + 1
        entry[1] -= 1
        if entry[1] == 0:
            open_cells[k] = open_cells[-1]
            open_cells.pop()
    return _allocation_text(geo, given)


# ---- greedy ---------------------------------------------------------------------------------


def _threat(geo: _Geometry, rel: Sequence[int], i: int) -> int:
    """The strongest enemy cell next to cell i (0 if none)."""
    return max((-rel[j] for j in geo.neighbours[i] if rel[j] < 0), default=0)


def _best_attacks(
    geo: _Geometry, rel: Sequence[int], legal: Sequence[str]
) -> list[tuple[int, int]]:
    """The attacks i→j of the highest positive worth (none if nothing is worth playing).

    Area is what pays (next turn's points = area), so every capture scores; killing enemy cells
    scores most, since it also takes points from the opponent, and bigger kills first. A source
    left at 1 next to an enemy is an easy target, so empty captures from threatened sources, and
    into cells an enemy neighbour could retake, are kept for last. Repelled attacks only waste
    strength and are never played."""
    caps = geo.caps
    threats: dict[int, int] = {}

    def threat(i: int) -> int:
        value = threats.get(i)
        if value is None:
            value = threats[i] = _threat(geo, rel, i)
        return value

    best_score = 0
    best: list[tuple[int, int]] = []
    index = geo.index
    for text in legal:
        source, target = text.split(">")
        i, j = index[source], index[target]
        s, t = rel[i], rel[j]
        if t < 0:
            if s > -t:
                score = 100 - 4 * t + s + t
            elif s == -t:
                score = 60 - 2 * t
            else:
                continue
        else:
            new = s - 1 if s - 1 < caps[j] else caps[j]
            score = 30 + new
            if threat(i) >= 2:
                score -= 20
            if threat(j) > new:
                score -= 9
        if score > best_score:
            best_score, best = score, [(i, j)]
        elif score == best_score:
            best.append((i, j))
    return best


def _reinforce_priority(geo: _Geometry, rel: Sequence[int], i: int, v: int) -> tuple[int, int]:
    """Smaller is served first: threatened cells up to one above their strongest enemy
    neighbour, then frontier cells (weakest first, so more of them can attack), then the rest."""
    threat = _threat(geo, rel, i)
    if threat and v <= threat:
        return (0, -threat)
    if any(rel[j] <= 0 for j in geo.neighbours[i]):
        return (1, v)
    return (2, v)


def greedy_bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    """One attack of the highest worth (`_best_attacks`) until none is worth playing, then
    `end`; reinforcement by `_reinforce_priority` in one allocation, ties by (row, col)."""
    return _greedy(obs, rng, seeded=False)


def greedy_seeded_bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    """`greedy` with its reinforcement ties (cells of equal priority) in an order drawn from
    the seeded stream instead of (row, col), so that a seed changes its play."""
    return _greedy(obs, rng, seeded=True)


def _greedy(obs: Mapping[str, Any], rng: Stream, seeded: bool) -> str:
    geo = _geometry(obs)
    rel = _relative(obs)
    if obs["phase"] == "reinforce":
        ties: Sequence[int] = [rng.next_u64() for _ in rel] if seeded else range(len(rel))
        heap = [
            (*_reinforce_priority(geo, rel, i, v), ties[i], i)
            for i, v in enumerate(rel)
            if 0 < v < geo.caps[i]
        ]
        heapq.heapify(heap)
        given: dict[int, int] = {}
        for _ in range(_spendable(geo, rel, int(obs["points_left"]))):
            _, _, _, i = heapq.heappop(heap)
            given[i] = given.get(i, 0) + 1
            rel[i] += 1
            if rel[i] < geo.caps[i]:
                heapq.heappush(heap, (*_reinforce_priority(geo, rel, i, rel[i]), ties[i], i))
        return _allocation_text(geo, given)
    best = _best_attacks(geo, rel, obs.get("legal_attacks") or [])
    if not best:
        return "end"
    # Ties go to a seeded draw, so board order alone does not decide the bot's play.
    i, j = best[0] if len(best) == 1 else rng.choice(best)
    return _attack_text(geo, i, j)


def bots() -> dict[str, Bot]:
    return {"random": random_bot, "greedy": greedy_bot, "greedy-seeded": greedy_seeded_bot}
