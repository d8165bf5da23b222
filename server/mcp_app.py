"""The MCP adapter: one tool per service call, flat typed parameters, structured output plus a
readable text block. Every game error becomes a tool error result the model can read."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, ParamSpec, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.subscriptions import ResourceUpdated
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from .. import __version__
from ..engines import GameError, get_engine
from ..engines.registry import _ENGINES
from ..prompts import seat_prompt
from .models import GameList, LogResult, Menu, NewGame, PlayResult, TalkResult, View, WaitResult
from .service import (
    MAX_ID_CHARS,
    MAX_LABEL_CHARS,
    MAX_MOVE_CHARS,
    MAX_MOVES_PER_CALL,
    MAX_TALK_CHARS,
    MAX_WHY_CHARS,
    GameService,
    Submission,
)
from .waiters import WaiterHub

WAIT_DEFAULT = 25.0
WAIT_MAX = 50.0
PROGRESS_EVERY = 5.0

log = logging.getLogger("cogs_arena.server")

P = ParamSpec("P")
R = TypeVar("R")

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True)
ACTING = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False)

GameId = Annotated[
    str, Field(description="The game_id new_game returned.", max_length=MAX_ID_CHARS)
]
Credential = Annotated[
    str, Field(description="Your seat's credential from new_game.", max_length=MAX_ID_CHARS)
]

ModelLabel = Annotated[
    str | None, Field(description="Label of the model playing.", max_length=MAX_LABEL_CHARS)
]
PromptLabel = Annotated[
    str | None, Field(description="Label of the prompt used.", max_length=MAX_LABEL_CHARS)
]

INSTRUCTIONS = """cogs-arena: board games for LLM seats.
Start with list_games, then new_game (you get a game_id and a seat credential: pass both to every
other call). show gives your seat's view; legal_moves the numbered menu; play takes a menu number,
a move in notation, a list of moves, or a structured move, with an optional `why`. talk sends a
line to all seats or named seats; log lists the events your seat may see after a cursor."""


def _tool_errors(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except GameError as exc:
            raise ToolError(f"[{exc.code}] {exc}") from None

    return wrapper


def _result(model: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=model.model_dump(mode="json"),
    )


def _client_info(ctx: Context | None) -> tuple[str | None, str | None]:
    """The connecting client's name and version, where the protocol carried them."""
    try:
        params = ctx.session.client_params if ctx is not None else None
        info = getattr(params, "client_info", None)
        if info is None:
            return None, None
        return str(info.name)[:MAX_LABEL_CHARS], str(info.version)[:MAX_LABEL_CHARS]
    except Exception:  # a client that sent no info is normal under the stateless protocol
        return None, None


def _seat_text(result: NewGame) -> str:
    """What new_game and join_game say: the ids to keep, invitations, then the first view."""
    lines = [
        f"game_id: {result.game_id}",
        f"credential: {result.credential}",
        f"You are {result.seat_name} (seat {result.seat}); seed {result.seed}.",
    ]
    lines.extend(f"Invitation for {name}: {code}" for name, code in result.invitations.items())
    if result.spectator_code:
        lines.append(f"Spectator code: {result.spectator_code}")
    return "\n".join(lines) + "\n\n" + result.view.text


def _menu_text(menu: Menu) -> str:
    lines = [
        f"Legal moves (decision {menu.decision}): {menu.matching} of {menu.total} shown in "
        f"{menu.pages} page(s); this is page {menu.page}. Kinds: {', '.join(menu.kinds)}."
    ]
    if not menu.complete:
        lines.append("These are single orders; combine them into one submission (see below).")
    lines.extend(f"{e.number:>4}. {e.notation}  - {e.description}" for e in menu.moves)
    if menu.instructions:
        lines.append("")
        lines.append(menu.instructions)
    return "\n".join(lines)


