"""Fair shares: a seat credential or a connection over its rate or its calls at once is refused
`[limit_reached]`, naming the bound and when to retry, with nothing run; another credential is
untouched, and normal play at a model's pace never meets the defaults. Through the SDK's
in-memory client (one connection) and, slow, through `serve` over HTTP with its flags."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError
from mcp_helpers import call, call_error, error_text

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.adapter.shares import LIMIT_REACHED, PRUNE_AT, Shares
from cogs_arena.server.limits import Limits
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio

SHORT = {"max_turns": 4}


class Clock:
    """A clock the test moves; `step` is added at every reading (a client's pace)."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _server(
    tmp_path: Path, clock: Clock, max_hold: float = 0.0, **bounds: int
) -> tuple[GameService, Shares, Any]:
    service = GameService(MemoryStore(), tmp_path / "t", limits=Limits(**bounds))
    shares = Shares(service.limits, clock=clock, max_hold=max_hold)
    return service, shares, build_server(service, shares=shares)


async def _two_seats(client: Client) -> tuple[str, str, str]:
    game = await call(
        client, "new_game", game="influence", seed=2, seat=0, bots=["open"], ruleset=SHORT
    )
    joined = await call(client, "join_game", invitation=game["invitations"]["Black"])
    return game["game_id"], game["credential"], joined["credential"]


async def test_a_credential_over_its_rate_is_refused_naming_the_rate_and_the_retry(
    tmp_path: Path,
) -> None:
    """With 2 calls a second (4 in a row), the 5th show in an instant is refused: the text
    names the rate and the seconds until a call is let in again, nothing is read or written,
    and the other seat's credential on the same connection goes on; once the time has passed
    the credential is let in again."""
    clock = Clock()
    service, shares, server = _server(tmp_path, clock, credential_rate=2)
    async with Client(server) as client:
        gid, white, black = await _two_seats(client)
        for _ in range(4):
            await call(client, "show", game_id=gid, credential=white, detail="none")
        events = len(service.store.events(gid))
        text = await call_error(client, "show", game_id=gid, credential=white)
        assert text.startswith("[limit_reached] This seat credential is over its rate of 2")
        assert "nothing was read or changed" in text and "retry after 0.5 s" in text
        assert len(service.store.events(gid)) == events, "a refused show records no view"
        refused = await client.call_tool(
            "play", {"game_id": gid, "credential": white, "move": "end"}
        )
        assert refused.is_error and "[limit_reached]" in error_text(refused)
        assert len(service.store.events(gid)) == events, "a refused play applies nothing"
        await call(client, "show", game_id=gid, credential=black)
        clock.now += 0.5
        played = await call(client, "play", game_id=gid, credential=white, move="end")
        assert played["accepted"] == ["end"]
    assert shares.refused == 2


async def test_a_connection_over_its_rate_is_refused_whatever_the_call(tmp_path: Path) -> None:
    """Calls with no credential (ping) count against the connection: 3 a second, 6 in a row
    (the client's own discovery and listing of the tools among them); then a ping is refused
    naming the connection."""
    clock = Clock()
    _, _, server = _server(tmp_path, clock, connection_rate=3)
    async with Client(server) as client:
        passed = 0
        while not (result := await client.call_tool("ping", {})).is_error:
            passed += 1
            assert passed <= 6
        assert passed >= 4
        text = error_text(result)
        assert text.startswith("[limit_reached] This connection is over its rate of 3 calls")
        assert "retry after 0.3 s" in text
        with pytest.raises(MCPError) as refused:  # not a tool call: a JSON-RPC error
            await client.read_resource("cogs-arena://rules/influence")
        assert refused.value.code == LIMIT_REACHED
        assert refused.value.message.startswith("[limit_reached] This connection")
        clock.now += 1.0
        await call(client, "ping")


def test_idle_shares_are_dropped_and_busy_ones_kept() -> None:
    """Memory stays bounded under many credentials: past PRUNE_AT shares, those with nothing
    running and their rate back in full go; one with a call running stays."""
    clock = Clock()
    shares = Shares(Limits(), clock=clock)
    busy = ("credential", "busy")
    assert shares.take([busy]) is None
    for i in range(PRUNE_AT):
        assert shares.take([("credential", f"c{i}")], held=False) is None
    clock.now += 10.0
    assert shares.take([("credential", "new")]) is None
    assert len(shares._shares) == 2 and shares.running(busy) == 1


