"""The embedded default store: one SQLite file in WAL mode, one transaction per step.

Events carry their audience in a column, so `log` and `wait` read only what a viewer may see
after its cursor, with a limit, in SQL; request results sit in their own table, written in the
same transaction as the move they answer. The schema version is `PRAGMA user_version`; a store
written by an older version is upgraded at open, step by step, in one transaction.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from ...transcripts.events import Event, event_json, parse_event
from .memory import (
    Commit,
    Loaded,
    SchemaTooNew,
    StaleWrite,
    Store,
    StoredRequest,
    Viewer,
    audience_key,
    next_version,
    visible_sql,
)
from .records import GameRecord

log = logging.getLogger("cogs_arena.store")

SCHEMA = 3
TABLES = (
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, status TEXT NOT NULL,"
    " due REAL, updated REAL NOT NULL DEFAULT 0, record TEXT NOT NULL, state TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS games_due ON games (due) WHERE due IS NOT NULL",
    "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
    " audience TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS requests (game_id TEXT NOT NULL, seat INTEGER NOT NULL,"
    " request_id TEXT NOT NULL, fingerprint TEXT NOT NULL, result TEXT NOT NULL,"
    " PRIMARY KEY (game_id, seat, request_id)) WITHOUT ROWID",
)
"""Schema 2, the first this store reads."""
STEPS: dict[int, tuple[str, ...]] = {
    2: TABLES,
    # The game's version: several writers (server instances) tell a stale copy by it.
    3: ("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",),
}


class SqliteStore(Store):
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._migrate()

    def _migrate(self) -> None:
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version == SCHEMA:
            return
        if version > SCHEMA:
            raise SchemaTooNew(
                f"store {self.path} has schema {version}; this cogs-arena reads schema {SCHEMA} "
                "and older: upgrade cogs-arena"
            )
        self._db.execute("BEGIN IMMEDIATE")
        try:
            old = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master")}
            if version < 2 and "games" in old:
                # Schema 1 kept untyped events; they cannot be served by this version. They are
                # set aside, not deleted, so nothing a user recorded is lost.
                log.warning("store %s: schema %d games set aside as *_v1", self.path, version)
                self._db.execute("ALTER TABLE games RENAME TO games_v1")
                if "events" in old:
                    self._db.execute("ALTER TABLE events RENAME TO events_v1")
            for step in range(max(version + 1, 2), SCHEMA + 1):
                for statement in STEPS[step]:
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version={SCHEMA}")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def commit(self, commit: Commit) -> None:
        record = commit.record
        first = record.event_count - len(commit.events) + 1
        rows = [
            (record.game_id, first + i, audience_key(e), event_json(e))
            for i, e in enumerate(commit.events)
        ]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                top, stored = self._db.execute(
                    "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?),"
                    " (SELECT version FROM games WHERE id = ?)",
                    (record.game_id, record.game_id),
                ).fetchone()
                if top != first - 1:
                    raise StaleWrite(
                        f"game {record.game_id}: store at event {top}, not {first - 1}"
                    )
                version = next_version(commit, stored or 0)
                self._db.executemany(
                    "INSERT INTO events (game_id, seq, audience, data) VALUES (?, ?, ?, ?)", rows
                )
                self._db.executemany(
                    "INSERT INTO requests (game_id, seat, request_id, fingerprint, result)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (record.game_id, r.seat, r.request_id, r.fingerprint, r.result)
                        for r in commit.requests
                    ],
                )
                self._db.execute(
                    "INSERT INTO games (id, status, due, updated, record, state, version)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET"
                    " status=excluded.status, due=excluded.due, updated=excluded.updated,"
                    " record=excluded.record, state=excluded.state, version=excluded.version",
                    (
                        record.game_id,
                        record.status,
                        record.due(),
                        record.updated,
                        record.model_dump_json(),
                        commit.state,
                        version,
                    ),
                )
            except BaseException as exc:
                self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise StaleWrite(str(exc)) from exc
                raise
            self._db.execute("COMMIT")

    def load(self, game_id: str) -> Loaded | None:
        with self._lock:
            row = self._db.execute(
                "SELECT record, state, version FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            return None
        return Loaded(GameRecord.model_validate_json(row[0]), str(row[1]), int(row[2]))

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else GameRecord.model_validate_json(row[0])

    def state(self, game_id: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        with self._lock:
            if statuses is None:
                rows = self._db.execute("SELECT id FROM games").fetchall()
            else:
                marks = ",".join("?" for _ in statuses)
                rows = self._db.execute(
                    f"SELECT id FROM games WHERE status IN ({marks})", tuple(statuses)
                ).fetchall()
        return [str(r[0]) for r in rows]

    def count(self, statuses: Sequence[str], *, updated_since: float | None = None) -> int:
        marks = ",".join("?" for _ in statuses)
        sql = f"SELECT count(*) FROM games WHERE status IN ({marks})"
        args: list[object] = list(statuses)
        if updated_since is not None:
            sql += " AND updated >= ?"
            args.append(updated_since)
        with self._lock:
            row = self._db.execute(sql, args).fetchone()
        return int(row[0])

    def events(
        self,
        game_id: str,
        after: int = 0,
        *,
        viewer: Viewer = "all",
        over: bool = False,
        limit: int | None = None,
    ) -> list[Event]:
        where, args = _visible(viewer, over)
        sql = "SELECT data FROM events WHERE game_id = ? AND seq > ?" + where + " ORDER BY seq"
        args = [game_id, max(after, 0), *args]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [parse_event(r[0]) for r in rows]

    def last_seq(self, game_id: str, *, viewer: Viewer = "all", over: bool = False) -> int:
        where, args = _visible(viewer, over)
        with self._lock:
            row = self._db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?" + where,
                [game_id, *args],
            ).fetchone()
        return int(row[0])

    def request(self, game_id: str, seat: int, request_id: str) -> StoredRequest | None:
        with self._lock:
            row = self._db.execute(
                "SELECT fingerprint, result FROM requests WHERE game_id = ? AND seat = ?"
                " AND request_id = ?",
                (game_id, seat, request_id),
            ).fetchone()
        return None if row is None else StoredRequest(seat, request_id, row[0], row[1])

    def due(self, now: float) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM games WHERE due IS NOT NULL AND due <= ?", (now,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _visible(viewer: Viewer, over: bool) -> tuple[str, list[object]]:
    return visible_sql(viewer, over, "instr(audience, ?) > 0")
