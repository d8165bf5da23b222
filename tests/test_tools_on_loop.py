"""Where a plain tool runs: on the event loop when the server is built for stdio (one client;
no thread hop each way), in worker threads otherwise (HTTP serves many clients at once). Either
way the answers are the same, errors included."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from mcp import Client
from mcp_helpers import text_of

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.models import GameList
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio


class RecordingService(GameService):
    """Notes the thread each `list_games` call runs on."""

    threads: list[int]

    def list_games(self) -> GameList:
        self.threads.append(threading.get_ident())
        return super().list_games()


@pytest.mark.parametrize("on_loop", [True, False])
async def test_plain_tools_run_where_the_server_was_built_to_run_them(
    tmp_path: Path, on_loop: bool
) -> None:
    service = RecordingService(MemoryStore(), tmp_path / "t")
    service.threads = []
    loop_thread = threading.get_ident()
    async with Client(build_server(service, tools_on_loop=on_loop)) as client:
        listed = await client.call_tool("list_games", {})
        started = await client.call_tool("new_game", {"game": "influence", "seat": "White"})
        data = started.structured_content or {}
        ids = {"game_id": data["game_id"], "credential": data["credential"]}
        played = await client.call_tool("play", {**ids, "number": 1})
        refused = await client.call_tool("play", {**ids, "move": "not a move"})
    assert not listed.is_error and not played.is_error
    assert "influence" in str(listed.structured_content)
    assert refused.is_error and text_of(refused.content[0]).startswith("[")
    assert service.threads
    if on_loop:
        assert set(service.threads) == {loop_thread}
    else:
        assert loop_thread not in service.threads
