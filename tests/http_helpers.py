"""The real server process over HTTP, and SDK clients for its two HTTP transports."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client._transport import TransportStreams
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_helpers import call

Caller = Callable[..., Awaitable[dict[str, Any]]]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class HttpServer:
    store: Path
    transcripts: Path
    port: int = field(default_factory=free_port)
    extra: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "cogs_arena",
            "serve",
            "--transport",
            "http",
            "--port",
            str(self.port),
            "--store",
            str(self.store),
            "--transcripts",
            str(self.transcripts),
            *self.extra,
        ]

    def start(self, timeout: float = 30.0) -> None:
        log = open(self.store.with_suffix(".stderr"), "ab")  # noqa: SIM115 - the child owns it
        self.proc = subprocess.Popen(
            self.command(), stdout=subprocess.DEVNULL, stderr=log, env={**os.environ, **self.env}
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}: {self.stderr()}")
            with contextlib.suppress(httpx2.HTTPError):
                if httpx2.get(self.base + "/healthz", timeout=1).text == "ok":
                    return
            time.sleep(0.1)
        raise AssertionError(f"server not healthy after {timeout}s: {self.stderr()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def stderr(self) -> str:
        path = self.store.with_suffix(".stderr")
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""


@contextlib.contextmanager
def running(server: HttpServer) -> Iterator[HttpServer]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _headers(token: str | None) -> dict[str, str] | None:
    return {"Authorization": f"Bearer {token}"} if token else None


@contextlib.asynccontextmanager
async def _streamable_transport(url: str, token: str | None) -> AsyncIterator[TransportStreams]:
    # The transport leaves a client it was given open; this one owns its client.
    async with (
        create_mcp_http_client(headers=_headers(token)) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams


def streamable(
    base: str, *, legacy: bool = False, token: str | None = None, on_message: Any = None
) -> Client:
    """A Streamable HTTP client: the stateless 2026 protocol, or with `legacy` the
    initialize handshake of 2025 clients (a server-side session)."""
    transport = _streamable_transport(base + "/mcp", token)
    return Client(transport, mode="legacy" if legacy else "auto", message_handler=on_message)


def sse(
    base: str, *, token: str | None = None, on_message: Any = None, legacy: bool = False
) -> Client:
    """A legacy HTTP+SSE client (GET /sse for the stream, POST for messages); with `legacy`
    it speaks the initialize handshake of 2025 clients."""
    transport = sse_client(base + "/sse", headers=_headers(token))
    return Client(transport, mode="legacy" if legacy else "auto", message_handler=on_message)


def fresh_connections(connect: Callable[[], Client]) -> Caller:
    """A caller that opens a new connection for every call, as some clients do."""

    async def caller(tool: str, **arguments: Any) -> dict[str, Any]:
        async with connect() as client:
            return await call(client, tool, **arguments)

    return caller


def held(client: Client) -> Caller:
    async def caller(tool: str, **arguments: Any) -> dict[str, Any]:
        return await call(client, tool, **arguments)

    return caller


async def play_seat(
    caller: Caller, game_id: str, credential: str, *, stop_at_decision: int | None = None
) -> dict[str, Any]:
    """Plays menu entry 1 whenever `wait` says it is this seat's turn, until the game ends
    (or the decision number reaches `stop_at_decision`); returns the last wait result."""
    cursor = 0
    while True:
        waited = await caller(
            "wait", game_id=game_id, credential=credential, after=cursor, timeout=5
        )
        cursor = waited["cursor"]
        if waited["status"] == "over":
            return waited
        if stop_at_decision is not None and waited["decision"] >= stop_at_decision:
            return waited
        if waited["your_turn"]:
            await caller("play", game_id=game_id, credential=credential, number=1)


async def play_all(seats: list[tuple[Caller, str, str]], limit: float = 60.0) -> None:
    """Every seat's loop at once, as separate clients would run them."""
    with anyio.fail_after(limit):
        async with anyio.create_task_group() as tg:
            for caller, game_id, credential in seats:
                tg.start_soon(play_seat, caller, game_id, credential)
