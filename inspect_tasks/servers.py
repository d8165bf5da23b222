"""The game server each sample gets: a `cogs-arena serve` process of its own, holding its games in
memory and writing transcripts to the task's directory, so the transcript path is known and
nothing outlives the sample but the record. One model talks to it over stdio; several models
need one server they all reach, so then it listens on a loopback HTTP port the system picks."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
from anyio.abc import ByteReceiveStream, Process
from inspect_ai.tool import MCPServer, mcp_server_stdio

START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
_LISTENING = re.compile(r"listening: Streamable HTTP at (?P<url>\S+?),")


def serve_args(transcripts: Path, *extra: str) -> list[str]:
    return [
        "-m",
        "cogs_arena",
        "serve",
        "--memory",
        "--transcripts",
        str(transcripts),
        *extra,
    ]


IMPORT_ENV = ("PYTHONPATH", "PYTHONNOUSERSITE")
"""What decides which `cogs_arena` a Python process imports. MCP's stdio client starts a server
with a few safe variables only; without these the server could run another copy of the package
than the task (an installed one instead of a checkout), whose records this copy cannot replay."""


def import_env() -> dict[str, str]:
    return {name: os.environ[name] for name in IMPORT_ENV if name in os.environ}


def stdio_server(transcripts: Path) -> MCPServer:
    """A server process over stdio, started when its `mcp_connection` is entered and kept
    until it is left: the whole sample. It imports the same package as the task."""
    return mcp_server_stdio(
        name="cogs-arena", command=sys.executable, args=serve_args(transcripts), env=import_env()
    )


@contextlib.asynccontextmanager
async def http_server(transcripts: Path) -> AsyncIterator[str]:
    """Starts `serve --transport http` on 127.0.0.1 and a free port; yields its `/mcp` URL and
    stops the process on exit."""
    command = [
        sys.executable,
        *serve_args(transcripts, "--transport", "http", "--host", "127.0.0.1", "--port", "0"),
    ]
    process = await anyio.open_process(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        assert process.stderr is not None
        lines: list[str] = []
        with anyio.move_on_after(START_TIMEOUT):
            url = await _listening_url(process.stderr, lines)
        if not lines or _LISTENING.search(lines[-1]) is None:
            raise RuntimeError(
                "cogs-arena serve did not start listening: " + " | ".join(lines[-5:])
            )
        async with anyio.create_task_group() as tg:
            # Keep reading stderr, or a chatty server would block on a full pipe.
            tg.start_soon(_drain, process.stderr)
            try:
                yield url
            finally:
                tg.cancel_scope.cancel()
    finally:
        await _stop(process)


async def _listening_url(stream: ByteReceiveStream, lines: list[str]) -> str:
    buffer = b""
    async for chunk in stream:
        buffer += chunk
        while b"\n" in buffer:
            raw, buffer = buffer.split(b"\n", 1)
            lines.append(raw.decode("utf-8", "replace"))
            if match := _LISTENING.search(lines[-1]):
                return match["url"]
    return ""


async def _drain(stream: ByteReceiveStream) -> None:
    async for _ in stream:
        pass


async def _stop(process: Process) -> None:
    if process.returncode is None:
        process.terminate()
        with anyio.move_on_after(STOP_TIMEOUT):
            await process.wait()
    if process.returncode is None:
        process.kill()
        with anyio.CancelScope(shield=True):
            await process.wait()
