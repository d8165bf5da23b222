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
    ShowDetail,
    bot_schema,
    custom_error,
    game_schema,
    unpublished,
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


# The server makes these ids, so their length limit (still checked) is not published.
GameId = Annotated[
    str,
    Field(max_length=MAX_ID_CHARS, description="From new_game.", json_schema_extra=unpublished),
]
Credential = Annotated[
    str,
    Field(
        max_length=MAX_ID_CHARS,
        description="Your seat's, from new_game.",
        json_schema_extra=unpublished,
    ),
]
Name = Annotated[str, Field(max_length=MAX_ID_CHARS)]
BotName = Annotated[str, Field(max_length=MAX_ID_CHARS, json_schema_extra=bot_schema)]
Label = Annotated[str, Field(max_length=MAX_LABEL_CHARS)]
ModelLabel = Annotated[Label | None, Field(description="The model's label, kept in the record.")]
PromptLabel = Annotated[Label | None, Field(description="The prompt's label, kept in the record.")]
Seconds = Annotated[float, Field(gt=0, le=MAX_SECONDS, allow_inf_nan=False)]
Cursor = Annotated[int, Field(ge=0, le=MAX_JSON_INT, json_schema_extra=unpublished)]
JsonInt = Annotated[int, Field(ge=-MAX_JSON_INT, le=MAX_JSON_INT)]
AS_IN_NEW_GAME = "As in new_game."
PAGE = "From 1 (default 1); the answer says how many pages."
PAGE_SIZE = f"Entries per page, 1 to {MAX_PAGE_SIZE} (default 50)."
LOG_LIMIT = (
    f"Most events, 1 to {MAX_LOG_LIMIT} (default 200); the answer's cursor as `after` gets the "
    "rest."
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
            description="One of those list_games lists.",
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
            description="Your seat: a name (see list_games) or number from 0. Default: seat 0; "
            "in influence the seed picks (even: 0, odd: 1).",
            union_mode="left_to_right",
        ),
    ] = None
    bots: Annotated[
        list[BotName] | None,
        Field(
            description='A list of bot names: one for all other seats, e.g. ["greedy"], or one '
            "per other seat in order; 'open' leaves a seat for another client (you get its "
            "invitation). Default: the game's first bot but 'random'.",
            max_length=MAX_NAMES,
        ),
    ] = None
    model: ModelLabel = None
    prompt: PromptLabel = None
    labels: Labels = None
    deadline_seconds: Annotated[
        Seconds | None,
        Field(description="Seconds each seat has per decision (default: the server's)."),
    ] = None
    join_timeout: Annotated[
        Seconds | None, Field(description="Seconds invited seats have to join.")
    ] = None
    time_limit: Annotated[
        Seconds | None, Field(description="Seconds before the game is settled.")
    ] = None
    detail: FullDetail = "full"
    fork_of: ForkOf = None
    at: At = None


class JoinGameInput(Labelled, ToolInput):
    json_limits: ClassVar[dict[str, int]] = {"labels": 2 * MAX_STRUCTURED_CHARS}

    invitation: Annotated[
        str,
        Field(
            max_length=MAX_ID_CHARS,
            description="An invitation code from new_game.",
            json_schema_extra=unpublished,
        ),
    ]
    model: Annotated[ModelLabel, Field(description=AS_IN_NEW_GAME)] = None
    prompt: Annotated[PromptLabel, Field(description=AS_IN_NEW_GAME)] = None
    labels: Annotated[Labels, Field(description=AS_IN_NEW_GAME)] = None
    detail: FullDetail = "full"


Image = Annotated[
    bool,
    Field(description="true: a PNG picture of the board too."),
]


class ShowInput(ToolInput):
    game_id: GameId
    credential: Credential
    detail: ShowDetail = "full"
    image: Image = False


class LegalMovesInput(ToolInput):
    game_id: GameId
    credential: Credential
    kind: Annotated[
        Name | None,
        Field(description="Only entries of this kind (legal_moves lists the kinds)."),
    ] = None
    contains: Annotated[
        Name | None,
        Field(
            description=(
                "Only entries holding this text (any case); a coordinate like `1,1` matches "
                "only whole (not `11,1`)."
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
        Annotated[int, Field(ge=1, le=MAX_MENU_NUMBER, json_schema_extra=unpublished)] | None,
        Field(description="A number from legal_moves."),
    ] = None
    moves: Annotated[
        list[Annotated[str, Field(max_length=MAX_MOVE_CHARS)]] | None,
        Field(
            description="Moves in order: in turn games applied one by one until one is illegal; "
            "in simultaneous games one submission, accepted or refused whole ([]: the empty "
            "list).",
            max_length=MAX_MOVES_PER_CALL,
        ),
    ] = None
    structured: Annotated[
        dict[str, Any] | None,
        Field(
            description="The move as a JSON object, in your game's form: the JSON Schema at "
            "resource cogs-arena://moves/<game>."
        ),
    ] = None
    why: Annotated[
        Annotated[str, Field(max_length=MAX_WHY_CHARS)] | None,
        Field(description="Your reasoning, kept in the transcript."),
    ] = None
    request_id: Annotated[
        Name | None,
        Field(description="A retry with the same id and move is not applied twice."),
    ] = None
    decision: Annotated[
        Cursor | None,
        Field(description="Guard: the view's decision you answer."),
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
            description="Seat names to whisper to (default: everyone).",
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
    after: Annotated[Cursor, Field(description="Cursor from a view or a log (0: the start).")] = 0
    limit: Annotated[int, Field(ge=1, le=MAX_LOG_LIMIT, description=LOG_LIMIT)] = 200


class WaitInput(ToolInput):
    game_id: GameId
    credential: Credential
    after: Annotated[
        Cursor | None,
        Field(description="Cursor from a view or a log (default: your last view's; 0: all)."),
    ] = None
    timeout: Annotated[
        float,
        Field(
            gt=0,
            le=MAX_WAIT_SECONDS,
            allow_inf_nan=False,
            description=f"Seconds at most (default {DEFAULT_WAIT_SECONDS:g}).",
        ),
    ] = DEFAULT_WAIT_SECONDS


class SpectateInput(ToolInput):
    spectator_code: Annotated[
        str,
        Field(
            max_length=MAX_ID_CHARS,
            description="A spectator code from new_game.",
            json_schema_extra=unpublished,
        ),
    ]
    image: Image = False