def _play_text(result: PlayResult) -> str:
    lines = []
    if result.accepted:
        lines.append("Accepted: " + "; ".join(result.accepted))
    if result.rejected is not None:
        lines.append(f"Rejected move {result.rejected.index + 1}: {result.rejected.reason}")
    if result.fallback is not None:
        lines.append(f"Fallback applied for you: {result.fallback}")
    if result.submitted_waiting:
        lines.append("Submitted; the turn resolves when every seat has submitted.")
    lines.append("")
    lines.append(result.view.text)
    return "\n".join(lines)


def _wait_text(result: WaitResult) -> str:
    head = {
        "your_turn": "It is your turn.",
        "game_over": "The game is over.",
        "events": "New events:",
        "timeout": "Nothing yet; call wait again.",
    }[result.reason]
    lines = [head]
    lines.extend(
        f"#{e.seq} {e.type}{' ' + e.seat if e.seat else ''}: {e.text}" for e in result.events
    )
    lines.append(f"(cursor {result.cursor}; decision {result.decision})")
    return "\n".join(lines)


def _log_text(result: LogResult) -> str:
    if not result.events:
        return f"No new events (cursor {result.cursor})."
    lines = [f"#{e.seq} {e.type}{' ' + e.seat if e.seat else ''}: {e.text}" for e in result.events]
    lines.append(f"(cursor {result.cursor}: pass it as `after` next time)")
    return "\n".join(lines)


