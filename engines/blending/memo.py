"""One-slot caches keyed by object identity.

States share their unchanged containers (the map, the blends, the guardians) from move to move,
so a value derived only from those containers can be reused while they are the same objects. The
cache holds the keys, so an identity is never recycled while it is remembered. This is a pure
speed-up: the value is always what recomputing would give. The slot is one tuple, replaced in a
single assignment, so concurrent readers never pair one key with another value.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import is_
from typing import Generic, TypeVar

T = TypeVar("T")


class Memo(Generic[T]):
    __slots__ = ("slot",)

    def __init__(self) -> None:
        self.slot: tuple[tuple[object, ...], T] | None = None

    def get(self, keys: tuple[object, ...], make: Callable[[], T]) -> T:
        slot = self.slot
        if slot is not None and len(slot[0]) == len(keys) and all(map(is_, slot[0], keys)):
            return slot[1]
        value = make()
        self.slot = (keys, value)
        return value
