"""Typed reads of a `JSON` view for tests: each helper narrows one value (`obj`, `arr`, `objs`,
`num`, `real`, `text`, `ints`, `texts`; `at` follows a path; `edit` gives an object to change)
and fails the test with a TypeError naming what was expected and what was found, instead of
indexing an unchecked value."""

from cogs_arena.engines.jsonread import arr, at, edit, ints, num, obj, objs, real, text, texts
from cogs_arena.engines.protocol import JSON

__all__ = ["JSON", "arr", "at", "edit", "ints", "num", "obj", "objs", "real", "text", "texts"]
