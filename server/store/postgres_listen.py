"""Change notices across instances: each commit sends NOTIFY in its transaction; one listener
thread per instance hears the game ids other instances changed and passes them to the `watch`
callbacks. A lost connection is expected weather (restarts, failovers): one warning line, then
it reconnects."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg

from .postgres_outcome import said

log = logging.getLogger("cogs_arena.store")

CHANNEL = "cogs_arena_changes"


class ChangeListener:
    def __init__(self, url: str, app: str, instance: str) -> None:
        self.url = url
        self.app = app
        self.instance = instance
        self._watchers: list[Callable[[str], None]] = []
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None

    def watch(self, callback: Callable[[str], None]) -> None:
        self._watchers.append(callback)
        if self._listener is None:
            self._listener = threading.Thread(
                target=self._listen, name="cogs-arena-pg-listener", daemon=True
            )
            self._listener.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, application_name=self.app) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            self._heard(notice.payload)
            except psycopg.Error as exc:
                if self._stop.is_set():
                    return
                # Notices sent meanwhile are lost: waiters still look again at their timeout.
                log.warning(
                    "store: change listener lost its connection (%s); reconnecting", said(exc)
                )
                self._stop.wait(1.0)

    def _heard(self, payload: str) -> None:
        sender, _, game_id = payload.partition(" ")
        if sender == self.instance or not game_id:
            return
        for callback in list(self._watchers):
            try:
                callback(game_id)
            except Exception:
                log.exception("store: change callback failed for game %s", game_id)

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
