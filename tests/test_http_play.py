"""Whole games over the real server's HTTP transports, every LLM seat its own SDK client:
Streamable HTTP (the stateless 2026 protocol and the 2025 handshake side by side), legacy
HTTP+SSE, a client that reconnects for every call, and a nine-seat Territory game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from http_helpers import (
    HttpServer,
    fresh_connections,
    held,
    play_all,
    running,
    sse,
    streamable,
)
from mcp_helpers import call

from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Attempt, Fallback, Header, Player

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

INFLUENCE = {"max_turns": 3}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    root = tmp_path_factory.mktemp("http")
    with running(HttpServer(root / "s.sqlite3", root / "t")) as srv:
        yield srv


def _transcript(server: HttpServer, game: dict[str, Any]) -> Path:
    """Results carry no server paths: the file is named after the game kind and its id."""
    assert "transcript" not in game
    return server.transcripts / f"{game['view']['game']}-{game['game_id']}.jsonl"


def _llm_seats(transcript: Path) -> dict[str, Player]:
    header = read_transcript(transcript)[0]
    assert isinstance(header, Header)
    return {s.name: s.player for s in header.seats if s.player.kind != "bot"}


def _check_finished(transcript: Path, llm_seats: int) -> None:
    events = read_transcript(transcript)
    played = {e.seat for e in events if isinstance(e, Attempt) and e.ok}
    assert len(played) == llm_seats, played  # every LLM seat moved itself
    assert not [e for e in events if isinstance(e, Fallback)], "nobody should be defaulted"
    report = replay(transcript)
    assert report.ok and report.finished, report.mismatches


async def test_influence_two_clients_over_streamable_http(server: HttpServer) -> None:
    async with (
        streamable(server.base) as white,
        streamable(server.base, legacy=True) as black,
    ):
        game = await call(
            white, "new_game", game="influence", seat="White", bots=["open"], ruleset=INFLUENCE
        )
        assert game["view"]["status"] == "waiting" and set(game["invitations"]) == {"Black"}
        joined = await call(black, "join_game", invitation=game["invitations"]["Black"])
        assert joined["game_id"] == game["game_id"] and joined["seat_name"] == "Black"
        gid = game["game_id"]
        await play_all(
            [(held(white), gid, game["credential"]), (held(black), gid, joined["credential"])]
        )
        view = await call(black, "show", game_id=gid, credential=joined["credential"])
        assert view["status"] == "over" and view["outcome"] is not None
    assert set(_llm_seats(_transcript(server, game))) == {"White", "Black"}
    _check_finished(_transcript(server, game), 2)


async def test_influence_two_clients_over_legacy_sse(server: HttpServer) -> None:
    async with sse(server.base) as white, sse(server.base) as black:
        game = await call(
            white, "new_game", game="influence", seat="Black", bots=["open"], ruleset=INFLUENCE
        )
        joined = await call(black, "join_game", invitation=game["invitations"]["White"])
        gid = game["game_id"]
        await play_all(
            [(held(white), gid, game["credential"]), (held(black), gid, joined["credential"])]
        )
    _check_finished(_transcript(server, game), 2)


async def test_a_client_reconnecting_for_every_call_keeps_its_seat(server: HttpServer) -> None:
    async with streamable(server.base) as white:
        game = await call(
            white,
            "new_game",
            game="influence",
            seat="White",
            bots=["open"],
            ruleset={"max_turns": 1},
        )
        gid = game["game_id"]
        # Black's every call is a new connection and a new handshake session: only the
        # credential ties the calls to the seat.
        black = fresh_connections(lambda: streamable(server.base, legacy=True))
        joined = await black("join_game", invitation=game["invitations"]["Black"])
        view = await black("show", game_id=gid, credential=joined["credential"])
        assert view["seat_name"] == "Black"
        await play_all([(held(white), gid, game["credential"]), (black, gid, joined["credential"])])
    _check_finished(_transcript(server, game), 2)


async def test_territory_two_llm_clients_and_seven_bots_over_streamable_http(
    server: HttpServer,
) -> None:
    bots = ["open", *["homesteader", "raider", "diplomat", "random"] * 2][:8]
    async with streamable(server.base) as sable, streamable(server.base, legacy=True) as ochre:
        game = await call(
            sable, "new_game", game="territory", seat="Sable", bots=bots, ruleset={"turns": 5}
        )
        assert set(game["invitations"]) == {"Ochre"}
        joined = await call(ochre, "join_game", invitation=game["invitations"]["Ochre"])
        gid = game["game_id"]
        await play_all(
            [(held(sable), gid, game["credential"]), (held(ochre), gid, joined["credential"])]
        )
        view = await call(sable, "show", game_id=gid, credential=game["credential"])
        assert view["status"] == "over"
    assert set(_llm_seats(_transcript(server, game))) == {"Sable", "Ochre"}
    _check_finished(_transcript(server, game), 2)
