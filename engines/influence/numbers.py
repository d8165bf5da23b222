"""Influence's own numbers for `cogs-arena simulate`, read from the outcome's details: turns,
the winner's share of the area, and wins by colour."""

from __future__ import annotations

from typing import Any

from ..jsonread import num, obj
from ..protocol import JSON, Outcome, SeriesNumbers


def of_game(state: Any, outcome: Outcome) -> dict[str, JSON]:
    details = outcome.details
    area = {key: num(value) for key, value in obj(details["area"]).items()}
    winner = details["winner"]
    total = sum(area.values())
    return {
        "turns": details["turn"],
        "winner_area_share": area[str(winner)] / total if winner is not None and total else None,
        # By colour, not seat: White moves first, which a symmetric (seeded) board cannot offset.
        "colour": "draw" if winner is None else str(winner),
    }


NUMBERS = SeriesNumbers(
    of_game,
    (("turns", "turns per game"), ("winner_area_share", "winner's area share")),
    (("colour", "wins by colour"),),
)
