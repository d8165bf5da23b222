"""How a rejected play answers, in one shape whether it was the first or the second rejection at
a decision, a single move or one of a batch: the reason, what was applied before it, and how
many tries are left (or the fallback the host played once none were)."""

from __future__ import annotations

from ..engines import GameError, IllegalMove
from .models import Rejection

TRIES = 2
"""Rejections a seat may have at one decision; the last one plays the default move for it."""


def rejection_error(
    errors: dict[str, type[GameError]],
    rejection: Rejection,
    accepted: list[str],
    fallback: str | None,
    tries_left: int,
) -> GameError:
    """The tool error a rejected play answers with, of the rejection's own code."""
    where = f"Move {rejection.index + 1} ({rejection.move!r}) rejected: " if rejection.index else ""
    reason = rejection.reason.rstrip()
    if not reason.endswith((".", "!", "?")):
        reason += "."
    applied = (
        f" Applied before it: {'; '.join(accepted)}."
        if accepted
        else " Nothing you sent was applied."
    )
    if fallback is not None:
        tries = (
            " That was your second rejection at this decision, so no tries are left: the host"
            f" played the default move for you ({fallback}), recorded as a fallback."
        )
    elif tries_left > 0:
        tries = (
            " You may try once more for this decision; a second rejection plays the default"
            " move for you (recorded as a fallback)."
        )
    else:
        tries = " No tries are left for this decision."
    return errors.get(rejection.code, IllegalMove)(where + reason + applied + tries)
