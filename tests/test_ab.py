"""The A/B permutation test on synthetic seat-swapped pairs (seeded): A against A keeps its
level, a known difference is found, repeats are merged before the test, and below the minimum
number of distinct pairs there is no claim."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cogs_arena.transcripts.evaluation.ab import (
    MIN_PAIRS,
    Pair,
    ab_result,
    arm_result,
    pair_difference,
    sign_flip_test,
)


def game_scores(rng: np.random.Generator, n: int, edge: float = 0.0) -> np.ndarray:
    """Scores shaped like the games' own: skewed (gamma), bounded, tied (rounded), with a seat
    edge for whoever sits first."""
    raw = np.round(rng.gamma(2.0, 3.0, size=n) + edge)
    return np.clip(raw, 0, 30)


def synthetic_pairs(rng: np.random.Generator, n: int, shift: float) -> list[Pair]:
    """n seat-swapped pairs: in the first game A sits first, in the second B does; B's scores
    carry `shift`."""
    pairs = []
    for i in range(n):
        a1, b2 = game_scores(rng, 2, edge=3.0)  # the first seat's edge
        b1, a2 = game_scores(rng, 2)
        diff = pair_difference((a1, b1 + shift), (a2, b2 + shift))
        pairs.append(Pair(key=f"p{i}", difference=diff))
    return pairs


@pytest.mark.parametrize("n", [10, 20, 40])
def test_a_against_a_keeps_its_level(n: int) -> None:
    """No true difference: p < 0.05 in 5% of repeats (± 2%), exact (10) or drawn (20, 40)."""
    rng = np.random.default_rng(n)
    repeats = 1000
    hits = 0
    for r in range(repeats):
        pairs = synthetic_pairs(rng, n, shift=0.0)
        test = sign_flip_test([p.difference for p in pairs], draws=2000, seed=r)
        hits += test.p_value < 0.05
    assert 0.03 <= hits / repeats <= 0.07, hits / repeats


def test_a_known_difference_is_found() -> None:
    """B scores 4 points more a game: with 20 pairs the test finds it in most repeats."""
    rng = np.random.default_rng(7)
    found = 0
    for r in range(200):
        pairs = synthetic_pairs(rng, 20, shift=4.0)
        test = sign_flip_test([p.difference for p in pairs], seed=r)
        assert test.mean > 0 or test.p_value > 0.05
        found += test.p_value < 0.05
    assert found / 200 > 0.8


def test_the_exact_test_is_the_enumeration() -> None:
    """At up to 16 pairs every sign pattern is counted: p for (1, 2, 3) is 2/8."""
    test = sign_flip_test([1.0, 2.0, 3.0])
    assert test.exact and test.draws == 8 and test.mean == 2.0
    means = [
        abs(sum(s * x for s, x in zip(signs, (1, 2, 3), strict=True)) / 3)
        for signs in itertools.product((-1, 1), repeat=3)
    ]
    assert test.p_value == sum(m >= 2.0 for m in means) / 8 == 0.25
    assert sign_flip_test([0.0] * 25).p_value == 1.0
    drawn = sign_flip_test([1.0] * 25, draws=999, seed=3)
    assert not drawn.exact and 0 < drawn.p_value < 0.01
    assert drawn == sign_flip_test([1.0] * 25, draws=999, seed=3)  # seeded: repeatable


def test_repeated_pairs_count_once_and_few_pairs_make_no_claim() -> None:
    """Twenty copies of one pair are one distinct pair: no test, and the statement says so;
    the null arm is reported beside the arm."""
    same = [Pair("k", 1.0)] * 30
    arm = arm_result("B - A", same)
    assert (arm.pairs, arm.distinct, arm.repeats, arm.test) == (30, 1, 29, None)
    assert "too few for a claim" in arm.statement(MIN_PAIRS) and "29 repeats" in arm.statement(
        MIN_PAIRS
    )
    rng = np.random.default_rng(1)
    result = ab_result(synthetic_pairs(rng, 20, 4.0), synthetic_pairs(rng, 20, 0.0))
    assert result.arm.test is not None and result.null.test is not None
    text = result.statement()
    assert "B - A: 20 distinct pairs" in text and "A' - A: 20 distinct pairs" in text
    assert "noise floor" in text
    assert arm_result("x", [Pair(str(i), 1.0) for i in range(19)]).test is None
