"""Wakes async `wait` calls when a game changes. The service writes from worker threads; this
hub hops onto the event loop and sets the per-game events the waiters sleep on."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Callable


class WaiterHub:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._events: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._lock = threading.Lock()
        self.on_change: list[Callable[[str], None]] = []
        """Callbacks run on the loop after a game changed (e.g. resource notifications)."""

    def notify(self, game_id: str) -> None:
        """Called from any thread after a write to `game_id`."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._fire(game_id)
        else:
            loop.call_soon_threadsafe(self._fire, game_id)

    def _fire(self, game_id: str) -> None:
        with self._lock:
            events = list(self._events.get(game_id, ()))
        for event in events:
            event.set()
        for callback in self.on_change:
            callback(game_id)

    async def sleep_until_change(self, game_id: str, timeout: float) -> bool:
        """True if the game changed before `timeout` seconds passed."""
        self._loop = asyncio.get_running_loop()
        event = asyncio.Event()
        with self._lock:
            self._events[game_id].add(event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            with self._lock:
                self._events[game_id].discard(event)
                if not self._events[game_id]:
                    del self._events[game_id]

    def bind(self) -> None:
        self._loop = asyncio.get_running_loop()
