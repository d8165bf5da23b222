"""What the MCP adapter adds to the SDK: tools whose argument model is the tool's input model
from `inputs` (the published schema refuses unknown arguments, and every refusal names the
argument), a server whose unknown prompts are invalid params, and the change notices that wake
waiters and reach spectator subscriptions."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata, func_metadata
from mcp.server.subscriptions import InMemorySubscriptionBus, ResourceUpdated
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    GetPromptResult,
    InputRequiredResult,
    SubscribeRequestParams,
    ToolAnnotations,
    UnsubscribeRequestParams,
)
from pydantic import BaseModel, ValidationError, create_model

from ...engines import GameError
from ..changes import Change
from ..inputs import (
    MAX_ID_CHARS,
    ToolInput,
    bad_argument,
    json_container_fields,
    shown,
    text_problem,
)
from ..models import View
from .subscriptions import SPECTATE_PREFIX, LegacySubscribers

MAX_FEEDS_PER_LISTEN = 16
"""Spectator URIs of one listen request checked against the service; more are ignored."""

Ctx = Context[Any, Any]


# ---- tools whose argument model is the tool's input model ------------------------------------


class InputTool(Tool):
    """A tool called as `fn(args, ctx)` with `args` an `inputs` model. Validation errors and game
    errors become tool errors starting with `[code]`; anything else is a crash the SDK logs
    and reports as `Error executing tool <name>` only.

    A plain function runs in a worker thread unless `on_loop`: then on the event loop itself.
    Under stdio there is one client, so a worker thread buys no concurrency, and its two thread
    hops cost about a tenth of a trivial call's round trip."""

    on_loop: bool = False

    async def run(
        self, arguments: dict[str, Any], context: Ctx, convert_result: bool = False
    ) -> Any:
        model = self.fn_metadata.arg_model
        try:
            args = model.model_validate(_pre_parse(model, arguments))
        except ValidationError as exc:
            raise ToolError(f"[bad_argument] {bad_argument(model, exc)}") from exc
        try:
            if self.is_async:
                result = await self.fn(args, context)
            elif self.on_loop:
                result = self.fn(args, context)
            else:
                result = await anyio.to_thread.run_sync(self.fn, args, context)
            return self.fn_metadata.convert_result(result) if convert_result else result
        except GameError as exc:
            raise ToolError(f"[{exc.code}] {exc}") from None
        except (ToolError, MCPError):
            raise
        except Exception as exc:
            raise UnexpectedToolError(f"Error executing tool {self.name}") from exc


def _pre_parse(model: type[BaseModel], arguments: dict[str, Any]) -> dict[str, Any]:
    """Some clients send an array or object argument as JSON text. Unlike the SDK's pre-parse,
    only fields that take one are parsed, so a `why` of "[1]" stays text."""
    parsed = dict(arguments)
    for name in json_container_fields(model):
        value = parsed.get(name)
        if isinstance(value, str):
            with contextlib.suppress(ValueError, RecursionError):
                decoded = json.loads(value)
                if isinstance(decoded, list | dict):
                    parsed[name] = decoded
    return parsed


