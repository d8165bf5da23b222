"""The PostgreSQL store's schema: its versioned steps (the SQLite store's numbers and layout) and
the migration that applies them at start, under a lock so instances starting at once migrate
once."""

from __future__ import annotations

import logging
from typing import Any, LiteralString

import psycopg

from .memory import SchemaTooNew

log = logging.getLogger("cogs_arena.store")

SCHEMA = 3
MIGRATION_LOCK = 7_406_221_013
"""Advisory lock key taken while migrating, so instances starting at once migrate once."""
STEPS: dict[int, tuple[LiteralString, ...]] = {
    # Schema numbers are the SQLite store's: schema 2 is its layout of games, events, requests.
    2: (
        "CREATE TABLE games (id TEXT PRIMARY KEY, status TEXT NOT NULL, due DOUBLE PRECISION,"
        " updated DOUBLE PRECISION NOT NULL DEFAULT 0, record TEXT NOT NULL, state TEXT NOT NULL)",
        "CREATE INDEX games_due ON games (due) WHERE due IS NOT NULL",
        "CREATE INDEX games_status ON games (status)",
        "CREATE TABLE events (game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
        " audience TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game_id, seq))",
        "CREATE TABLE requests (game_id TEXT NOT NULL, seat INTEGER NOT NULL,"
        " request_id TEXT NOT NULL, fingerprint TEXT NOT NULL, result TEXT NOT NULL,"
        " PRIMARY KEY (game_id, seat, request_id))",
    ),
    3: ("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",),
}


def migrate(conn: psycopg.Connection[Any], upto: int = SCHEMA) -> int:
    """Brings the database to schema `upto`, one step at a time, in one transaction; returns
    the schema it found."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        found = int(row[0]) if row and row[0] is not None else 0
        if found > SCHEMA:
            raise SchemaTooNew(
                f"the database has schema {found}; this cogs-arena reads schema {SCHEMA} and "
                "older: upgrade cogs-arena"
            )
        for step in range(max(found + 1, min(STEPS)), upto + 1):
            for statement in STEPS[step]:
                conn.execute(statement)
            log.info("store: schema %d applied", step)
        if upto > found:
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (upto,))
    return found
