"""One seat's MCP client, seen from the harness: the server's tools as Inspect gives them, the
harness's own calls (start or join a game, ask whether the game is over), and the tools handed
to the model, which bind the game id and the seat credential so neither enters its context."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import ContentText
from inspect_ai.tool import Tool, ToolDef, ToolResult

MODEL_TOOLS = ("show", "legal_moves", "play", "talk", "log", "wait")
"""The tools a seated model gets; starting and joining games is the harness's part."""
BOUND = ("game_id", "credential")
VIEW_TOOLS = ("show", "play")
"""Tools with a `detail` argument whose default the task's `detail` parameter sets."""
NEVER_SEEN = 2**53
"""A `wait` cursor past any event: the answer is the game's state, never a list of events."""


class HarnessError(RuntimeError):
    """The server answered the harness in a way it cannot use."""


@dataclass(frozen=True)
class Seat:
    """What new_game or join_game gave this client."""

    game_id: str
    credential: str
    seat: int
    seat_name: str
    invitations: dict[str, str] = field(default_factory=dict)
    first_view: str = ""


_SEAT_LINE = re.compile(r"^You are (?P<name>.+) \(seat (?P<seat>\d+)\)\.$")
_INVITATION = re.compile(r"^Invitation for (?P<name>.+): (?P<code>\S+)$")


def result_text(result: ToolResult) -> str:
    if isinstance(result, str):
        return result
    items = result if isinstance(result, list) else [result]
    return "".join(item.text for item in items if isinstance(item, ContentText))


def parse_seat(text: str) -> Seat:
    """Reads the answer of new_game / join_game: `game_id: …`, `credential: …`, `You are …
    (seat N).`, invitation lines, then a blank line and the first view."""
    head, _, view = text.partition("\n\n")
    values: dict[str, str] = {}
    invitations: dict[str, str] = {}
    for line in head.splitlines():
        if line.startswith(("game_id: ", "credential: ")):
            key, _, value = line.partition(": ")
            values[key] = value.strip()
        elif match := _SEAT_LINE.match(line):
            values["seat"], values["seat_name"] = match["seat"], match["name"]
        elif match := _INVITATION.match(line):
            invitations[match["name"]] = match["code"]
    missing = [k for k in ("game_id", "credential", "seat") if k not in values]
    if missing:
        raise HarnessError(f"the server's seat answer lacks {', '.join(missing)}: {head[:300]!r}")
    return Seat(
        game_id=values["game_id"],
        credential=values["credential"],
        seat=int(values["seat"]),
        seat_name=values["seat_name"],
        invitations=invitations,
        first_view=view,
    )


class SeatClient:
    """The server's tools over one connected MCP session (call `tools()` of the server inside
    its `mcp_connection`, in the task that plays the seat)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self.tools = {ToolDef(t).name: t for t in tools}
        missing = [n for n in ("new_game", "join_game", *MODEL_TOOLS) if n not in self.tools]
        if missing:
            raise HarnessError(f"the server offers no {', '.join(missing)} tool")
        self.seat: Seat | None = None

    async def call(self, name: str, **arguments: Any) -> str:
        return result_text(await self.tools[name](**arguments))

    async def new_game(self, **arguments: Any) -> Seat:
        self.seat = parse_seat(await self.call("new_game", **_given(arguments)))
        return self.seat

    async def join_game(self, invitation: str, **arguments: Any) -> Seat:
        text = await self.call("join_game", invitation=invitation, **_given(arguments))
        self.seat = parse_seat(text)
        return self.seat

    def _bound(self) -> dict[str, str]:
        if self.seat is None:
            raise HarnessError("no seat yet: start or join a game first")
        return {"game_id": self.seat.game_id, "credential": self.seat.credential}

    async def status(self) -> str:
        """'over', 'your_turn' or 'waiting', from `wait` with a cursor past every event, so
        the seat's view, its fallbacks and the record are left as they were."""
        text = await self.call("wait", **self._bound(), after=NEVER_SEEN, timeout=0.001)
        first = text.splitlines()[0] if text else ""
        if first.startswith("The game is over"):
            return "over"
        if first.startswith("It is your turn"):
            return "your_turn"
        return "waiting"

    def model_tools(self, detail: str) -> list[Tool]:
        """The tools for the model: game_id and credential filled in, `detail` defaulting to
        the task's."""
        bound = self._bound()
        return [_bind(self.tools[name], bound, detail) for name in MODEL_TOOLS]


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in arguments.items() if v is not None}


def _bind(tool: Tool, bound: dict[str, str], detail: str) -> Tool:
    base = ToolDef(tool)
    parameters = base.parameters.model_copy(deep=True)
    for name in BOUND:
        parameters.properties.pop(name, None)
    parameters.required = [r for r in parameters.required if r not in BOUND]
    defaults: dict[str, Any] = {}
    if base.name in VIEW_TOOLS and "detail" in parameters.properties:
        defaults["detail"] = detail
        param = parameters.properties["detail"]
        param.description = f"{param.description or 'detail'} (default here: {detail})"
        param.default = detail

    async def execute(**arguments: Any) -> ToolResult:
        # A model may still send the bound names: the harness's values win.
        return await tool(**{**defaults, **arguments, **bound})

    return ToolDef(
        execute, name=base.name, description=base.description, parameters=parameters
    ).as_tool()
