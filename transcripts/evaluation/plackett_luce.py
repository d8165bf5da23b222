"""A batch Plackett–Luce fit: one log-strength per label from finished games' rankings, by
Newton's method on the log-likelihood, with no dependence on the order of the games.

A game's ranking is read place by place: the seats ranked first are chosen from all seats, the
next from those left, and so on; the seats of the last place are what remains and add nothing.
Seats sharing a place (a tie) are chosen together from the seats left, each with probability
strength / (sum of the strengths left): Breslow's approximation, the usual one for tied
survival times, which keeps a tie from saying which of the tied seats is better. A label holding
several seats of a game is several of the seats with one strength.

Each label also plays one virtual win and one virtual loss against a fixed reference of
log-strength 0 (`PRIOR_GAMES`), as if two two-seat games: without them the maximum-likelihood
strength of a label that always wins, or always loses, is infinite. Their pull is that of two
games, small beside a few dozen real ones.

The scale is anchored after the fit: the labels' mean log-strength is 0, or a named reference
label's is. A difference of d between two labels means odds of e^d : 1 that the first finishes
ahead of the second in a game of the two (73% for d = 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ranking = list[tuple[str, int]]
"""One finished game: (label, rank) per seat, rank 1 best, ties sharing a rank."""

PRIOR_GAMES = 1.0
"""Virtual wins (and as many losses) per label against the reference of log-strength 0."""

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Stages:
    """The games as a matrix of choice stages, built once and refitted with any game weights
    (a bootstrap resample is a weight per game)."""

    labels: tuple[str, ...]
    left: Floats
    """stages × labels: how many seats of each label were still unranked at the stage."""
    chosen: Floats
    """stages × labels: how many seats of each label were chosen at the stage."""
    size: Floats
    """Seats chosen at each stage."""
    game: npt.NDArray[np.int64]
    """The game each stage belongs to."""
    games: int


def stages(rankings: Sequence[Ranking]) -> Stages:
    labels = tuple(sorted({label for ranking in rankings for label, _ in ranking}))
    index = {label: i for i, label in enumerate(labels)}
    left_rows: list[list[float]] = []
    chosen_rows: list[list[float]] = []
    owner: list[int] = []
    for number, ranking in enumerate(rankings):
        places = sorted({rank for _, rank in ranking})
        remaining = [0.0] * len(labels)
        for label, _ in ranking:
            remaining[index[label]] += 1
        for place in places[:-1]:
            chosen = [0.0] * len(labels)
            for label, rank in ranking:
                if rank == place:
                    chosen[index[label]] += 1
            left_rows.append(list(remaining))
            chosen_rows.append(chosen)
            owner.append(number)
            remaining = [r - c for r, c in zip(remaining, chosen, strict=True)]
    width = len(labels)
    left = np.array(left_rows, dtype=np.float64).reshape(len(left_rows), width)
    chosen_m = np.array(chosen_rows, dtype=np.float64).reshape(len(chosen_rows), width)
    return Stages(
        labels=labels,
        left=left,
        chosen=chosen_m,
        size=chosen_m.sum(axis=1),
        game=np.array(owner, dtype=np.int64),
        games=len(rankings),
    )


def fit_stages(
    data: Stages,
    weights: Floats | None = None,
    prior: float = PRIOR_GAMES,
    tolerance: float = 1e-9,
    start: Floats | None = None,
) -> Floats:
    """Log-strengths (unanchored: the reference is at 0) maximising the weighted
    log-likelihood plus the prior's virtual games. `weights` gives each game's count; `start`
    (a nearby fit) saves steps."""
    counts = np.ones((1, data.games)) if weights is None else weights[None, :]
    fitted: Floats = fit_many(data, counts, prior, tolerance, start)[0]
    return fitted


CELLS = 2_000_000
"""Resamples are fitted together in batches of about this many stage × label cells."""


def fit_many(
    data: Stages,
    weights: Floats,
    prior: float = PRIOR_GAMES,
    tolerance: float = 1e-9,
    start: Floats | None = None,
) -> Floats:
    """`fit_stages` for each row of `weights` (resamples × games), fitted side by side: one
    Newton step for every resample at once costs little more than one."""
    width = len(data.labels)
    rounds = weights.shape[0]
    if width == 0:
        return np.zeros((rounds, 0))
    batch = max(1, CELLS // max(1, data.left.size))
    if rounds > batch:
        parts = [
            fit_many(data, weights[i : i + batch], prior, tolerance, start)
            for i in range(0, rounds, batch)
        ]
        return np.concatenate(parts)
    per_stage = weights[:, data.game]  # resamples × stages
    wins = per_stage @ data.chosen
    theta = np.zeros((rounds, width)) if start is None else np.tile(start, (rounds, 1))
    pin = np.full((width, width), 1.0 / width) if prior <= 0 else 0.0
    for _ in range(200):
        strength = np.exp(theta)
        share = data.left[None, :, :] * strength[:, None, :]  # resamples × stages × labels
        total = share.sum(axis=2)
        total = np.where(total > 0, total, 1.0)
        factor = per_stage * data.size / total
        expected = np.matmul(factor[:, None, :], share)[:, 0, :]
        p = strength / (1.0 + strength)
        gradient = wins - expected + prior * (1.0 - 2.0 * p)
        curvature = np.matmul(share.transpose(0, 2, 1), share * (-factor / total)[:, :, None])
        diagonal = np.arange(width)
        curvature[:, diagonal, diagonal] += expected + 2.0 * prior * p * (1.0 - p)
        # without the reference the scale itself is free: pin its mean
        step = np.linalg.solve(curvature + pin, gradient[:, :, None])[:, :, 0]
        # Newton's step on a concave function, shortened where it overshoots far from the top
        limit = np.max(np.abs(step), axis=1)
        step *= np.minimum(1.0, 2.0 / np.maximum(limit, 1e-300))[:, None]
        theta = theta + step
        if np.max(limit) < tolerance:
            break
    fitted: Floats = theta
    return fitted


def anchored(theta: Floats, labels: Sequence[str], reference: str | None) -> Floats:
    """Log-strengths moved so the labels' mean is 0, or `reference`'s value is."""
    zero = theta.mean() if reference is None else theta[list(labels).index(reference)]
    moved: Floats = theta - zero
    return moved


def fit(
    rankings: Sequence[Ranking], reference: str | None = None, prior: float = PRIOR_GAMES
) -> dict[str, float]:
    """The anchored log-strength of every label in `rankings`."""
    data = stages(rankings)
    theta = anchored(fit_stages(data, prior=prior), data.labels, reference)
    return {label: float(value) for label, value in zip(data.labels, theta, strict=True)}
