"""Forks: a new game from a decision of a finished game, with new seats; its record plays the
parent's transitions again and `replay` checks that they reach the parent's state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call, call_error

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.cli.main import main
from cogs_arena.server.inputs import Submission
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.events import Batch, Header, Move, event_json
from cogs_arena.transcripts.io import read_transcript

pytestmark = pytest.mark.anyio


def finished(service: GameService, game: str, plays: int, **kwargs: Any) -> str:
    """A game of `plays` menu-number moves by its LLM seat, then settled: its id."""
    started = service.new_game(game, seed=9, **kwargs)
    for _ in range(plays):
        service.play(started.game_id, started.credential, Submission(number=1))
    service.settle(started.game_id, "host_ended")
    return started.game_id


def transcript(folder: Path, game_id: str) -> Path:
    return next(folder.glob(f"*-{game_id}.jsonl"))


def parent_digest_after(path: Path, transitions: int) -> str:
    events = [e for e in read_transcript(path) if isinstance(e, Move | Batch)]
    return events[transitions - 1].digest


@pytest.mark.parametrize(("game", "at"), [("influence", 6), ("territory", 3), ("blending", 9)])
async def test_a_fork_starts_where_the_parent_stood(tmp_path: Path, game: str, at: int) -> None:
    folder = tmp_path / "t"
    service = GameService(MemoryStore(), folder)
    parent = finished(service, game, 12, seat=0)
    async with Client(build_server(service)) as client:
        # The LLM takes seat 1, where a bot played; seat 0 goes to a bot.
        fork = await call(client, "new_game", game=game, fork_of=parent, at=at, seat=1, prompt="b")
        ids = {"game_id": fork["game_id"], "credential": fork["credential"]}
        await call(client, "show", **ids)
    service.settle(fork["game_id"], "host_ended")
    parent_path, fork_path = transcript(folder, parent), transcript(folder, fork["game_id"])
    header = read_transcript(fork_path)[0]
    assert isinstance(header, Header) and header.fork is not None
    assert (header.fork.parent, header.fork.at) == (parent, at)
    parent_header = read_transcript(parent_path)[0]
    assert isinstance(parent_header, Header)
    assert header.seed == parent_header.seed
    assert header.seats[1].player.kind == "llm" and header.seats[1].player.prompt == "b"
    # The prefix is the parent's: the same transitions, to the parent's state digest.
    copied = [e for e in read_transcript(fork_path) if isinstance(e, Move | Batch)]
    originals = [e for e in read_transcript(parent_path) if isinstance(e, Move | Batch)]
    decisions = [e for e in originals if e.decision < at]
    assert [e.digest for e in copied[: len(decisions)]] == [e.digest for e in decisions]
    assert header.fork.digest == parent_digest_after(parent_path, len(decisions))
    report = replay(fork_path)
    assert report.ok, report.mismatches


async def test_forks_are_refused_with_what_is_allowed(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    over = finished(service, "influence", 4)
    running = service.new_game("influence", seed=3)
    async with Client(build_server(service)) as client:
        before = service.store.count(["waiting", "active", "over"])
        cases: list[tuple[dict[str, object], str]] = [
            ({"fork_of": running.game_id, "at": 1}, "only a finished game can be forked"),
            ({"fork_of": over, "at": 999}, "at from 0 to"),
            ({"fork_of": over}, "fork_of and at go together"),
            ({"at": 2}, "fork_of and at go together"),
            ({"fork_of": over, "at": 1, "seed": 5}, "seed cannot be given"),
            ({"fork_of": "nope", "at": 1}, "No game 'nope'"),
        ]
        for arguments, expected in cases:
            text = await call_error(client, "new_game", game="influence", **arguments)
            assert expected in text, (arguments, text)
        text = await call_error(client, "new_game", game="territory", fork_of=over, at=1)
        assert "is influence, not territory" in text
        assert service.store.count(["waiting", "active", "over"]) == before, "nothing created"


async def test_replay_finds_a_fork_whose_prefix_differs(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    service = GameService(MemoryStore(), folder)
    parent = finished(service, "influence", 8)
    fork = service.new_game("influence", fork_of=parent, at=4)
    service.settle(fork.game_id, "host_ended")
    path = transcript(folder, fork.game_id)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = read_transcript(path)[0]
    assert isinstance(header, Header) and header.fork is not None
    forged = header.model_copy(update={"fork": header.fork.model_copy(update={"digest": "0" * 64})})
    lines[0] = event_json(forged)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = replay(bad)
    assert not report.ok and any("fork of" in m for m in report.mismatches)


def test_the_fork_command_starts_a_game_on_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t"
    store_path = tmp_path / "s.sqlite3"
    service = GameService(SqliteStore(store_path), folder)
    parent = finished(service, "territory", 5, seat=2)
    service.store.close()
    path = transcript(folder, parent)
    where = ["--store", str(store_path), "--transcripts", str(folder)]
    seats = ["--seat", "Ochre", "--bots", "raider", "--label", "variant=b"]
    code = main(["fork", str(path), "--at", "2", *where, *seats])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat_name"] == "Ochre" and out["credential"] and "view" not in out
    again = GameService(SqliteStore(store_path), folder)
    view = again.show(out["game_id"], out["credential"])
    assert view.decision == 2 and view.your_turn
    header = read_transcript(transcript(folder, out["game_id"]))[0]
    assert isinstance(header, Header) and header.fork is not None
    assert header.seats[1].player.labels == {"variant": "b"}
    assert header.seats[0].player.bot == "raider"
    assert main(["fork", str(path), "--at", "99", "--store", str(store_path)]) == 2
