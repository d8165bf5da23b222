"""MCP over stdio with a bound on the line: the SDK's transport reads a line whole however long
it is (a 50 MB line took 243 MB) and answers nothing to a line it cannot parse, so a client
that sent one waits forever. Here a line over the bound is skipped as it streams past and
answered, like a line that is not JSON, with a JSON-RPC error."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, BinaryIO

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage
from pydantic import ValidationError
from pydantic_core import from_json

MAX_LINE_BYTES = 4 << 20
"""As the SDK's bound on an HTTP request body: no tool call comes near it."""
READ_CHUNK = 1 << 16

Incoming = SessionMessage | Exception


def error_for(line: bytes) -> types.JSONRPCError:
    """The answer to a line the server cannot take: not JSON (-32700), or JSON that is not a
    JSON-RPC message (-32600, with the request's id where one can be read)."""
    try:
        value = from_json(line)
    except ValueError:
        return _error(None, types.PARSE_ERROR, "Parse error: the line is not JSON")
    given = value.get("id") if isinstance(value, dict) else None
    known = given if isinstance(given, str | int) and not isinstance(given, bool) else None
    return _error(known, types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC message")


def _error(request_id: str | int | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )


def overlong(limit: int) -> types.JSONRPCError:
    return _error(
        None,
        types.PARSE_ERROR,
        f"Parse error: a line over {limit} bytes was skipped unread (send less per message)",
    )


class LineReader:
    """Lines of at most `limit` bytes from a file descriptor, read in chunks; a longer line is
    dropped as it arrives (never held whole) and reported through `on_overlong`."""

    def __init__(self, fd: int, limit: int, on_overlong: Callable[[], Awaitable[None]]) -> None:
        self.fd = fd
        self.limit = limit
        self.on_overlong = on_overlong
        self.buffer = bytearray()
        self.skipping = False  # inside an overlong line, until its newline

    async def next_line(self) -> bytes | None:
        """The next line without its newline, or None at the end of input."""
        searched = 0
        while True:
            newline = self.buffer.find(b"\n", searched)
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                searched = 0
                if self.skipping or len(line) > self.limit:
                    self.skipping = False
                    await self.on_overlong()
                    continue
                return line
            if self.skipping or len(self.buffer) > self.limit:
                self.buffer.clear()  # the line is over the bound: drop what came of it
                self.skipping = True
            searched = len(self.buffer)
            chunk = await anyio.to_thread.run_sync(
                os.read, self.fd, READ_CHUNK, abandon_on_cancel=True
            )
            if not chunk:
                if self.skipping:
                    self.skipping = False
                    await self.on_overlong()
                if not self.buffer:
                    return None
                line = bytes(self.buffer)  # no newline at the end; within the bound
                self.buffer.clear()
                return line
            self.buffer += chunk


@contextlib.contextmanager
def _claimed(fd: int, stand_in: int) -> Iterator[int]:
    """A private duplicate of `fd` for the protocol, while `fd` itself points at `stand_in`, so a
    stray print or a child process cannot write into (or read from) the wire."""
    wire = os.dup(fd)
    os.dup2(stand_in, fd)
    try:
        yield wire
    finally:
        os.dup2(wire, fd)
        # The wire is not closed: a worker thread may still be blocked reading it.


async def _read(
    reader: LineReader,
    incoming: MemoryObjectSendStream[Incoming],
    answers: MemoryObjectSendStream[SessionMessage],
) -> None:
    async with incoming, answers:
        while (line := await reader.next_line()) is not None:
            if not line.strip():
                continue  # a blank line carries no message: nothing to answer
            try:
                message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except ValidationError:
                await answers.send(SessionMessage(error_for(line)))
                continue
            await incoming.send(SessionMessage(message))


async def _write(out: BinaryIO, outgoing: MemoryObjectReceiveStream[SessionMessage]) -> None:
    def write(data: bytes) -> None:
        out.write(data)
        out.flush()

    async with outgoing:
        async for item in outgoing:
            text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
            await anyio.to_thread.run_sync(write, text.encode() + b"\n")


@contextlib.asynccontextmanager
async def _streams(
    wire_in: int, wire_out: int, limit: int
) -> AsyncIterator[
    tuple[MemoryObjectReceiveStream[Incoming], MemoryObjectSendStream[SessionMessage]]
]:
    to_server, from_stdin = anyio.create_memory_object_stream[Incoming](0)
    to_stdout, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    answers = to_stdout.clone()  # the reader's own answers: lines the server never sees
    reader = LineReader(wire_in, limit, lambda: answers.send(SessionMessage(overlong(limit))))
    out = os.fdopen(wire_out, "wb", closefd=False)
    async with anyio.create_task_group() as writing:
        writing.start_soon(_write, out, from_server)
        async with anyio.create_task_group() as reading:
            reading.start_soon(_read, reader, to_server, answers)
            try:
                yield from_stdin, to_stdout
            finally:
                # The server is done: stop reading (which closes the reader's clone), then
                # let the writer drain what is left and end.
                reading.cancel_scope.cancel()
        await to_stdout.aclose()


async def serve_stdio(mcp: MCPServer[Any], limit: int = MAX_LINE_BYTES) -> None:
    """Serves `mcp` on this process's stdin and stdout until stdin ends."""
    sys.stdout.flush()
    with (
        open(os.devnull, "rb") as nothing,
        _claimed(0, nothing.fileno()) as wire_in,
        _claimed(1, 2) as wire_out,
    ):
        async with _streams(wire_in, wire_out, limit) as (read, write):
            lowlevel = mcp._lowlevel_server
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
