"""What one move did, in lines every seat may read: the public log lines it added (walks, lays,
flips, kills, bolsters, swaps, draws)."""

from __future__ import annotations

from .state import State


def news(before: State, after: State) -> tuple[str, ...]:
    """The lines `after`'s log gained. The log keeps its last lines only, so the new lines are
    what follows the longest tail of the old log that the new one starts with."""
    old, new = before.log, after.log
    for drop in range(len(old) + 1):
        kept = old[drop:]
        if new[: len(kept)] == kept:
            return tuple(new[len(kept) :])
    return tuple(new)
