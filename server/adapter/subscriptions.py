"""`resources/subscribe` for clients on the handshake protocol (2025-11-25 and before), which is
what the Inspector and today's desktop clients speak: the 2026-07-28 `subscriptions/listen`
stream (`SpectatorFeeds`) does not reach them.

A subscription joins only once its spectator code proved valid, so a guessed code learns
nothing, not even whether the game moves: the answer is the same empty result either way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from mcp.server.context import ServerRequestContext
from mcp_types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams

from ...engines import GameError
from ..models import View

SPECTATE_PREFIX = "cogs-arena://spectate/"
MAX_SUBSCRIBERS_PER_GAME = 64
"""A bound on the notifications one move sends; later subscribers to a full game are refused
quietly (they can still read the resource)."""


class LegacySubscribers:
    def __init__(self, spectate: Callable[[str], View]) -> None:
        self.spectate = spectate
        self._games: dict[str, dict[str, set[Any]]] = {}
        """game id -> spectator URI -> the connections subscribed to it"""
        self._sending: set[asyncio.Task[None]] = set()

    async def subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        uri = str(params.uri)
        if not uri.startswith(SPECTATE_PREFIX):
            return EmptyResult()  # only spectator views change; other resources never do
        try:
            view = await anyio.to_thread.run_sync(self.spectate, uri.removeprefix(SPECTATE_PREFIX))
        except GameError:
            return EmptyResult()
        if view.status != "over":
            uris = self._games.setdefault(view.game_id, {})
            if sum(len(s) for s in uris.values()) < MAX_SUBSCRIBERS_PER_GAME:
                uris.setdefault(uri, set()).add(_connection(ctx))
        return EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        uri = str(params.uri)
        for game_id, uris in list(self._games.items()):
            uris.get(uri, set()).discard(_connection(ctx))
            if uri in uris and not uris[uri]:
                del uris[uri]
            if not uris:
                del self._games[game_id]
        return EmptyResult()

    def publish(self, game_id: str) -> None:
        """Called on the event loop after a commit to `game_id`: tells every subscribed session
        that its spectator URI changed. A session that is gone is dropped."""
        for uri, sessions in self._games.get(game_id, {}).items():
            for session in list(sessions):
                task = asyncio.ensure_future(self._send(game_id, uri, session))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)

    async def _send(self, game_id: str, uri: str, session: Any) -> None:
        try:
            await session.send_resource_updated(uri)
        except Exception:  # a closed connection: forget it, the others still hear
            self._games.get(game_id, {}).get(uri, set()).discard(session)

    def subscribers(self, game_id: str) -> int:
        return sum(len(s) for s in self._games.get(game_id, {}).values())


def _connection(ctx: ServerRequestContext[Any, Any]) -> Any:
    """The client's connection. The SDK hands each request a new session object over it, so
    the connection is what identifies a subscriber across its subscribe and unsubscribe (and
    it sends `resources/updated` itself)."""
    return getattr(ctx.session, "_connection", ctx.session)
