"""The MCP adapter: one tool per service call, structured output plus a readable text block.

Each tool's arguments are validated by its model in `inputs` (published as the tool's input
schema, with additionalProperties false), so an unknown or bad argument is refused by name
before the service is called. Every game error becomes a tool error whose text starts with
`[code]`, for the model to read and act on."""

from __future__ import annotations

import contextlib
import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable
from typing import Annotated, Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.tools import Tool
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp_types import CallToolResult, ImageContent, TextContent, ToolAnnotations
from pydantic import BaseModel

from ... import __version__
from ...engines import GameError, get_engine
from ...engines.registry import names as game_names
from ..inputs import (
    MAX_LABEL_CHARS,
    JoinGameInput,
    LegalMovesInput,
    ListGamesInput,
    LogInput,
    NewGameInput,
    PingInput,
    PlayInput,
    ShowInput,
    SpectateInput,
    TalkInput,
    WaitInput,
    clean_label,
    validated,
)
from ..models import GameList, LogResult, Menu, NewGame, PlayResult, TalkResult, View, WaitResult
from ..pictures import PNG_MIME, png, png_base64
from ..service import GameService
from .rules import register_family_documents, register_game_rules
from .shares import Shares
from .subscriptions import SPECTATE_PREFIX, LegacySubscribers
from .support import (
    ArenaServer,
    Ctx,
    GameChanges,
    SpectatorFeeds,
    input_tool,
)
from .texts import games_text, log_text, menu_text, play_text, seat_text, wait_text
from .waiters import WaiterHub

PROGRESS_EVERY = 5.0

# No tool reaches beyond this server's games: openWorldHint is false for all (see input_tool).
READ_ONLY = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
ACTING = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False
)

INSTRUCTIONS = """cogs-arena: board games for LLM seats.
Start with list_games, then new_game (you get a game_id and a seat credential: pass both to every
other call). show gives your seat's view; legal_moves the numbered menu; play takes a menu number,
a move in notation, a list of moves, or a structured move, with an optional `why`. talk sends a
line to all seats or named seats; log lists the events your seat may see after a cursor."""


# ---- result texts -----------------------------------------------------------------------------


def _result(model: BaseModel, text: str, picture: str = "") -> CallToolResult:
    """The text block and the structured content. A view's text is only in the text block
    (View.text is left out of every dump), so a result does not carry the view twice. A
    `picture` (SVG) goes beside the text as a PNG image block; the text stays."""
    content: list[TextContent | ImageContent] = [TextContent(type="text", text=text)]
    if picture:
        data = png_base64(png(picture))
        content.append(ImageContent(type="image", data=data, mime_type=PNG_MIME))
    return CallToolResult(content=content, structured_content=model.model_dump(mode="json"))


def _client_info(ctx: Ctx) -> tuple[str | None, str | None]:
    """The connecting client's name and version, where the protocol carried them."""
    try:
        info = getattr(ctx.session.client_params, "client_info", None)
    except Exception:  # a client that sent no info is normal under the stateless protocol
        return None, None
    if info is None:
        return None, None
    return clean_label(str(info.name), MAX_LABEL_CHARS), clean_label(
        str(info.version), MAX_LABEL_CHARS
    )


# ---- the server -------------------------------------------------------------------------------


