"""The shared store: PostgreSQL, for several server instances on one database.

The tables and their meaning are the SQLite store's. What several writers add:

- a per-game lock across instances (`hold`): a session-level advisory lock on one pooled
  connection, held for the whole call, which then runs all its reads and its commits on that
  connection; with the lock it reads the game's version, so a cached copy another instance
  moved on is reloaded, never overwritten (and `commit` refuses a stale version all the same);
- change notices across instances: each commit sends NOTIFY in its transaction, and a listener
  thread per instance passes the game ids other instances changed to `watch` callbacks;
- versioned migrations in `schema_version`, applied at start under a lock, so instances
  starting together migrate once;
- a commit whose answer is lost (the connection dies at or after COMMIT) is looked up by its
  transaction id on a fresh connection before anyone is told: saved, not saved, or, when the
  database cannot be asked, `OutcomeUnknown`, never a guess.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, LiteralString

import psycopg
import psycopg_pool
from psycopg_pool import ConnectionPool

from ...transcripts.events import Event, event_json, parse_event
from .errors import StoreUnavailable
from .memory import (
    Commit,
    GameBusy,
    Loaded,
    StaleWrite,
    Store,
    StoredRequest,
    Viewer,
    audience_key,
    next_version,
    visible_sql,
)
from .postgres_listen import CHANNEL as CHANNEL
from .postgres_listen import ChangeListener
from .postgres_outcome import said, settle
from .postgres_schema import SCHEMA as SCHEMA
from .postgres_schema import migrate as migrate
from .records import GameRecord

log = logging.getLogger("cogs_arena.store")

APP_NAME = "cogs-arena"
LOCK_TIMEOUT_MS = 30_000
SETTLE_SECONDS = 5.0
"""How long a commit whose answer was lost keeps asking the database what became of it (long
enough for a restart or a failover), before it answers that the outcome is unknown."""


def redacted(url: str) -> str:
    """The URL without its password, for logs and the start-up line."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    if "password" not in info:
        return url
    info["password"] = "***"
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def lock_key(game_id: str) -> int:
    """The game's advisory lock: 64 bits of a hash of its id (a collision only serializes)."""
    return int.from_bytes(
        hashlib.blake2b(game_id.encode(), digest_size=8).digest(), "big", signed=True
    )


