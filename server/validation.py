"""Validation with errors a model can act on: a tool's input model checks the arguments, and
every failure becomes one BadArgument naming each bad argument and what is allowed."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import BadArgument
from .text_rules import CUSTOM_ERROR, shown, text_problem

M = TypeVar("M", bound=BaseModel)


def validated(model_cls: type[M], /, **kwargs: Any) -> M:
    """`model_cls(**kwargs)`, or BadArgument naming each bad argument and what is allowed."""
    try:
        return model_cls.model_validate(kwargs)
    except ValidationError as exc:
        raise bad_argument(model_cls, exc) from None


def bad_argument(model_cls: type[BaseModel], exc: ValidationError) -> BadArgument:
    """One BadArgument for all of a validation's errors. The rejected values are never quoted:
    they are the caller's data and may be what made the call fail."""
    fields = model_cls.model_fields
    every = "arguments " + ", ".join(fields) if fields else "no arguments"
    problems: dict[str, str] = {}  # text -> allowed; a dict keeps one of each, in order
    for error in exc.errors(include_url=False):
        loc = error["loc"]
        head = str(loc[0]) if loc else ""
        path = shown(head) + "".join(f"[{part}]" for part in loc[1:] if isinstance(part, int))
        context = error.get("ctx") or {}
        described = fields[head].description if head in fields else None
        allowed = f"{head}: {described}" if described else ""
        if error["type"] == "extra_forbidden":
            text, allowed = f"{path}: unknown argument", every
        elif error["type"] == "string_unicode" and head not in fields:
            text, allowed = "an argument's name is not valid Unicode text", every
        elif error["type"] == "string_unicode":
            # pydantic refuses a str with a lone surrogate without saying where it is.
            found = error.get("input")
            located = text_problem(path, found) if isinstance(found, str) else None
            text = located or f"{path} is not valid Unicode text; send valid Unicode text"
        elif error["type"].startswith(CUSTOM_ERROR):
            text = str(context.get("message") or error["msg"]).rstrip(".")
            allowed = str(context.get("allowed") or allowed)
        else:
            message = error["msg"][:1].lower() + error["msg"][1:]
            text = f"{path}: {message}" if path else message
        problems.setdefault(text, allowed)
    hints = [hint for hint in dict.fromkeys(problems.values()) if hint]
    return BadArgument("; ".join(problems) + ".", allowed=" | ".join(hints) or None)
