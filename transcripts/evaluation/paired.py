"""The statistics of a paired comparison, as pure functions over arrays (no I/O, no clock, no
randomness), so they can be calibrated on synthetic data as well as run on games.

The unit is a paired game: A's game and B's game on the same game, ruleset, seed and seats. When
a label holds several seats of one game, those seats share the game's luck, so they are averaged
into one value per paired game first: the tests and intervals count games, never seats.

- Score: the mean of the per-game differences A − B with a Student t-interval over paired games
  (n − 1 degrees of freedom). The differences of an A vs A comparison are symmetric whatever the
  scores' own skew, which is where the t-interval holds its level from 10 pairs up.
- Win rate: Newcombe's square-and-add interval for a difference of paired proportions (a
  continuity-corrected Wilson interval for each side, joined through the correlation of the two
  sides), which does not collapse when no pair differs in wins. Shared wins and several seats
  make a side's per-game value a fraction in [0, 1]; each side's number of trials is then the
  games times the design effect of its seats (between the games and the seats).
- Below `MIN_PAIRS` paired games there is no interval: it would not hold its level.
- The sign test (exact binomial) and Wilcoxon's signed-rank test, on the per-game differences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

MIN_PAIRS = 10
"""Paired games below which no interval is given."""
LEVEL = 0.95

Floats = NDArray[np.float64]


def t_interval(diffs: ArrayLike, level: float = LEVEL) -> tuple[Floats, Floats]:
    """The t-interval for the mean along the last axis (one per row for a 2-D array)."""
    d = np.asarray(diffs, dtype=np.float64)
    n = d.shape[-1]
    if n < 2:
        raise ValueError("a t-interval needs two or more values")
    mean = d.mean(axis=-1)
    half = stats.t.ppf((1 + level) / 2, n - 1) * d.std(axis=-1, ddof=1) / math.sqrt(n)
    return mean - half, mean + half


def wilson(p: ArrayLike, n: ArrayLike, level: float = LEVEL) -> tuple[Floats, Floats]:
    """Wilson's score interval with continuity correction for a proportion `p` observed over
    `n` trials (Newcombe 1998, his method 4); `n` need not be whole."""
    p = np.asarray(p, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = stats.norm.ppf((1 + level) / 2)
    z2, q = z * z, 1 - p
    low = (
        2 * n * p + z2 - 1 - z * np.sqrt(np.maximum(z2 - 2 - 1 / n + 4 * p * (n * q + 1), 0))
    ) / (2 * (n + z2))
    high = (
        2 * n * p + z2 + 1 + z * np.sqrt(np.maximum(z2 + 2 - 1 / n + 4 * p * (n * q - 1), 0))
    ) / (2 * (n + z2))
    return np.where(p <= 0, 0.0, np.maximum(low, 0.0)), np.where(p >= 1, 1.0, np.minimum(high, 1.0))


def effective_n(values: Floats, seats: int) -> Floats:
    """Games times the design effect of averaging several seats a game (Kish): a game whose
    seats all win or all lose together is one trial, independent seats are `seats` trials.
    Never fewer than the games, never more than the seats; the games alone when the values do
    not vary (nothing to measure the effect from)."""
    n = values.shape[-1]
    p = values.mean(axis=-1)
    spread = values.var(axis=-1, ddof=1) if n > 1 else np.zeros_like(p)
    ratio = np.where(spread > 0, p * (1 - p) / np.where(spread > 0, spread, 1.0), 1.0)
    return np.asarray(n * np.clip(ratio, 1.0, max(1, seats)), dtype=np.float64)


def _correlation(x: Floats, y: Floats) -> Floats:
    """Pearson's correlation along the last axis; 0 where either side does not vary (as
    Newcombe sets phi when a margin of the 2×2 table is empty)."""
    dx = x - x.mean(axis=-1, keepdims=True)
    dy = y - y.mean(axis=-1, keepdims=True)
    denominator = np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))
    product = (dx * dy).sum(axis=-1)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, product / safe, 0.0)


def newcombe_paired(
    x: ArrayLike, y: ArrayLike, seats: int = 1, level: float = LEVEL
) -> tuple[Floats, Floats]:
    """An interval for mean(x) − mean(y), x and y paired per-game values in [0, 1] along the
    last axis (the label's share of wins in each game, over at most `seats` seats a game).
    Newcombe's (1998) square-and-add construction for paired proportions (his method 10),
    built here from continuity-corrected Wilson intervals over each side's effective number
    of trials: for 0/1 values and one seat a game that is his method 10 with corrected
    intervals, whose correlation term is the 2×2 table's phi."""
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    p1, p2 = xa.mean(axis=-1), ya.mean(axis=-1)
    l1, u1 = wilson(p1, effective_n(xa, seats), level)
    l2, u2 = wilson(p2, effective_n(ya, seats), level)
    phi = _correlation(xa, ya)
    below = np.sqrt(
        np.maximum((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0)
    )
    above = np.sqrt(
        np.maximum((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0)
    )
    return np.maximum(p1 - p2 - below, -1.0), np.minimum(p1 - p2 + above, 1.0)


def by_game(values: ArrayLike, games: ArrayLike) -> Floats:
    """The mean of `values` per game, `games` holding each value's game as 0, 1, 2, …"""
    v = np.asarray(values, dtype=np.float64)
    index = np.asarray(games, dtype=np.intp)
    if v.shape != index.shape or v.ndim != 1:
        raise ValueError("one game per value")
    sums = np.bincount(index, weights=v)
    counts = np.bincount(index)
    if (counts == 0).any():
        raise ValueError("games are numbered 0, 1, 2, … without gaps")
    return np.asarray(sums / counts, dtype=np.float64)


def sign_test(plus: int, minus: int) -> float:
    """Two-sided p-value of `plus` successes against `minus` under a fair coin."""
    n = plus + minus
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(plus, minus) + 1))
    return min(1.0, 2 * tail / (1 << n))


def signed_rank(diffs: ArrayLike) -> float:
    """Wilcoxon's two-sided signed-rank p-value, zero differences dropped (as the sign test
    drops ties): exact without tied magnitudes up to 50 values, else the normal approximation
    with continuity correction. 1.0 when every difference is zero."""
    d = np.asarray(diffs, dtype=np.float64)
    d = d[d != 0]
    if len(d) == 0:
        return 1.0
    tied = len(np.unique(np.abs(d))) < len(d)
    method = "asymptotic" if tied or len(d) > 50 else "exact"
    result = stats.wilcoxon(d, method=method, correction=method == "asymptotic")
    return float(result.pvalue)


@dataclass(frozen=True)
class PairedStats:
    """What the per-game values support; an interval is None where `no_interval` says why."""

    games: int
    mean_a: float
    mean_b: float
    mean_diff: float
    diff_low: float | None
    diff_high: float | None
    effect_size: float | None
    """Cohen's d_z: the mean difference over the standard deviation of the differences."""
    win_rate_a: float
    win_rate_b: float
    win_rate_diff: float
    win_diff_low: float | None
    win_diff_high: float | None
    a_better: int
    b_better: int
    ties: int
    sign_p: float
    signed_rank_p: float
    no_interval: str | None
    """Why there is no score interval (too few paired games, or no spread), else None."""
    no_win_interval: str | None


def too_few(games: int, least: int = MIN_PAIRS) -> str | None:
    if games >= least:
        return None
    if games == 1:
        return "one distinct paired game: one game says nothing about how much the next varies"
    return (
        f"too few pairs for an interval: {games} distinct paired games, at least {least} are "
        "needed for a 95% interval to hold its level"
    )


def paired_stats(
    score_a: ArrayLike,
    score_b: ArrayLike,
    win_a: ArrayLike,
    win_b: ArrayLike,
    *,
    seats: int = 1,
    least: int = MIN_PAIRS,
    level: float = LEVEL,
) -> PairedStats:
    """The comparison over per-game values (one entry per distinct paired game, averaged over
    at most `seats` seats of the label in it)."""
    sa, sb = np.asarray(score_a, np.float64), np.asarray(score_b, np.float64)
    wa, wb = np.asarray(win_a, np.float64), np.asarray(win_b, np.float64)
    n = len(sa)
    if n == 0 or not len(sb) == len(wa) == len(wb) == n:
        raise ValueError("one value per paired game on each side, and at least one game")
    diffs = sa - sb
    plus, minus = int((diffs > 0).sum()), int((diffs < 0).sum())
    # Equal differences are tested as equal: their computed spread can be rounding noise.
    spread = float(diffs.std(ddof=1)) if n > 1 and diffs.max() > diffs.min() else 0.0
    few = too_few(n, least)
    no_interval = few
    if few is None and spread == 0:
        no_interval = (
            f"every paired game has the same score difference ({float(diffs[0]):+.3f}): no "
            "spread to measure the uncertainty from"
        )
    low = high = win_low = win_high = None
    if no_interval is None:
        lo, hi = t_interval(diffs, level)
        low, high = float(lo), float(hi)
    if few is None:
        wlo, whi = newcombe_paired(wa, wb, seats, level)
        win_low, win_high = float(wlo), float(whi)
    return PairedStats(
        games=n,
        mean_a=float(sa.mean()),
        mean_b=float(sb.mean()),
        mean_diff=float(diffs.mean()),
        diff_low=low,
        diff_high=high,
        effect_size=float(diffs.mean()) / spread if spread > 0 else None,
        win_rate_a=float(wa.mean()),
        win_rate_b=float(wb.mean()),
        win_rate_diff=float((wa - wb).mean()),
        win_diff_low=win_low,
        win_diff_high=win_high,
        a_better=plus,
        b_better=minus,
        ties=n - plus - minus,
        sign_p=sign_test(plus, minus),
        signed_rank_p=signed_rank(diffs),
        no_interval=no_interval,
        no_win_interval=few,
    )
