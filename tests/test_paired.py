"""The paired statistics as pure functions: each agrees with an independent reference (scipy,
Newcombe's published values), and each declines where the data cannot support it."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from cogs_arena.transcripts.evaluation.paired import (
    by_game,
    effective_n,
    newcombe_paired,
    paired_stats,
    signed_rank,
    t_interval,
    wilson,
)


def test_t_interval_matches_scipy_row_by_row() -> None:
    rng = np.random.default_rng(3)
    data = rng.normal(0.5, 2, (5, 12))
    low, high = t_interval(data)
    for row, lo, hi in zip(data, low, high, strict=True):
        ci = stats.ttest_1samp(row, 0.0).confidence_interval(0.95)
        assert (lo, hi) == pytest.approx((ci.low, ci.high))
    with pytest.raises(ValueError, match="two or more"):
        t_interval([1.0])


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
    # method 4 (score interval with continuity correction).
    [(81, 263, 0.2535, 0.3682), (15, 148, 0.0598, 0.1644), (0, 20, 0.0, 0.2005)],
)
def test_wilson_is_newcombes_corrected_score_interval(
    wins: int, n: int, low: float, high: float
) -> None:
    lo, hi = wilson(wins / n, n)
    assert (float(lo), float(hi)) == pytest.approx((low, high), abs=1e-4)


def test_the_win_interval_does_not_collapse_when_no_pair_differs() -> None:
    """Three pairs both won, seven both lost: no pair differs, yet the interval has width
    (the old bootstrap gave [0, 0]); it is symmetric about 0 and narrower than for the same
    margins in pairs that disagree."""
    x = y = [1.0] * 3 + [0.0] * 7
    low, high = newcombe_paired(x, y)
    assert float(low) == pytest.approx(-float(high)) and 0.05 < float(high) < 0.3
    unmatched_low, _ = newcombe_paired(x, y[::-1])  # the same margins, wins in other pairs
    assert float(unmatched_low) < float(low)
    all_lost = newcombe_paired([0.0] * 10, [0.0] * 10)
    assert float(all_lost[0]) < 0 < float(all_lost[1])


def test_effective_trials_between_games_and_seats() -> None:
    """0/1 values over one seat a game are as many trials as games; per-game shares of four
    independent seats count up to four trials a game, of four seats that move together one."""
    binary = np.array([1.0, 0, 0, 1, 0, 0, 0, 1, 0, 0])
    assert float(effective_n(binary, 1)) == 10
    rng = np.random.default_rng(8)
    independent = (rng.random((4000, 4)) < 0.3).mean(axis=1)
    assert float(effective_n(independent, 4)) == pytest.approx(4 * 4000, rel=0.05)
    together = (rng.random(4000) < 0.3).astype(float)
    assert float(effective_n(together, 4)) == pytest.approx(4000, rel=0.01)


def test_by_game_averages_each_games_values() -> None:
    means = by_game([1.0, 3.0, 10.0, 5.0, 20.0], [1, 1, 0, 1, 0])
    assert means.tolist() == [15.0, 3.0]
    with pytest.raises(ValueError, match="one game per value"):
        by_game([1.0], [0, 1])
    with pytest.raises(ValueError, match="without gaps"):
        by_game([1.0, 2.0], [0, 2])


def test_signed_rank_matches_scipy_and_takes_ties() -> None:
    d = [1.5, -0.5, 2.0, 3.0, 0.0, 4.5, 2.5]
    assert signed_rank(d) == pytest.approx(
        stats.wilcoxon([x for x in d if x], method="exact").pvalue
    )
    tied = [1.0, 1.0, -2.0, 3.0, 3.0, 3.0, 1.0]
    assert signed_rank(tied) == pytest.approx(
        stats.wilcoxon(tied, method="asymptotic", correction=True).pvalue
    )
    assert signed_rank([0.0, 0.0]) == 1.0


def test_paired_stats_says_why_there_is_no_interval() -> None:
    ones = [1.0] * 9
    few = paired_stats(ones, [0.0] * 9, ones, [0.0] * 9)
    assert few.diff_low is None and few.win_diff_low is None
    assert few.no_interval is not None and "9 distinct paired games" in few.no_interval
    one = paired_stats([2.0], [1.0], [1.0], [0.0])
    assert one.no_interval is not None and "one distinct paired game" in one.no_interval
    assert one.effect_size is None and one.sign_p == 1.0
    flat = paired_stats([3.0] * 12, [2.0] * 12, [0.5] * 12, [0.5] * 12)
    assert flat.diff_low is None and flat.no_interval is not None
    assert "same score difference (+1.000)" in flat.no_interval
    assert flat.win_diff_low is not None and flat.no_win_interval is None
    tenth = paired_stats([0.1] * 12, [0.0] * 12, [0.0] * 12, [0.0] * 12)  # 0.1 is not exact
    assert tenth.diff_low is None and tenth.effect_size is None
    assert tenth.no_interval is not None and "(+0.100)" in tenth.no_interval
    with pytest.raises(ValueError, match="one value per paired game"):
        paired_stats([], [], [], [])