class PostgresStore(Store):
    shared = True

    def __init__(self, url: str, *, pool_size: int | None = None) -> None:
        self.url = url
        self.instance = secrets.token_hex(6)
        """Names this instance's connections, and the notices it sent (so it skips its own)."""
        self._app = f"{APP_NAME} {self.instance}"
        # One plain connection first: if the server cannot be reached, its own message says why.
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as first:
            migrate(first)
        size = pool_size or int(os.environ.get("COGS_ARENA_PG_POOL", "20"))
        self._pool = ConnectionPool(
            url,
            min_size=min(2, size),
            max_size=size,
            # An instance that hangs holding a game must not stall the others for good: their
            # call fails after LOCK_TIMEOUT and the client retries.
            kwargs={
                "autocommit": True,
                "application_name": self._app,
                "options": f"-c lock_timeout={LOCK_TIMEOUT_MS}",
            },
            open=False,
            name="cogs-arena",
        )
        self._pool.open(wait=True, timeout=30)
        self._local = threading.local()
        self._changes = ChangeListener(self.url, self._app, self.instance)
        self.settle_seconds = SETTLE_SECONDS

    # ---- connections and the per-game lock -------------------------------------------------

    @contextlib.contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection this thread's held game runs on, or one from the pool. A database
        that cannot be reached is the caller's StoreUnavailable, not a crash: the pool drops
        the broken connection, so a later call gets a new one."""
        held: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        try:
            if held is not None:
                yield held
                return
            with self._pool.connection() as conn:
                yield conn
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            log.warning("store: the database cannot be reached: %s", said(exc))
            raise StoreUnavailable(
                "The game store (PostgreSQL) cannot be reached, so nothing was read or changed.",
                allowed="the same call again shortly (with the same request_id, if you gave one)",
            ) from None

    @contextlib.contextmanager
    def hold(self, game_id: str, *, wait: bool = True) -> Iterator[int | None]:
        key = lock_key(game_id)
        with self._conn() as conn:
            # One round trip: the version is read by the statement after the lock's, so its
            # snapshot sees every commit made under the lock before.
            with conn.pipeline():
                take = "SELECT 0, pg_try_advisory_lock(%s)"
                if wait:
                    take = "SELECT pg_advisory_lock(%s), true"
                got = conn.execute(take, (key,))
                read = conn.execute("SELECT version FROM games WHERE id = %s", (game_id,))
            locked = got.fetchone()
            if not locked or not locked[1]:
                raise GameBusy(f"game {game_id} is held by another instance")
            row = read.fetchone()
            outer = getattr(self._local, "conn", None) is None
            self._local.conn = conn
            # Where a commit that lost its connection takes the lock again (see `_regain`).
            regained = contextlib.ExitStack()
            if outer:
                self._local.regained = regained
            try:
                yield 0 if row is None else int(row[0])
            finally:
                if outer:
                    self._local.conn = None
                    self._local.regained = None
                _unlock(conn, key)
                regained.close()

    # ---- writing ---------------------------------------------------------------------------

    def commit(self, commit: Commit) -> None:
        record = commit.record
        game_id = record.game_id
        first = record.event_count - len(commit.events) + 1
        rows = [
            (game_id, first + i, audience_key(e), event_json(e))
            for i, e in enumerate(commit.events)
        ]
        requests = [
            (game_id, r.seat, r.request_id, r.fingerprint, r.result) for r in commit.requests
        ]
        game = (
            game_id,
            record.status,
            record.due(),
            record.updated,
            record.model_dump_json(),
            commit.state,
            commit.version,
            commit.version,
        )
        # The transaction's id once its COMMIT may be sent: from then on a failure does not say
        # whether the step is in, and the database is asked.
        sent: str | None = None
        with self._conn() as conn:
            try:
                # Two round trips: all of it is sent at once and checked before COMMIT; a stale
                # copy rolls it all back, its NOTIFY too (delivered only on commit).
                with conn.pipeline(), conn.transaction(), conn.cursor() as cur:
                    check = conn.execute(
                        "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = %s),"
                        " (SELECT version FROM games WHERE id = %s FOR UPDATE),"
                        " pg_current_xact_id()::text",
                        (game_id, game_id),
                    )
                    if rows:
                        cur.executemany(
                            "INSERT INTO events (game_id, seq, audience, data)"
                            " VALUES (%s, %s, %s, %s)",
                            rows,
                        )
                    if requests:
                        cur.executemany(
                            "INSERT INTO requests (game_id, seat, request_id, fingerprint, result)"
                            " VALUES (%s, %s, %s, %s, %s)",
                            requests,
                        )
                    cur.execute(
                        "INSERT INTO games (id, status, due, updated, record, state, version)"
                        " VALUES (%s, %s, %s, %s, %s, %s, coalesce(%s::integer, 1))"
                        " ON CONFLICT (id) DO UPDATE SET status = excluded.status,"
                        " due = excluded.due, updated = excluded.updated, record = excluded.record,"
                        " state = excluded.state,"
                        " version = coalesce(%s::integer, games.version + 1)",
                        game,
                    )
                    cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.instance} {game_id}"))
                    top, stored, xact = check.fetchone() or (0, None, None)
                    if top != first - 1:
                        raise StaleWrite(f"game {game_id}: store at event {top}, not {first - 1}")
                    next_version(commit, stored or 0)
                    sent = xact
            except psycopg.errors.IntegrityError as exc:
                raise StaleWrite(str(exc)) from exc
            except psycopg.Error as exc:
                if sent is None:  # COMMIT was never sent: the transaction died with nothing in
                    raise
                self._settle(conn, sent, game_id, exc)
                commit.unheld = not self._regain(game_id, commit.version)

    def _regain(self, game_id: str, version: int | None) -> bool:
        """After a commit that is in although its connection died (and the game's lock with
        it): takes the lock again on another connection for the rest of the call, so what
        follows a commit (the transcript's append) still runs under it. False if that cannot be
        done, or if another instance moved the game on in between (it has mended the
        transcript from the store then): the commit is then `unheld`."""
        regained: contextlib.ExitStack | None = getattr(self._local, "regained", None)
        if regained is None:  # a commit outside `hold` (a new game): there was no lock
            return True
        key = lock_key(game_id)
        try:
            conn = regained.enter_context(self._pool.connection(timeout=5))
            regained.callback(_unlock, conn, key)
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            row = conn.execute("SELECT version FROM games WHERE id = %s", (game_id,)).fetchone()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            log.warning("store: game %s: its lock could not be taken again: %s", game_id, said(exc))
            return False
        self._local.conn = conn
        return row is not None and (version is None or int(row[0]) == version)

    def _settle(
        self, conn: psycopg.Connection[Any], xact: str, game_id: str, exc: psycopg.Error
    ) -> None:
        """After a failure at or after COMMIT: returns if the transaction is in, raises
        StoreUnavailable (nothing changed) if it is not, OutcomeUnknown if the database cannot
        say (`postgres_outcome.settle`)."""
        if getattr(self._local, "conn", None) is conn:
            # The game's lock ended with this connection's session: the rest of the call reads
            # through the pool (or the connection `_regain` takes the lock again on).
            self._local.conn = None
        settle(self.url, self._app, self.settle_seconds, xact, game_id, exc)

    # ---- reading ---------------------------------------------------------------------------

    def _one(self, sql: LiteralString, args: Sequence[object]) -> tuple[Any, ...] | None:
        with self._conn() as conn:
            return conn.execute(sql, args).fetchone()

    def _all(self, sql: LiteralString, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._conn() as conn:
            return conn.execute(sql, args).fetchall()

    def load(self, game_id: str) -> Loaded | None:
        row = self._one("SELECT record, state, version FROM games WHERE id = %s", (game_id,))
        if row is None:
            return None
        return Loaded(GameRecord.model_validate_json(row[0]), str(row[1]), int(row[2]))

    def get(self, game_id: str) -> GameRecord | None:
        row = self._one("SELECT record FROM games WHERE id = %s", (game_id,))
        return None if row is None else GameRecord.model_validate_json(row[0])

    def state(self, game_id: str) -> str | None:
        row = self._one("SELECT state FROM games WHERE id = %s", (game_id,))
        return None if row is None else str(row[0])

    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        if statuses is None:
            rows = self._all("SELECT id FROM games ORDER BY id")
        else:
            rows = self._all(
                "SELECT id FROM games WHERE status = ANY(%s) ORDER BY id", (list(statuses),)
            )
        return [str(r[0]) for r in rows]

    def count(self, statuses: Sequence[str], *, updated_since: float | None = None) -> int:
        sql = "SELECT count(*) FROM games WHERE status = ANY(%s)"
        args: list[object] = [list(statuses)]
        if updated_since is not None:
            sql += " AND updated >= %s"
            args.append(updated_since)
        row = self._one(sql, args)
        return int(row[0]) if row else 0

    def events(
        self,
        game_id: str,
        after: int = 0,
        *,
        viewer: Viewer = "all",
        over: bool = False,
        limit: int | None = None,
    ) -> list[Event]:
        where, extra = _visible(viewer, over)
        sql = "SELECT data FROM events WHERE game_id = %s AND seq > %s" + where + " ORDER BY seq"
        args: list[object] = [game_id, max(after, 0), *extra]
        if limit is not None:
            sql += " LIMIT %s"
            args.append(limit)
        return [parse_event(r[0]) for r in self._all(sql, args)]

    def last_seq(self, game_id: str, *, viewer: Viewer = "all", over: bool = False) -> int:
        where, extra = _visible(viewer, over)
        row = self._one(
            "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = %s" + where,
            [game_id, *extra],
        )
        return int(row[0]) if row else 0

    def request(self, game_id: str, seat: int, request_id: str) -> StoredRequest | None:
        row = self._one(
            "SELECT fingerprint, result FROM requests WHERE game_id = %s AND seat = %s"
            " AND request_id = %s",
            (game_id, seat, request_id),
        )
        return None if row is None else StoredRequest(seat, request_id, row[0], row[1])

    def due(self, now: float) -> list[str]:
        rows = self._all("SELECT id FROM games WHERE due IS NOT NULL AND due <= %s", (now,))
        return [str(r[0]) for r in rows]

    def peers(self) -> int:
        row = self._one(
            "SELECT count(DISTINCT application_name) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name LIKE %s"
            " AND application_name <> %s",
            (APP_NAME + " %", self._app),
        )
        return int(row[0]) if row else 0

    # ---- change notices from other instances ----------------------------------------------

    def watch(self, callback: Callable[[str], None]) -> None:
        self._changes.watch(callback)

    def close(self) -> None:
        self._changes.close()
        self._pool.close()


def _unlock(conn: psycopg.Connection[Any], key: int) -> None:
    """Lets the game go. A connection that died took its session's locks with it; one that
    fails now is closed, so its lock cannot outlive the call. Neither is the call's failure:
    what it did is saved (or not) already."""
    if conn.broken:
        return
    try:
        conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
    except psycopg.Error as exc:
        log.warning("store: the game lock's connection failed at unlock, closed: %s", said(exc))
        conn.close()


def _visible(viewer: Viewer, over: bool) -> tuple[LiteralString, list[object]]:
    return visible_sql(viewer, over, "strpos(audience, %s) > 0")
