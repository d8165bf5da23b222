"""Ratings per label from distinct finished games, with bootstrap intervals over distinct games.

Records of the same game played again (`distinct.game_key`: same game, ruleset, seat map, moves
and outcome) are one game: a deterministic game with deterministic players gives the same game
for every seed, and rating it n times would claim n times the evidence. Results (ratings, win
rates, mean scores, seat counts) come from distinct games; the illegal-attempt and fallback rates
come from every record, since each record's attempts did happen.

The default fit is the batch Plackett–Luce fit of `plackett_luce` (order-free, anchored at the
labels' mean, or at a reference label). `method="openskill"` is the older online fit
(`rating_openskill`), on openskill's scale. Ratings are fitted per game kind.

The interval is an expanded percentile bootstrap: `bootstrap` times, draw as many distinct
finished games as there are, with replacement (a seeded generator), refit and anchor; the
interval runs between two percentiles of each label's refitted rating, the 2.5th and 97.5th
moved outwards for a small number of games (`expanded_tail`: the 0.86th and 99.14th at 10 games,
the 2.3rd and 97.7th at 100). A resample missing a rated
label (or the reference) cannot be anchored like the full fit and is left out. There is no
interval below `MIN_GAMES` distinct finished games, when every distinct game ranked the labels
alike (resampling them cannot vary), or when fewer than half the resamples were usable; the
game's summary says which.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from . import plackett_luce, rating_openskill
from .plackett_luce import Ranking
from .results import SeatResult
from .seat_balance import SeatSplit, imbalance, splits

METHODS = ("plackett-luce", "openskill")

MIN_GAMES = 10
"""Distinct finished games below which `rate` gives no interval: a bootstrap over a handful of
games shows the spread of those few, narrower than the data can support."""


@dataclass
class LabelRating:
    game: str
    label: str
    rating: float | None
    """The anchored Plackett–Luce log-strength (or openskill's mu); None for a label with no
    finished distinct game."""
    low: float | None
    high: float | None
    """The 95% expanded percentile bootstrap interval; None where the game's summary says
    why."""
    sigma: float | None
    """openskill's sigma; None for the Plackett–Luce fit."""
    games: int
    """Distinct games the label played in (finished or not)."""
    records: int
    """Transcripts the label played in: repeats of one game each count."""
    seats: int
    """Seat-games in distinct games."""
    finished: int
    """Seat-games in finished distinct games: the ones rated."""
    win_rate: float | None
    mean_score: float | None
    illegal_rate: float | None
    """Rejected `play` attempts per attempt, over every record; None for seats that never
    called `play` (bots)."""
    fallback_rate: float | None
    """Moves the host chose (every move of a defaulted turn) per move the seat made, over every
    record."""
    by_seat: list[SeatSplit] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def csv_row(self) -> dict[str, Any]:
        """Flat: the seats as `seat:count` pairs."""
        row = self.to_json()
        row["by_seat"] = " ".join(f"{s.seat}:{s.seats}" for s in self.by_seat)
        return row


@dataclass
class GameSummary:
    game: str
    records: int
    """Transcripts of this game kind."""
    distinct: int
    repeats_merged: int
    """Records that repeated a game already counted."""
    rated: int
    """Distinct finished games with two seats or more: what the fit uses."""
    resamples: int
    """Bootstrap resamples the interval rests on (0 with no interval)."""
    no_interval: str | None
    """Why no label of this game has an interval; None when they have."""
    seats: list[SeatSplit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RatingTable:
    by: str
    method: str
    anchor: str
    """"mean" (the labels' mean is 0) or the reference label (at 0); openskill: "none"."""
    bootstrap: int
    seed: int
    games: list[GameSummary] = field(default_factory=list)
    rows: list[LabelRating] = field(default_factory=list)
    """By game, then best rating first."""

    @property
    def interval(self) -> str:
        """What the interval is, in a sentence."""
        return (
            f"95% expanded percentile bootstrap intervals over {self.bootstrap} refits on distinct "
            "games drawn with replacement"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "method": self.method,
            "anchor": self.anchor,
            "bootstrap": self.bootstrap,
            "seed": self.seed,
            "interval": self.interval,
            "games": [g.to_json() for g in self.games],
            "labels": [r.to_json() for r in self.rows],
        }


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


def distinct_records(rows: Sequence[SeatResult]) -> list[list[list[SeatResult]]]:
    """Records grouped by game: each group the records of one distinct game, each record its
    rows by seat; groups and records in (ruleset, seed, file) order."""
    records: dict[str, list[SeatResult]] = defaultdict(list)
    for row in rows:
        records[row.path].append(row)
    groups: dict[str, list[list[SeatResult]]] = defaultdict(list)
    for path in sorted(records, key=lambda p: _order(records[p][0])):
        record = sorted(records[path], key=lambda r: r.seat)
        groups[record[0].game_key or path].append(record)
    return list(groups.values())


def _order(row: SeatResult) -> tuple[str, str, str]:
    return (row.ruleset_digest, row.seed, row.path)


def _ranking(record: Sequence[SeatResult], by: str) -> Ranking | None:
    ranked = [(r.label(by), r.rank) for r in record if r.finished and r.rank is not None]
    if len(ranked) < 2 or len(ranked) != len(record):
        return None
    return [(label, rank) for label, rank in ranked if rank is not None]


class _Fitter:
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
    return _Fitter(rankings, method, reference).fit(None)


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
    return _Fitter(rankings, method, reference).intervals(rounds, seed)


def _label_sums(groups: list[list[list[SeatResult]]], by: str) -> dict[str, dict[str, Any]]:
    sums: dict[str, dict[str, Any]] = {}

    def entry(label: str) -> dict[str, Any]:
        return sums.setdefault(
            label,
            {"games": 0, "records": 0, "seats": 0, "finished": 0, "wins": 0.0, "score": 0.0}
            | {"attempts": 0, "illegal": 0, "host_moves": 0, "moves": 0, "rows": []},
        )

    for group in groups:
        for label in {r.label(by) for r in group[0]}:
            entry(label)["games"] += 1
        for record in group:
            for label in {r.label(by) for r in record}:
                entry(label)["records"] += 1
            for row in record:
                s = entry(row.label(by))
                for key in ("attempts", "illegal", "host_moves", "moves"):
                    s[key] += getattr(row, key)
        for row in group[0]:
            s = entry(row.label(by))
            s["seats"] += 1
            s["rows"].append(row)
            if row.finished:
                s["finished"] += 1
                s["wins"] += row.win or 0.0
                s["score"] += row.score or 0.0
    return sums


def _best_first(row: LabelRating) -> tuple[bool, float, str]:
    return (row.rating is None, -(row.rating or 0.0), row.label)


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def check_reference(rows: Sequence[SeatResult], by: str, reference: str) -> None:
    """Raises ValueError unless `reference` has a finished distinct game in every game kind."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        kinds.setdefault(row.game, set())
        if row.finished:
            kinds[row.game].add(row.label(by))
    for game, labels in sorted(kinds.items()):
        if reference not in labels:
            shown = ", ".join(sorted(labels)) or "none"
            raise ValueError(
                f"--anchor {reference!r} has no finished {game} game; rated labels: {shown}"
            )


def rate(
    rows: Sequence[SeatResult],
    by: str = "model",
    bootstrap: int = 200,
    seed: int = 0,
    *,
    method: str = "plackett-luce",
    reference: str | None = None,
) -> RatingTable:
    """Ratings per label of `by` (see `results.parse_by`) for each game kind in `rows`.
    Raises ValueError for a negative `bootstrap`, an unknown method, or a reference label
    (`check_reference`) that is not rated in every game kind."""
    if bootstrap < 0:
        raise ValueError("bootstrap rounds must be 0 or more")
    if method not in METHODS:
        raise ValueError(f"method {method!r}: use {' or '.join(METHODS)}")
    if reference is not None:
        if method == "openskill":
            raise ValueError("--anchor applies to the Plackett–Luce fit, not to openskill")
        check_reference(rows, by, reference)
    anchor = "none" if method == "openskill" else reference or "mean"
    table = RatingTable(by=by, method=method, anchor=anchor, bootstrap=bootstrap, seed=seed)
    kinds: dict[str, list[SeatResult]] = defaultdict(list)
    for row in rows:
        kinds[row.game].append(row)
    for game in sorted(kinds):
        groups = distinct_records(kinds[game])
        rankings = [r for r in (_ranking(g[0], by) for g in groups) if r is not None]
        fitter = _Fitter(rankings, method, reference)
        fitted = fitter.fit(None) if rankings else {}
        sigmas = rating_openskill.fit(rankings) if method == "openskill" else {}
        intervals, used, why = fitter.intervals(bootstrap, seed) if rankings else ({}, 0, None)
        if not rankings:
            why = "no finished game with two seats or more"
        first_records = [row for g in groups for row in g[0]]
        records = sum(len(g) for g in groups)
        table.games.append(
            GameSummary(
                game=game,
                records=records,
                distinct=len(groups),
                repeats_merged=records - len(groups),
                rated=len(rankings),
                resamples=used if why is None else 0,
                no_interval=why,
                seats=splits(first_records),
                warnings=imbalance(game, first_records, by),
            )
        )
        rated: list[LabelRating] = []
        for label, s in _label_sums(groups, by).items():
            low, high = intervals.get(label, (None, None))
            rated.append(
                LabelRating(
                    game=game,
                    label=label,
                    rating=fitted.get(label),
                    low=low,
                    high=high,
                    sigma=sigmas[label][1] if label in sigmas else None,
                    games=s["games"],
                    records=s["records"],
                    seats=s["seats"],
                    finished=s["finished"],
                    win_rate=_ratio(s["wins"], s["finished"]),
                    mean_score=_ratio(s["score"], s["finished"]),
                    illegal_rate=_ratio(s["illegal"], s["attempts"]),
                    fallback_rate=_ratio(s["host_moves"], s["moves"]),
                    by_seat=splits(s["rows"]),
                )
            )
        table.rows.extend(sorted(rated, key=_best_first))
    return table
