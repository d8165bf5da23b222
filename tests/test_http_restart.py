"""A SIGKILL of the HTTP server mid-game, a restart on the same store and port, and both
seats' clients going on with their credentials to the end."""

from __future__ import annotations

import contextlib
from pathlib import Path

import anyio
import pytest
from http_helpers import HttpServer, held, play_all, play_seat, running, streamable
from mcp import Client
from mcp_helpers import call

from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Attempt, Fallback

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def test_clients_go_on_after_the_server_is_killed_and_restarted(tmp_path: Path) -> None:
    server = HttpServer(tmp_path / "s.sqlite3", tmp_path / "t")
    with running(server):
        # White speaks the stateless protocol: one Client object across the restart. Black's
        # handshake session dies with the server, so Black connects again afterwards.
        async with streamable(server.base) as white:
            black = streamable(server.base, legacy=True)
            await black.__aenter__()
            game = await call(
                white,
                "new_game",
                game="influence",
                seat="White",
                bots=["open"],
                ruleset={"max_turns": 2},
            )
            gid, white_cred = game["game_id"], game["credential"]
            joined = await call(black, "join_game", invitation=game["invitations"]["Black"])
            black_cred = joined["credential"]

            async def seat(client: Client, credential: str) -> None:
                await play_seat(held(client), gid, credential, stop_at_decision=12)

            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    for client, cred in ((white, white_cred), (black, black_cred)):
                        tg.start_soon(seat, client, cred)
            before = await call(white, "show", game_id=gid, credential=white_cred)
            assert before["status"] == "active" and before["decision"] >= 12

            server.kill()
            with contextlib.suppress(BaseException):  # its server is gone mid-session
                await black.__aexit__(None, None, None)
            server.start()

            async with streamable(server.base, legacy=True) as black:
                after = await call(black, "show", game_id=gid, credential=black_cred)
                assert after["decision"] == before["decision"] and after["seat_name"] == "Black"
                await play_all([(held(white), gid, white_cred), (held(black), gid, black_cred)])
                end = await call(white, "show", game_id=gid, credential=white_cred)
                assert end["status"] == "over"

    assert "transcript" not in game
    path = server.transcripts / f"influence-{gid}.jsonl"
    events = read_transcript(path)
    played = [e for e in events if isinstance(e, Attempt)]
    assert {e.seat for e in played if e.ok} == {0, 1}
    assert not [e for e in events if isinstance(e, Fallback)]
    report = replay(path)
    assert report.ok and report.finished, report.mismatches
