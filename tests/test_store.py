from __future__ import annotations

from pathlib import Path

import pytest

from cogs_arena.server.records import GameRecord, SeatRecord
from cogs_arena.server.store import MemoryStore
from cogs_arena.server.store_sqlite import SqliteStore, Store


def _record(events: int, status: str = "active") -> GameRecord:
    return GameRecord(
        game_id="g1",
        game="influence",
        seed=1,
        ruleset={},
        seats=[SeatRecord(index=0, name="White", kind="llm")],
        state={"x": events},
        status=status,  # type: ignore[arg-type]
        event_count=events,
        transcript_path="t.jsonl",
    )


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "memory":
        return MemoryStore()
    return SqliteStore(tmp_path / "s.sqlite3")


def test_commit_then_read_back(store: Store) -> None:
    store.commit(_record(2), [{"seq": 1, "a": 1}, {"seq": 2, "b": 2}])
    store.commit(_record(3, "over"), [{"seq": 3, "c": 3}])
    got = store.get("g1")
    assert got is not None and got.state == {"x": 3} and got.status == "over"
    assert [e["seq"] for e in store.events("g1")] == [1, 2, 3]
    assert [e["seq"] for e in store.events("g1", after=2)] == [3]
    assert store.game_ids(["active"]) == []
    assert store.game_ids(["over"]) == ["g1"]
    assert store.get("missing") is None


def test_events_out_of_step_are_refused(store: Store) -> None:
    store.commit(_record(1), [{"seq": 1}])
    with pytest.raises(Exception):  # noqa: B017 - either backend's own integrity error
        store.commit(_record(1), [{"seq": 1}])
    assert len(store.events("g1")) == 1


def test_sqlite_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    first = SqliteStore(path)
    first.commit(_record(1), [{"seq": 1}])
    first.close()
    second = SqliteStore(path)
    assert second.get("g1") is not None
    assert second.game_ids(["active"]) == ["g1"]
    journal = second._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"
    second.close()
