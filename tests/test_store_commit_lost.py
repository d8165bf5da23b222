"""A PostgreSQL commit whose acknowledgement is lost: the connection is cut, through a relay in
front of the test cluster, at COMMIT (before the server reads it), after it (the server commits,
its answer never arrives) or just after the answer arrived (the game lock's unlock then fails).
Every answer is checked against what the store holds, read on a connection of its own, and a
retry with the same request_id against both."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from mcp import Client
from mcp_helpers import call, call_error
from pg_helpers import PgCluster
from pg_proxy import CommitCutter

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.changes import Change
from cogs_arena.server.errors import OutcomeUnknown
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.sessions import NotSaved
from cogs_arena.server.store.memory import GameBusy
from cogs_arena.server.store.postgres import PostgresStore


@pytest.fixture
def relay(pg_cluster: PgCluster) -> Iterator[CommitCutter]:
    cutter = CommitCutter(pg_cluster.port)
    yield cutter
    cutter.close()


@pytest.fixture
def store(relay: CommitCutter, pg_url: str) -> Iterator[PostgresStore]:
    through = PostgresStore(relay.url(pg_url), pool_size=3)
    yield through
    through.close()


def _stored(url: str, game_id: str) -> dict[str, Any]:
    """What the store holds, read directly (not through the relay): the game's version, its
    requests and the request ids of its accepted attempts, in order."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT version FROM games WHERE id = %s", (game_id,)).fetchone()
        requests = conn.execute(
            "SELECT request_id FROM requests WHERE game_id = %s", (game_id,)
        ).fetchall()
        events = conn.execute(
            "SELECT data FROM events WHERE game_id = %s ORDER BY seq", (game_id,)
        ).fetchall()
    attempts = [json.loads(r[0]) for r in events]
    accepted = [
        a.get("args", {}).get("why") for a in attempts if a["type"] == "attempt" and a["accepted"]
    ]
    return {
        "version": None if row is None else int(row[0]),
        "requests": {str(r[0]) for r in requests},
        "accepted": accepted,
        "events": len(events),
    }


def _game(service: GameService) -> tuple[str, str]:
    game = service.new_game("influence", seed=5, seat="White", bots=["greedy"])
    return game.game_id, game.credential


def _play(service: GameService, ids: tuple[str, str], why: str, rid: str | None) -> Any:
    return service.play(*ids, Submission(number=1), why=why, request_id=rid)


@pytest.mark.parametrize("rid", ["r-after", None])
def test_an_acknowledgement_lost_after_commit_is_the_success_the_store_holds(
    relay: CommitCutter, store: PostgresStore, pg_url: str, tmp_path: Path, rid: str | None
) -> None:
    """The server commits and its answer is lost: the play is answered as accepted (it is in the
    store, once), the live game goes on from it, and a retry with the same request_id is the
    same answer, replayed; the rest of the call (its transcript append) runs under the game's
    lock, taken again. Before the fix the client was told "nothing changed"."""
    service = GameService(store, tmp_path / "t")
    ids = _game(service)
    before = _stored(pg_url, ids[0])
    other = PostgresStore(pg_url, pool_size=1)
    busy: list[bool] = []

    def try_other(change: Change) -> None:
        # Runs after the commit, inside the call: the game must be held again by then.
        if relay.cut.is_set() and not busy:
            try:
                with other.hold(change.game_id, wait=False):
                    busy.append(False)
            except GameBusy:
                busy.append(True)

    service.add_listener(try_other)
    relay.arm("after")
    try:
        result = _play(service, ids, "lost ack", rid)
    finally:
        other.close()
    assert busy == [True], "after the lost answer the call went on without the game's lock"
    assert relay.cut.is_set(), "the relay must have cut the connection at COMMIT"
    assert result.accepted and not result.replayed
    held = _stored(pg_url, ids[0])
    assert held["version"] == before["version"] + 1
    assert held["accepted"] == ["lost ack"]
    assert held["requests"] == ({rid} if rid else set())
    session = service.sessions.peek(ids[0])
    assert session is not None and session.version == held["version"]
    assert session.record.event_count == held["events"]
    # The lock was taken again for the rest of the call: the transcript has the step, and the
    # game is free once the call is over.
    assert service.transcripts.last_seq(session.record.transcript_name) == held["events"]
    _free(pg_url, ids[0], held["version"])
    if rid is not None:
        again = _play(service, ids, "lost ack", rid)
        assert again.replayed and again.accepted == result.accepted
    nxt = _play(service, ids, "next", None)  # the game goes on from the saved step
    assert nxt.accepted
    assert _stored(pg_url, ids[0])["accepted"] == ["lost ack", "next"]


