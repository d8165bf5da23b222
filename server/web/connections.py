"""What one HTTP connection may hold: its request headers within a time and a size, its body
within a time, and a place under the server's cap on open connections. uvicorn's own timeouts
cover only the idle time between requests, so a client sending a header (or a body) a byte at a
time would keep its connection, and its buffers, for as long as it liked."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .guard import App, HttpOptions, Message, Receive, Scope, Send, loggable_path

log = logging.getLogger("cogs_arena.http")

MAX_HEADER_BYTES = 1 << 20
"""What a request may send before its headers end. The chunk that ends them may also carry
body bytes, and the event loop reads up to 256 KiB at once, so this is far above any header."""
REFUSAL_LOG_EVERY = 10.0


def _response(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(text)).encode() + b"\r\nconnection: close\r\n\r\n" + text
    )


REFUSED = _response(b"503 Service Unavailable", b"Too many open connections; try again later")
TOO_SLOW = _response(b"408 Request Timeout", b"The request did not arrive in time")
TOO_LARGE = _response(b"431 Request Header Fields Too Large", b"The request headers are too large")


class _Refusals:
    """Counts refused connections and logs them at most once every REFUSAL_LOG_EVERY s: the
    first at once, the rest of a flood summed up when the time comes."""

    def __init__(self) -> None:
        self.count = 0
        self.logged_at = float("-inf")
        self.pending: asyncio.TimerHandle | None = None

    def note(self, cap: int, loop: asyncio.AbstractEventLoop) -> None:
        self.count += 1
        if self.pending is not None:
            return
        wait = self.logged_at + REFUSAL_LOG_EVERY - time.monotonic()
        if wait <= 0:
            self.flush(cap)
        else:
            self.pending = loop.call_later(wait, self.flush, cap)

    def flush(self, cap: int) -> None:
        self.pending = None
        log.warning(
            "refused %d connection(s): %d were open, the cap (--max-connections)", self.count, cap
        )
        self.count, self.logged_at = 0, time.monotonic()


class BoundedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with one deadline per request: for its headers while they
    arrive, then for its body. A request that misses one is answered 408 (if nothing was sent
    yet) and its connection closed; the application sees the client leave."""

    limits: ClassVar[HttpOptions] = HttpOptions()
    refusals: ClassVar[_Refusals] = _Refusals()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = ""  # "headers", "body" or "" (between requests, or a request complete)
        self._header_bytes = 0
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.limits.max_connections:
            self._refused = True
            self.transport = transport
            transport.write(REFUSED)
            transport.close()
            self.refusals.note(self.limits.max_connections, self.loop)
            return
        super().connection_made(transport)
        self._start("headers")  # a connection that never sends a byte is closed too

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        if not self._refused:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return
        if self._phase == "":
            self._start("headers")  # bytes before a request begins count against its headers
        if self._phase == "headers":
            self._header_bytes += len(data)
            if self._header_bytes > MAX_HEADER_BYTES:
                self._close(TOO_LARGE, "headers over %d bytes", MAX_HEADER_BYTES)
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._start("body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._stop()
        super().on_message_complete()

    def _start(self, phase: str) -> None:
        self._stop()
        self._phase = phase
        self._header_bytes = 0
        seconds = self.limits.header_timeout if phase == "headers" else self.limits.body_timeout
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _stop(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = ""

    def _expired(self) -> None:
        phase = self._phase
        self._deadline = None
        seconds = self.limits.header_timeout if phase == "headers" else self.limits.body_timeout
        self._close(TOO_SLOW, f"{phase} not received within %g s", seconds)

    def _close(self, answer: bytes, why: str, *values: object) -> None:
        cycle = self.cycle  # while headers arrive, the previous request's (or None)
        if self._phase == "headers":
            answer_now = cycle is None or cycle.response_complete
        else:
            answer_now = not cycle.response_started
        if answer_now:
            self.transport.write(answer)
        if cycle is not None and not cycle.response_complete:
            # As connection_lost does, at once: the application's next receive reads a
            # disconnect and anything it still sends is dropped.
            cycle.disconnected = True
            cycle.keep_alive = False
            cycle.message_event.set()
        self._stop()
        client = "{}:{}".format(*self.client) if self.client else "a client"
        log.info("closed the connection of %s: " + why, client, *values)
        self.transport.close()


def bounded_protocol(limits: HttpOptions) -> type[BoundedProtocol]:
    """The protocol class for one server (uvicorn builds one instance per connection)."""
    return type("BoundedProtocol", (BoundedProtocol,), {"limits": limits, "refusals": _Refusals()})


class _ClientLeft(BaseException):
    """Raised into the application from `receive`: not an Exception, so no handler on the way
    takes it for an error of its own and logs it."""


class DropHalfBodies:
    """ASGI middleware: when the client leaves (or its body timed out) before its request
    body was complete, the request is abandoned rather than handed a disconnect, which the
    SDK's handlers log as an error with a traceback. Nothing was read, so nothing changed."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        complete = False

        async def receive_whole() -> Message:
            nonlocal complete
            message = await receive()
            if message["type"] == "http.request":
                complete = not message.get("more_body", False)
            elif not complete:
                raise _ClientLeft
            return message

        try:
            await self.app(scope, receive_whole, send)
        except* _ClientLeft:
            path = loggable_path(str(scope.get("path", "")))
            log.info("%s %s: the client left before its body was complete", scope["method"], path)
