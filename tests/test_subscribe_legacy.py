"""Handshake-era clients (2025-11-25, as the Inspector and today's desktop clients speak)
subscribe to a spectator view with `resources/subscribe` and hear `resources/updated` when the
game moves: in memory, over Streamable HTTP with the initialize handshake, and over HTTP+SSE.
A guessed code is answered the same way and hears nothing."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from http_helpers import HttpServer, running, sse, streamable
from mcp import Client
from mcp_helpers import call
from mcp_types import ResourceUpdatedNotification

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService

pytestmark = pytest.mark.anyio


class Heard:
    def __init__(self) -> None:
        self.uris: list[str] = []
        self.arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            self.uris.append(str(message.params.uri))
            self.arrived.set()


async def subscribe(client: Client, uri: str, *, off: bool = False) -> None:
    with warnings.catch_warnings():  # the SDK marks the 2025 request deprecated for 2026 peers
        warnings.simplefilter("ignore")
        if off:
            await client.unsubscribe_resource(uri)
        else:
            await client.subscribe_resource(uri)


async def watch_a_game(watcher: Client, player: Client, heard: Heard) -> None:
    caps = watcher.session.server_capabilities
    assert watcher.protocol_version == "2025-11-25"
    assert caps is not None and caps.resources is not None and caps.resources.subscribe
    game = await call(player, "new_game", game="influence", seed=2, seat=0, bots=["greedy"])
    seat = {"game_id": game["game_id"], "credential": game["credential"]}
    good = f"cogs-arena://spectate/{game['spectator_code']}"
    wrong = f"cogs-arena://spectate/{game['game_id']}.guessed"
    await subscribe(watcher, wrong)
    await subscribe(watcher, good)
    await call(player, "play", **seat, move="end")
    with anyio.fail_after(10):
        await heard.arrived.wait()
    assert good in heard.uris and wrong not in heard.uris
    # Unsubscribed: the next move is not announced (once the notices of the first are in).
    await subscribe(watcher, good, off=True)
    await anyio.sleep(0.5)
    before = len(heard.uris)
    await call(player, "play", **seat, number=1)
    await anyio.sleep(0.5)
    assert len(heard.uris) == before and wrong not in heard.uris


async def test_in_memory_handshake_clients_hear_of_changes(memory_service: GameService) -> None:
    server = build_server(memory_service)
    heard = Heard()
    async with (
        Client(server, mode="legacy", message_handler=heard) as watcher,
        Client(server) as player,
    ):
        await watch_a_game(watcher, player, heard)


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["streamable", "sse"])
async def test_http_handshake_clients_hear_of_changes(tmp_path: Path, transport: str) -> None:
    heard = Heard()
    with running(HttpServer(tmp_path / "s.sqlite3", tmp_path / "t")) as server:
        connect: Callable[[], Client] = (
            (lambda: streamable(server.base, legacy=True, on_message=heard))
            if transport == "streamable"
            else (lambda: sse(server.base, on_message=heard, legacy=True))
        )
        async with connect() as watcher, streamable(server.base) as player:
            await watch_a_game(watcher, player, heard)
