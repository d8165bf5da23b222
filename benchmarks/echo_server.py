"""A trivial MCP server over stdio with one `echo` tool, built with the same SDK as cogs-arena:
the baseline that bench_play_echo.py times a `play` round trip against."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server = MCPServer("echo")


@server.tool()
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


if __name__ == "__main__":
    server.run("stdio")
