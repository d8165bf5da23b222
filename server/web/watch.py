"""The live spectator page of the HTTP server: `GET /watch/<spectator code>` is an HTML page
with the game's picture, talk and log; `GET /watch/<code>/events` is its server-sent event
stream, which pushes the new picture and lines whenever the game changes.

Everything comes from `GameService.spectate_with_code`, the call behind the `spectate` tool, and
the log a spectator may read: hidden information appears only once the game is over, exactly as
through `spectate`; at the end the stream sends the whole log again, now with the lines that
were private. A code that is not valid is 404 (the page and the stream alike), before anything
is streamed. The Guard in front of every route applies here too; a browser cannot send an
Authorization header, so under an access token these two paths also take `?token=<token>`
(see `http_guard.WATCH_PREFIX`).
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from ...engines import GameError, get_engine
from ...transcripts.viewer.html_replay import script_json
from ...transcripts.viewer.replay_page import fill
from ...transcripts.viewer.replay_steps import result_lines
from ..adapter.support import GameChanges
from ..adapter.waiters import WaiterHub
from ..service import GameService
from .watch_page import WATCH_PAGE

log = logging.getLogger("cogs_arena.watch")

LOG_KEPT = 200
"""Log lines a page holds (the newest); a whole game's log would grow without end."""
KEEPALIVE_SECONDS = 15.0
"""A comment line this often: proxies keep the stream open, and a gone browser is noticed."""
MAX_STREAMS = 256
"""Open event streams at once, over all games: each holds a task and a change flag."""
SECURITY_HEADERS = {
    # The page talks to its own server only; the token in its address must not leak onward.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; connect-src 'self'; img-src data:",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Watch:
    """The two routes, and the change notices that wake their streams."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.hub = WaiterHub()
        self.changes = GameChanges()
        self.hub.on_change.append(self.changes.fire)
        service.add_listener(self.hub.notify)
        self.streams = 0

    def routes(self) -> list[Route]:
        return [
            Route("/watch/{code}", self.page, methods=["GET"]),
            Route("/watch/{code}/events", self.events, methods=["GET"]),
        ]

    # ---- what the page shows ---------------------------------------------------------------

    def snapshot(self, code: str, after: int) -> tuple[dict[str, Any], int]:
        """The spectator's view and the log lines after `after` (after 0: the last LOG_KEPT),
        and the new log cursor. Raises GameError for a code that is not valid."""
        view = self.service.spectate_with_code(code, image=True)
        limit = LOG_KEPT if after else view.log_cursor + 1
        items, cursor, names = self.service.spectator_log(code, after, limit)
        lines = [item.model_dump() for item in items][-LOG_KEPT:]
        result = [text for _, text in result_lines(view.outcome, names)] if view.outcome else []
        engine = get_engine(view.game)
        data: dict[str, Any] = {
            "game_id": view.game_id,
            "title": engine.title,
            # Games whose talk is part of their state show it in the view, not as a chat.
            "chat_kept": not engine.supports_talk,
            "status": view.status,
            "decision": view.decision,
            "to_act": view.to_act,
            "svg": view.picture,
            "chat": view.chat,
            "result": result,
            "log": lines,
            "reset": after == 0,
        }
        key = json.dumps([data["svg"], data["status"], data["decision"], data["chat"], cursor])
        data["key"] = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        return data, cursor

    async def _snapshot(self, code: str, after: int) -> tuple[dict[str, Any], int]:
        return await anyio.to_thread.run_sync(self.snapshot, code, after)

    # ---- routes ----------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        code = request.path_params["code"]
        try:
            data, _ = await self._snapshot(code, 0)
        except GameError as exc:
            return _not_found(exc)
        title = f"Watching {data['title']}: {data['game_id']}"
        body = fill(
            WATCH_PAGE,
            TITLE=html.escape(title),
            # The engine's SVG writer escapes every text it draws: the picture goes in as is.
            SVG=data["svg"],
            DATA=script_json({**data, "svg": None}),
        )
        return HTMLResponse(body, headers=SECURITY_HEADERS)

    async def events(self, request: Request) -> Response:
        code = request.path_params["code"]
        self.hub.bind()
        try:
            first, _ = await self._snapshot(code, 0)
        except GameError as exc:
            return _not_found(exc)
        if self.streams >= MAX_STREAMS:
            return PlainTextResponse(
                f"Too many open watch streams ({MAX_STREAMS}); try again later.", status_code=503
            )
        return StreamingResponse(
            self._stream(code, first["game_id"]),
            media_type="text/event-stream",
            headers={**SECURITY_HEADERS, "X-Accel-Buffering": "no"},
        )

    async def _stream(self, code: str, game_id: str) -> AsyncIterator[str]:
        self.streams += 1
        try:
            # The flag is held before the first look, so no change slips in between.
            with self.changes.watch(game_id) as changed:
                data, cursor = await self._snapshot(code, 0)
                yield _message(data)
                shown = data["key"]
                over = data["status"] == "over"
                while not over:
                    with anyio.move_on_after(KEEPALIVE_SECONDS):
                        await changed.wait()
                    if not changed.is_set():
                        yield ": keep-alive\n\n"
                        continue
                    changed.clear()
                    try:
                        data, cursor = await self._snapshot(code, cursor)
                        if data["status"] == "over":
                            # Lines that were private are the spectator's now: send them all.
                            data, cursor = await self._snapshot(code, 0)
                    except GameError:
                        log.info("watch stream of %s ended: the game is gone", game_id)
                        return
                    over = data["status"] == "over"
                    if data["key"] != shown or data["log"]:
                        shown = data["key"]
                        yield _message(data)
        finally:
            self.streams -= 1


def _message(data: dict[str, Any]) -> str:
    return "event: view\ndata: " + json.dumps(data, ensure_ascii=False) + "\n\n"


def _not_found(exc: GameError) -> Response:
    return PlainTextResponse(
        f"Nothing to watch here ({exc}).\nThe address of a live page is /watch/<spectator "
        "code>, with the spectator_code that new_game returned.\n",
        status_code=404,
        headers={"Cache-Control": "no-store"},
    )
