"""What the store keeps about a game: seats, counters, pending submissions and the state."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SeatKind = Literal["bot", "llm", "open"]


class SeatCounters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    attempts: int = 0
    accepted: int = 0
    rejected: int = 0
    out_of_turn: int = 0
    fallbacks: int = 0
    talk_lines: int = 0
    missed_deadlines: int = 0


class SeatRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int
    name: str
    kind: SeatKind
    bot: str | None = None
    credential_hash: str | None = None
    invitation_hash: str | None = None
    client_name: str | None = None
    client_version: str | None = None
    model_label: str | None = None
    prompt_label: str | None = None
    counters: SeatCounters = Field(default_factory=SeatCounters)
    rejections_this_decision: int = 0
    absent: bool = False
    """Missed 3 deadlines in a row (or never joined): defaulted at once until it acts again."""
    consecutive_missed: int = 0
    invited: bool = False
    request_results: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """The last few `play` results by client request id, so a retried call is not applied
    twice."""

    def player(self) -> dict[str, Any]:
        """Who plays the seat, as the transcript header records it."""
        if self.kind == "bot":
            return {"kind": "bot", "bot": self.bot}
        return {
            "kind": self.kind,
            "client": {"name": self.client_name, "version": self.client_version},
            "model": self.model_label,
            "prompt": self.prompt_label,
        }


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game_id: str
    game: str
    seed: int | str
    ruleset: dict[str, Any]
    seats: list[SeatRecord]
    state: dict[str, Any]
    status: Literal["waiting", "active", "over"] = "active"
    decision: int = 0
    """How many transitions have been applied: identifies the decision seats are making, so
    rejections and bot streams reset when it moves on."""
    pending: dict[int, str] = Field(default_factory=dict)
    """Simultaneous games: canonical move text submitted by each seat for the open decision."""
    event_count: int = 0
    transcript_path: str
    spectator_hash: str | None = None
    created: float = 0.0
    updated: float = 0.0
    deadline_seconds: float | None = None
    decision_started: float = 0.0
    game_deadline: float | None = None
    join_deadline: float | None = None
