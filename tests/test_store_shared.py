"""Several server instances on one PostgreSQL store, in one process: two GameServices, each with
its own store object (its own pool, cache and listener), as two instances would have. The lock
across instances, reloading a copy another instance moved on, change notices, deadlines that fire
once; and the versioned migrations of both stores, upgrading a store of the previous schema."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import psycopg
import pytest
from record_helpers import FakeClock

from cogs_arena.server.errors import StaleDecision
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import Commit, GameBusy, SchemaTooNew
from cogs_arena.server.store.postgres import PostgresStore, migrate
from cogs_arena.server.store.records import GameRecord, SeatRecord
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Attempt, Fallback, Talk


@pytest.fixture
def stores(pg_url: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    first, second = PostgresStore(pg_url, pool_size=4), PostgresStore(pg_url, pool_size=4)
    yield first, second
    first.close()
    second.close()


def _pair(
    stores: tuple[PostgresStore, PostgresStore], root: Path, clock: FakeClock | None = None
) -> tuple[GameService, GameService]:
    # One transcripts folder for both, as a deployment shares one volume.
    if clock is None:
        return GameService(stores[0], root / "t"), GameService(stores[1], root / "t")
    return (
        GameService(stores[0], root / "t", clock=clock),
        GameService(stores[1], root / "t", clock=clock),
    )


def _record(game_id: str = "g1", events: int = 1) -> GameRecord:
    seats = [SeatRecord(index=0, name="White", kind="llm")]
    return GameRecord(game_id=game_id, game="influence", seed=1, ruleset={}, seats=seats,
                      event_count=events)  # fmt: skip


def _talk(seq: int) -> Talk:
    return Talk(seq=seq, seat=0, to=None, text=f"line {seq}")


def _at_once(
    call: Callable[[GameService], str | int], services: Sequence[GameService]
) -> list[str | int]:
    """Runs `call` on each service in its own thread, released together."""
    gate = threading.Barrier(len(services))
    out: list[str | int] = []

    def run(service: GameService) -> None:
        gate.wait()
        out.append(call(service))

    threads = [threading.Thread(target=run, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return out


def test_hold_keeps_other_instances_out_and_reads_the_version(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    a, b = stores
    a.commit(Commit(_record(), "{}", [_talk(1)], version=1))
    got: list[int | None] = []
    with a.hold("g1") as version:
        assert version == 1
        with pytest.raises(GameBusy), b.hold("g1", wait=False):
            pass
        with b.hold("other", wait=False) as none:  # another game is free
            assert none == 0

        def waiter() -> None:
            with b.hold("g1") as seen:
                got.append(seen)

        thread = threading.Thread(target=waiter)
        thread.start()
        _until_seen(b, "wait_event_type = 'Lock' AND wait_event = 'advisory'")  # b is queued
        assert got == []  # still waiting for a's hold
        a.commit(Commit(_record(events=2), "{}", [_talk(2)], version=2))
    thread.join(10)
    assert got == [2]  # b's read comes after a's commit: it sees the new version
    assert a.peers() == 1 and b.peers() == 1


def _until_seen(store: PostgresStore, condition: str, timeout: float = 10.0) -> None:
    """Polls pg_stat_activity (under a deadline) until one of `store`'s connections meets
    `condition`: a readiness condition in place of a fixed sleep."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(store.url, autocommit=True) as admin:
        while True:
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND "
                + condition,
                (f"cogs-arena {store.instance}",),
            ).fetchone()
            if row and row[0]:
                return
            assert time.monotonic() < deadline, f"no connection of the store with {condition}"
            time.sleep(0.02)


