"""Calibration of compare's statistics on synthetic paired games (tests/paired_synthetic.py):
A against A, so every interval that leaves out 0 is a false claim. 4,000 seeded repeats each at
10, 20 and 40 paired games, with scores skewed, tied or bounded like the games' own, one seat a
game or four seats that correlate 0.4 within a game: the score interval leaves out 0 in
5% ± 1.5% of repeats, the win-rate interval in no more than 6.5%. The same four-seat data with
seats counted as independent pairs (the old compare) claims a difference far more often."""

from __future__ import annotations

import numpy as np
import pytest
from paired_synthetic import FAMILIES, draw

from cogs_arena.transcripts.evaluation.paired import by_game, newcombe_paired, t_interval

REPEATS = 4000
SIZES = (10, 20, 40)


def _excludes_zero(low: np.ndarray, high: np.ndarray) -> float:
    return float(((low > 0) | (high < 0)).mean())


def _per_game(values: np.ndarray) -> np.ndarray:
    """(repeats, pairs, seats) → (repeats, pairs) through `by_game`, as compare averages."""
    repeats, pairs, seats = values.shape
    games = np.repeat(np.arange(repeats * pairs), seats)
    return by_game(values.ravel(), games).reshape(repeats, pairs)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("seats", "within"), [(1, 0.0), (4, 0.4)])
def test_a_against_a_claims_a_difference_five_percent_of_the_time(
    family: str, seats: int, within: float
) -> None:
    rng = np.random.default_rng([FAMILIES.index(family), seats])
    for pairs in SIZES:
        d = draw(rng, family, REPEATS, pairs, seats, within)
        diffs = _per_game(d.score_a - d.score_b)
        score_rate = _excludes_zero(*t_interval(diffs))
        win_rate = _excludes_zero(*newcombe_paired(_per_game(d.win_a), _per_game(d.win_b), seats))
        where = f"{family}, {seats} seat(s), {pairs} pairs"
        assert 0.035 <= score_rate <= 0.065, f"{where}: score interval {score_rate:.2%}"
        assert win_rate <= 0.065, f"{where}: win interval {win_rate:.2%}"
        if seats > 1:
            naive = _excludes_zero(*t_interval((d.score_a - d.score_b).reshape(REPEATS, -1)))
            assert naive > 0.1, f"{where}: seats as pairs {naive:.2%}"


def test_a_known_difference_is_found() -> None:
    """Power, so that the calibration is not met by intervals too wide to find anything: a
    shift of one latent standard deviation (an effect size near 0.7) at 40 paired games."""
    rng = np.random.default_rng(99)
    d = draw(rng, "skewed", 2000, 40, shift=1.0)
    low, _ = t_interval((d.score_a - d.score_b)[..., 0])
    assert float((low > 0).mean()) > 0.9
