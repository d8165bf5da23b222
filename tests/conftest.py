from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogs_arena.server.service import GameService
from cogs_arena.server.store import MemoryStore
from cogs_arena.server.store_sqlite import SqliteStore
from cogs_arena.transcripts import replay


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


TRANSCRIPT_NAME = re.compile(r"^(influence|territory|chemistry|blending)-[0-9a-f]{16}\.jsonl$")


@pytest.fixture(autouse=True)
def replay_written_transcripts(tmp_path: Path) -> Iterator[None]:
    """Every transcript a test writes under its tmp_path must replay with matching digests."""
    yield
    for path in sorted(tmp_path.rglob("*.jsonl")):
        if TRANSCRIPT_NAME.match(path.name):
            report = replay(path)
            assert report.ok, f"{path.name}: {report.mismatches}"
