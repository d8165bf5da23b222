"""Refusals a seat keeps getting. A seat that calls `play` again and again after it submitted
(or out of turn) gets the same answer each time; the first is stored as an attempt, the same
refusal for the same decision again is only counted in the seat's record, and the count is
stored as one attempt with the next commit that writes events (before its events, so a footer
still ends the record). The record grows with the game, not with the calls."""

from __future__ import annotations

from ..engines import GameError
from ..transcripts.events import Attempt
from .store.records import GameRecord, HeldRefusal, SeatRecord


def counted_again(seat: SeatRecord, decision: int, error: GameError) -> bool:
    """True (and counted) when `error` is the refusal last stored for this seat and decision."""
    held = seat.refusal
    if held is None or (held.decision, held.code, held.reason) != (
        decision,
        error.code,
        str(error),
    ):
        return False
    held.repeats += 1
    return True


def hold(seat: SeatRecord, decision: int, error: GameError) -> list[Attempt]:
    """Remembers a refusal about to be stored; returns the count of the one it replaces, if
    that one was repeated since it was stored."""
    before = _summary(seat)
    seat.refusal = HeldRefusal(decision=decision, code=error.code, reason=str(error))
    return before


def summaries(record: GameRecord) -> list[Attempt]:
    """Every seat's repeats not stored yet, as one attempt each; the counts start again."""
    return [event for seat in record.seats for event in _summary(seat)]


def _summary(seat: SeatRecord) -> list[Attempt]:
    held = seat.refusal
    if held is None or not held.repeats:
        return []
    event = Attempt(
        seat=seat.index,
        decision=held.decision,
        args={},
        ok=False,
        code=held.code,
        reason=held.reason,
        counted=False,
        repeats=held.repeats,
        audience=[seat.index],
    )
    held.repeats = 0
    return [event]
