"""The `search` bots: one-step lookahead over the mover's candidate moves, each scored by
rollouts in which both sides play on as `greedy` does, to a fixed number of half-turns.

Influence hides nothing, so the board is read whole from the observation; the rollouts run on
a plain list of signed values (White > 0, Black < 0) rather than the engine's state, since a
rollout is hundreds of attacks. Ties inside rollouts are drawn from the decision's stream, so a
seed repeats the decision. A level's budget is counted in rollouts (`Work.rollouts`)."""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .bots import _allocation_text, _attack_text, _Geometry, _geometry

WIN = 10_000.0


@dataclass(frozen=True)
class Level:
    attacks: int
    """How many of the best-ranked attacks are tried beside `end`."""
    allocations: int
    """How many reinforcement allocations are tried (greedy's first)."""
    rollouts: int
    """Rollouts per candidate."""
    horizon: int
    """Half-turns each rollout plays after the mover's own turn."""

    @property
    def budget(self) -> int:
        return max(self.attacks + 1, self.allocations) * self.rollouts


LEVELS: dict[int, Level] = {
    1: Level(attacks=2, allocations=2, rollouts=1, horizon=1),
    2: Level(attacks=2, allocations=2, rollouts=1, horizon=2),
    3: Level(attacks=4, allocations=3, rollouts=1, horizon=2),
    4: Level(attacks=6, allocations=4, rollouts=1, horizon=4),
}
"""horizon 2 (the opponent's reply, then one's own) is what beats greedy: a position is judged
after one's own answer to the reply, not while the reply's captures stand."""
DEFAULT_LEVEL = 3


@dataclass
class Work:
    """What one decision cost; a test hands one in to count it."""

    rollouts: int = 0
    candidates: list[str] = field(default_factory=list)


# ---- the rollout board ----------------------------------------------------------------------


@dataclass
class _Board:
    geo: _Geometry
    values: list[int]
    max_attacks: int
    turns_left: int
    """Half-turns before the move limit ends the game (a tie)."""


