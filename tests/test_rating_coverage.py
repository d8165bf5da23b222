"""Coverage of `rate`'s interval: 100-game subsets of 400-game synthetic leagues of known
strengths (Plackett–Luce rankings drawn from known utilities, 4 of 6 labels a game); the 95%
interval holds the true rating, anchored like the fit (the labels' mean at 0), between 90% and
99% of the time.

The subsets are the four disjoint quarters of each of 25 leagues, not overlapping draws from one
league: overlapping subsets share their league's luck (one league's games can put a label 0.36
from its true rating, and every subset of it inherits most of that), so their coverage says as
much about that league as about the interval. benchmarks/rate_coverage.py measures other sizes.
"""

from __future__ import annotations

import statistics

import pytest
from test_rating_fit import TRUE, league

from cogs_arena.transcripts.evaluation.rating import bootstrap_intervals


@pytest.mark.slow
def test_the_interval_holds_the_true_rating_about_95_percent_of_the_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Fails if the interval is too narrow (below 90%) or so wide it says little (above 99%)."""
    mean = sum(TRUE.values()) / len(TRUE)
    held, widths = [], []
    for number in range(25):
        games = league(400, 4, seed=number)
        for quarter in range(4):
            subset = games[quarter * 100 : (quarter + 1) * 100]
            intervals, used, why = bootstrap_intervals(subset, 200, seed=number * 4 + quarter)
            assert why is None and used == 200
            for label, (low, high) in intervals.items():
                held.append(low <= TRUE[label] - mean <= high)
                widths.append(high - low)
    assert len(held) == 100 * len(TRUE)
    coverage = sum(held) / len(held)
    with capsys.disabled():
        print(
            f"\nrate coverage: {coverage:.1%} of {len(held)} intervals hold the true rating; "
            f"median width {statistics.median(widths):.3f} (100-game subsets, 200 resamples)"
        )
    assert 0.90 <= coverage <= 0.99
