"""The text rule of the boundary: a string the record can hold is valid Unicode (no lone UTF-16
surrogate, which has no UTF-8 form), and a client's JSON object is small, shallow and made of
JSON. Each check says what is wrong and where, never quoting the rejected text."""

from __future__ import annotations

import math
from typing import Any

from .errors import BadArgument

MAX_JSON_DEPTH = 32
"""Deeper JSON would overflow the recursion of the encoders that write the record."""
MAX_JSON_INT = 2**53
"""The largest integer every JSON reader keeps exactly."""


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
