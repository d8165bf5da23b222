from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_helpers import PgCluster, PgUnavailable

from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import replay


@pytest.fixture
def memory_service(tmp_path: Path) -> GameService:
    return GameService(MemoryStore(), tmp_path / "transcripts")


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[GameService]:
    store = SqliteStore(tmp_path / "arena.sqlite3")
    yield GameService(store, tmp_path / "transcripts")
    store.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """One throwaway PostgreSQL server for the whole run, started by the first test needing it."""
    cluster = PgCluster()
    try:
        cluster.start()
    except PgUnavailable as exc:
        cluster.stop()
        pytest.fail(f"PostgreSQL is needed here and could not start: {exc}", pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    """A fresh empty database on the test cluster."""
    return pg_cluster.new_database()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


TRANSCRIPT_NAME = re.compile(
    r"^(influence|territory|chemistry|blending|openspiel_[a-z0-9_]+)-[0-9a-f]{16}\.jsonl$"
)


@pytest.fixture(autouse=True)
def replay_written_transcripts(tmp_path: Path) -> Iterator[None]:
    """Every transcript a test writes under its tmp_path must replay with matching digests."""
    yield
    for path in sorted(tmp_path.rglob("*.jsonl")):
        if TRANSCRIPT_NAME.match(path.name):
            report = replay(path)
            assert report.ok, f"{path.name}: {report.mismatches}"
