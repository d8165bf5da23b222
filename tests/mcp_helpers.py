"""Small helpers for tests that talk to the server through a real MCP client."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters


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


def error_text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def stdio_params(store: Path, transcripts: Path) -> StdioServerParameters:
    return StdioServerParameters(
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