def build_server(service: GameService) -> MCPServer[Any]:
    hub = WaiterHub()

    @contextlib.asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[None]:
        hub.bind()
        yield

    mcp: MCPServer[Any] = MCPServer(
        "cogs-arena",
        title="cogs-arena",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        lifespan=lifespan,
    )
    service.add_listener(hub.notify)

    @mcp.tool(annotations=READ_ONLY)
    def ping() -> str:
        """Health check: answers 'pong'. Costs nothing."""
        return "pong"

    @mcp.tool(annotations=READ_ONLY)
    @_tool_errors
    def list_games() -> Annotated[CallToolResult, GameList]:
        """The games you can start, with their seats, bots and default ruleset."""
        games = service.list_games()
        text = "\n".join(
            f"- {g.name}: {g.title}. Seats: {', '.join(g.seats)}. Bots: {', '.join(g.bots)}. "
            f"{g.summary}"
            for g in games.games
        )
        return _result(games, text)

    @mcp.tool(annotations=ACTING)
    @_tool_errors
    def new_game(
        game: Annotated[str, Field(description="Game name from list_games.", max_length=50)],
        seed: Annotated[
            int | None, Field(description="Seed (same seed, same game). Random if omitted.")
        ] = None,
        ruleset: Annotated[
            dict[str, Any] | None, Field(description="Ruleset overrides; unknown keys rejected.")
        ] = None,
        seat: Annotated[
            int | Annotated[str, Field(max_length=50)] | None,
            Field(description="Seat name or number you take."),
        ] = None,
        bots: Annotated[
            list[Annotated[str, Field(max_length=50)]] | None,
            Field(description="Bot name for all other seats, or one per other seat."),
        ] = None,
        model: ModelLabel = None,
        prompt: PromptLabel = None,
        deadline_seconds: Annotated[
            float | None,
            Field(description="Seconds each seat has per decision (default: server's; off).", gt=0),
        ] = None,
        join_timeout: Annotated[
            float | None, Field(description="Seconds invited seats have to join.", gt=0)
        ] = None,
        time_limit: Annotated[
            float | None, Field(description="Seconds before the whole game is settled.", gt=0)
        ] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, NewGame]:
        """Start a game: you take one seat, bots take the others. Returns game_id and your
        seat's credential (keep it: every other call needs it) and your first view."""
        client_name, client_version = _client_info(ctx)
        result = service.new_game(
            game,
            seed=seed,
            ruleset=ruleset,
            seat=seat,
            bots=bots,
            client_name=client_name,
            client_version=client_version,
            model=model,
            prompt=prompt,
            deadline_seconds=deadline_seconds,
            join_timeout=join_timeout,
            time_limit=time_limit,
        )
        return _result(result, _seat_text(result))

    @mcp.tool(annotations=ACTING)
    @_tool_errors
    def join_game(
        invitation: Annotated[
            str, Field(description="An invitation code from new_game.", max_length=MAX_ID_CHARS)
        ],
        model: ModelLabel = None,
        prompt: PromptLabel = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, NewGame]:
        """Take the open seat an invitation names (an invitation works once). Returns the
        game_id, your seat's credential and your first view."""
        client_name, client_version = _client_info(ctx)
        result = service.join_game(
            invitation,
            client_name=client_name,
            client_version=client_version,
            model=model,
            prompt=prompt,
        )
        return _result(result, _seat_text(result))

    @mcp.tool(annotations=READ_ONLY)
    @_tool_errors
    def show(game_id: GameId, credential: Credential) -> Annotated[CallToolResult, View]:
        """Your seat's view of the game: board, whose turn, what you may know."""
        view = service.show(game_id, credential)
        return _result(view, view.text)

    @mcp.tool(annotations=READ_ONLY)
    @_tool_errors
    def legal_moves(
        game_id: GameId,
        credential: Credential,
        kind: Annotated[
            str | None, Field(description="Only entries of this kind.", max_length=50)
        ] = None,
        contains: Annotated[
            str | None, Field(description="Only entries containing this text.", max_length=50)
        ] = None,
        page: Annotated[int, Field(ge=1)] = 1,
        page_size: Annotated[int, Field(ge=1, le=500)] = 50,
    ) -> Annotated[CallToolResult, Menu]:
        """Your numbered menu of legal moves with their notation. Numbers stay the same under
        filters, so you can play by number."""
        menu = service.legal_moves(
            game_id, credential, kind=kind, contains=contains, page=page, page_size=page_size
        )
        return _result(menu, _menu_text(menu))

    @mcp.tool(annotations=ACTING)
    @_tool_errors
    def play(
        game_id: GameId,
        credential: Credential,
        move: Annotated[
            str | None, Field(description="One move in notation.", max_length=MAX_MOVE_CHARS)
        ] = None,
        number: Annotated[int | None, Field(description="A number from legal_moves.")] = None,
        moves: Annotated[
            list[Annotated[str, Field(max_length=MAX_MOVE_CHARS)]] | None,
            Field(
                description="Several moves applied in order; the first illegal one stops the rest.",
                max_length=MAX_MOVES_PER_CALL,
            ),
        ] = None,
        structured: Annotated[
            dict[str, Any] | None, Field(description="The move in its structured JSON form.")
        ] = None,
        why: Annotated[
            str | None,
            Field(description="Your reasoning, kept in the transcript.", max_length=MAX_WHY_CHARS),
        ] = None,
        request_id: Annotated[
            str | None,
            Field(
                description="Your id for this call: a retry with the same id is not applied twice.",
                max_length=MAX_ID_CHARS,
            ),
        ] = None,
        decision: Annotated[
            int | None,
            Field(description="The view's decision number you are answering (optional guard)."),
        ] = None,
    ) -> Annotated[CallToolResult, PlayResult]:
        """Play: give exactly one of move, number, moves or structured. A rejected move returns
        the reason; you may try once more, then the default move is played for you."""
        result = service.play(
            game_id,
            credential,
            Submission(move=move, number=number, moves=moves, structured=structured),
            why=why,
            request_id=request_id,
            expect_decision=decision,
        )
        return _result(result, _play_text(result))

    @mcp.tool(annotations=ACTING)
    @_tool_errors
    def talk(
        game_id: GameId,
        credential: Credential,
        text: Annotated[str, Field(description="What you say.", max_length=MAX_TALK_CHARS)],
        to: Annotated[
            list[Annotated[str, Field(max_length=50)]] | None,
            Field(description="Seat names to whisper to; omit to talk to everyone."),
        ] = None,
    ) -> Annotated[CallToolResult, TalkResult]:
        """Say something to all seats, or privately to named seats."""
        result = service.talk(game_id, credential, text, to=to)
        return _result(result, f"Said to {', '.join(result.delivered_to)}. {result.note}")

    @mcp.tool(annotations=READ_ONLY)
    @_tool_errors
    def log(
        game_id: GameId,
        credential: Credential,
        after: Annotated[int, Field(ge=0, description="Cursor from a previous call.")] = 0,
        limit: Annotated[int, Field(ge=1, le=1000)] = 200,
    ) -> Annotated[CallToolResult, LogResult]:
        """Events your seat may see (moves, talk, fallbacks, the end) after a cursor."""
        result = service.log(game_id, credential, after=after, limit=limit)
        return _result(result, _log_text(result))

    @mcp.tool(annotations=READ_ONLY)
    async def wait(
        game_id: GameId,
        credential: Credential,
        after: Annotated[int, Field(ge=0, description="Cursor from a view or a log.")] = 0,
        timeout: Annotated[
            float, Field(gt=0, le=WAIT_MAX, description="Seconds to wait at most (<= 50).")
        ] = WAIT_DEFAULT,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, WaitResult]:
        """Wait until you must act, the game ends, or events you may see arrive after the
        cursor; otherwise return after `timeout` seconds with reason 'timeout'."""
        hub.bind()
        started = time.monotonic()
        last_progress = started
        while True:
            try:
                result = await anyio.to_thread.run_sync(service.poll, game_id, credential, after)
            except GameError as exc:
                raise ToolError(f"[{exc.code}] {exc}") from None
            now = time.monotonic()
            remaining = timeout - (now - started)
            if result.ready or remaining <= 0:
                return _result(result, _wait_text(result))
            if ctx is not None and now - last_progress >= PROGRESS_EVERY:
                last_progress = now
                await ctx.report_progress(now - started, timeout, "waiting for the other seats")
            # Deadlines move games on without any call: look again at least every second.
            await hub.sleep_until_change(game_id, min(remaining, 1.0, PROGRESS_EVERY))

    @mcp.tool(annotations=READ_ONLY)
    @_tool_errors
    def spectate(
        spectator_code: Annotated[
            str, Field(description="A spectator code from new_game.", max_length=MAX_ID_CHARS)
        ],
    ) -> Annotated[CallToolResult, View]:
        """A read-only view of a game: no hand, no private talk until the game is over."""
        view = service.spectate_with_code(spectator_code)
        return _result(view, view.text)

    publishing: set[asyncio.Task[None]] = set()

    def resource_updated(game_id: str) -> None:
        uri = f"cogs-arena://games/{game_id}/spectator"
        task = asyncio.ensure_future(mcp._subscriptions.publish(ResourceUpdated(uri=uri)))
        publishing.add(task)
        task.add_done_callback(publishing.discard)

    hub.on_change.append(resource_updated)

    for name in _ENGINES:
        _register_game_documents(mcp, name)

    @mcp.resource(
        "cogs-arena://games/{game_id}/spectator",
        name="spectator",
        description="A spectator's view of a game (hidden information only after the end).",
        mime_type="text/plain",
    )
    def spectator(game_id: str) -> str:
        try:
            return service.spectate(game_id).text
        except GameError as exc:
            raise ResourceError(str(exc)) from None

    return mcp


def _register_game_documents(mcp: MCPServer[Any], name: str) -> None:
    try:
        engine = get_engine(name)
    except (GameError, ImportError):
        return

    @mcp.resource(
        f"cogs-arena://rules/{name}",
        name=f"{name}-rules",
        title=f"{engine.title} rules",
        description=f"The rules of {engine.title}, with the decisions that settle their gaps.",
        mime_type="text/markdown",
    )
    def rules() -> str:
        return engine.rules_text()

    @mcp.prompt(
        name=f"{name}_seat",
        title=f"Play a seat of {engine.title}",
        description=f"How to play {engine.title} through this server's tools.",
    )
    def prompt(game_id: str = "", credential: str = "") -> str:
        return seat_prompt(name, game_id=game_id, credential=credential)
