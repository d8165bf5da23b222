"""Territory's own numbers for `cogs-arena simulate`, read from the outcome's details: turns,
razes, eliminations, how much of the yield pool was lost, the winner's share of the points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..jsonread import ints, num, texts
from ..protocol import JSON, Outcome, SeriesNumbers


def winner_share(scores: Sequence[float]) -> float | None:
    """The top score over the sum of all scores (None where nobody scored)."""
    total = sum(scores)
    return round(max(scores) / total, 3) if total > 0 else None


def of_game(state: Any, outcome: Outcome) -> dict[str, JSON]:
    details = outcome.details
    start, end = num(details["poolStart"]), num(details["poolEnd"])
    life = texts(details["life"])
    return {
        "turns": details["turnsPlayed"],
        "razes": sum(ints(details["razes"])),
        "eliminated": life.count("eliminated"),
        "pool_lost": 1 - end / start if start else None,
        "winner_share": winner_share(outcome.scores),
    }


NUMBERS = SeriesNumbers(
    of_game,
    (
        ("turns", "turns per game"),
        ("razes", "razes per game"),
        ("eliminated", "seats eliminated per game"),
        ("pool_lost", "yield pool lost (share)"),
        ("winner_share", "winner's share of points"),
    ),
)