def _pairs(geo: _Geometry, values: Sequence[int], sign: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for i, nbrs in enumerate(geo.neighbours):
        if values[i] * sign >= 2:
            for j in nbrs:
                if values[j] * sign <= 0:
                    out.append((i, j))
    return out


def _score(geo: _Geometry, rel: Sequence[int], i: int, j: int) -> int:
    """greedy's worth of the attack i→j (bots._best_attacks), 0 for a repelled one."""
    s, t = rel[i], rel[j]
    if t < 0:
        if s > -t:
            return 100 - 4 * t + s + t
        if s == -t:
            return 60 - 2 * t
        return 0
    new = s - 1 if s - 1 < geo.caps[j] else geo.caps[j]
    score = 30 + new
    if _threat(geo, rel, i) >= 2:
        score -= 20
    if _threat(geo, rel, j) > new:
        score -= 9
    return score


def _threat(geo: _Geometry, rel: Sequence[int], i: int) -> int:
    return max((-rel[j] for j in geo.neighbours[i] if rel[j] < 0), default=0)


def _ranked(geo: _Geometry, rel: Sequence[int], pairs: Sequence[tuple[int, int]]) -> list[Any]:
    """(score, i, j) of every attack worth playing, best first."""
    scored = [(_score(geo, rel, i, j), i, j) for i, j in pairs]
    return sorted((x for x in scored if x[0] > 0), key=lambda x: -x[0])


def _resolve(rel: list[int], geo: _Geometry, i: int, j: int) -> None:
    s, t = rel[i], rel[j]
    if t == 0:
        captured = s - 1
    elif s > -t:
        captured = s + t
    elif s == -t:
        rel[i], rel[j] = 1, 0
        return
    else:
        rel[i], rel[j] = 1, t + s
        return
    cap = geo.caps[j]
    if captured > cap:
        rel[i], rel[j] = 1 + captured - cap, cap
    else:
        rel[i], rel[j] = 1, captured


def _greedy_attacks(geo: _Geometry, rel: list[int], done: int, limit: int, rng: Stream) -> None:
    """Plays greedy's attacks on `rel` (the mover's side > 0) until none is worth playing."""
    while done < limit:
        best_score, best = 0, []
        for i, j in _pairs(geo, rel, 1):
            score = _score(geo, rel, i, j)
            if score > best_score:
                best_score, best = score, [(i, j)]
            elif score == best_score and score:
                best.append((i, j))
        if not best:
            return
        i, j = best[0] if len(best) == 1 else rng.choice(best)
        _resolve(rel, geo, i, j)
        done += 1


def _priority(geo: _Geometry, rel: Sequence[int], i: int, v: int) -> tuple[int, int]:
    threat = _threat(geo, rel, i)
    if threat and v <= threat:
        return (0, -threat)
    if any(rel[j] <= 0 for j in geo.neighbours[i]):
        return (1, v)
    return (2, v)


def _greedy_allocation(geo: _Geometry, rel: Sequence[int], points: int) -> dict[int, int]:
    """greedy's reinforcement (bots._greedy), ties by cell order."""
    work = list(rel)
    heap = [(*_priority(geo, work, i, v), i) for i, v in enumerate(work) if 0 < v < geo.caps[i]]
    heapq.heapify(heap)
    given: dict[int, int] = {}
    for _ in range(points):
        if not heap:
            break
        _, _, i = heapq.heappop(heap)
        given[i] = given.get(i, 0) + 1
        work[i] += 1
        if work[i] < geo.caps[i]:
            heapq.heappush(heap, (*_priority(geo, work, i, work[i]), i))
    return given


def _spendable(geo: _Geometry, rel: Sequence[int], points: int) -> int:
    room = sum(cap - v for v, cap in zip(rel, geo.caps, strict=True) if v > 0)
    return min(points, room)


def _reinforce(geo: _Geometry, rel: list[int], given: Mapping[int, int]) -> None:
    for i, k in given.items():
        rel[i] += k


def _greedy_half_turn(board: _Board, rel: list[int], rng: Stream) -> None:
    """A whole greedy turn for the side that is > 0 in `rel`."""
    geo = board.geo
    _greedy_attacks(geo, rel, 0, board.max_attacks, rng)
    area = sum(1 for v in rel if v > 0)
    _reinforce(geo, rel, _greedy_allocation(geo, rel, _spendable(geo, rel, area)))


def _evaluate(rel: Sequence[int]) -> float:
    """From the side that is > 0: area is the economy (a turn's points), strength the army."""
    mine = theirs = mine_v = theirs_v = 0
    for v in rel:
        if v > 0:
            mine += 1
            mine_v += v
        elif v < 0:
            theirs += 1
            theirs_v -= v
    if not theirs:
        return WIN
    if not mine:
        return -WIN
    return (mine - theirs) + 0.25 * (mine_v - theirs_v)


def _play_out(board: _Board, rel: list[int], horizon: int, rng: Stream) -> float:
    """After the mover's turn: `horizon` greedy half-turns, opponent first; the score is from
    the mover's side, a win sooner worth more than a win later (so a won game gets finished)."""
    flip = False
    played = 0
    for _ in range(min(horizon, board.turns_left)):
        if not any(v > 0 for v in rel) or not any(v < 0 for v in rel):
            break
        rel = [-v for v in rel]
        flip = not flip
        _greedy_half_turn(board, rel, rng)
        played += 1
    if flip:
        rel = [-v for v in rel]
    score = _evaluate(rel)
    if abs(score) == WIN:
        score -= played if score > 0 else -played
    return score


# ---- the decision ---------------------------------------------------------------------------


def _read(obs: Mapping[str, Any]) -> tuple[_Board, list[int]]:
    geo = _geometry(obs)
    values = [v for line in obs["grid"] for v in line if v is not None]
    sign = 1 if obs["seat"] == 0 else -1
    rel = [v * sign for v in values]
    left = (int(obs["max_turns"]) - int(obs["turn"])) * 2 + (1 if obs["seat"] == 0 else 0)
    board = _Board(geo, values, int(obs["max_attacks_per_phase"]), max(left, 0))
    return board, rel


def _attack_value(
    board: _Board,
    rel: Sequence[int],
    first: tuple[int, int] | None,
    done: int,
    lv: Level,
    rng: Stream,
    work: Work,
) -> float:
    total = 0.0
    geo = board.geo
    for _ in range(lv.rollouts):
        sim = list(rel)
        if first is not None:
            _resolve(sim, geo, *first)
            _greedy_attacks(geo, sim, done + 1, board.max_attacks, rng)
        area = sum(1 for v in sim if v > 0)
        _reinforce(geo, sim, _greedy_allocation(geo, sim, _spendable(geo, sim, area)))
        total += _play_out(board, sim, lv.horizon, rng)
        work.rollouts += 1
    return total / lv.rollouts


def _attack(obs: Mapping[str, Any], lv: Level, rng: Stream, work: Work) -> str:
    board, rel = _read(obs)
    geo = board.geo
    index = geo.index
    pairs = [tuple(index[c] for c in text.split(">")) for text in obs.get("legal_attacks") or []]
    ranked = _ranked(geo, rel, [(p[0], p[1]) for p in pairs])[: lv.attacks]
    if not ranked:
        return "end"
    done = int(obs["attacks_this_phase"])
    best_text, best_value = "end", _attack_value(board, rel, None, done, lv, rng, work)
    work.candidates.append("end")
    for _, i, j in ranked:
        text = _attack_text(geo, i, j)
        work.candidates.append(text)
        value = _attack_value(board, rel, (i, j), done, lv, rng, work)
        if value > best_value:
            best_text, best_value = text, value
    return best_text


def _allocations(
    geo: _Geometry, rel: Sequence[int], points: int, count: int, rng: Stream
) -> list[dict[int, int]]:
    """greedy's allocation first, then others: everything on the most threatened frontier
    cells, and greedy's with its ties drawn from the stream."""
    out = [_greedy_allocation(geo, rel, points)]
    threatened = sorted(
        (i for i, v in enumerate(rel) if 0 < v < geo.caps[i] and _threat(geo, rel, i)),
        key=lambda i: (-_threat(geo, rel, i), i),
    )
    for width in (1, 2, 3):
        if len(out) >= count:
            break
        cells = threatened[:width] or [i for i, v in enumerate(rel) if 0 < v < geo.caps[i]][:1]
        given: dict[int, int] = {}
        left = points
        for i in cells:
            take = min(geo.caps[i] - rel[i], left // max(1, width))
            if take:
                given[i] = take
                left -= take
        rest = list(rel)
        _reinforce(geo, rest, given)
        for i, k in _greedy_allocation(geo, rest, left).items():
            given[i] = given.get(i, 0) + k
        if given not in out:
            out.append(given)
    while len(out) < count:
        order = rng.shuffled(range(len(rel)))
        rank = {i: r for r, i in enumerate(order)}
        given = {}
        work = list(rel)
        for _ in range(points):
            open_cells = [i for i, v in enumerate(work) if 0 < v < geo.caps[i]]
            if not open_cells:
                break
            i = min(open_cells, key=lambda c: (*_priority(geo, work, c, work[c]), rank[c]))
            given[i] = given.get(i, 0) + 1
            work[i] += 1
        if given in out:
            break
        out.append(given)
    return out


def _reinforce_move(obs: Mapping[str, Any], lv: Level, rng: Stream, work: Work) -> str:
    board, rel = _read(obs)
    geo = board.geo
    points = _spendable(geo, rel, int(obs["points_left"]))
    options = _allocations(geo, rel, points, lv.allocations, rng)
    best, best_value = options[0], -2 * WIN
    for given in options:
        total = 0.0
        for _ in range(lv.rollouts):
            sim = list(rel)
            _reinforce(geo, sim, given)
            total += _play_out(board, sim, lv.horizon, rng)
            work.rollouts += 1
        value = total / lv.rollouts
        work.candidates.append(_allocation_text(geo, given))
        if value > best_value:
            best, best_value = given, value
    return _allocation_text(geo, best)


def decide(obs: Mapping[str, Any], level: int, rng: Stream, work: Work | None = None) -> str:
    """The move of `search:<level>` for this observation."""
    lv = LEVELS[level]
    work = work if work is not None else Work()
    if obs["phase"] == "reinforce":
        return _reinforce_move(obs, lv, rng, work)
    return _attack(obs, lv, rng, work)


def _bot(level: int) -> Bot:
    def bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
        return decide(obs, level, rng)

    bot.__doc__ = f"search level {level}: {LEVELS[level]}"
    return bot


def search_bots() -> dict[str, Bot]:
    out = {"search": _bot(DEFAULT_LEVEL)}
    out.update({f"search:{k}": _bot(k) for k in LEVELS})
    return out
