"""Carries change notices from the service's writing threads onto the event loop, where `wait`
calls and resource subscriptions hear of them. A notice says whose `wait` it may answer, so a
change hidden from a seat costs that seat's waiters nothing: no wake, no read."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..changes import Change


class WaiterHub:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self.on_change: list[Callable[[Change], None]] = []
        """Callbacks run on the loop after a game changed (waiters, resource notifications)."""

    def notify(self, change: Change) -> None:
        """Called from any thread after a commit."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._fire(change)
        else:
            loop.call_soon_threadsafe(self._fire, change)

    def _fire(self, change: Change) -> None:
        for callback in self.on_change:
            callback(change)

    def bind(self) -> None:
        self._loop = asyncio.get_running_loop()
