"""DropHalfBodies without a socket: a client that leaves before its body is complete ends the
request quietly (the SDK's handlers would log the disconnect as an error, with a traceback),
whether the body is read in the request's task or in a task of its own; whole bodies and
disconnects after the body pass through."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import pytest
from starlette.requests import ClientDisconnect, Request

from cogs_arena.server.web.connections import DropHalfBodies

pytestmark = pytest.mark.anyio

SCOPE = {"type": "http", "method": "POST", "path": "/watch/secret-code/events", "headers": []}


def _client(*messages: dict[str, Any]) -> Any:
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    return receive


async def _nothing(message: Any) -> None:
    return None


class _App:
    """Reads the body as the SDK does, and logs what goes wrong as the SDK does."""

    def __init__(self, in_task: bool) -> None:
        self.in_task = in_task
        self.bodies: list[bytes] = []
        self.errors: list[BaseException] = []

    async def read(self, scope: Any, receive: Any) -> None:
        try:
            self.bodies.append(await Request(scope, receive).body())
        except Exception as exc:
            self.errors.append(exc)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not self.in_task:
            await self.read(scope, receive)
            return
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(self.read, scope, receive)


@pytest.mark.parametrize("in_task", [False, True])
async def test_a_half_body_ends_the_request_quietly(
    in_task: bool, caplog: pytest.LogCaptureFixture
) -> None:
    app = _App(in_task)
    half = _client({"type": "http.request", "body": b'{"a"', "more_body": True})
    with caplog.at_level(logging.INFO, logger="cogs_arena.http"):
        await DropHalfBodies(app)(dict(SCOPE), half, _nothing)
    assert app.bodies == [] and app.errors == []  # the handler never saw a disconnect
    assert [r.getMessage() for r in caplog.records] == [
        "POST /watch/<code>/events: the client left before its body was complete"
    ]


async def test_whole_bodies_and_later_disconnects_pass_through() -> None:
    """Without the middleware the same half body is a ClientDisconnect in the handler; with
    it, a whole body reaches the handler, and a disconnect after it is the handler's to see."""
    bare = _App(in_task=False)
    half = _client({"type": "http.request", "body": b"{", "more_body": True})
    await bare(dict(SCOPE), half, _nothing)
    assert [type(e) for e in bare.errors] == [ClientDisconnect]
    app = _App(in_task=False)
    whole = _client(
        {"type": "http.request", "body": b'{"a"', "more_body": True},
        {"type": "http.request", "body": b": 1}", "more_body": False},
    )
    await DropHalfBodies(app)(dict(SCOPE), whole, _nothing)
    assert app.bodies == [b'{"a": 1}'] and app.errors == []
    seen = []

    async def listens(scope: Any, receive: Any, send: Any) -> None:
        seen.append((await receive())["type"])
        seen.append((await receive())["type"])

    await DropHalfBodies(listens)(dict(SCOPE), _client({"type": "http.request"}), _nothing)
    assert seen == ["http.request", "http.disconnect"]