def build_server(
    service: GameService, *, tools_on_loop: bool = False, shares: Shares | None = None
) -> MCPServer[Any]:
    """The MCP server over `service`; `tools_on_loop` for stdio's one client (see InputTool);
    `shares` bounds each credential's and connection's calls (for HTTP's many clients)."""
    hub = WaiterHub()
    changes = GameChanges()
    bus = InMemorySubscriptionBus()
    feeds = SpectatorFeeds(service.spectate_with_code, bus)
    legacy = LegacySubscribers(service.spectate_with_code)
    hub.on_change.extend(
        [changes.fire, lambda c: feeds.publish(c.game_id), lambda c: legacy.publish(c.game_id)]
    )
    service.add_listener(hub.notify)

    def ping(args: PingInput, ctx: Ctx) -> str:
        """Health check: answers 'pong'."""
        return "pong"

    def list_games(args: ListGamesInput, ctx: Ctx) -> Annotated[CallToolResult, GameList]:
        """The games you can start: seats, bots, default rulesets."""
        games = service.list_games()
        return _result(games, games_text(games))

    def new_game(args: NewGameInput, ctx: Ctx) -> Annotated[CallToolResult, NewGame]:
        """Start a game: you take one seat, bots the others. Returns game_id, your seat's
        credential (every other call needs both) and your first view."""
        client_name, client_version = _client_info(ctx)
        result = service.new_game_input(
            args, client_name=client_name, client_version=client_version
        )
        return _result(result, seat_text(result))

    def join_game(args: JoinGameInput, ctx: Ctx) -> Annotated[CallToolResult, NewGame]:
        """Take the open seat an invitation names (it works once). Returns game_id, your
        seat's credential and your first view."""
        client_name, client_version = _client_info(ctx)
        result = service.join_game_input(
            args, client_name=client_name, client_version=client_version
        )
        return _result(result, seat_text(result))

    def show(args: ShowInput, ctx: Ctx) -> Annotated[CallToolResult, View]:
        """Your seat's view: board, whose turn, what you may know."""
        view = service.show_input(args)
        return _result(view, view.text, view.picture)

    def legal_moves(args: LegalMovesInput, ctx: Ctx) -> Annotated[CallToolResult, Menu]:
        """Your numbered menu of legal moves; a number stays the same under filters."""
        menu = service.legal_moves_input(args)
        return _result(menu, menu_text(menu, args.page_size))

    def play(args: PlayInput, ctx: Ctx) -> Annotated[CallToolResult, PlayResult]:
        """Give exactly one of move, number, moves or structured; a whole turn fits in
        `moves=[...]`. A rejected move is a tool error saying why, what was applied and the
        tries left (after the last, the default move is played). The answer carries your new
        view."""
        result = service.play_input(args, raise_rejection=False)
        answer = _result(result, play_text(result), result.view.picture)
        # A rejection is an error the model must notice, with the whole answer beside it.
        return answer if result.error is None else answer.model_copy(update={"is_error": True})

    def talk(args: TalkInput, ctx: Ctx) -> Annotated[CallToolResult, TalkResult]:
        """Say something to all seats, or privately to named seats."""
        result = service.talk_input(args)
        return _result(result, f"Said to {', '.join(result.delivered_to)}. {result.note}")

    def log(args: LogInput, ctx: Ctx) -> Annotated[CallToolResult, LogResult]:
        """Events your seat may see (moves, talk, fallbacks, the end) after a cursor."""
        result = service.log_input(args)
        return _result(result, log_text(result))

    async def wait(args: WaitInput, ctx: Ctx) -> Annotated[CallToolResult, WaitResult]:
        """Wait until you must act, the game ends or news after the cursor arrives; else
        return after `timeout` seconds (reason 'timeout')."""
        hub.bind()

        def poll() -> Awaitable[tuple[int, WaitResult]]:
            # The keyword form on purpose: tests count a wait's looks by wrapping poll_seat.
            return anyio.to_thread.run_sync(
                service.poll_seat, args.game_id, args.credential, args.after
            )

        started = time.monotonic()
        deadline = started + args.timeout
        next_progress = started + PROGRESS_EVERY
        # The game is looked at first, after a change notice with news for this seat (its
        # turn, the end, a line it may see; the deadlines the service's ticker commits send
        # one too), and once more at the end. Changes hidden from the seat do not wake it.
        with changes.watch(args.game_id) as changed:
            seat, result = await poll()
            changes.aim(changed, args.game_id, seat)
            while not result.ready:
                now = time.monotonic()
                if now >= deadline:
                    break
                if now >= next_progress:
                    next_progress = now + PROGRESS_EVERY
                    await ctx.report_progress(now - started, args.timeout, "waiting for the others")
                with anyio.move_on_after(min(deadline, next_progress) - now):
                    await changed.wait()
                if changed.is_set() or time.monotonic() >= deadline:
                    changed.clear()
                    seat, result = await poll()
        return _result(result, wait_text(result))

    def spectate(args: SpectateInput, ctx: Ctx) -> Annotated[CallToolResult, View]:
        """A read-only view: no hand, no private talk until the game is over."""
        view = service.spectate_input(args)
        return _result(view, view.text, view.picture)

    tool = functools.partial(input_tool, on_loop=tools_on_loop)
    tools: list[Tool] = [
        tool(ping, PingInput, READ_ONLY, "Ping"),
        tool(list_games, ListGamesInput, READ_ONLY, "List games"),
        tool(new_game, NewGameInput, ACTING, "Start a game"),
        tool(join_game, JoinGameInput, ACTING, "Join a game"),
        tool(show, ShowInput, READ_ONLY, "Show your view"),
        tool(legal_moves, LegalMovesInput, READ_ONLY, "List legal moves"),
        tool(play, PlayInput, ACTING, "Play a move"),
        tool(talk, TalkInput, ACTING, "Talk to seats"),
        tool(log, LogInput, READ_ONLY, "Read the event log"),
        tool(wait, WaitInput, READ_ONLY, "Wait for your turn or news"),
        tool(spectate, SpectateInput, READ_ONLY, "Spectate a game"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[None]:
        hub.bind()
        yield

    mcp = ArenaServer(
        "cogs-arena",
        title="cogs-arena",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        lifespan=lifespan,
        tools=tools,
        subscriptions=bus,
        middleware=[
            *([] if shares is None else [shares.middleware]),
            feeds.middleware,
        ],
    )
    mcp.serve_legacy_subscriptions(legacy)

    for name in game_names():
        _register_game_documents(mcp, name)
    register_game_rules(mcp, service, list(game_names()))  # a game's era rules, the seat prompts
    register_family_documents(mcp)

    @mcp.resource(
        SPECTATE_PREFIX + "{spectator_code}",
        name="spectator",
        description="A spectator's view of a game, opened by its spectator code (hidden "
        "information only after the end). Subscribe to hear when the game changes.",
        mime_type="text/plain",
    )
    async def spectator(spectator_code: str) -> str:
        try:
            args = validated(SpectateInput, spectator_code=spectator_code)
            view = await anyio.to_thread.run_sync(service.spectate_input, args)
        except GameError as exc:
            raise ResourceNotFoundError(f"[{exc.code}] {exc}") from None
        feeds.saw(view, SPECTATE_PREFIX + spectator_code)
        return view.text

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
        description=f"The rules of {engine.title} a player needs: the current rules, the "
        f"decisions that settle their gaps, and this server's notation. The full text is "
        f"cogs-arena://rules/{name}/full.",
        mime_type="text/markdown",
    )
    def rules() -> str:
        return engine.rules_play_text()

    @mcp.resource(
        f"cogs-arena://rules/{name}/full",
        name=f"{name}-rules-full",
        title=f"{engine.title} rules (full text)",
        description=f"The whole rules document of {engine.title}, with every decision; for "
        "some games also older rule eras and design notes that do not apply here.",
        mime_type="text/markdown",
    )
    def rules_full() -> str:
        return engine.rules_text()

    @mcp.resource(
        f"cogs-arena://moves/{name}",
        name=f"{name}-moves",
        title=f"{engine.title} moves as JSON",
        description=f"The JSON Schema of a {engine.title} move as play's `structured` takes it.",
        mime_type="application/schema+json",
    )
    def moves() -> str:
        # Here, not in play's input schema: one game's form is all a seat needs, and the
        # tools' schemas are read on every call.
        return json.dumps(engine.move_schema(), indent=1)
