"""Plackett–Luce ratings per label, with 95% intervals from a bootstrap over games.

Each finished game is one ranking of its seats; `openskill` updates the labels' ratings game by
game, in a fixed order (ruleset, seed, file), so the same transcripts give the same table in
whatever order they are named. Ratings are fitted per game kind (a Territory rating says nothing
about Influence). The interval resamples whole games with replacement (a seeded generator),
refits, and takes the 2.5th and 97.5th percentiles of each label's rating.

An online fit depends on the order of games, and its prior holds ratings near 25 while games
are few: over the first few dozen games of nine-seat Territory the ratings spread out before
they settle, and so do the intervals (measured in tests/test_rate.py and the bot league
benchmark). Read ratings from a few dozen games as an order, not as distances.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from .results import SeatResult

Match = list[tuple[str, int]]
"""One finished game: (label, rank) per seat, rank 1 best, ties sharing a rank."""


@dataclass
class LabelRating:
    game: str
    label: str
    rating: float
    """The Plackett–Luce skill (openskill's mu; 25 is where every label starts)."""
    low: float | None
    high: float | None
    """The 95% bootstrap interval; None with no bootstrap."""
    sigma: float
    games: int
    """Games the label played in (finished or not)."""
    seats: int
    finished: int
    """Seats in finished games: the ones rated."""
    win_rate: float | None
    mean_score: float | None
    illegal_rate: float | None
    """Rejected `play` attempts per attempt; None for seats that never called `play` (bots)."""
    fallback_rate: float | None
    """Moves the host chose per move the seat made."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RatingTable:
    by: str
    bootstrap: int
    seed: int
    rows: list[LabelRating] = field(default_factory=list)
    """By game, then best rating first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "bootstrap": self.bootstrap,
            "seed": self.seed,
            "labels": [r.to_json() for r in self.rows],
        }


def _model() -> PlackettLuce:
    # tau=0: a bot or a model does not change between games, so no drift is added to sigma and
    # more games keep narrowing the estimate.
    return PlackettLuce(tau=0.0)


def fit(matches: Sequence[Match]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per label after rating every match in order.

    A label holding several seats of one game is rated once per seat from the same prior; its
    mu moves by the sum of the seats' moves and its precision (1/sigma²) gains what each seat
    gained, as if the seats were games of their own."""
    model = _model()
    state: dict[str, tuple[float, float]] = {}
    for match in matches:
        priors = [state.get(label, (model.mu, model.sigma)) for label, _ in match]
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
        rated = model.rate(teams, ranks=[float(rank) for _, rank in match])
        moved: dict[str, tuple[float, float]] = {}
        for (label, _), (mu, sigma), team in zip(match, priors, rated, strict=True):
            after = team[0]
            dmu, dprec = moved.get(label, (0.0, 0.0))
            moved[label] = (dmu + after.mu - mu, dprec + after.sigma**-2 - sigma**-2)
        for label, (dmu, dprec) in moved.items():
            mu, sigma = state.get(label, (model.mu, model.sigma))
            state[label] = (mu + dmu, (sigma**-2 + max(dprec, 0.0)) ** -0.5)
    return state


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lower = int(pos)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (pos - lower)


def bootstrap_intervals(
    matches: Sequence[Match], rounds: int, seed: int
) -> dict[str, tuple[float, float]]:
    """(low, high) per label over `rounds` refits on games drawn with replacement. A label
    missing from a resample adds nothing to it."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        # In the order the full fit saw them: openskill rates online, and a shuffled order
        # would add the order's noise to the interval.
        picks = sorted(rng.randrange(len(matches)) for _ in matches)
        for label, (mu, _) in fit([matches[i] for i in picks]).items():
            draws[label].append(mu)
    return {
        label: (percentile(values, 0.025), percentile(values, 0.975))
        for label, values in draws.items()
    }


def _matches(rows: Sequence[SeatResult], by: str) -> list[Match]:
    games: dict[str, list[SeatResult]] = defaultdict(list)
    for row in rows:
        if row.finished and row.rank is not None:
            games[row.path].append(row)
    ordered = sorted(games.values(), key=lambda g: (g[0].ruleset_digest, g[0].seed, g[0].path))
    return [
        [(r.label(by), r.rank or 0) for r in sorted(game, key=lambda r: r.seat)]
        for game in ordered
        if len(game) >= 2
    ]


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _summaries(rows: Sequence[SeatResult], by: str) -> dict[str, dict[str, Any]]:
    sums: dict[str, dict[str, Any]] = {}
    for row in rows:
        s = sums.setdefault(
            row.label(by),
            {"paths": set(), "seats": 0, "finished": 0, "wins": 0.0, "score": 0.0}
            | {"attempts": 0, "illegal": 0, "fallbacks": 0, "moves": 0},
        )
        s["paths"].add(row.path)
        s["seats"] += 1
        for key in ("attempts", "illegal", "fallbacks", "moves"):
            s[key] += getattr(row, key)
        if row.finished:
            s["finished"] += 1
            s["wins"] += row.win or 0.0
            s["score"] += row.score or 0.0
    return sums


def rate(
    rows: Sequence[SeatResult], by: str = "model", bootstrap: int = 200, seed: int = 0
) -> RatingTable:
    """Ratings per label of `by` (see `results.parse_by`) for each game kind in `rows`."""
    if bootstrap < 0:
        raise ValueError("bootstrap rounds must be 0 or more")
    table = RatingTable(by=by, bootstrap=bootstrap, seed=seed)
    kinds: dict[str, list[SeatResult]] = defaultdict(list)
    for row in rows:
        kinds[row.game].append(row)
    for game in sorted(kinds):
        matches = _matches(kinds[game], by)
        fitted = fit(matches)
        intervals = bootstrap_intervals(matches, bootstrap, seed) if matches and bootstrap else {}
        default = (_model().mu, _model().sigma)
        rated: list[LabelRating] = []
        for label, s in _summaries(kinds[game], by).items():
            mu, sigma = fitted.get(label, default)
            low, high = intervals.get(label, (None, None))
            rated.append(
                LabelRating(
                    game=game,
                    label=label,
                    rating=mu,
                    low=low,
                    high=high,
                    sigma=sigma,
                    games=len(s["paths"]),
                    seats=s["seats"],
                    finished=s["finished"],
                    win_rate=_ratio(s["wins"], s["finished"]),
                    mean_score=_ratio(s["score"], s["finished"]),
                    illegal_rate=_ratio(s["illegal"], s["attempts"]),
                    fallback_rate=_ratio(s["fallbacks"], s["moves"]),
                )
            )
        table.rows.extend(sorted(rated, key=lambda r: (-r.rating, r.label)))
    return table
