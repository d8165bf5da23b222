"""Paired comparison of two labels: the same game, ruleset, seed and seat played once by A and
once by B, so the luck of the deal and the seat cancel and only the difference is left.

Pairs are the unit: the mean score difference gets a 95% bootstrap interval over pairs (seeded,
so reruns agree), the sign test counts pairs where A scored more against pairs where B did (ties
dropped) and gives the exact two-sided binomial p-value. Data that does not pair up is refused
with the seats that lack a partner, never silently trimmed.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .rating import percentile
from .results import SeatResult

PairKey = tuple[str, str, str, int]
"""(game, ruleset digest, seed, seat)."""

SHOWN_MISSING = 5


class UnpairedData(ValueError):
    """The transcripts do not pair up; the message says which seats lack a partner."""


@dataclass
class Comparison:
    by: str
    a: str
    b: str
    pairs: int
    mean_a: float
    mean_b: float
    mean_diff: float
    """Mean of A's score minus B's over pairs."""
    diff_low: float
    diff_high: float
    win_rate_a: float
    win_rate_b: float
    win_rate_diff: float
    win_diff_low: float
    win_diff_high: float
    a_better: int
    b_better: int
    ties: int
    sign_p: float
    """Exact two-sided sign test over the pairs that are not ties."""
    bootstrap: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def sign_test(plus: int, minus: int) -> float:
    """Two-sided p-value of `plus` successes against `minus` under a fair coin."""
    n = plus + minus
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(plus, minus) + 1))
    return min(1.0, 2 * tail / (1 << n))


def _describe(key: PairKey, row: SeatResult) -> str:
    game, digest, seed, seat = key
    return f"{game} seed {seed} seat {seat} ({row.seat_name}), ruleset {digest}"


def _missing(side: str, other: str, keys: list[tuple[PairKey, SeatResult]], total: int) -> str:
    shown = "; ".join(_describe(k, r) for k, r in keys[:SHOWN_MISSING])
    more = f"; and {len(keys) - SHOWN_MISSING} more" if len(keys) > SHOWN_MISSING else ""
    return f"{len(keys)} of {total} {side} seat(s) have no {other} partner: {shown}{more}"


def pair_rows(
    rows: Sequence[SeatResult], by: str, a: str, b: str
) -> list[tuple[SeatResult, SeatResult]]:
    """A's and B's seats matched on (game, ruleset, seed, seat); repeats of one key pair up in
    file order. Raises UnpairedData naming what is missing."""
    if a == b:
        raise UnpairedData(f"--a and --b are both {a!r}: name two different labels")
    sides: dict[str, dict[PairKey, list[SeatResult]]] = {a: defaultdict(list), b: defaultdict(list)}
    unfinished: list[str] = []
    present: set[str] = set()
    for row in sorted(rows, key=lambda r: (r.path, r.seat)):
        value = row.label(by)
        if value not in sides:
            continue
        present.add(value)
        if not row.finished:
            unfinished.append(f"{value}: {row.path} seat {row.seat}")
            continue
        sides[value][(row.game, row.ruleset_digest, row.seed, row.seat)].append(row)
    for value in (a, b):
        if value not in present:
            found = sorted({r.label(by) for r in rows})
            raise UnpairedData(
                f"no seat has {by} = {value!r}; the transcripts have: {', '.join(found) or 'none'}"
            )
    if unfinished:
        raise UnpairedData(
            f"{len(unfinished)} seat(s) of A or B are in unfinished games, so they have no "
            f"score: {'; '.join(unfinished[:SHOWN_MISSING])}"
        )

    def rows_of(side: str) -> list[SeatResult]:
        return [r for group in sides[side].values() for r in group]

    pairs: list[tuple[SeatResult, SeatResult]] = []
    lonely: dict[str, list[tuple[PairKey, SeatResult]]] = {a: [], b: []}
    for key in sorted(set(sides[a]) | set(sides[b])):
        ours, theirs = sides[a].get(key, []), sides[b].get(key, [])
        pairs.extend(zip(ours, theirs, strict=False))
        lonely[a].extend((key, r) for r in ours[len(theirs) :])
        lonely[b].extend((key, r) for r in theirs[len(ours) :])
    problems = [
        _missing(f"{name} ({by} = {side!r})", other, lonely[side], len(rows_of(side)))
        for side, name, other in ((a, "A", "B"), (b, "B", "A"))
        if lonely[side]
    ]
    if problems:
        raise UnpairedData(
            "paired comparison needs A and B on the same game, ruleset, seed and seat; "
            + " | ".join(problems)
        )
    return pairs


def compare(
    rows: Sequence[SeatResult],
    by: str,
    a: str,
    b: str,
    *,
    bootstrap: int = 2000,
    seed: int = 0,
) -> Comparison:
    if bootstrap < 1:
        raise ValueError("bootstrap rounds must be 1 or more")
    pairs = pair_rows(rows, by, a, b)
    scores = [(x.score or 0.0, y.score or 0.0) for x, y in pairs]
    wins = [(x.win or 0.0, y.win or 0.0) for x, y in pairs]
    diffs = [sa - sb for sa, sb in scores]
    win_diffs = [wa - wb for wa, wb in wins]
    n = len(pairs)
    rng = random.Random(seed)
    means: list[float] = []
    win_means: list[float] = []
    for _ in range(bootstrap):
        picks = rng.choices(range(n), k=n)
        means.append(sum(diffs[i] for i in picks) / n)
        win_means.append(sum(win_diffs[i] for i in picks) / n)
    plus = sum(1 for d in diffs if d > 0)
    minus = sum(1 for d in diffs if d < 0)
    return Comparison(
        by=by,
        a=a,
        b=b,
        pairs=n,
        mean_a=sum(s for s, _ in scores) / n,
        mean_b=sum(s for _, s in scores) / n,
        mean_diff=sum(diffs) / n,
        diff_low=percentile(means, 0.025),
        diff_high=percentile(means, 0.975),
        win_rate_a=sum(w for w, _ in wins) / n,
        win_rate_b=sum(w for _, w in wins) / n,
        win_rate_diff=sum(win_diffs) / n,
        win_diff_low=percentile(win_means, 0.025),
        win_diff_high=percentile(win_means, 0.975),
        a_better=plus,
        b_better=minus,
        ties=n - plus - minus,
        sign_p=sign_test(plus, minus),
        bootstrap=bootstrap,
        seed=seed,
    )
