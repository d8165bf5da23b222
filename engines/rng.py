"""Named, seeded random streams whose whole state is one integer counter.

A stream's n-th draw is splitmix64(key + n), with the key derived from (seed, stream name) by
sha256. Storing only the counter keeps game state small and JSON-friendly, and two streams never
disturb each other, so adding a draw to one part of a game does not reshuffle another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


def derive_key(seed: int | str, stream: str) -> int:
    digest = hashlib.sha256(f"{seed}\x00{stream}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Stream:
    """A mutable cursor over one stream. Engines copy `counter` back into their state."""

    __slots__ = ("counter", "key")

    def __init__(self, seed: int | str, name: str, counter: int = 0) -> None:
        self.key = derive_key(seed, name)
        self.counter = counter

    def next_u64(self) -> int:
        value = splitmix64((self.key + self.counter) & _MASK64)
        self.counter += 1
        return value

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection, so there is no modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def random(self) -> float:
        """Uniform float in [0, 1) with 53 bits."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates over a copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
