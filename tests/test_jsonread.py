"""The typed reads of a JSON value (`engines/jsonread.py`): each returns the value it narrows
and refuses any other shape with a TypeError naming what it expected and what it found."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from cogs_arena.engines.jsonread import (
    arr,
    at,
    edit,
    field,
    fixed,
    flag,
    flags,
    ints,
    maybe,
    num,
    obj,
    objs,
    real,
    table,
    text,
    texts,
)
from cogs_arena.engines.protocol import JSON

VIEW: JSON = {"seats": [{"x": 3, "name": "Sable"}, {"x": 4.5}], "log": ["a", "b"], "on": True}


def test_each_read_returns_the_value_of_its_shape() -> None:
    """A value of the expected shape comes back as it is, and a path reaches into it."""
    view = obj(VIEW)
    assert arr(view["log"]) == ["a", "b"] and texts(view["log"]) == ["a", "b"]
    assert objs(view["seats"])[0]["name"] == "Sable"
    assert num(at(view, "seats", 0, "x")) == 3 and real(at(view, "seats", 1, "x")) == 4.5
    assert real(3) == 3 and ints([1, 2]) == [1, 2] and text(at(view, "log", 1)) == "b"
    built: dict[str, JSON] = {"a": 1}
    edit(built)["b"] = 2
    assert built == {"a": 1, "b": 2}


@pytest.mark.parametrize(
    ("read", "value", "message"),
    [
        (num, True, "expected an integer, found boolean True"),
        (num, 2.0, "expected an integer, found number 2.0"),
        (num, "3", "expected an integer, found string"),
        (real, False, "expected a number, found boolean False"),
        (real, None, "expected a number, found null"),
        (text, 1, "expected a string, found number 1"),
        (arr, "ab", "expected a JSON array, found string"),
        (arr, {"a": 1}, "expected a JSON array, found object"),
        (obj, [1], "expected a JSON object, found array"),
        (edit, {"a": 1}.items(), "expected a JSON object being built, found dict_items"),
        (ints, [1, True], "expected an integer, found boolean True"),
        (texts, ["a", None], "expected a string, found null"),
        (objs, [{}, 3], "expected a JSON object, found number 3"),
        (flag, 1, "expected true or false, found number 1"),
        (flags, [True, 0], "expected true or false, found number 0"),
        (ints, (1, 2.0), "expected an integer, found number 2.0"),
        (texts, ["a", 1], "expected a string, found number 1"),
        (lambda x: fixed(x, 2), [1, 2, 3], "expected an array of 2 values, found 3"),
        (lambda x: table(x, 2), [[1, 2], [3, True]], "expected an integer, found boolean True"),
        (lambda x: table(x, 2), [[1, 2], [3]], "expected an array of 2 values, found 1"),
        (lambda x: table(x, 2), [[1, 2], 3], "expected a JSON array, found number 3"),
        (maybe(num), False, "expected an integer, found boolean False"),
        (lambda x: field(x, "a", num), {"b": 1}, "a: missing"),
        (lambda x: field(x, "a", ints), {"a": [1, "2"]}, "a: expected an integer, found string"),
        (
            lambda x: field(x, "a", lambda y: field(y, "b", text)),
            {"a": {"b": None}},
            "a: b: expected a string, found null",
        ),
        (lambda x: field(x, "a", num), [1], "expected a JSON object, found array"),
    ],
)
def test_a_read_of_another_shape_names_what_it_expected_and_found(
    read: object, value: object, message: str
) -> None:
    """`true` is no integer (a bool is an int in Python), a string is no array, and so on."""
    assert callable(read)
    with pytest.raises(TypeError) as caught:
        read(value)
    assert str(caught.value) == message


def test_the_reads_of_a_stored_state_return_its_values() -> None:
    """The readers the state loaders use: flags, rows of a fixed size, whole tables of integers
    (as lists or tuples), `null` where `maybe` allows it, and a named field."""
    assert flag(False) is False and flags([True, False]) == [True, False] and flags([]) == []
    assert fixed([1, "a"], 2) == [1, "a"] and ints((1, 2)) == [1, 2] and ints([]) == []
    assert table([[1, 2], [3, 4]], 2) == [(1, 2), (3, 4)] and table([], 3) == []
    assert table([(1, 2), [3, 4]], 2) == [(1, 2), (3, 4)]
    assert maybe(num)(None) is None and maybe(num)(4) == 4
    assert field({"a": [1, 2]}, "a", ints) == [1, 2]


def test_edit_refuses_a_read_only_object() -> None:
    """An object the builder did not make as a dict (a mapping view) cannot be changed."""
    with pytest.raises(TypeError, match="expected a JSON object being built, found object"):
        edit(MappingProxyType({"a": 1}))


def test_a_path_that_is_not_there_says_where_it_stopped() -> None:
    """A missing key, an index past the end and a step into a number each name the step."""
    with pytest.raises(TypeError, match=r"no 'y' at value\['seats'\]\[0\]: 'y'"):
        at(VIEW, "seats", 0, "y")
    with pytest.raises(TypeError, match=r"no 5 at value\['seats'\]"):
        at(VIEW, "seats", 5)
    with pytest.raises(TypeError, match=r"no 'z' at value\['on'\]: expected a JSON object"):
        at(VIEW, "on", "z")
