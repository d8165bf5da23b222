"""Typed results of the service's calls; the MCP adapter sends them as structured output."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class GameInfo(BaseModel):
    name: str
    title: str
    summary: str
    seats: list[str]
    simultaneous: bool
    bots: list[str]
    default_bot: str
    ruleset_defaults: dict[str, Any]


class GameFamily(BaseModel):
    """Games behind one optional library: `openspiel:<game>` for each name in `games`."""

    name: str
    installed: bool
    install: str
    """How to install it where it is not."""
    games: list[str]


class GameList(BaseModel):
    games: list[GameInfo]
    families: list[GameFamily] = Field(default_factory=list)
    not_loaded: dict[str, str] = Field(default_factory=dict)
    """Plugins found but not loaded (name -> why): skipped, never fatal."""


class SinceEntry(BaseModel):
    seat: str | None
    """Who moved; None for the resolve of a simultaneous turn (its news tells what happened)."""
    move: str | None
    news: list[str] = Field(default_factory=list)


class View(BaseModel):
    game_id: str
    game: str
    seat: int | None
    seat_name: str | None
    status: str
    your_turn: bool
    to_act: list[str]
    submitted: bool = False
    decision: int
    observation: dict[str, Any]
    """Carried with detail 'full' or 'data' only: with 'brief' and 'none' the text is the view,
    so the board does not travel twice."""
    text: str = Field(default="", exclude=True)
    """The readable view. Not in the structured form: the MCP result's text block carries it."""
    picture: str = Field(default="", exclude=True)
    """The board as SVG when asked for (`image=true`); the MCP adapter sends it as a PNG block."""
    detail: str = "full"
    seed: int | str | None = None
    """Shown once the game is over (a seat could derive hidden draws from it during play)."""
    chat: list[str] = Field(default_factory=list)
    outcome: dict[str, Any] | None = None
    log_cursor: int = 0
    fallbacks: list[str] = Field(default_factory=list)
    """Moves the host played for this seat (deadline, absence) since its last view."""
    since: list[SinceEntry] = Field(default_factory=list)
    """Other seats' moves and resolved turns since this seat's last view, with what they did
    (with detail 'full' or 'data'; the text carries them at every detail)."""
    since_left_out: int = 0


class NewGame(BaseModel):
    game_id: str
    seat: int
    seat_name: str
    credential: str
    seed: int | str | None = None
    """Hidden while the game runs (see View.seed)."""
    seats: list[dict[str, Any]]
    view: View
    invitations: dict[str, str] = Field(default_factory=dict)
    """Open seat name -> invitation code (works once, with join_game)."""
    spectator_code: str | None = None


class MenuEntry(BaseModel):
    number: int
    notation: str
    description: str
    kind: str


class Menu(BaseModel):
    game_id: str
    seat: int
    decision: int
    complete: bool
    total: int
    matching: int
    page: int
    pages: int
    kinds: list[str]
    moves: list[MenuEntry]
    hints: dict[str, Any]
    instructions: str
    instructions_told: bool = False
    """The seat's menu text gave these same instructions before (this server's copy of the
    game), so the text points to them instead of repeating them; they are here in full."""


class Rejection(BaseModel):
    index: int
    move: str
    reason: str
    code: str


class PlayResult(BaseModel):
    game_id: str
    accepted: list[str]
    rejected: Rejection | None = None
    fallback: str | None = None
    not_applied: Rejection | None = None
    """Moves of a batch that were left unplayed, not rejected (a required discard came first);
    nothing is counted against the seat."""
    read_notes: list[str] = Field(default_factory=list)
    """What reading the accepted moves changed without refusing them (a field the move does
    not use was dropped, a line over its limit was cut); `accepted` shows what was taken."""
    submitted_waiting: bool = False
    dropped: list[str] = Field(default_factory=list)
    """Parts of an accepted move the rules drop rather than refuse, one line each (Territory:
    talk lines over the turn's cap); the rest of the move stands."""
    error: str | None = None
    """When a move was rejected: the tool error's text (`[code] reason`, what was applied before
    it, and the tries left or the fallback played), as a first or second rejection reads alike."""
    tries_left: int | None = None
    """After a rejection: how many more rejections this decision allows before the host plays
    the default move (0 once it has)."""
    replayed: bool = False
    """True when this answers a request id seen before: nothing was applied again."""
    view: View


class TalkResult(BaseModel):
    game_id: str
    delivered_to: list[str]
    text: str
    note: str


class LogEvent(BaseModel):
    seq: int
    type: str
    seat: str | None = None
    text: str


class LogResult(BaseModel):
    game_id: str
    events: list[LogEvent]
    cursor: int


class WaitResult(BaseModel):
    game_id: str
    ready: bool
    reason: str
    """your_turn, game_over, events, or timeout."""
    your_turn: bool
    status: str
    decision: int
    events: list[LogEvent]
    cursor: int
