"""Session stores: where games live between calls and across restarts.

A game is a `GameRecord` plus an append-only list of events (the transcript lines). `commit`
writes both in one transaction, so after a crash the store holds either all of a move or none.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .records import GameRecord


class Store(ABC):
    @abstractmethod
    def commit(self, record: GameRecord, events: Sequence[dict[str, Any]]) -> None:
        """Upsert the record and append events numbered from `record.event_count - len(events)`."""

    @abstractmethod
    def get(self, game_id: str) -> GameRecord | None: ...

    @abstractmethod
    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]: ...

    @abstractmethod
    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """Events with sequence number > after (sequence numbers start at 1)."""

    def close(self) -> None:
        return None


class MemoryStore(Store):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: dict[str, str] = {}
        self._events: dict[str, list[str]] = {}

    def commit(self, record: GameRecord, events: Sequence[dict[str, Any]]) -> None:
        with self._lock:
            log = self._events.setdefault(record.game_id, [])
            if len(log) + len(events) != record.event_count:
                raise RuntimeError("event numbering out of step with the record")
            log.extend(json.dumps(e) for e in events)
            self._records[record.game_id] = record.model_dump_json()

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            raw = self._records.get(game_id)
        return None if raw is None else GameRecord.model_validate_json(raw)

    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        with self._lock:
            items = list(self._records.items())
        return [
            gid
            for gid, raw in items
            if statuses is None or GameRecord.model_validate_json(raw).status in statuses
        ]

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            log = list(self._events.get(game_id, [])[after:])
        return [json.loads(line) for line in log]


class SqliteStore(Store):
    """The embedded default: one file, WAL mode, a transaction per accepted move."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, status TEXT NOT NULL,"
            " data TEXT NOT NULL)"
        )
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
            " data TEXT NOT NULL, PRIMARY KEY (game_id, seq))"
        )

    def commit(self, record: GameRecord, events: Sequence[dict[str, Any]]) -> None:
        first = record.event_count - len(events) + 1
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT INTO events (game_id, seq, data) VALUES (?, ?, ?)",
                    [(record.game_id, first + i, json.dumps(e)) for i, e in enumerate(events)],
                )
                self._db.execute(
                    "INSERT INTO games (id, status, data) VALUES (?, ?, ?)"
                    " ON CONFLICT(id) DO UPDATE SET status=excluded.status, data=excluded.data",
                    (record.game_id, record.status, record.model_dump_json()),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute("SELECT data FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else GameRecord.model_validate_json(row[0])

    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        with self._lock:
            if statuses is None:
                rows = self._db.execute("SELECT id FROM games ORDER BY rowid").fetchall()
            else:
                marks = ",".join("?" for _ in statuses)
                rows = self._db.execute(
                    f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY rowid",
                    tuple(statuses),
                ).fetchall()
        return [str(r[0]) for r in rows]

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT data FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
