"""The A/B design of prompt ablations: each pairing is played twice on the same seed with the
seats swapped, so a seat's edge falls on both labels alike; a null arm (the baseline against a
copy of itself under a second label) is played the same way, and its difference shows the noise
floor beside the result. The test is a sign-flip permutation test over seat-swapped pairs:
under "the labels make no difference" swapping the labels within a pair only flips the sign
of its difference, so the pair (never the single game) is the unit.

Pairs that are the same two games played again count once: a deterministic game and players
give the same pair for every seed, and n copies of one pair are not n pieces of evidence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MIN_PAIRS = 20
"""Distinct pairs below which no claim is made."""
DEFAULT_DRAWS = 20_000
EXACT_UP_TO = 16
"""Up to this many pairs every sign pattern is enumerated (2**16 of them)."""
_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Pair:
    """One seat-swapped pair of games on one seed."""

    key: str
    """Equal for two pairs that are the same two games played again."""
    difference: float
    """B's result minus A's, averaged over the pair's two games."""


def pair_difference(first: tuple[float, float], second: tuple[float, float]) -> float:
    """(A, B) results of the two games of a pair → the pair's difference, B minus A."""
    return ((first[1] - first[0]) + (second[1] - second[0])) / 2


def distinct_pairs(pairs: Sequence[Pair]) -> tuple[list[Pair], int]:
    """The first pair of each key, and how many repeats were merged."""
    kept: dict[str, Pair] = {}
    for pair in pairs:
        kept.setdefault(pair.key, pair)
    return list(kept.values()), len(pairs) - len(kept)


@dataclass(frozen=True)
class PermutationTest:
    pairs: int
    mean: float
    """Mean pair difference (B minus A)."""
    p_value: float
    """Two-sided: the share of sign patterns whose mean is at least as far from 0."""
    exact: bool
    """Every sign pattern enumerated; else `draws` random ones (seeded)."""
    draws: int


def sign_flip_test(
    differences: Sequence[float], draws: int = DEFAULT_DRAWS, seed: int = 0
) -> PermutationTest:
    """The sign-flip permutation test of the mean pair difference. With up to `EXACT_UP_TO`
    pairs it is exact; above, `draws` seeded random sign patterns give p = (1 + hits) /
    (1 + draws), which never reports 0."""
    values = np.asarray(differences, dtype=float)
    n = len(values)
    if n == 0:
        raise ValueError("no pairs")
    observed = abs(float(values.mean()))
    if n <= EXACT_UP_TO:
        patterns = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
        means = np.abs(((1 - 2 * patterns) * values).mean(axis=1))
        hits = int((means >= observed - _TOLERANCE).sum())
        return PermutationTest(n, float(values.mean()), hits / 2**n, True, 2**n)
    rng = np.random.default_rng(seed)
    signs = rng.choice(np.array([-1.0, 1.0]), size=(draws, n))
    means = np.abs((signs * values).mean(axis=1))
    hits = int((means >= observed - _TOLERANCE).sum())
    return PermutationTest(n, float(values.mean()), (1 + hits) / (1 + draws), False, draws)


@dataclass(frozen=True)
class ArmResult:
    """One arm: the pairs played, the distinct ones the test used, and the test (none below
    the minimum number of distinct pairs)."""

    label: str
    pairs: int
    distinct: int
    repeats: int
    test: PermutationTest | None

    def statement(self, min_pairs: int) -> str:
        head = f"{self.label}: {self.distinct} distinct pairs"
        if self.repeats:
            head += f" ({self.repeats} repeats merged)"
        if self.test is None:
            return f"{head}: too few for a claim (the minimum is {min_pairs})"
        kind = "exact" if self.test.exact else f"{self.test.draws} draws"
        test = self.test
        return f"{head}: mean difference {test.mean:+.3f}, p = {test.p_value:.3g} ({kind})"


def arm_result(
    label: str,
    pairs: Sequence[Pair],
    min_pairs: int = MIN_PAIRS,
    draws: int = DEFAULT_DRAWS,
    seed: int = 0,
) -> ArmResult:
    kept, repeats = distinct_pairs(pairs)
    test = None
    if kept and len(kept) >= min_pairs:
        test = sign_flip_test([p.difference for p in kept], draws, seed)
    return ArmResult(label, len(pairs), len(kept), repeats, test)


@dataclass(frozen=True)
class ABResult:
    """The arm (B against A) beside the null arm (A′ against A)."""

    arm: ArmResult
    null: ArmResult
    min_pairs: int

    def statement(self) -> str:
        lines = [self.arm.statement(self.min_pairs), self.null.statement(self.min_pairs)]
        if self.arm.test is not None and self.null.test is not None:
            floor = abs(self.null.test.mean)
            lines.append(
                f"noise floor (null arm): |{self.null.test.mean:+.3f}|; the arm's difference is "
                + ("above" if abs(self.arm.test.mean) > floor else "not above")
                + " it"
            )
        return "\n".join(lines)


def ab_result(
    arm: Sequence[Pair],
    null: Sequence[Pair],
    *,
    labels: tuple[str, str] = ("B - A", "A' - A"),
    min_pairs: int = MIN_PAIRS,
    draws: int = DEFAULT_DRAWS,
    seed: int = 0,
) -> ABResult:
    return ABResult(
        arm_result(labels[0], arm, min_pairs, draws, seed),
        arm_result(labels[1], null, min_pairs, draws, seed),
        min_pairs,
    )