def description_of(doc: str | None) -> str:
    """A docstring as a tool description: no indentation, no blank lines around it, and each
    paragraph on one line (a docstring's line breaks only fit it to the source's width)."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def inline_refs(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The schema with every `$ref` to its `$defs` replaced by the definition: the same
    contract, but a client that checks each result against it (the SDK's does) no longer
    resolves references on every call, which cost more than the rest of a `play`."""
    if schema is None:
        return schema
    defs = schema.get("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
                return resolve(defs[ref.removeprefix("#/$defs/")])
            return _nullable({k: resolve(v) for k, v in node.items() if k != "$defs"})
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    resolved: dict[str, Any] = resolve(schema)
    return resolved


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """`{"anyOf": [S, {"type": "null"}], ...}` as S with "null" added to its type: the same
    instances pass (an object's keywords do not apply to null), without the second subschema
    a checker would try on every result."""
    options = node.get("anyOf")
    if not isinstance(options, list):
        return node
    merged = {k: v for k, v in node.items() if k != "anyOf"}
    if _typed_apart(options):
        # int | str | None, say: each keyword applies to one type only, so one node holds all.
        joined = {k: v for o in options for k, v in o.items() if k != "type"}
        return {**joined, **merged, "type": [o["type"] for o in options]}
    if len(options) != 2 or {"type": "null"} not in options:
        return node
    schema = options[0] if options[1] == {"type": "null"} else options[1]
    kind = schema.get("type")
    if not isinstance(kind, str) or "anyOf" in schema:
        return node
    return {**schema, **merged, "type": [kind, "null"]}


def compact_input(schema: dict[str, Any]) -> dict[str, Any]:
    """An input schema as a model reads it, every character of which it pays for on every call:
    no titles (each repeats its property's name), an optional argument's `X | None` as X with
    "null" in its type, no `"default": null` (an optional argument left out is null) and no
    `"additionalProperties": true` (JSON Schema's default). The same arguments pass; the
    tool's model validates them anyway."""

    def compact(node: Any) -> Any:
        if isinstance(node, list):
            return [compact(v) for v in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "title" or (key == "default" and value is None):
                continue
            if key == "additionalProperties" and value is True:
                continue
            if key in ("type", "maxLength") and _string_enum(node):
                continue  # the enum says it all
            if key == "properties" and isinstance(value, dict):
                out[key] = {name: compact(prop) for name, prop in value.items()}
            else:
                out[key] = compact(value)
        return _nullable(out)

    compacted: dict[str, Any] = compact(schema)
    return compacted


_KEYWORDS_OF = {
    "integer": {"minimum", "maximum"},
    "number": {"minimum", "maximum", "exclusiveMinimum"},
    "string": {"maxLength"},
    "null": set(),
}


def _typed_apart(options: list[Any]) -> bool:
    """Options each of one distinct type, with keywords that apply to that type only (at
    most one numeric type: their bounds would mix)."""
    kinds = [o.get("type") if isinstance(o, dict) else None for o in options]
    if not all(isinstance(k, str) and k in _KEYWORDS_OF for k in kinds):
        return False
    if len(set(kinds)) != len(kinds) or {"integer", "number"} <= set(kinds):
        return False
    return all(set(o) - {"type"} <= _KEYWORDS_OF[o["type"]] for o in options)


def _string_enum(node: dict[str, Any]) -> bool:
    enum = node.get("enum")
    return (
        isinstance(enum, list)
        and node.get("type") == "string"
        and all(isinstance(v, str) for v in enum)
    )


def input_tool(
    fn: Callable[[Any, Ctx], Any],
    input_model: type[ToolInput],
    annotations: ToolAnnotations,
    title: str,
    *,
    on_loop: bool = False,
) -> InputTool:
    """The tool `fn` (named by its name, described by its docstring, titled `title`) taking
    `input_model`'s fields as its flat arguments. The output schema comes from fn's return
    annotation. Every tool acts on this server's games only: openWorldHint is false. With
    `on_loop`, a plain `fn` runs on the event loop, not in a worker thread."""
    name = fn.__name__
    arg_model = create_model(f"{name}Arguments", __base__=(input_model, ArgModelBase))
    assert issubclass(arg_model, ArgModelBase)
    output = func_metadata(fn, skip_names=("args", "ctx"))
    return InputTool(
        fn=fn,
        name=name,
        title=title,
        description=description_of(fn.__doc__),
        parameters=compact_input(arg_model.model_json_schema(by_alias=True)),
        fn_metadata=FuncMetadata(
            arg_model=arg_model,
            output_model=output.output_model,
            output_schema=inline_refs(output.output_schema),
            wrap_output=output.wrap_output,
        ),
        is_async=inspect.iscoroutinefunction(fn),
        annotations=annotations.model_copy(update={"title": title, "open_world_hint": False}),
        on_loop=on_loop,
    )


class ArenaServer(MCPServer[Any]):
    """An unknown prompt or prompt argument is the caller's mistake: invalid params (-32602).
    Handshake-era clients may subscribe to resources (`resources/subscribe`)."""

    def serve_legacy_subscriptions(self, subscribers: LegacySubscribers) -> None:
        self._lowlevel_server.add_request_handler(
            "resources/subscribe", SubscribeRequestParams, subscribers.subscribe
        )
        self._lowlevel_server.add_request_handler(
            "resources/unsubscribe", UnsubscribeRequestParams, subscribers.unsubscribe
        )

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Ctx | None = None
    ) -> GetPromptResult | InputRequiredResult:
        prompts = {prompt.name: prompt for prompt in await self.list_prompts()}
        prompt = prompts.get(name)
        if prompt is None:
            raise MCPError(
                INVALID_PARAMS,
                f"Unknown prompt {shown(name)}. Allowed: {', '.join(sorted(prompts))}",
            )
        names = [argument.name for argument in prompt.arguments or ()]
        for key, value in (arguments or {}).items():
            problem = (
                f"{shown(key)}: unknown argument. Allowed: {', '.join(names)}"
                if key not in names
                else f"{key} is longer than {MAX_ID_CHARS} characters"
                if len(value) > MAX_ID_CHARS
                else text_problem(key, value)
            )
            if problem is not None:
                raise MCPError(INVALID_PARAMS, problem)
        return await super().get_prompt(name, arguments, context)


# ---- change notices: waiters and spectator subscriptions --------------------------------------


class GameChanges:
    """Per-game flags the hub sets on the event loop when a game changes. A waiter holds its
    flag from before its first look at the game, so no change slips between look and sleep;
    a waiter for a seat is woken only by changes that may have news for that seat."""

    def __init__(self) -> None:
        self._flags: dict[str, dict[asyncio.Event, int | None]] = {}

    def fire(self, change: Change) -> None:
        for flag, seat in self._flags.get(change.game_id, {}).items():
            if change.reaches(seat):
                flag.set()

    @contextlib.contextmanager
    def watch(self, game_id: str, seat: int | None = None) -> Iterator[asyncio.Event]:
        """A flag set by every change to the game (`seat` None), or by those for `seat`."""
        flag = asyncio.Event()
        self._flags.setdefault(game_id, {})[flag] = seat
        try:
            yield flag
        finally:
            flags = self._flags.get(game_id, {})
            flags.pop(flag, None)
            if not flags:
                self._flags.pop(game_id, None)

    def aim(self, flag: asyncio.Event, game_id: str, seat: int) -> None:
        """Narrows a held flag to `seat`'s changes, once the first look told whose it is."""
        flags = self._flags.get(game_id)
        if flags is not None and flag in flags:
            flags[flag] = seat


class SpectatorFeeds:
    """Which spectator URIs to announce as updated when a game changes. A URI joins once its
    code proved valid (a read of the resource, or a listen request naming it), so a guessed
    code learns nothing, not even when the game moves. Finished games are dropped."""

    def __init__(self, spectate: Callable[[str], View], bus: InMemorySubscriptionBus) -> None:
        self.spectate = spectate
        self.bus = bus
        self._uris: dict[str, set[str]] = {}
        self._publishing: set[asyncio.Task[None]] = set()

    def saw(self, view: View, uri: str) -> None:
        if view.status == "over":
            self._uris.pop(view.game_id, None)
        else:
            self._uris.setdefault(view.game_id, set()).add(uri)

    def publish(self, game_id: str) -> None:
        for uri in self._uris.get(game_id, ()):
            task = asyncio.ensure_future(self.bus.publish(ResourceUpdated(uri=uri)))
            self._publishing.add(task)
            task.add_done_callback(self._publishing.discard)

    async def middleware(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if ctx.method == "subscriptions/listen" and isinstance(ctx.params, Mapping):
            await self._learn(ctx.params)
        return await call_next(ctx)

    async def _learn(self, params: Mapping[str, Any]) -> None:
        wanted = params.get("notifications")
        uris = wanted.get("resourceSubscriptions") if isinstance(wanted, Mapping) else None
        if not isinstance(uris, list):
            return
        feeds = [u for u in uris if isinstance(u, str) and u.startswith(SPECTATE_PREFIX)]
        for uri in feeds[:MAX_FEEDS_PER_LISTEN]:
            code = uri.removeprefix(SPECTATE_PREFIX)
            try:
                view = await anyio.to_thread.run_sync(self.spectate, code)
            except GameError:
                continue  # honoured by the SDK, never fires: nothing to tell a wrong code
            self.saw(view, uri)
