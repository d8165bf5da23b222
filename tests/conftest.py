from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cogs_arena.server.service import GameService
from cogs_arena.server.store import MemoryStore, SqliteStore


@pytest.fixture
def memory_service(tmp_path: Path) -> GameService:
    return GameService(MemoryStore(), tmp_path / "transcripts")


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[GameService]:
    store = SqliteStore(tmp_path / "arena.sqlite3")
    yield GameService(store, tmp_path / "transcripts")
    store.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
