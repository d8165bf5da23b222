"""Small helpers for tests that talk to the server through a real MCP client."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_types import TextContent, TextResourceContents


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise AssertionError(f"{tool} failed: {error_text(result)}")
    assert result.structured_content is not None
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert text.strip(), f"{tool} must return a readable text block"
    return dict(result.structured_content)


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} should have failed"
    return error_text(result)


def text_of(block: object) -> str:
    """The text of a content block (tool result, prompt message or resource) the test expects to
    be text; any other kind fails the test."""
    assert isinstance(block, TextContent | TextResourceContents), block
    return block.text


def error_text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def stdio_params(store: Path, transcripts: Path, *paths: Path) -> StdioServerParameters:
    """The server as a child process. The SDK hands a child only a few variables; PYTHONPATH
    goes along too, so a checkout run with it serves its own code, after `paths` (plugins)."""
    env = get_default_environment()
    path = [*map(str, paths), *filter(None, [os.environ.get("PYTHONPATH", "")])]
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    return StdioServerParameters(
        env=env,
        command=sys.executable,
        args=[
            "-m",
            "cogs_arena",
            "serve",
            "--store",
            str(store),
            "--transcripts",
            str(transcripts),
        ],
    )


def fight_or_builder(entries: list[dict[str, Any]], observation: Any, stream: Any) -> int:
    """Blending by menu numbers: the first fight offered, else the builder bot's choice, read
    from the menu entries exactly as a client sees them."""
    from cogs_arena.engines import LegalMoves, MoveInfo, get_engine

    fights = [e for e in entries if e["kind"] == "fight"]
    if fights:
        return int(fights[0]["number"])
    legal = LegalMoves(tuple(MoveInfo(e["notation"], e["description"], e["kind"]) for e in entries))
    choice = get_engine("blending").bots()["builder"](observation, legal, stream)
    return int(next(e["number"] for e in entries if e["notation"] == choice))
