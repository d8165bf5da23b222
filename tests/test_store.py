"""The Store contract, on every backend (memory, SQLite, PostgreSQL): one commit writes events,
record, state and request results atomically (or nothing, with StaleWrite when the numbering or
the version is out of step); events are read after a cursor, filtered by audience, with a limit;
request(), due() and count()."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cogs_arena.server.store.memory import (
    Commit,
    MemoryStore,
    StaleWrite,
    Store,
    StoredRequest,
    Viewer,
)
from cogs_arena.server.store.postgres import PostgresStore
from cogs_arena.server.store.records import GameRecord, SeatRecord
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts.events import Event, Talk


def _record(
    events: int,
    status: str = "active",
    *,
    game_id: str = "g1",
    deadline: float | None = None,
    started: float = 0.0,
) -> GameRecord:
    return GameRecord(
        game_id=game_id,
        game="influence",
        seed=1,
        ruleset={},
        seats=[
            SeatRecord(index=0, name="White", kind="llm"),
            SeatRecord(index=1, name="Black", kind="llm"),
        ],
        status=status,
        event_count=events,
        deadline_seconds=deadline,
        decision_started=started,
    )


def _talk(seq: int, audience: list[int] | None = None, text: str = "") -> Talk:
    return Talk(seq=seq, seat=0, to=None, text=text or f"line {seq}", audience=audience)


def _commit(
    record: GameRecord,
    events: list[Event],
    state: str = "{}",
    requests: list[StoredRequest] | None = None,
) -> Commit:
    return Commit(record=record, state=state, events=events, requests=requests or [])


def _request(request_id: str, seat: int = 0, result: str = '{"result":1}') -> StoredRequest:
    return StoredRequest(
        seat=seat, request_id=request_id, fingerprint="f-" + request_id, result=result
    )


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SqliteStore(tmp_path / "s.db")
    else:
        made = PostgresStore(request.getfixturevalue("pg_url"), pool_size=2)
    yield made
    made.close()


def test_commit_then_read_back(store: Store) -> None:
    store.commit(_commit(_record(2), [_talk(1), _talk(2)], state='{"x":2}'))
    store.commit(_commit(_record(3, "over"), [_talk(3)], state='{"x":3}'))
    got = store.get("g1")
    assert got is not None and got.status == "over" and got.event_count == 3
    assert store.state("g1") == '{"x":3}'
    events = store.events("g1")
    assert [e.seq for e in events] == [1, 2, 3]
    assert all(isinstance(e, Talk) for e in events)
    assert [e.seq for e in store.events("g1", after=2)] == [3]
    assert store.events("g1", after=3) == []
    assert store.game_ids(["active"]) == []
    assert store.game_ids(["over"]) == ["g1"]
    assert store.game_ids() == ["g1"]
    assert store.get("missing") is None and store.state("missing") is None
    assert store.events("missing") == []


def test_events_out_of_step_are_refused_and_change_nothing(store: Store) -> None:
    store.commit(_commit(_record(1), [_talk(1)], state='{"v":1}'))
    # the record says 1 event but the store already holds 1: this copy is behind
    with pytest.raises(StaleWrite):
        store.commit(_commit(_record(1, "over"), [_talk(1)], state='{"v":2}'))
    # a commit that claims more events than it brings is out of step too
    with pytest.raises(StaleWrite):
        store.commit(_commit(_record(4, "over"), [_talk(2)], state='{"v":3}'))
    assert [e.seq for e in store.events("g1")] == [1]
    got = store.get("g1")
    assert got is not None and got.status == "active" and got.event_count == 1
    assert store.state("g1") == '{"v":1}'
    # the right next step still goes in
    store.commit(_commit(_record(2), [_talk(2)], state='{"v":4}'))
    assert [e.seq for e in store.events("g1")] == [1, 2]


def test_a_commit_is_atomic_with_its_request_results(store: Store) -> None:
    store.commit(_commit(_record(1), [_talk(1)], requests=[_request("r1")]))
    stored = store.request("g1", 0, "r1")
    assert stored == _request("r1")
    assert store.request("g1", 1, "r1") is None  # ids are per seat
    assert store.request("g1", 0, "r2") is None
    # the same request id again: the whole commit is refused, its events and record too
    with pytest.raises(StaleWrite):
        store.commit(
            _commit(_record(2, "over"), [_talk(2)], state='{"late":1}', requests=[_request("r1")])
        )
    assert [e.seq for e in store.events("g1")] == [1]
    got = store.get("g1")
    assert got is not None and got.status == "active" and got.event_count == 1
    assert store.state("g1") == "{}"
    # and an out-of-step commit does not store its request results
    with pytest.raises(StaleWrite):
        store.commit(_commit(_record(5), [_talk(2)], requests=[_request("r3")]))
    assert store.request("g1", 0, "r3") is None


def test_request_ids_are_all_kept(store: Store) -> None:
    """No window of the last 16 ids: every answered id stays answerable."""
    for n in range(1, 41):
        store.commit(_commit(_record(n), [_talk(n)], requests=[_request(f"r{n}", seat=n % 2)]))
    for n in range(1, 41):
        found = store.request("g1", n % 2, f"r{n}")
        assert found is not None and found.fingerprint == f"f-r{n}"


def test_events_are_filtered_by_audience(store: Store) -> None:
    events: list[Event] = [
        _talk(1),
        _talk(2, [0]),
        _talk(3, [1]),
        _talk(4, [0, 1]),
        _talk(5),
        _talk(6, [1]),
    ]
    store.commit(_commit(_record(6), events))

    def seqs(
        after: int = 0, *, viewer: Viewer = "all", over: bool = False, limit: int | None = None
    ) -> list[int]:
        events = store.events("g1", after, viewer=viewer, over=over, limit=limit)
        return [e.seq for e in events]

    assert seqs() == [1, 2, 3, 4, 5, 6]
    assert seqs(viewer="all") == [1, 2, 3, 4, 5, 6]
    assert seqs(viewer=0) == [1, 2, 4, 5]
    assert seqs(viewer=1) == [1, 3, 4, 5, 6]
    # seat 10 must not match seat 1's audience by a prefix
    assert seqs(viewer=10) == [1, 5]
    assert seqs(viewer=None) == [1, 5]  # a spectator, while the game runs
    assert seqs(viewer=None, over=True) == [1, 2, 3, 4, 5, 6]
    assert seqs(viewer=0, over=True) == [1, 2, 4, 5]  # the end opens nothing to a seat
    # cursor and limit apply after the filter: the page is the viewer's next events
    assert seqs(viewer=1, after=1, limit=2) == [3, 4]
    assert seqs(viewer=1, after=4, limit=2) == [5, 6]
    assert seqs(viewer=0, after=2, limit=1) == [4]
    assert seqs(viewer=0, after=5) == []
    assert seqs(limit=3) == [1, 2, 3]


def test_due_follows_the_clocks_of_unfinished_games(store: Store) -> None:
    store.commit(_commit(_record(1, game_id="a", deadline=30, started=100.0), [_talk(1)]))
    store.commit(_commit(_record(1, game_id="b"), [_talk(1)]))  # no clock
    store.commit(_commit(_record(1, game_id="c", deadline=10, started=200.0), [_talk(1)]))
    assert store.due(129.0) == []
    assert store.due(130.0) == ["a"]
    assert sorted(store.due(1000.0)) == ["a", "c"]
    # a decision that starts later moves the clock; a game that is over has none
    store.commit(_commit(_record(2, game_id="a", deadline=30, started=500.0), [_talk(2)]))
    store.commit(_commit(_record(2, "over", game_id="c", deadline=10), [_talk(2)]))
    assert store.due(529.0) == []
    assert store.due(530.0) == ["a"]
    assert store.due(10_000.0) == ["a"]


def test_count_by_status(store: Store) -> None:
    assert store.count(["waiting", "active"]) == 0
    store.commit(_commit(_record(1, game_id="a"), [_talk(1)]))
    store.commit(_commit(_record(1, "waiting", game_id="b"), [_talk(1)]))
    store.commit(_commit(_record(1, "over", game_id="c"), [_talk(1)]))
    assert store.count(["waiting", "active"]) == 2
    assert store.count(["over"]) == 1
    assert store.count(["waiting", "active", "over"]) == 3
    store.commit(_commit(_record(2, "over", game_id="a"), [_talk(2)]))
    assert store.count(["waiting", "active"]) == 1
    assert sorted(store.game_ids(["over"])) == ["a", "c"]


def test_sqlite_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    first = SqliteStore(path)
    first.commit(_commit(_record(2), [_talk(1), _talk(2, [1], "secret")], requests=[_request("r")]))
    first.close()
    second = SqliteStore(path)
    assert second.get("g1") is not None
    assert second.game_ids(["active"]) == ["g1"]
    assert [e.seq for e in second.events("g1", viewer=0)] == [1]
    assert second.request("g1", 0, "r") == _request("r")
    journal = second._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"
    second.close()


def test_versions_count_commits_and_refuse_a_stale_copy(store: Store) -> None:
    assert store.load("g1") is None
    store.commit(Commit(_record(1), "{}", [_talk(1)], version=1))
    store.commit(Commit(_record(1), '{"v":2}', [], version=2))  # a commit without events counts
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 2 and loaded.state == '{"v":2}'
    assert loaded.record.event_count == 1
    # a copy made from version 1 is behind: refused whole, even with its events in step
    with pytest.raises(StaleWrite):
        store.commit(Commit(_record(2, "over"), "{}", [_talk(2)], version=2))
    # a new game over an existing one is refused too
    with pytest.raises(StaleWrite):
        store.commit(Commit(_record(1), "{}", [], version=1))
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 2 and loaded.record.status == "active"
    assert [e.seq for e in store.events("g1")] == [1]
    store.commit(Commit(_record(2, "over"), "{}", [_talk(2)], version=3))
    store.commit(_commit(_record(2, "over"), []))  # unchecked: whatever is stored, plus one
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 4 and loaded.record.status == "over"
