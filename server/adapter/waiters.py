"""Carries change notices from the service's writing threads onto the event loop, where `wait`
calls and resource subscriptions hear of them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class WaiterHub:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self.on_change: list[Callable[[str], None]] = []
        """Callbacks run on the loop after a game changed (waiters, resource notifications)."""

    def notify(self, game_id: str) -> None:
        """Called from any thread after a commit to `game_id`."""
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
        for callback in self.on_change:
            callback(game_id)

    def bind(self) -> None:
        self._loop = asyncio.get_running_loop()
