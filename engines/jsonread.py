"""Reading a `JSON` value with its shape checked: each helper narrows one value to the type the
reader expects, or raises `TypeError` naming what it expected and what it found. Renderers,
bots and tests read views through these instead of indexing an unchecked value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .protocol import JSON


def _kind(x: object) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return f"boolean {x}"
    if isinstance(x, int | float):
        return f"number {x!r}"
    if isinstance(x, str):
        return "string"
    if isinstance(x, Mapping):
        return "object"
    return "array" if isinstance(x, Sequence) else type(x).__name__


# Views are built of dicts, lists and tuples: testing the exact type first spares the slower
# abstract-class checks (a text render reads hundreds of values).


def obj(x: JSON) -> Mapping[str, JSON]:
    """`x` as a JSON object."""
    if type(x) is dict:
        return x
    if not isinstance(x, Mapping):
        raise TypeError(f"expected a JSON object, found {_kind(x)}")
    return x


def arr(x: JSON) -> Sequence[JSON]:
    """`x` as a JSON array (a string is not one)."""
    if type(x) is list or type(x) is tuple:
        return x
    if isinstance(x, str) or not isinstance(x, Sequence):
        raise TypeError(f"expected a JSON array, found {_kind(x)}")
    return x


def objs(x: JSON) -> list[Mapping[str, JSON]]:
    """`x` as an array of objects."""
    return [obj(e) for e in arr(x)]


def num(x: JSON) -> int:
    """`x` as an integer (`true` and `false` are not numbers)."""
    if type(x) is int:
        return x
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"expected an integer, found {_kind(x)}")
    return x


def real(x: JSON) -> float:
    """`x` as a number, integer or not (`true` and `false` are not numbers)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise TypeError(f"expected a number, found {_kind(x)}")
    return x


def text(x: JSON) -> str:
    """`x` as a string."""
    if type(x) is str:
        return x
    if not isinstance(x, str):
        raise TypeError(f"expected a string, found {_kind(x)}")
    return x


def ints(x: JSON) -> list[int]:
    """`x` as an array of integers."""
    return [num(e) for e in arr(x)]


def texts(x: JSON) -> list[str]:
    """`x` as an array of strings."""
    return [text(e) for e in arr(x)]


def at(x: JSON, *path: str | int) -> JSON:
    """The value at `path` inside `x`: a key of an object, an index of an array."""
    for i, step in enumerate(path):
        where = "".join(f"[{p!r}]" for p in path[:i])
        try:
            x = obj(x)[step] if isinstance(step, str) else arr(x)[step]
        except (TypeError, KeyError, IndexError) as e:
            raise TypeError(f"no {step!r} at value{where}: {e}") from None
    return x


def edit(x: JSON) -> dict[str, JSON]:
    """`x` as an object its builder may still add keys to (one it built as a `dict`)."""
    if not isinstance(x, dict):
        raise TypeError(f"expected a JSON object being built, found {_kind(x)}")
    return x
