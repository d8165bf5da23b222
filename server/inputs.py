"""Every argument a client sends, checked in one place: one pydantic model per tool, so an
unknown argument is refused by name, every length limit lives here, and no string the record
cannot hold (a lone UTF-16 surrogate) gets past the boundary. The MCP adapter publishes these
models as the tools' input schemas; the service validates direct calls against the same models
with `validated`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from .errors import BadArgument

MAX_MOVE_CHARS = 4000
MAX_MOVES_PER_CALL = 500
MAX_WHY_CHARS = 2000
MAX_TALK_CHARS = 1000
MAX_LABEL_CHARS = 200
MAX_ID_CHARS = 100
"""Game ids, credentials, codes, request ids, seat, game and bot names."""
MAX_STRUCTURED_CHARS = 4000
MAX_RULESET_CHARS = 50_000
"""More than a structured move: an Influence custom map of the largest board must fit."""
MAX_JSON_DEPTH = 32
"""Deeper JSON would overflow the recursion of the encoders that write the record."""
MAX_NAMES = 50
"""Items in `bots` and `to`: more than any game has seats."""
MAX_JSON_INT = 2**53
"""The largest integer every JSON reader keeps exactly."""
MAX_SECONDS = 30 * 24 * 3600.0
MAX_PAGE = 10**6
MAX_MENU_NUMBER = 10**6
MAX_PAGE_SIZE = 500
MAX_LOG_LIMIT = 1000
MAX_WAIT_SECONDS = 50.0
DEFAULT_WAIT_SECONDS = 25.0

_CUSTOM = "arena_"
"""Prefix of this module's error types: their messages already name the field."""


# ---- the text rule ---------------------------------------------------------------------------


