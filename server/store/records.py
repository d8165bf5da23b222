"""What the store keeps about a game besides its state and events: seats, counters, pending
submissions and the clocks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...transcripts.events import Player

SeatKind = Literal["bot", "llm", "open"]
Status = Literal["waiting", "active", "over"]


class SeatCounters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    attempts: int = 0
    accepted: int = 0
    rejected: int = 0
    out_of_turn: int = 0
    fallbacks: int = 0
    talk_lines: int = 0
    missed_deadlines: int = 0


class HeldRefusal(BaseModel):
    """The last refusal stored for a seat, and how often the same one was answered since."""

    model_config = ConfigDict(extra="forbid")

    decision: int
    code: str
    reason: str
    repeats: int = 0
    """Calls answered with this refusal since it was last stored: counted, not stored one by
    one, until the next commit that writes events stores the count (`repeats.summaries`)."""


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
    labels: dict[str, str] = Field(default_factory=dict)
    counters: SeatCounters = Field(default_factory=SeatCounters)
    rejections_this_decision: int = 0
    talk_this_decision: int = 0
    absent: bool = False
    """Missed 3 deadlines in a row (or never joined): defaulted at once until it acts again."""
    consecutive_missed: int = 0
    invited: bool = False
    last_view: str | None = None
    """Key of the last view this seat was shown, so a repeated read records nothing."""
    seen_seq: int = 0
    """The seq of this seat's last recorded view: where "since your last look" starts."""
    unseen_fallbacks: list[str] = Field(default_factory=list)
    """Fallbacks the host applied for this seat that no view has told it of yet."""
    refusal: HeldRefusal | None = None

    def player(self) -> Player:
        """Who plays the seat, as the transcript header records it."""
        if self.kind == "bot":
            return Player(kind="bot", bot=self.bot)
        return Player(
            kind=self.kind,
            client_name=self.client_name,
            client_version=self.client_version,
            model=self.model_label,
            prompt=self.prompt_label,
            labels=dict(self.labels),
        )


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game_id: str
    game: str
    seed: int | str
    ruleset: dict[str, Any]
    seats: list[SeatRecord]
    status: Status = "active"
    decision: int = 0
    """How many transitions have been applied: identifies the decision seats are making, so
    rejections and bot streams reset when it moves on."""
    pending: dict[int, str] = Field(default_factory=dict)
    """Simultaneous games: canonical move text submitted by each seat for the open decision."""
    event_count: int = 0
    spectator_hash: str | None = None
    created: float = 0.0
    updated: float = 0.0
    deadline_seconds: float | None = None
    decision_started: float = 0.0
    game_deadline: float | None = None
    join_deadline: float | None = None

    @property
    def transcript_name(self) -> str:
        # `openspiel:chess` -> `openspiel_chess-…`: a file name without a colon.
        return f"{self.game.replace(':', '_')}-{self.game_id}.jsonl"

    def due(self) -> float | None:
        """When the clock next needs to look at this game (None: never)."""
        if self.status == "over":
            return None
        times = [self.game_deadline]
        if self.status == "waiting":
            times.append(self.join_deadline)
        elif self.deadline_seconds:
            times.append(self.decision_started + self.deadline_seconds)
        found = [t for t in times if t is not None]
        return min(found) if found else None
