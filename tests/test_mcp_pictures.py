"""Pictures through MCP: `show(image=true)` adds a PNG image block beside the text for every game,
`play` and `spectate` do too when asked, and nothing changes when not asked."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call
from mcp_types import TextContent

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.pictures import MAX_PNG_BYTES, png_size
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio


def _image(result: Any) -> bytes:
    """The one PNG block of a tool result, which must also carry a text block."""
    assert not result.is_error, result.content
    kinds = [block.type for block in result.content]
    assert kinds == ["text", "image"], kinds
    assert result.content[0].text.strip(), "the text stays for models without vision"
    block = result.content[1]
    assert block.mime_type == "image/png"
    data = base64.b64decode(block.data)
    width, height = png_size(data)
    assert width > 600 and height > 300
    assert len(data) < MAX_PNG_BYTES
    return data


@pytest.mark.parametrize("game", ["influence", "territory", "chemistry", "blending"])
async def test_show_with_image_returns_a_png_block(tmp_path: Path, game: str) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        new = await call(client, "new_game", game=game, seed=11)
        seat = {"game_id": new["game_id"], "credential": new["credential"]}
        _image(await client.call_tool("show", {**seat, "image": True}))
        _image(await client.call_tool("show", {**seat, "image": True, "detail": "none"}))
        plain = await client.call_tool("show", seat)
        assert [block.type for block in plain.content] == ["text"]
        assert "picture" not in (plain.structured_content or {}), "the SVG is not sent as data"


async def test_play_and_spectate_with_image(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        new = await call(client, "new_game", game="influence", seed=0, seat="White")
        seat = {"game_id": new["game_id"], "credential": new["credential"]}
        _image(await client.call_tool("play", {**seat, "move": "end", "image": True}))
        code = new["spectator_code"]
        _image(await client.call_tool("spectate", {"spectator_code": code, "image": True}))
        refused = await client.call_tool("show", {**seat, "image": "sometimes"})
        first = refused.content[0]
        assert isinstance(first, TextContent)
        assert refused.is_error and "image" in first.text
