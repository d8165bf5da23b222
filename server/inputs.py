"""Every argument a client sends, checked in one place: one pydantic model per tool, so an
unknown argument is refused by name, every length limit lives here, and no string the record
cannot hold (a lone UTF-16 surrogate) gets past the boundary. The MCP adapter publishes these
models as the tools' input schemas; the service validates direct calls against the same models
with `validated`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .fork_args import At, Forkable, ForkOf
from .labels import MAX_LABEL_CHARS as MAX_LABEL_CHARS
from .labels import Labelled, Labels

# The text rules and the validation are re-exported, so callers need only this module.
from .text_rules import MAX_ID_CHARS as MAX_ID_CHARS
from .text_rules import MAX_JSON_DEPTH as MAX_JSON_DEPTH
from .text_rules import MAX_JSON_INT as MAX_JSON_INT
from .text_rules import (
    BriefDetail,
    FullDetail,
    Seed,
    bot_names,
    custom_error,
    game_schema,
    move_forms,
    schema_enum,
)
from .text_rules import check_text as check_text
from .text_rules import clean_label as clean_label
from .text_rules import json_container_fields as json_container_fields
from .text_rules import json_problem as json_problem
from .text_rules import lone_surrogate as lone_surrogate
from .text_rules import shown as shown
from .text_rules import text_problem as text_problem
from .validation import bad_argument as bad_argument
from .validation import validated as validated

MAX_MOVE_CHARS = 4000
MAX_MOVES_PER_CALL = 500
MAX_WHY_CHARS = 2000
MAX_TALK_CHARS = 1000
MAX_STRUCTURED_CHARS = 4000
MAX_RULESET_CHARS = 50_000
"""More than a structured move: an Influence custom map of the largest board must fit."""
MAX_NAMES = 50
"""Items in `bots` and `to`: more than any game has seats."""
MAX_SECONDS = 30 * 24 * 3600.0
MAX_PAGE = 10**6
MAX_MENU_NUMBER = 10**6
MAX_PAGE_SIZE = 500
MAX_LOG_LIMIT = 1000
MAX_WAIT_SECONDS = 50.0
DEFAULT_WAIT_SECONDS = 25.0

# ---- the models ------------------------------------------------------------------------------


class ToolInput(BaseModel):
    """Base of every tool's input: unknown arguments are refused, every string is checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    json_limits: ClassVar[dict[str, int]] = {}
    """Fields holding free JSON objects -> their size limit (default MAX_STRUCTURED_CHARS)."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_booleans(cls, value: Any, info: ValidationInfo) -> Any:
        # Only a flag (a field declared bool) takes a boolean: pydantic would read true as the
        # number 1 anywhere else.
        field = cls.model_fields.get(info.field_name or "")
        if isinstance(value, bool) and (field is None or field.annotation is not bool):
            raise custom_error("boolean", f"{info.field_name} is {str(value).lower()}")
        return value

    @field_validator("*", mode="after")
    @classmethod
    def _valid_text(cls, value: Any, info: ValidationInfo) -> Any:
        name = info.field_name or "argument"
        problem: str | None = None
        if isinstance(value, str):
            problem = text_problem(name, value)
        elif isinstance(value, list):
            problem = next(
                (
                    p
                    for i, item in enumerate(value)
                    if isinstance(item, str) and (p := text_problem(f"{name}[{i}]", item))
                ),
                None,
            )
        elif isinstance(value, dict):
            problem = json_problem(name, value, cls.json_limits.get(name, MAX_STRUCTURED_CHARS))
        if problem is not None:
            raise custom_error("bad_text", problem)
        return value


GameId = Annotated[
    str, Field(max_length=MAX_ID_CHARS, description="The game_id new_game returned.")
]
Credential = Annotated[
    str, Field(max_length=MAX_ID_CHARS, description="Your seat's credential from new_game.")
]
Name = Annotated[str, Field(max_length=MAX_ID_CHARS)]
BotName = Annotated[str, Field(max_length=MAX_ID_CHARS, json_schema_extra=schema_enum(bot_names))]
Label = Annotated[str, Field(max_length=MAX_LABEL_CHARS)]
ModelLabel = Annotated[
    Label | None, Field(description="Label of the model playing (kept in the record).")
]
PromptLabel = Annotated[
    Label | None, Field(description="Label of the prompt used (kept in the record).")
]
Seconds = Annotated[float, Field(gt=0, le=MAX_SECONDS, allow_inf_nan=False)]
Cursor = Annotated[int, Field(ge=0, le=MAX_JSON_INT)]
JsonInt = Annotated[int, Field(ge=-MAX_JSON_INT, le=MAX_JSON_INT)]
SECONDS = " Seconds, > 0 and at most 30 days."
PAGE = "Page number, from 1 (default 1); the answer says how many pages there are."
PAGE_SIZE = f"Entries per page, 1 to {MAX_PAGE_SIZE} (default 50)."
LOG_LIMIT = (
    f"Most events to return, 1 to {MAX_LOG_LIMIT} (default 200); pass the answer's cursor as "
    "`after` for the rest."
)


class PingInput(ToolInput):
    pass


class ListGamesInput(ToolInput):
    pass


class NewGameInput(Labelled, Forkable, ToolInput):
    json_limits: ClassVar[dict[str, int]] = {
        "ruleset": MAX_RULESET_CHARS,
        "labels": 2 * MAX_STRUCTURED_CHARS,  # labels_problem has the precise bounds
    }

    game: Annotated[
        str,
        Field(
            max_length=MAX_ID_CHARS,
            description="Game name, one of those list_games lists.",
            json_schema_extra=game_schema,
        ),
    ]
    seed: Seed = None
    ruleset: Annotated[
        dict[str, Any] | None,
        Field(description="Ruleset overrides (see list_games); unknown keys are rejected."),
    ] = None
    seat: Annotated[
        Annotated[int, Field(ge=0, le=1000)] | Name | None,
        Field(
            description="Seat you take: its name (list_games lists them) or its number from 0. "
            "Default: seat 0, except in influence, where the seed picks it (even seed: seat 0, "
            "odd: seat 1). The answer names the seat you got.",
            union_mode="left_to_right",
        ),
    ] = None
    bots: Annotated[
        list[BotName] | None,
        Field(
            description="One bot name for all the other seats, or one per other seat in seat "
            "order; 'open' leaves a seat for another client (you get its invitation). Bot names "
            "per game are in list_games. Default: the game's first bot that is not 'random'.",
            max_length=MAX_NAMES,
        ),
    ] = None
    model: ModelLabel = None
    prompt: PromptLabel = None
    labels: Labels = None
    deadline_seconds: Annotated[
        Seconds | None,
        Field(description="Time each seat has per decision (default: the server's)." + SECONDS),
    ] = None
    join_timeout: Annotated[
        Seconds | None, Field(description="Time invited seats have to join." + SECONDS)
    ] = None
    time_limit: Annotated[
        Seconds | None, Field(description="Time before the whole game is settled." + SECONDS)
    ] = None
    detail: FullDetail = "full"
    fork_of: ForkOf = None
    at: At = None


class JoinGameInput(Labelled, ToolInput):
    json_limits: ClassVar[dict[str, int]] = {"labels": 2 * MAX_STRUCTURED_CHARS}

    invitation: Annotated[
        str, Field(max_length=MAX_ID_CHARS, description="An invitation code from new_game.")
    ]
    model: ModelLabel = None
    prompt: PromptLabel = None
    labels: Labels = None
    detail: FullDetail = "full"


Image = Annotated[
    bool,
    Field(
        description="true adds a picture of the board (PNG) beside the text, for models "
        "that read images."
    ),
]


class ShowInput(ToolInput):
    game_id: GameId
    credential: Credential
    detail: FullDetail = "full"
    image: Image = False


class LegalMovesInput(ToolInput):
    game_id: GameId
    credential: Credential
    kind: Annotated[
        Name | None,
        Field(
            description="Only entries of this kind: one of the menu's kinds (the `kinds` that "
            "legal_moves returns and its first line lists; they differ by game)."
        ),
    ] = None
    contains: Annotated[
        Name | None,
        Field(
            description=(
                "Only entries whose notation or description contains this text (any case). "
                "A coordinate such as `1,1` or `3,-1` matches only that whole coordinate: "
                "`1,1` finds `1,1>2,1` but not `11,1` or `1,10`."
            )
        ),
    ] = None
    page: Annotated[int, Field(ge=1, le=MAX_PAGE, description=PAGE)] = 1
    page_size: Annotated[int, Field(ge=1, le=MAX_PAGE_SIZE, description=PAGE_SIZE)] = 50


@dataclass(frozen=True)
class Submission:
    """One `play` call's move(s), in whichever form the seat gave them."""

    move: str | None = None
    number: int | None = None
    moves: Sequence[str] | None = None
    structured: Any = None


