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
    left = np.array(left_rows, dtype=np.float64).reshape(-1, width)
    chosen_m = np.array(chosen_rows, dtype=np.float64).reshape(-1, width)
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
    width = len(data.labels)
    if width == 0:
        return np.zeros(0)
    per_stage = np.ones(len(data.size)) if weights is None else weights[data.game]
    wins = data.chosen.T @ per_stage
    theta = np.zeros(width) if start is None else start.copy()
    for _ in range(200):
        strength = np.exp(theta)
        share = data.left * strength  # stages × labels
        total = share.sum(axis=1)
        factor = per_stage * data.size / np.where(total > 0, total, 1.0)
        expected = share.T @ factor
        p = strength / (1.0 + strength)
        gradient = wins - expected + prior * (1.0 - 2.0 * p)
        curvature = np.diag(expected + 2.0 * prior * p * (1.0 - p)) - (
            (share * (factor / np.where(total > 0, total, 1.0))[:, None]).T @ share
        )
        if prior <= 0:  # without the reference, the scale itself is free: pin its mean
            curvature += np.full((width, width), 1.0 / width)
        step = np.linalg.solve(curvature, gradient)
        # Newton's step on a concave function, halved where it overshoots far from the top
        limit = np.max(np.abs(step))
        if limit > 2.0:
            step *= 2.0 / limit
        theta = theta + step
        if limit < tolerance:
            break
    return theta


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