def test_a_commit_cut_before_the_server_reads_it_is_nothing_changed(
    relay: CommitCutter, store: PostgresStore, pg_url: str, tmp_path: Path
) -> None:
    """COMMIT never reaches the server: "nothing changed" is true (the store holds what it held),
    and the retry with the same request_id is a first try, applied once."""
    service = GameService(store, tmp_path / "t")
    ids = _game(service)
    before = _stored(pg_url, ids[0])
    relay.arm("before")
    with pytest.raises(NotSaved, match="nothing changed"):
        _play(service, ids, "cut", "r-before")
    assert relay.cut.is_set()
    assert _stored(pg_url, ids[0]) == before
    again = _play(service, ids, "cut", "r-before")
    assert again.accepted and not again.replayed
    held = _stored(pg_url, ids[0])
    assert held["accepted"] == ["cut"] and held["requests"] == {"r-before"}


def test_a_connection_dying_after_the_acknowledgement_leaves_the_success_and_frees_the_game(
    relay: CommitCutter, store: PostgresStore, pg_url: str, tmp_path: Path
) -> None:
    """The answer to COMMIT arrives, then the connection dies before the game's lock is let go:
    the play is still a success (before the fix the failed unlock turned it into
    `store_unavailable ... nothing was read or changed`), and the game is not left locked."""
    service = GameService(store, tmp_path / "t")
    ids = _game(service)
    before = _stored(pg_url, ids[0])
    relay.arm("after_ack")
    result = _play(service, ids, "then cut", "r-ack")
    assert relay.cut.is_set()
    assert result.accepted and not result.replayed
    held = _stored(pg_url, ids[0])
    assert held["version"] == before["version"] + 1 and held["accepted"] == ["then cut"]
    _free(pg_url, ids[0], held["version"])


def _free(url: str, game_id: str, version: int) -> None:
    """Another instance can take the game at once (GameBusy if a lock outlived the call)."""
    other = PostgresStore(url, pool_size=1)
    try:
        with other.hold(game_id, wait=False) as held:
            assert held == version
    finally:
        other.close()


@pytest.mark.parametrize("fault", ["after", "before"])
def test_an_outcome_that_cannot_be_known_says_so_and_the_retry_tells_the_truth(
    relay: CommitCutter, store: PostgresStore, pg_url: str, tmp_path: Path, fault: Any
) -> None:
    """The connection is cut at COMMIT and the database cannot be reached to ask: the answer is
    `outcome_unknown` (never "nothing changed"), whether or not the step is in; once the
    database answers, the retry with the same request_id is answered from the store: replayed if
    it was in, applied (once) if it was not."""
    service = GameService(store, tmp_path / "t")
    store.settle_seconds = 0.3
    ids = _game(service)
    before = _stored(pg_url, ids[0])
    relay.arm(fault, down_after=True)
    with pytest.raises(OutcomeUnknown, match="may or may not have been applied") as raised:
        _play(service, ids, "unknown", "r-unknown")
    assert raised.value.code == "outcome_unknown" and "same request_id" in str(raised.value)
    held = _stored(pg_url, ids[0])
    landed = fault == "after"
    assert held["version"] == before["version"] + (1 if landed else 0)
    assert held["accepted"] == (["unknown"] if landed else [])
    relay.down = False
    again = _play(service, ids, "unknown", "r-unknown")
    assert again.accepted and again.replayed is landed
    final = _stored(pg_url, ids[0])
    assert final["accepted"] == ["unknown"] and final["requests"] == {"r-unknown"}
    assert final["version"] == before["version"] + 1


