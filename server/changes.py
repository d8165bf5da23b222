"""A change notice: which game a commit changed and whose `wait` it may answer, so a change
hidden from a seat costs that seat's waiters nothing (no wake, no read)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    """A commit to a game, and the seats it may have news for."""

    game_id: str
    seats: frozenset[int] | None = None
    """Seats in the audience of a new event or now to act; None for every seat (a public
    event, the end of the game, a commit another instance made that this one cannot read)."""

    def reaches(self, seat: int | None) -> bool:
        """Whether a `wait` of `seat` may find something new (None: a watcher of every
        change, such as a spectator's stream)."""
        return self.seats is None or seat is None or seat in self.seats