def test_a_commit_on_one_instance_is_heard_on_the_other(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    a, b = stores
    heard_a: list[str] = []
    heard_b: list[str] = []
    arrived = threading.Event()
    a.watch(heard_a.append)

    def on_b(game_id: str) -> None:
        heard_b.append(game_id)
        arrived.set()

    b.watch(on_b)
    for store in (a, b):
        _until_seen(store, "state = 'idle' AND query LIKE 'LISTEN%%'")  # listening
    a.commit(Commit(_record("g7"), "{}", [_talk(1)], version=1))
    assert arrived.wait(10), "no notice reached the other instance"
    assert heard_b == ["g7"]
    assert heard_a == []  # an instance hears its own commits directly, not twice


def test_a_copy_another_instance_moved_on_is_reloaded_not_overwritten(
    stores: tuple[PostgresStore, PostgresStore], tmp_path: Path
) -> None:
    one, two = _pair(stores, tmp_path)
    game = one.new_game(
        "influence", seed=3, seat="White", bots=["greedy"], ruleset={"max_turns": 4}
    )
    gid, cred = game.game_id, game.credential
    two.show(gid, cred)  # two caches the game now
    for turn in range(40):
        service = (one, two)[turn % 2]
        if service.show(gid, cred).status == "over":
            break
        service.play(gid, cred, Submission(number=1))
    else:
        raise AssertionError("game did not end")
    for service in (one, two):
        view = service.show(gid, cred)
        assert view.status == "over"
    path = one.transcripts.path(f"influence-{gid}.jsonl")
    report = replay(path)
    assert report.ok and report.finished, report.mismatches
    events = read_transcript(path)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert len(stores[0].events(gid)) == len(events)


def test_two_instances_racing_one_seat_apply_one_move(
    stores: tuple[PostgresStore, PostgresStore], tmp_path: Path
) -> None:
    one, two = _pair(stores, tmp_path)
    game = one.new_game("influence", seed=5, seat="White", bots=["open"])
    joined = two.join_game(game.invitations["Black"])
    gid, cred = game.game_id, game.credential
    for rounds in range(4):
        decision = one.show(gid, cred).decision

        def race(service: GameService, decision: int = decision) -> str:
            try:
                service.play(gid, cred, Submission(number=1), expect_decision=decision)
            except StaleDecision:
                return "refused"
            return "applied"

        results = _at_once(race, [one, two])
        assert sorted(results) == ["applied", "refused"], (rounds, results)
        assert one.show(gid, cred).decision == decision + 1
        # Black answers through either instance until White is to act again
        black = (two, one)[rounds % 2]
        while not one.show(gid, cred).your_turn:
            black.play(gid, joined.credential, Submission(number=1))
    attempts = [e for e in stores[0].events(gid) if isinstance(e, Attempt) and e.seat == 0 and e.ok]
    decisions = [e.decision for e in attempts]
    assert len(decisions) == len(set(decisions))  # never two moves applied for one decision


def test_a_deadline_fires_once_with_every_instance_ticking(
    stores: tuple[PostgresStore, PostgresStore], tmp_path: Path
) -> None:
    clock = FakeClock()
    one, two = _pair(stores, tmp_path, clock)
    game = one.new_game("influence", seed=1, seat="White", bots=["greedy"], deadline_seconds=30)
    two.show(game.game_id, game.credential)
    for _ in range(3):
        clock.now += 31
        changed = _at_once(lambda service: service.tick(), [one, two])
        # one fires it; the other found it busy, or reloaded it and saw it no longer due
        assert sorted(changed) == [0, 1], changed
        assert one.tick() == 0 and two.tick() == 0
    # after the third missed deadline the seat counts as absent and is played for at once
    incidents = [
        e for e in stores[0].events(game.game_id) if isinstance(e, Fallback) and not e.continued
    ]
    assert [e.reason for e in incidents if e.reason == "deadline"] == ["deadline"] * 3


# ---- migrations ---------------------------------------------------------------------------


SCHEMA_2_ROW = (
    "g2", "active", None, 5.0,
    _record("g2").model_dump_json(), "{}",
)  # fmt: skip


def test_sqlite_upgrades_a_schema_2_store(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    from cogs_arena.server.store.sqlite import STEPS

    for statement in STEPS[2]:
        db.execute(statement)
    db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", SCHEMA_2_ROW)
    db.execute("INSERT INTO events VALUES ('g2', 1, '*', ?)", (_talk(1).model_dump_json(),))
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    store = SqliteStore(path)
    loaded = store.load("g2")
    assert loaded is not None and loaded.version == 0 and loaded.record.game_id == "g2"
    assert [e.seq for e in store.events("g2")] == [1]
    store.commit(Commit(_record("g2", 2), "{}", [_talk(2)], version=1))
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == 3
    store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=9")
    db.commit()
    db.close()
    with pytest.raises(SchemaTooNew, match="schema 9"):
        SqliteStore(path)


def test_postgres_upgrades_a_schema_2_store(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn, upto=2) == 0
        conn.execute("INSERT INTO games VALUES (%s, %s, %s, %s, %s, %s)", SCHEMA_2_ROW)
        conn.execute("INSERT INTO events VALUES ('g2', 1, '*', %s)", (_talk(1).model_dump_json(),))
    store = PostgresStore(pg_url, pool_size=2)
    try:
        loaded = store.load("g2")
        assert loaded is not None and loaded.version == 0
        store.commit(Commit(_record("g2", 2), "{}", [_talk(2)], version=1))
        assert [e.seq for e in store.events("g2")] == [1, 2]
    finally:
        store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn) == 3  # already there: nothing to do
        conn.execute("UPDATE schema_version SET version = 9")
    with pytest.raises(SchemaTooNew, match="schema 9"):
        PostgresStore(pg_url, pool_size=2)


# ---- choosing the store --------------------------------------------------------------------


def test_serve_names_an_unreachable_database_and_exits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cogs_arena.server.cli.main import main

    monkeypatch.setenv("COGS_ARENA_STORE", "postgresql://arena:pw@127.0.0.1:1/arena")
    assert main(["serve", "--transcripts", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert "cannot open the store PostgreSQL" in err and "127.0.0.1" in err
    assert "arena:pw@" not in err  # the password is never printed


def test_the_store_flag_takes_a_file_or_a_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cogs_arena.server.store.choose import describe, store_spec, transcripts_dir

    monkeypatch.delenv("COGS_ARENA_STORE", raising=False)
    monkeypatch.delenv("COGS_ARENA_TRANSCRIPTS", raising=False)
    file = str(tmp_path / "a.sqlite3")
    assert store_spec(file) == file
    assert transcripts_dir(None, file) == tmp_path / "transcripts"
    url = "postgresql://arena:secret@db/arena"
    monkeypatch.setenv("COGS_ARENA_STORE", url)
    assert store_spec(None) == url
    assert "secret" not in describe(url) and "db" in describe(url)
    assert transcripts_dir(tmp_path / "t", url) == tmp_path / "t"
    monkeypatch.setenv("COGS_ARENA_TRANSCRIPTS", str(tmp_path / "shared"))
    assert transcripts_dir(None, url) == tmp_path / "shared"


def test_sqlite_sets_a_schema_1_store_aside_and_starts_at_the_current_schema(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v1.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, data TEXT)")
    db.execute("CREATE TABLE events (game_id TEXT, data TEXT)")
    db.execute("INSERT INTO games VALUES ('old', '{}')")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = SqliteStore(path)
    tables = {r[0] for r in store._db.execute("SELECT name FROM sqlite_master")}
    assert {"games_v1", "events_v1", "games", "events", "requests"} <= tables
    assert store._db.execute("SELECT id FROM games_v1").fetchall() == [("old",)]
    assert store.game_ids() == [] and store._db.execute("PRAGMA user_version").fetchone()[0] == 3
    store.commit(Commit(_record(), "{}", [_talk(1)], version=1))
    store.close()


def test_an_instance_starting_beside_a_running_one_leaves_the_clocks_alone(
    stores: tuple[PostgresStore, PostgresStore], tmp_path: Path, pg_url: str
) -> None:
    clock = FakeClock()
    running = GameService(stores[0], tmp_path / "t", clock=clock)
    game = running.new_game("influence", seed=1, seat="White", bots=["greedy"], deadline_seconds=30)
    started = stores[0].load(game.game_id)
    assert started is not None
    clock.now += 20
    GameService(stores[1], tmp_path / "t", clock=clock)  # joins while the first one runs
    kept = stores[0].load(game.game_id)
    assert kept is not None
    assert kept.record.decision_started == started.record.decision_started
    stores[1].close()
    stores[0].close()
    # the whole service was down: the first instance back restarts the clocks
    alone = PostgresStore(pg_url, pool_size=2)
    try:
        for _ in range(100):  # the closed connections' backends end a moment later
            if alone.peers() == 0:
                break
            time.sleep(0.05)
        assert alone.peers() == 0
        GameService(alone, tmp_path / "t", clock=clock)
        moved = alone.load(game.game_id)
        assert moved is not None and moved.record.decision_started == clock.now
    finally:
        alone.close()