def lone_surrogate(text: str) -> tuple[int, str] | None:
    """(index, character) of the first UTF-16 surrogate code point in `text`, or None. Such a
    string has no UTF-8 form, so no transcript line, store row or JSON answer can carry it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start, text[exc.start]
    return None


def text_problem(field: str, text: str) -> str | None:
    """Why `text` cannot be accepted for `field`, or None."""
    found = lone_surrogate(text)
    if found is None:
        return None
    index, char = found
    return (
        f"{field} contains a lone surrogate (U+{ord(char):04X}) at character {index + 1}; "
        "send valid Unicode text"
    )


def shown(name: str, limit: int = 60) -> str:
    """A client-supplied name fit to quote in an error message: escaped unless it is a plain
    identifier, and cut short. An error text must itself be valid Unicode on one line."""
    if name.isidentifier() and name.isascii() and len(name) <= limit:
        return name
    cut = name[:limit]
    return repr(cut) + ("..." if len(name) > limit else "")


def json_problem(field: str, value: Any, max_chars: int) -> str | None:
    """Why `value` (a JSON object from a client) cannot go into the record, or None: a key or
    string with a lone surrogate, something that is not JSON, nesting deeper than
    MAX_JSON_DEPTH, or more than `max_chars` characters in its compact JSON form. Iterative, so
    a deep value cannot exhaust the stack here."""
    size = 0
    stack: list[tuple[str, Any, int]] = [(field, value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return f"{field} is nested more than {MAX_JSON_DEPTH} levels deep"
        if isinstance(item, str):
            size += len(item) + 2
            problem = text_problem(path, item)
            if problem is not None:
                return problem
        elif isinstance(item, dict):
            size += 2
            for key, sub in item.items():
                if not isinstance(key, str):
                    return f"{path} has a key that is not a string"
                size += len(key) + 4
                problem = text_problem(f"a key of {path}", key)
                if problem is not None:
                    return problem
                sub_path = f"{path}.{key}" if key.isidentifier() else f"{path}[{shown(key)}]"
                stack.append((sub_path, sub, depth + 1))
        elif isinstance(item, list | tuple):
            size += 2 + len(item)
            stack.extend((f"{path}[{i}]", sub, depth + 1) for i, sub in enumerate(item))
        elif item is None or isinstance(item, bool):
            size += 5
        elif isinstance(item, int):
            if abs(item) > MAX_JSON_INT:
                return f"{path} is beyond +-2**53 (not an integer JSON keeps exactly)"
            size += len(str(item))
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{path} is not a finite number"
            size += len(repr(item))
        else:
            return f"{path} is not a JSON value (object, array, string, number, true/false/null)"
        if size > max_chars:
            return f"{field} is longer than {max_chars} characters as JSON"
    return None


def check_text(field: str, value: str | None, max_chars: int) -> None:
    """For strings that reach the service without an input model (e.g. the client's name)."""
    if value is None:
        return
    if len(value) > max_chars:
        raise BadArgument(f"{field} is {len(value)} characters long.", allowed=f"<= {max_chars}")
    problem = text_problem(field, value)
    if problem is not None:
        raise BadArgument(problem + ".", allowed="valid Unicode text")


def clean_label(value: str | None, max_chars: int = MAX_LABEL_CHARS) -> str | None:
    """A label the protocol hands over (client name/version) made safe to record: lone
    surrogates become U+FFFD and the text is cut to `max_chars`. Nobody typed it as an argument,
    so refusing the call would be no help to the caller."""
    if value is None:
        return None
    text = value.encode("utf-8", "replace").decode("utf-8") if lone_surrogate(value) else value
    return text[:max_chars]


def _custom_error(kind: str, message: str, allowed: str | None = None) -> PydanticCustomError:
    # The message goes in as context: user-derived text may contain braces.
    return PydanticCustomError(
        _CUSTOM + kind, "{message}", {"message": message, "allowed": allowed}
    )


# ---- the models ------------------------------------------------------------------------------


class ToolInput(BaseModel):
    """Base of every tool's input: unknown arguments are refused, every string is checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    json_limits: ClassVar[dict[str, int]] = {}
    """Fields holding free JSON objects -> their size limit (default MAX_STRUCTURED_CHARS)."""

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
            raise _custom_error("bad_text", problem)
        return value


GameId = Annotated[
    str, Field(max_length=MAX_ID_CHARS, description="The game_id new_game returned.")
]
Credential = Annotated[
    str, Field(max_length=MAX_ID_CHARS, description="Your seat's credential from new_game.")
]
Name = Annotated[str, Field(max_length=MAX_ID_CHARS)]
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


class PingInput(ToolInput):
    pass


class ListGamesInput(ToolInput):
    pass


class NewGameInput(ToolInput):
    json_limits: ClassVar[dict[str, int]] = {"ruleset": MAX_RULESET_CHARS}

    game: Annotated[str, Field(max_length=MAX_ID_CHARS, description="Game name from list_games.")]
    seed: Annotated[
        JsonInt | Name | None,
        Field(
            description="Seed (same seed, same game): an integer or a short text. Random if "
            "omitted."
        ),
    ] = None
    ruleset: Annotated[
        dict[str, Any] | None,
        Field(description="Ruleset overrides (see list_games); unknown keys are rejected."),
    ] = None
    seat: Annotated[
        Annotated[int, Field(ge=0, le=1000)] | Name | None,
        Field(description="Seat name or number you take (default: the game's first seat)."),
    ] = None
    bots: Annotated[
        list[Name] | None,
        Field(
            description="Bot name for all other seats, or one per other seat.",
            max_length=MAX_NAMES,
        ),
    ] = None
    model: ModelLabel = None
    prompt: PromptLabel = None
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


class JoinGameInput(ToolInput):
    invitation: Annotated[
        str, Field(max_length=MAX_ID_CHARS, description="An invitation code from new_game.")
    ]
    model: ModelLabel = None
    prompt: PromptLabel = None


class ShowInput(ToolInput):
    game_id: GameId
    credential: Credential


class LegalMovesInput(ToolInput):
    game_id: GameId
    credential: Credential
    kind: Annotated[Name | None, Field(description="Only entries of this kind.")] = None
    contains: Annotated[
        Name | None,
        Field(description="Only entries whose notation or description contains this text."),
    ] = None
    page: Annotated[int, Field(ge=1, le=MAX_PAGE, description="Page number, from 1.")] = 1
    page_size: Annotated[
        int,
        Field(ge=1, le=MAX_PAGE_SIZE, description=f"Entries per page, 1 to {MAX_PAGE_SIZE}."),
    ] = 50


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
            "submission, accepted or refused whole.",
            min_length=1,
            max_length=MAX_MOVES_PER_CALL,
        ),
    ] = None
    structured: Annotated[
        dict[str, Any] | None, Field(description="The move in its structured JSON form.")
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

    @model_validator(mode="after")
    def _one_form(self) -> PlayInput:
        given = [name for name in SUBMISSION_FORMS if getattr(self, name) is not None]
        if len(given) != 1:
            got = " and ".join(given) if given else "none of them"
            raise _custom_error(
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
            raise _custom_error(
                "empty_talk", "text has no visible character.", "1 or more visible characters"
            )
        return value


class LogInput(ToolInput):
    game_id: GameId
    credential: Credential
    after: Annotated[
        Cursor, Field(description="Cursor from a previous call (0 for the start).")
    ] = 0
    limit: Annotated[
        int,
        Field(ge=1, le=MAX_LOG_LIMIT, description=f"Events at most, 1 to {MAX_LOG_LIMIT}."),
    ] = 200


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


# ---- validation with errors a model can act on -----------------------------------------------

M = TypeVar("M", bound=ToolInput)


def validated(model_cls: type[M], /, **kwargs: Any) -> M:
    """`model_cls(**kwargs)`, or BadArgument naming each bad argument and what is allowed."""
    try:
        return model_cls.model_validate(kwargs)
    except ValidationError as exc:
        raise bad_argument(model_cls, exc) from None


def bad_argument(model_cls: type[BaseModel], exc: ValidationError) -> BadArgument:
    """One BadArgument for all of a validation's errors. The rejected values are never quoted:
    they are the caller's data and may be what made the call fail."""
    problems: dict[str, list[str]] = {}
    allowed: dict[str, str] = {}
    fields = model_cls.model_fields
    for error in exc.errors(include_url=False, include_input=False):
        loc = error["loc"]
        head = str(loc[0]) if loc else ""
        path = shown(head) + "".join(f"[{part}]" for part in loc[1:] if isinstance(part, int))
        kind = error["type"]
        context = error.get("ctx") or {}
        if kind.startswith(_CUSTOM):
            text = str(context.get("message", error["msg"]))
            if context.get("allowed"):
                allowed[path or kind] = str(context["allowed"])
            elif head in fields and fields[head].description:
                allowed[head] = f"{head}: {fields[head].description}"
            problems.setdefault(path or kind, []).append(text.rstrip("."))
            continue
        if kind == "extra_forbidden":
            message = "unknown argument"
            allowed["arguments"] = "arguments " + (", ".join(fields) or "(none)")
        else:
            message = error["msg"][:1].lower() + error["msg"][1:]
            if head in fields and fields[head].description:
                allowed[head] = f"{head}: {fields[head].description}"
        problems.setdefault(path, []).append(f"{path}: {message}" if path else message)
    parts = ["; ".join(dict.fromkeys(texts)) for texts in problems.values()]
    return BadArgument("; ".join(parts) + ".", allowed=" | ".join(allowed.values()) or None)


def json_container_fields(model_cls: type[BaseModel]) -> frozenset[str]:
    """Fields that take a JSON array or object: clients sometimes send those as JSON text."""

    def takes_container(annotation: Any) -> bool:
        origin = get_origin(annotation)
        if origin in (list, dict):
            return True
        return any(takes_container(arg) for arg in get_args(annotation))

    return frozenset(
        name for name, field in model_cls.model_fields.items() if takes_container(field.annotation)
    )
