"""Chemistry's own numbers for `cogs-arena simulate`, read from the outcome's details: the
shift counters, how the shifts ended, the winner's share of the points."""

from __future__ import annotations

from typing import Any

from ..protocol import JSON, Outcome, SeriesNumbers

COUNTS = (
    "ticks",
    "shifts",
    "food_made",
    "food_eaten",
    "delivered",
    "misdrops",
    "hoarded",
    "reactions",
    "food_rotted",
    "food_spoiled",
    "cold_events",
)


def of_game(state: Any, outcome: Outcome) -> dict[str, JSON]:
    details = outcome.details
    numbers: dict[str, JSON] = {key: details[key] for key in COUNTS}
    numbers["ending"] = details["ending"]
    total = sum(outcome.scores)
    numbers["winner_share"] = round(max(outcome.scores) / total, 3) if total > 0 else None
    return numbers


NUMBERS = SeriesNumbers(
    of_game,
    (
        *((key, key.replace("_", " ") + " per game") for key in COUNTS),
        ("winner_share", "winner's share of points"),
    ),
    (("ending", "how the shifts ended"),),
)
