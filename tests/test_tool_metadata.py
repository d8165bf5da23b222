"""What a client reads before its first call: every tool titled, closed-world, described without
docstring indentation, every parameter described, `game` and `bots` listing the registered
names; and `serve` saying on stderr where it listens, which store and transcript folder it
uses and how many games it resumed (stdout stays the protocol's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from http_helpers import HttpServer, running
from mcp import Client
from mcp_helpers import call

from cogs_arena.engines.registry import available, get_engine
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.server.text_rules import OPENSPIEL_PATTERN, TWIN_PATTERN


async def _tools(service: GameService) -> dict[str, Any]:
    async with Client(build_server(service)) as client:
        return {t.name: t for t in (await client.list_tools()).tools}


@pytest.mark.anyio
async def test_every_tool_has_a_title_and_a_closed_world(memory_service: GameService) -> None:
    tools = await _tools(memory_service)
    titles = [tool.title for tool in tools.values()]
    assert all(titles) and len(set(titles)) == len(titles), titles
    for tool in tools.values():
        assert tool.annotations is not None, tool.name
        assert tool.annotations.open_world_hint is False, tool.name
        assert tool.annotations.title == tool.title, tool.name


@pytest.mark.anyio
async def test_descriptions_carry_no_docstring_indentation(memory_service: GameService) -> None:
    for tool in (await _tools(memory_service)).values():
        text = tool.description
        assert text and text == text.strip(), tool.name
        for paragraph in text.split("\n\n"):
            assert paragraph and "\n" not in paragraph, (tool.name, paragraph)
            assert "  " not in paragraph, (tool.name, paragraph)


def _described(schema: dict[str, Any]) -> dict[str, str]:
    return {name: prop.get("description", "") for name, prop in schema["properties"].items()}


@pytest.mark.anyio
async def test_every_parameter_is_described(memory_service: GameService) -> None:
    tools = await _tools(memory_service)
    for tool in tools.values():
        for name, text in _described(tool.input_schema).items():
            assert text.strip(), f"{tool.name}.{name} has no description"
    menu = _described(tools["legal_moves"].input_schema)
    assert "default 1" in menu["page"] and "pages" in menu["page"]
    assert "500" in menu["page_size"] and "default 50" in menu["page_size"]
    assert "kinds" in menu["kind"] and "legal_moves" in menu["kind"]
    log = _described(tools["log"].input_schema)
    assert "1000" in log["limit"] and "default 200" in log["limit"]
    new_game = _described(tools["new_game"].input_schema)
    assert "Default: seat 0" in new_game["seat"] and "influence" in new_game["seat"]
    assert "'open'" in new_game["bots"]


@pytest.mark.anyio
async def test_game_and_bots_list_the_registered_names(memory_service: GameService) -> None:
    schema = (await _tools(memory_service))["new_game"].input_schema["properties"]
    games = [name for name in available() if ":" not in name]
    # OpenSpiel's 105 games are one pattern, not 105 names (the openspiel extra is installed).
    assert schema["game"]["anyOf"] == [{"enum": games}, {"pattern": OPENSPIEL_PATTERN}]
    assert len(games) >= 4
    bots = {bot for game in games for bot in get_engine(game).bots()}
    bots |= set(get_engine("openspiel:tic_tac_toe").bots())
    array = schema["bots"]
    assert array["type"] == ["array", "null"]
    listed, twins = array["items"]["anyOf"]
    assert twins == {"pattern": TWIN_PATTERN}
    named = set(listed["enum"]) | {b for b in bots if re.search(TWIN_PATTERN, b)}
    assert named == bots | {"open"}
    assert listed["enum"][-1] == "open"
    listed = (await _list_games(memory_service))["games"]
    assert {g["name"] for g in listed} == set(games)


async def _list_games(service: GameService) -> dict[str, Any]:
    async with Client(build_server(service)) as client:
        return await call(client, "list_games")


@pytest.mark.anyio
async def test_enums_leave_the_service_messages_alone(memory_service: GameService) -> None:
    async with Client(build_server(memory_service)) as client:
        result = await client.call_tool("new_game", {"game": "chess"})
        assert result.is_error
        text = "".join(getattr(block, "text", "") for block in result.content)
        assert text.startswith("[unknown_game]") and "influence" in text, text
        result = await client.call_tool("new_game", {"game": "influence", "bots": ["nobody"]})
        text = "".join(getattr(block, "text", "") for block in result.content)
        assert result.is_error and "Unknown bot 'nobody'" in text, text


@pytest.mark.slow
def test_serve_says_where_it_listens_over_http(tmp_path: Path) -> None:
    store_path = tmp_path / "arena.sqlite3"
    store = SqliteStore(store_path)
    service = GameService(store, tmp_path / "transcripts")
    service.new_game("influence", seed=3, seat=0)
    service.new_game("territory", seed=3)
    store.close()
    server = HttpServer(store=store_path, transcripts=tmp_path / "transcripts")
    with running(server):
        said = server.stderr()
    base = f"http://127.0.0.1:{server.port}"
    assert f"{base}/mcp" in said and f"{base}/sse" in said, said
    assert f"store {store_path.absolute()}" in said, said
    assert f"transcripts in {(tmp_path / 'transcripts').absolute()}" in said, said
    assert "resumed 2 unfinished game(s) of 2 in the store" in said, said


@pytest.mark.slow
def test_serve_over_stdio_says_so_on_stderr_only(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cogs_arena", "serve", "--memory", "--transcripts", str(tmp_path)],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    said = done.stderr.decode()
    assert done.stdout == b"", done.stdout
    assert "speaking MCP over stdio" in said, said
    assert "store in memory" in said and f"transcripts in {tmp_path}" in said, said
    assert "resumed 0 unfinished game(s) of 0 in the store" in said, said
