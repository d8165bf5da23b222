"""The fit and the bootstrap behind `rate`: one game kind's rankings fitted by Plackett–Luce (or
openskill), refitted over resampled distinct games, and the expanded percentile interval (see
`rating`'s docstring for what the interval is)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import plackett_luce, rating_openskill
from .plackett_luce import Ranking

MIN_GAMES = 10
"""Distinct finished games below which `rate` gives no interval: a bootstrap over a handful of
games shows the spread of those few, narrower than the data can support."""


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lower = int(pos)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (pos - lower)


def expanded_tail(games: int, level: float = 0.95) -> float:
    """The lower percentile (as a fraction) of Hesterberg's expanded percentile interval over
    `games` resampled units: the plain percentile interval is too narrow at small n (the
    bootstrap spread is that of n draws from the sample, not of the population), so its tails
    are moved out to where a normal quantile equals sqrt(n / (n - 1)) times Student's t with
    n - 1 degrees of freedom. 0.025 becomes 0.0086 at 10 games, 0.016 at 20, 0.023 at 100."""
    from scipy.stats import norm, t

    half = (1.0 - level) / 2.0
    z = math.sqrt(games / (games - 1)) * float(t.ppf(1.0 - half, games - 1))
    return float(norm.sf(z))


class Fitter:
    """One game kind's rankings, fitted by the chosen method, with resample weights."""

    def __init__(self, rankings: list[Ranking], method: str, reference: str | None) -> None:
        self.rankings = rankings
        self.method = method
        self.reference = reference
        self.stages = plackett_luce.stages(rankings)
        self.labels = self.stages.labels
        index = {label: i for i, label in enumerate(self.labels)}
        self.present = np.zeros((len(rankings), len(self.labels)))
        for number, ranking in enumerate(rankings):
            for label, _ in ranking:
                self.present[number, index[label]] = 1.0
        self.start: np.ndarray[Any, np.dtype[np.float64]] | None = None

    def fit(self, weights: np.ndarray[Any, np.dtype[np.float64]] | None) -> dict[str, float]:
        if self.method == "openskill":
            # in the full fit's order, so the resample adds no noise of order of its own
            counts = np.ones(len(self.rankings)) if weights is None else weights
            picked = [r for r, n in zip(self.rankings, counts, strict=True) for _ in range(int(n))]
            return {label: mu for label, (mu, _) in rating_openskill.fit(picked).items()}
        theta = plackett_luce.fit_stages(self.stages, weights, start=self.start)
        if weights is None:
            self.start = theta
        theta = plackett_luce.anchored(theta, self.labels, self.reference)
        return {label: float(v) for label, v in zip(self.labels, theta, strict=True)}

    def fit_all(
        self, weights: np.ndarray[Any, np.dtype[np.float64]]
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Ratings per resample (rows) and label (columns, in `labels` order)."""
        if self.method == "openskill":
            rows = [self.fit(w) for w in weights]
            return np.array([[row[x] for x in self.labels] for row in rows]).reshape(
                len(weights), len(self.labels)
            )
        theta = plackett_luce.fit_many(self.stages, weights, start=self.start)
        zero = (
            theta.mean(axis=1)
            if self.reference is None
            else theta[:, self.labels.index(self.reference)]
        )
        return theta - zero[:, None]

    def intervals(
        self, rounds: int, seed: int
    ) -> tuple[dict[str, tuple[float, float]], int, str | None]:
        """(low, high) per label, the resamples used, and why there is no interval, if not."""
        games = len(self.rankings)
        why = None
        if rounds == 0:
            why = "no bootstrap was asked for (--bootstrap 0)"
        elif games == 1:
            why = "one distinct finished game: resampling it only repeats it"
        elif len({tuple(sorted(r)) for r in self.rankings}) == 1:
            why = (
                f"all {games} distinct finished games ranked the labels alike: resampling "
                "them cannot show how another game would differ"
            )
        elif games < MIN_GAMES:
            why = (
                f"{games} distinct finished games: a bootstrap needs {MIN_GAMES} or more to "
                "show a spread the data can support"
            )
        if why is not None:
            return {}, 0, why
        if self.method != "openskill" and self.start is None:
            self.fit(None)  # the full fit: where every refit starts
        rng = np.random.default_rng(seed)
        picks = [rng.integers(0, games, games) for _ in range(rounds)]
        weights = np.array([np.bincount(p, minlength=games) for p in picks], dtype=np.float64)
        usable = weights[np.all(weights @ self.present > 0, axis=1)]
        used = len(usable)
        if used * 2 < rounds:
            why = (
                f"only {used} of {rounds} resamples held every label: some labels are in too "
                "few distinct games"
            )
            return {}, used, why
        tail = expanded_tail(games)
        out = {
            label: (percentile(values, tail), percentile(values, 1.0 - tail))
            for label, values in zip(self.labels, self.fit_all(usable).T.tolist(), strict=True)
        }
        if self.reference is not None:
            out.pop(self.reference, None)  # at 0 in every refit, by definition
        return out, used, None


def fit(
    rankings: list[Ranking], *, method: str = "plackett-luce", reference: str | None = None
) -> dict[str, float]:
    """Every label's rating from `rankings` (distinct games), as `rate` fits them."""
    return Fitter(rankings, method, reference).fit(None)


def bootstrap_intervals(
    rankings: list[Ranking],
    rounds: int,
    seed: int,
    *,
    method: str = "plackett-luce",
    reference: str | None = None,
) -> tuple[dict[str, tuple[float, float]], int, str | None]:
    """(low, high) per label from `rounds` resamples of `rankings` (distinct games), the
    resamples used, and why there is no interval (then the first is empty)."""
    return Fitter(rankings, method, reference).intervals(rounds, seed)