async def test_the_call_over_the_calls_at_once_is_refused_until_one_answers(
    tmp_path: Path,
) -> None:
    """Black, not on turn, holds 2 waits (its bound); a 3rd call of Black's is refused naming
    the bound, while White plays on; White's move answers the waits, and Black is let in."""
    clock = Clock()
    _, shares, server = _server(tmp_path, clock, credential_at_once=2)
    async with Client(server) as client:
        gid, white, black = await _two_seats(client)
        cursor = (await call(client, "show", game_id=gid, credential=black))["log_cursor"]
        key = _key(black)
        answers: list[dict[str, Any]] = []

        async def wait() -> None:
            answers.append(
                await call(client, "wait", game_id=gid, credential=black, after=cursor, timeout=30)
            )

        async with anyio.create_task_group() as tg:
            tg.start_soon(wait)
            tg.start_soon(wait)
            with anyio.fail_after(10):
                while shares.running(key) < 2:
                    await anyio.sleep(0.01)
            text = await call_error(client, "show", game_id=gid, credential=black)
            assert text.startswith("[limit_reached] This seat credential has 2 calls running")
            assert "once one of them has answered" in text
            await call(client, "play", game_id=gid, credential=white, move="end")
        assert [a["ready"] for a in answers] == [True, True]
        assert shares.running(key) == 0
        await call(client, "show", game_id=gid, credential=black)


def _key(credential: str) -> tuple[str, str]:
    """The key of a credential's share."""
    return "credential", hashlib.sha256(credential.encode()).hexdigest()[:32]


async def test_a_refusal_is_answered_only_after_its_hold(tmp_path: Path) -> None:
    """A client that ignores the hint gains nothing: at 1 call a second (2 in a row) the 3rd
    show's refusal is held back a second before it is answered."""
    service = GameService(MemoryStore(), tmp_path / "t", limits=Limits(credential_rate=1))
    server = build_server(service, shares=Shares(service.limits))
    async with Client(server) as client:
        game = await call(client, "new_game", game="influence", seat=0)
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        await call(client, "show", **ids)
        await call(client, "show", **ids)
        started = time.monotonic()
        text = await call_error(client, "show", **ids)
        assert time.monotonic() - started >= 0.8, "held for about a second"
        assert "[limit_reached]" in text


async def test_normal_play_at_a_models_pace_never_meets_the_defaults(tmp_path: Path) -> None:
    """A whole game with both seats on one connection, four calls a second (faster than any
    model): every call goes through under the default bounds."""
    clock = Clock(step=0.25)
    _, shares, server = _server(tmp_path, clock)
    async with Client(server) as client:
        gid, white, black = await _two_seats(client)
        seats = {"White": white, "Black": black}
        view = await call(client, "show", game_id=gid, credential=white)
        while view["status"] != "over":
            mover = seats[view["to_act"][0]]
            await call(client, "legal_moves", game_id=gid, credential=mover)
            view = (await call(client, "play", game_id=gid, credential=mover, number=1))["view"]
            await call(client, "log", game_id=gid, credential=mover)
            if view["status"] != "over":
                await call(client, "talk", game_id=gid, credential=mover, text="your move")
    assert shares.refused == 0


@pytest.mark.slow
async def test_serve_over_http_takes_the_flags_and_refuses_over_rate(tmp_path: Path) -> None:
    """`serve --credential-rate 1`: the third show in a row is refused over HTTP; a bound of
    0 is refused at start with exit 2."""
    from http_helpers import HttpServer, running, streamable

    bad = subprocess.run(
        [sys.executable, "-m", "cogs_arena", "serve", "--credential-rate", "0", "--memory"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "--credential-rate must be 1 or more" in bad.stderr
    server = HttpServer(tmp_path / "s.sqlite3", tmp_path / "t", extra=("--credential-rate", "1"))
    with running(server):
        async with streamable(server.base) as client:
            game = await call(client, "new_game", game="influence", seat=0)
            ids = {"game_id": game["game_id"], "credential": game["credential"]}
            await call(client, "show", **ids)
            await call(client, "show", **ids)
            text = await call_error(client, "show", **ids)
    assert "[limit_reached] This seat credential is over its rate of 1 calls a second" in text
