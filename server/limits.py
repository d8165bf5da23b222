"""Bounds on what one server takes on, each with a clear error when reached."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from .errors import LimitReached


@dataclass(frozen=True)
class Limits:
    max_live_games: int = 1000
    """Games waiting or active at once, not counting abandoned ones."""
    abandoned_after: float = 3600.0
    """An unfinished game nobody has changed for this long no longer counts as live, so
    clients that walk away cannot lock others out."""
    games_per_minute: int = 120
    """New games per rolling minute, over all clients."""
    talk_per_decision: int = 20
    """Talk lines per seat per decision, in games whose rules set no cap of their own."""
    max_sessions_in_memory: int = 256
    """Sessions kept in memory; the least recently used idle ones are reloaded on demand."""
    idle_seconds: float = 600.0
    """A session untouched this long is dropped from memory (the store keeps it)."""
    credential_rate: int = 50
    """Calls a second one seat credential may make over HTTP (twice that in a row after a
    pause), over all its connections; `shares`."""
    credential_at_once: int = 4
    """Calls one seat credential may have running at once (a `wait` runs until it answers).
    Few: calls running side by side in worker threads contend for the interpreter; on a
    loaded machine 8 of one flooding credential's once slowed an unrelated client 3.9x against
    a flood aimed elsewhere, 2 left it 0.87x (`benchmarks/bench_fairness.py`, noisy)."""
    connection_rate: int = 200
    """Calls a second over one connection, whatever the credentials."""
    connection_at_once: int = 32
    """Calls running at once over one connection."""
    chat_in_view: int = 10
    wait_events: int = 50
    """Events a `wait` result carries at most (the cursor lets the seat page with `log`)."""


class RateWindow:
    """Counts starts over a rolling minute."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._times: deque[float] = deque()
        self._lock = threading.Lock()

    def take(self, now: float) -> None:
        with self._lock:
            while self._times and self._times[0] <= now - 60.0:
                self._times.popleft()
            if len(self._times) >= self.per_minute:
                wait = 60.0 - (now - self._times[0])
                raise LimitReached(
                    f"This server starts at most {self.per_minute} games a minute.",
                    allowed=f"try again in {max(wait, 0.1):.1f} s",
                )
            self._times.append(now)
