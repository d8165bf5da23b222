"""Every event the host writes, as one pydantic discriminated union.

Each event carries its audience: `None` means every seat (and spectators while the game runs);
a list names the seats that may see it; spectators see everything once the game is over. What a
seat that is not in the audience sees of an event is decided in one place, `redact.visible`.

Transitions (`move`, `batch`, `state_talk`, `settle`) are what `replay` re-simulates; each
carries the state digest after it. `view` records that a seat was shown a view: the digest of
the observation, which `replay` regenerates and checks, instead of the text.

Everything that depends on the wall clock sits under `wall`, so two runs of the same ruleset,
seed and moves give byte-identical lines once `wall` is removed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..engines.canonical import canonical_bytes
from ..engines.protocol import JSON

SCHEMA_VERSION = 2

Audience = list[int] | None
FallbackReason = Literal["deadline", "second_rejection", "absent", "bot_error"]


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: int = 0
    """Position in the game's record, from 1 (the header)."""
    audience: Audience = None
    wall: dict[str, Any] | None = None


class Player(BaseModel):
    """Who plays a seat: a bot by name, or an MCP client with its labels."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["bot", "llm", "open"]
    bot: str | None = None
    client_name: str | None = None
    client_version: str | None = None
    model: str | None = None
    prompt: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)


class SeatEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int
    name: str
    player: Player


class ForkPoint(BaseModel):
    """Where a forked game starts: its parent, the decision, and the state digest after the
    parent's first `transitions` transitions, which the fork's record plays again first."""

    model_config = ConfigDict(extra="forbid")

    parent: str
    at: int
    transitions: int
    digest: str


class Header(_Event):
    type: Literal["header"] = "header"
    schema_version: int = SCHEMA_VERSION
    server_version: str
    game: str
    ruleset: dict[str, Any]
    seed: int | str
    seats: list[SeatEntry]
    fork: ForkPoint | None = None
    rules_version: int = 1
    """The engine's `rules_version` when the game was recorded (a record without one: 1)."""
    view_version: int = 1
    """The engine's `view_version` when the game was recorded (a record without one: 1)."""


class Join(_Event):
    type: Literal["join"] = "join"
    seat: int
    player: Player


class ViewShown(_Event):
    """A seat was shown a view it had not seen before (repeated reads record nothing)."""

    type: Literal["view"] = "view"
    seat: int
    decision: int
    digest: str
    """`view_digest` of the observation the seat received."""


class Attempt(_Event):
    """A `play` call: the arguments as given, what was accepted, and why the rest was not."""

    type: Literal["attempt"] = "attempt"
    seat: int
    decision: int
    args: dict[str, Any]
    accepted: list[str] = Field(default_factory=list)
    ok: bool
    code: str | None = None
    reason: str | None = None
    request_id: str | None = None
    counted: bool = True
    """False for refusals that are not rejections of a move (already submitted, stale)."""
    repeats: int = 0
    """On a record of no call of its own (`args` empty): that many further calls were answered
    with the same refusal for the same decision, counted here instead of stored one by one."""


class Move(_Event):
    """A sequential game's transition: one seat's move."""

    type: Literal["move"] = "move"
    seat: int
    move: str
    digest: str
    decision: int
    redacted: dict[str, str | None] = Field(default_factory=dict)
    """viewer seat -> the text that viewer sees where it differs (None: not shown)."""
    news: list[str] = Field(default_factory=list)
    """What the move did (`Engine.news`): public lines, so every viewer gets them whole."""


class Batch(_Event):
    """A simultaneous game's transition: every seat's submission, resolved together."""

    type: Literal["batch"] = "batch"
    moves: dict[str, str]
    digest: str
    decision: int
    redacted: dict[str, dict[str, str | None]] = Field(default_factory=dict)
    """mover seat -> viewer seat -> the text that viewer sees where it differs."""
    news: list[str] = Field(default_factory=list)
    """What the resolve did (`Engine.news`): public lines, so every viewer gets them whole."""


class StateTalk(_Event):
    """A talk line queued inside the game state (games whose talk is part of the rules)."""

    type: Literal["state_talk"] = "state_talk"
    seat: int
    to: list[int] | None
    text: str
    digest: str
    decision: int


class Settle(_Event):
    type: Literal["settle"] = "settle"
    reason: str
    digest: str
    decision: int


class Talk(_Event):
    """A talk line the host keeps beside the game (games without talk in their rules), or a
    line queued in the state (`state_talk`, its sender's alone) as the resolve posts it to its
    readers."""

    type: Literal["talk"] = "talk"
    seat: int
    to: list[int] | None
    text: str


class Fallback(_Event):
    """A move the host chose for a seat. Only the seat sees it; others learn the move from the
    transition that applies it, as they would any move."""

    type: Literal["fallback"] = "fallback"
    seat: int
    decision: int
    reason: FallbackReason
    move: str
    continued: bool = False


class Absent(_Event):
    type: Literal["absent"] = "absent"
    seat: int


class JoinTimeout(_Event):
    type: Literal["join_timeout"] = "join_timeout"
    result: Literal["start", "forfeit"]
    absent: list[int] = Field(default_factory=list)


class Footer(_Event):
    type: Literal["footer"] = "footer"
    outcome: dict[str, Any]
    digest: str
    counters: dict[str, dict[str, int]]


Event = Annotated[
    Header
    | Join
    | ViewShown
    | Attempt
    | Move
    | Batch
    | StateTalk
    | Settle
    | Talk
    | Fallback
    | Absent
    | JoinTimeout
    | Footer,
    Field(discriminator="type"),
]

TRANSITIONS = ("move", "batch", "state_talk", "settle")

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def parse_event(line: str | bytes) -> Event:
    return EVENT_ADAPTER.validate_json(line)


def event_json(event: Event) -> str:
    """One line of the record: keys in order, no spaces, and no character a line reader could
    take for a line break (U+2028, U+2029 and U+0085 are escaped)."""
    text = event.model_dump_json(exclude_none=False, round_trip=True)
    return (
        text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\u0085", "\\u0085")
    )


def view_digest(observation: Mapping[str, JSON]) -> str:
    """What a `view` event records of the observation a seat received; `replay` recomputes it."""
    return hashlib.sha256(canonical_bytes(observation)).hexdigest()[:32]
