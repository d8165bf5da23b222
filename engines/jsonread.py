"""Reading a `JSON` value with its shape checked: each helper narrows one value to the type the
reader expects, or raises `TypeError` naming what it expected and what it found. Renderers,
bots and tests read views through these instead of indexing an unchecked value."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from typing import TypeVar, cast

from .protocol import JSON

T = TypeVar("T")


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


def flag(x: JSON) -> bool:
    """`x` as `true` or `false` (a number is not one)."""
    if type(x) is not bool:
        raise TypeError(f"expected true or false, found {_kind(x)}")
    return x


def text(x: JSON) -> str:
    """`x` as a string."""
    if type(x) is str:
        return x
    if not isinstance(x, str):
        raise TypeError(f"expected a string, found {_kind(x)}")
    return x


def _only(xs: Iterable[JSON], kind: type) -> bool:
    # The state loaders read arrays of hundreds of values (a tile each, a frame each) and dozens
    # of short ones on every load of a session: a loop over the elements' exact types spares a
    # call per element (it is faster than `all` over a generator); only an array with another
    # type in it is read element by element, to say what it found.
    for e in xs:  # noqa: SIM110
        if type(e) is not kind:
            return False
    return True


def ints(x: JSON) -> list[int]:
    """`x` as an array of integers."""
    xs = x if type(x) is list else arr(x)
    return cast("list[int]", list(xs)) if _only(xs, int) else [num(e) for e in xs]


def texts(x: JSON) -> list[str]:
    """`x` as an array of strings."""
    xs = x if type(x) is list else arr(x)
    return cast("list[str]", list(xs)) if _only(xs, str) else [text(e) for e in xs]


def flags(x: JSON) -> list[bool]:
    """`x` as an array of `true` and `false`."""
    xs = x if type(x) is list else arr(x)
    return cast("list[bool]", list(xs)) if _only(xs, bool) else [flag(e) for e in xs]


def fixed(x: JSON, size: int) -> Sequence[JSON]:
    """`x` as an array of exactly `size` values (a row of a table)."""
    xs = arr(x)
    if len(xs) != size:
        raise TypeError(f"expected an array of {size} values, found {len(xs)}")
    return xs


def table(x: JSON, width: int) -> list[tuple[int, ...]]:
    """`x` as an array of rows, each an array of `width` integers."""
    rows = x if type(x) is list else arr(x)
    # As `ints`: the rows' shapes, then their elements' types, before any row is read one by one.
    for r in rows:
        if type(r) is not list or len(r) != width:
            return [tuple(ints(fixed(r, width))) for r in rows]
    if not _only(chain.from_iterable(rows), int):  # type: ignore[arg-type]
        return [tuple(ints(fixed(r, width))) for r in rows]
    return [tuple(r) for r in rows]  # type: ignore[arg-type]


def int_tuple(x: JSON) -> tuple[int, ...]:
    """`x` as an array of integers, as a tuple (the loaders' frozen records hold tuples)."""
    return tuple(ints(x))


def pairs(x: JSON) -> tuple[tuple[int, int], ...]:
    """`x` as an array of rows of two integers, as a tuple."""
    return cast("tuple[tuple[int, int], ...]", tuple(table(x, 2)))


def triples(x: JSON) -> tuple[tuple[int, int, int], ...]:
    """`x` as an array of rows of three integers, as a tuple."""
    return cast("tuple[tuple[int, int, int], ...]", tuple(table(x, 3)))


def maybe(read: Callable[[JSON], T]) -> Callable[[JSON], T | None]:
    """A read that also takes `null` (for None)."""
    return lambda x: None if x is None else read(x)


def field(x: JSON, key: str, read: Callable[[JSON], T]) -> T:
    """`read` of the value at `key` of the object `x`. A refusal names the key, so reads nested
    inside one another name a path (`reports: salvage: expected an integer, found ...`)."""
    try:
        value = (x if type(x) is dict else obj(x))[key]
    except KeyError:
        raise TypeError(f"{key}: missing") from None
    try:
        return read(value)
    except TypeError as e:
        raise TypeError(f"{key}: {e}") from None


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