@pytest.mark.anyio
async def test_outcome_unknown_reaches_an_mcp_client_as_its_own_code(
    relay: CommitCutter, store: PostgresStore, pg_url: str, tmp_path: Path
) -> None:
    """Through MCP: the tool error starts with `[outcome_unknown]` and names the retry; the
    retry with the same request_id comes back replayed, matching the store."""
    service = GameService(store, tmp_path / "t")
    store.settle_seconds = 0.3
    async with Client(build_server(service)) as client:
        game = await call(
            client, "new_game", game="influence", seed=5, seat="White", bots=["greedy"]
        )
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        relay.arm("after", down_after=True)
        text = await call_error(client, "play", **ids, number=1, request_id="m1", why="mcp")
        assert text.startswith("[outcome_unknown]") and "same request_id" in text
        assert "nothing changed" not in text
        relay.down = False
        again = await call(client, "play", **ids, number=1, request_id="m1", why="mcp")
        assert again["replayed"] is True and again["accepted"]
    assert _stored(pg_url, game["game_id"])["accepted"] == ["mcp"]


def test_the_change_listener_logs_one_warning_line_per_reconnect(
    pg_cluster: PgCluster, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A listener whose connection is terminated logs one warning line, no traceback, and hears
    notices again once reconnected."""
    listening, writing = PostgresStore(pg_url, pool_size=1), PostgresStore(pg_url, pool_size=1)
    heard: list[str] = []
    got = threading.Event()

    def hear(game_id: str) -> None:
        heard.append(game_id)
        got.set()

    try:
        caplog.set_level(logging.INFO, logger="cogs_arena.store")
        listening.watch(hear)
        deadline = time.monotonic() + 20
        killed = 0
        with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
            while not killed and time.monotonic() < deadline:
                row = admin.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE application_name = %s AND query LIKE 'LISTEN%%'",
                    (f"cogs-arena {listening.instance}",),
                ).fetchone()
                killed = int(row[0]) if row else 0
                time.sleep(0.05)
        assert killed, "the listener's connection was never seen"
        lines: list[logging.LogRecord] = []
        while not lines and time.monotonic() < deadline:
            lines = [r for r in caplog.records if "change listener" in r.getMessage()]
            time.sleep(0.05)
        assert len(lines) == 1, [r.getMessage() for r in lines]
        line = lines[0]
        assert line.levelno == logging.WARNING and line.exc_info is None
        assert "\n" not in line.getMessage() and "reconnecting" in line.getMessage()
        while not got.is_set() and time.monotonic() < deadline:  # reconnected: it hears again
            writing.commit(_commit("g-heard"))
            got.wait(0.3)
        assert "g-heard" in heard
    finally:
        listening.close()
        writing.close()


def _commit(game_id: str) -> Any:
    from cogs_arena.server.store.memory import Commit
    from cogs_arena.server.store.records import GameRecord, SeatRecord

    seats = [SeatRecord(index=0, name="White", kind="llm")]
    record = GameRecord(game_id=game_id, game="influence", seed=1, ruleset={}, seats=seats)
    return Commit(record, "{}")


def test_a_commit_whose_lock_cannot_be_taken_again_leaves_the_transcript_to_the_store(
    relay: CommitCutter,
    store: PostgresStore,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The answer to COMMIT is lost and the game's lock cannot be taken again (another instance
    may be writing): the play is still the success the store holds, the transcript is not
    appended to without the lock, and the next step lays it anew from the store, whole."""
    service = GameService(store, tmp_path / "t")
    ids = _game(service)
    session = service.sessions.peek(ids[0])
    assert session is not None
    name = session.record.transcript_name
    written = service.transcripts.last_seq(name)
    monkeypatch.setattr(store, "_regain", lambda game_id, version: False)
    relay.arm("after")
    result = _play(service, ids, "unheld", "r-unheld")
    assert relay.cut.is_set() and result.accepted
    assert _stored(pg_url, ids[0])["accepted"] == ["unheld"]
    assert service.transcripts.last_seq(name) == written, "appended without the game's lock"
    monkeypatch.undo()
    assert _play(service, ids, "after unheld", None).accepted
    held = _stored(pg_url, ids[0])
    assert held["accepted"] == ["unheld", "after unheld"]
    assert service.transcripts.last_seq(name) == held["events"]
