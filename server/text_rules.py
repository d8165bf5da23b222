"""The text rule of the boundary: a string the record can hold is valid Unicode (no lone UTF-16
surrogate, which has no UTF-8 form), and a client's JSON object is small, shallow and made of
JSON. Each check says what is wrong and where, never quoting the rejected text. Also the
names the input schemas list as enums (games, bots), looked up when a schema is made."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from .errors import BadArgument

MAX_JSON_DEPTH = 32
"""Deeper JSON would overflow the recursion of the encoders that write the record."""
MAX_JSON_INT = 2**53
"""The largest integer every JSON reader keeps exactly."""


CUSTOM_ERROR = "arena_"
"""Prefix of the input models' own error types: their messages already name the field."""


MAX_ID_CHARS = 100
"""Game ids, credentials, codes, request ids, seat, game and bot names."""


def custom_error(kind: str, message: str, allowed: str | None = None) -> PydanticCustomError:
    """A validation error whose message is shown as it is, with what is allowed."""
    # The message goes in as context: user-derived text may contain braces.
    return PydanticCustomError(
        CUSTOM_ERROR + kind, "{message}", {"message": message, "allowed": allowed}
    )


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


def clean_label(value: str | None, max_chars: int) -> str | None:
    """A label the protocol hands over (client name/version) made safe to record: lone
    surrogates become U+FFFD and the text is cut to `max_chars`. Nobody typed it as an argument,
    so refusing the call would be no help to the caller."""
    if value is None:
        return None
    if lone_surrogate(value):
        value = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in value)
    return value[:max_chars]


@functools.cache
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


# ---- names a schema lists --------------------------------------------------------------------


def game_names() -> list[str]:
    """The registered games that import on this install (the project's and plugins'), as
    new_game's `game` takes them; OpenSpiel's are `openspiel:<game>` (`game_schema`)."""
    from ..engines.registry import available

    return [name for name in available() if ":" not in name]


OPENSPIEL_PATTERN = "^openspiel:"


def game_schema(schema: dict[str, Any]) -> None:
    """new_game's `game`: the names, and where OpenSpiel is installed any `openspiel:<game>`
    (105 names: a pattern, not an enum, keeps the tool list small)."""
    from ..engines.registry import openspiel_installed

    if openspiel_installed():
        schema["anyOf"] = [{"enum": game_names()}, {"pattern": OPENSPIEL_PATTERN}]
    else:
        schema["enum"] = game_names()


def bot_names() -> list[str]:
    """Every bot name some game accepts, then "open" (a seat left for another client)."""
    from ..engines.registry import get_engine, openspiel_installed
    from .seats import OPEN_SEAT

    names = [bot for game in game_names() for bot in get_engine(game).bots()]
    if openspiel_installed():
        from ..engines.openspiel.bots import MCTS_BUDGETS

        names += ["random", *(f"mcts:{budget}" for budget in MCTS_BUDGETS)]
    return [*dict.fromkeys(names), OPEN_SEAT]


TWIN_PATTERN = "-seeded$|^mcts:"
"""Bot names the schema gives as a pattern: every scripted bot's `-seeded` twin, and OpenSpiel's
MCTS budgets (their plain names are listed in the enum)."""


def bot_schema(schema: dict[str, Any]) -> None:
    """A bot name: the plain names listed, the seeded twins and MCTS budgets by one pattern (the
    tool list a model reads stays short); the service still refuses a name no game has."""
    names = bot_names()
    plain = [n for n in names if not (n.endswith("-seeded") or n.startswith("mcts:"))]
    if len(plain) == len(names):
        schema["enum"] = names
    else:
        schema["anyOf"] = [{"enum": plain}, {"pattern": TWIN_PATTERN}]


def unpublished(schema: dict[str, Any]) -> None:
    """A `json_schema_extra` leaving the limit of a value the server made (an id, a cursor, a
    menu number) out of the published schema: a client copies such a value, it never composes
    one. Validation still checks the limit."""
    schema.pop("maxLength", None)
    schema.pop("maximum", None)


def schema_enum(names: Callable[[], list[str]]) -> Callable[[dict[str, Any]], None]:
    """A `json_schema_extra` listing `names()` as the schema's enum. The names are looked up
    when the schema is made, so importing the inputs loads no engine; validation is unchanged,
    and the service still refuses an unknown name with the allowed ones."""

    def add(schema: dict[str, Any]) -> None:
        schema["enum"] = names()

    return add


# ---- how much of a view a result carries, and seeds ------------------------------------------

Detail = Literal["full", "brief", "data", "none"]
DETAIL_HELP = (
    "How much of your view the answer carries: 'full' (the board as text with legend, plus the "
    "observation as structured data), 'brief' (the news since your last look and what you "
    "decide with, as text), 'data' (status lines plus the observation) or 'none' (status lines)."
)
MAX_SEED_DIGITS = 40
"""A seed given as text of at most this many digits is that integer (a random seed has 39)."""
SEED_BITS = 128
"""A game started without a seed gets a random one of this many bits."""


def seed_number(value: Any) -> Any:
    """A seed written as decimal digits is that integer, whatever its size, so the seed a
    finished game shows (as text when JSON readers could not keep it) starts the same game."""
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if digits.isdigit() and digits.isascii() and len(digits) <= MAX_SEED_DIGITS:
            return int(text)
    return value


def shown_seed(seed: int | str) -> int | str:
    """A seed as a result carries it: an integer JSON readers cannot keep exactly becomes its
    decimal text (which `seed_number` reads back to the same integer)."""
    if isinstance(seed, int) and abs(seed) > MAX_JSON_INT:
        return str(seed)
    return seed


Seed = Annotated[
    Annotated[
        Annotated[int, Field(ge=-(2**SEED_BITS), le=2**SEED_BITS)]
        | Annotated[str, Field(max_length=100)]
        | None,
        Field(union_mode="left_to_right"),  # "5" from a client that sends text is the seed 5
    ],
    BeforeValidator(seed_number),
    Field(
        description="Same seed, same game: an integer or a short text; random (128 bits) if "
        "omitted. Hidden until the game is over."
    ),
]
# Said in full once, on show's `detail`: every other tool's names the choices and points there.
ShowDetail = Annotated[Detail, Field(description=DETAIL_HELP + " Default: full.")]
FullDetail = Annotated[Detail, Field(description="Of the view, as in show. Default: full.")]
BriefDetail = Annotated[Detail, Field(description="Of the view, as in show. Default: brief.")]