SUBMISSION_FORMS = ("move", "number", "moves", "structured")


class PlayInput(ToolInput):
    game_id: GameId
    credential: Credential
    move: Annotated[
        Annotated[str, Field(max_length=MAX_MOVE_CHARS)] | None,
        Field(description="One move in notation."),
    ] = None
    number: Annotated[
        Annotated[int, Field(ge=1, le=MAX_MENU_NUMBER)] | None,
        Field(description="A number from legal_moves."),
    ] = None
    moves: Annotated[
        list[Annotated[str, Field(max_length=MAX_MOVE_CHARS)]] | None,
        Field(
            description="Several moves in order. In turn-based games they are applied one by "
            "one and the first illegal one stops the rest; in simultaneous games they are one "
            "submission, accepted or refused whole (no lines: the rules' empty list).",
            max_length=MAX_MOVES_PER_CALL,
        ),
    ] = None
    structured: Annotated[
        dict[str, Any] | None,
        Field(
            description="The move in its structured JSON form: the form titled by your game.",
            json_schema_extra=move_forms,
        ),
    ] = None
    why: Annotated[
        Annotated[str, Field(max_length=MAX_WHY_CHARS)] | None,
        Field(description="Your reasoning, kept in the transcript."),
    ] = None
    request_id: Annotated[
        Name | None,
        Field(
            description="Your id for this call: a retry with the same id and move is not "
            "applied twice."
        ),
    ] = None
    decision: Annotated[
        Cursor | None,
        Field(description="The view's decision number you are answering (optional guard)."),
    ] = None
    detail: BriefDetail = "brief"
    image: Image = False

    @model_validator(mode="after")
    def _one_form(self) -> PlayInput:
        given = [name for name in SUBMISSION_FORMS if getattr(self, name) is not None]
        if len(given) != 1:
            got = " and ".join(given) if given else "none of them"
            raise custom_error(
                "one_submission",
                f"Give exactly one of move, number, moves or structured (got {got}).",
                allowed="move='<notation>' | number=<menu number> | moves=[...] | structured={...}",
            )
        return self

    def submission(self) -> Submission:
        return Submission(
            move=self.move, number=self.number, moves=self.moves, structured=self.structured
        )


