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

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from . import rating_openskill
from .plackett_luce import Ranking
from .rating_fit import MIN_GAMES as MIN_GAMES
from .rating_fit import Fitter
from .rating_fit import bootstrap_intervals as bootstrap_intervals
from .rating_fit import fit as fit
from .rating_fit import percentile as percentile
from .results import SeatResult
from .seat_balance import SeatSplit, imbalance, splits

METHODS = ("plackett-luce", "openskill")


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
        fitter = Fitter(rankings, method, reference)
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
