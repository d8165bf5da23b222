"""Results by seat, and whether labels are spread evenly over the seats.

A seat can be worth more than the play in it (Chemistry's seat 2 won 40 of 40 games with the
same bot at every seat; White won 85 of 150 greedy-vs-greedy Influence games). A rating is only
a label's own when every label held every seat about as often; otherwise it mixes the label with
its seats, and `rate` says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .results import SeatResult

TOLERANCE = 0.1
"""A label is off balance at a seat when it held it more than one seat-game and more than this
share away from its even share."""


@dataclass
class SeatSplit:
    seat: int
    seat_name: str
    seats: int
    """Seat-games at this seat in finished distinct games."""
    win_rate: float | None
    mean_score: float | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def splits(rows: Sequence[SeatResult]) -> list[SeatSplit]:
    """Win rate and mean score per seat over the finished rows given."""
    sums: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    names: dict[int, str] = {}
    for row in rows:
        if not row.finished:
            continue
        entry = sums[row.seat]
        entry[0] += 1
        entry[1] += row.win or 0.0
        entry[2] += row.score or 0.0
        names.setdefault(row.seat, row.seat_name)
    return [
        SeatSplit(seat, names[seat], int(n), wins / n, score / n)
        for seat, (n, wins, score) in sorted(sums.items())
    ]


def imbalance(game: str, rows: Sequence[SeatResult], by: str) -> list[str]:
    """One warning per label that held some seat of `game` off its even share: the label's
    seat-games times the seat's share of all seat-games, over the finished rows given."""
    counts: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    per_seat: dict[int, int] = defaultdict(int)
    total = 0
    for row in rows:
        if row.finished:
            counts[row.label(by)][row.seat] += 1
            per_seat[row.seat] += 1
            total += 1
    warnings = []
    for label in sorted(counts):
        held = sum(counts[label].values())
        worst: tuple[float, int, float] | None = None
        for seat, seat_total in sorted(per_seat.items()):
            even = held * seat_total / total
            off = abs(counts[label][seat] - even)
            if off > max(1.0, TOLERANCE * even) and (worst is None or off > worst[0]):
                worst = (off, seat, even)
        if worst is not None:
            _, seat, even = worst
            warnings.append(
                f"{game}: {label} held seat {seat} in {counts[label][seat]} of its {held} "
                f"seat-games where an even spread is {even:.1f}: its rating mixes the label "
                "with its seats (see the win rate by seat)"
            )
    return warnings