class TalkInput(ToolInput):
    game_id: GameId
    credential: Credential
    text: Annotated[str, Field(max_length=MAX_TALK_CHARS, description="What you say.")]
    to: Annotated[
        list[Name] | None,
        Field(
            description="Seat names to whisper to; omit to talk to everyone.",
            max_length=MAX_NAMES,
        ),
    ] = None

    @field_validator("text", mode="after")
    @classmethod
    def _visible(cls, value: str) -> str:
        if not any(char.isprintable() and not char.isspace() for char in value):
            raise custom_error(
                "empty_talk", "text has no visible character.", "1 or more visible characters"
            )
        return value


class LogInput(ToolInput):
    game_id: GameId
    credential: Credential
    after: Annotated[
        Cursor, Field(description="Cursor from a previous call (0 for the start).")
    ] = 0
    limit: Annotated[int, Field(ge=1, le=MAX_LOG_LIMIT, description=LOG_LIMIT)] = 200


class WaitInput(ToolInput):
    game_id: GameId
    credential: Credential
    after: Annotated[Cursor, Field(description="Cursor from a view or a log.")] = 0
    timeout: Annotated[
        float,
        Field(
            gt=0,
            le=MAX_WAIT_SECONDS,
            allow_inf_nan=False,
            description=f"Seconds to wait at most (> 0, <= {MAX_WAIT_SECONDS:g}).",
        ),
    ] = DEFAULT_WAIT_SECONDS


class SpectateInput(ToolInput):
    spectator_code: Annotated[
        str, Field(max_length=MAX_ID_CHARS, description="A spectator code from new_game.")
    ]
    image: Image = False
