"""Choosing the store from `--store` or $COGS_ARENA_STORE: a SQLite file (the embedded default),
or a postgresql:// URL for one database shared by several server instances."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

from .memory import MemoryStore, Store
from .places import STORE_ENV, TRANSCRIPTS_ENV, default_store_path, default_transcripts_dir

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(spec: str | None) -> bool:
    return bool(spec) and str(spec).startswith(URL_SCHEMES)


def store_spec(flag: str | None) -> str:
    """The flag, else the variable, else the SQLite file in the user data directory."""
    if flag:
        return flag
    env = os.environ.get(STORE_ENV)
    if is_url(env):
        return str(env)
    return str(default_store_path())


def transcripts_dir(flag: Path | None, spec: str) -> Path:
    """`--transcripts`, else $COGS_ARENA_TRANSCRIPTS, else beside the SQLite file, or for a
    shared store the user data directory (instances on one machine share it)."""
    if flag is not None:
        return flag
    if not is_url(spec):
        return default_transcripts_dir(Path(spec).expanduser())
    env = os.environ.get(TRANSCRIPTS_ENV)
    return Path(env).expanduser() if env else Path(user_data_dir("cogs-arena")) / "transcripts"


def open_store(spec: str, *, memory: bool = False) -> Store:
    if memory:
        return MemoryStore()
    if is_url(spec):
        from .postgres import PostgresStore  # psycopg loads only for a shared store

        return PostgresStore(spec)
    from .sqlite import SqliteStore

    return SqliteStore(Path(spec).expanduser())


def describe(spec: str, *, memory: bool = False) -> str:
    """Where games are kept, for the start-up line (a URL without its password)."""
    if memory:
        return "in memory (lost on exit)"
    if is_url(spec):
        from .postgres import redacted

        return f"PostgreSQL {redacted(spec)} (shared: other instances may use it too)"
    return str(Path(spec).expanduser().absolute())
