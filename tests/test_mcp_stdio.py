"""The real server process over stdio, and a SIGKILL mid-game followed by a restart on the same
SQLite store."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call, stdio_params

from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import TRANSITIONS

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def _server_pids() -> list[int]:
    """Child processes of this test running `cogs_arena serve`."""
    me = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == me and b"cogs_arena serve" in cmdline:
            found.append(int(entry.name))
    return found


def _transcript(directory: Path, game: dict[str, Any]) -> Path:
    """Results carry no server paths: the file is named after the game and its id."""
    assert "transcript" not in game
    return directory / f"influence-{game['game_id']}.jsonl"


def _moves(transcript: Path) -> list[Any]:
    """Every transition with the state digest after it (their seqs aside)."""
    return [
        e.model_dump(exclude={"seq", "wall"})
        for e in read_transcript(transcript)
        if e.type in TRANSITIONS
    ]


async def _finish(client: Client, gid: str, cred: str, view: dict[str, Any]) -> dict[str, Any]:
    while view["status"] != "over":
        view = (await call(client, "play", game_id=gid, credential=cred, number=1))["view"]
    return view


async def test_stdio_server_plays_a_full_game(tmp_path: Path) -> None:
    params = stdio_params(tmp_path / "s.sqlite3", tmp_path / "t")
    async with Client(params) as client:
        game = await call(
            client,
            "new_game",
            game="influence",
            seed=8,
            seat="Black",
            ruleset={"max_turns": 30},
        )
        view = await _finish(client, game["game_id"], game["credential"], game["view"])
        assert view["outcome"] is not None
    assert replay(_transcript(tmp_path / "t", game)).ok


async def test_sigkill_mid_game_then_restart_matches_uninterrupted(tmp_path: Path) -> None:
    rules = {"max_turns": 25}
    async with Client(stdio_params(tmp_path / "a.sqlite3", tmp_path / "ta")) as client:
        game = await call(client, "new_game", game="influence", seed=9, seat="White", ruleset=rules)
        await _finish(client, game["game_id"], game["credential"], game["view"])
    straight = _moves(_transcript(tmp_path / "ta", game))

    params = stdio_params(tmp_path / "b.sqlite3", tmp_path / "tb")
    client = Client(params)
    await client.__aenter__()
    game2 = await call(client, "new_game", game="influence", seed=9, seat="White", ruleset=rules)
    gid, cred = game2["game_id"], game2["credential"]
    for _ in range(12):
        await call(client, "play", game_id=gid, credential=cred, number=1)
    pids = _server_pids()
    assert len(pids) == 1
    os.kill(pids[0], signal.SIGKILL)
    with contextlib.suppress(BaseException):
        await client.__aexit__(None, None, None)

    async with Client(params) as client:
        view = await call(client, "show", game_id=gid, credential=cred)
        assert view["status"] == "active"
        await _finish(client, gid, cred, view)
    resumed = _moves(_transcript(tmp_path / "tb", game2))
    assert resumed and resumed == straight
    assert replay(_transcript(tmp_path / "tb", game2)).ok
