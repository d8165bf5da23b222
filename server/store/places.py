"""Where the embedded store and the transcripts live unless a flag or variable says otherwise."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

STORE_ENV = "COGS_ARENA_STORE"
TRANSCRIPTS_ENV = "COGS_ARENA_TRANSCRIPTS"


def default_store_path() -> Path:
    env = os.environ.get(STORE_ENV)
    if env:
        return Path(env).expanduser()
    return Path(user_data_dir("cogs-arena", appauthor=False)) / "arena.sqlite3"


def default_transcripts_dir(store_path: Path | None = None) -> Path:
    env = os.environ.get(TRANSCRIPTS_ENV)
    if env:
        return Path(env).expanduser()
    base = store_path if store_path is not None else default_store_path()
    return base.parent / "transcripts"
