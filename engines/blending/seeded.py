"""`builder-seeded`: the builder, with its equally valued placements, steps and walks ranked in an
order drawn from the decision's seeded stream instead of notation order, so that a seed changes
its play beyond the supply's shuffle. The builder itself keeps notation order."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream, splitmix64
from .bots import Tie, play_builder


def drawn_tie(rng: Stream) -> Tie:
    """A tie order over notations: a hash of each notation keyed by one draw of the stream."""
    salt = rng.next_u64()

    def tie(note: str) -> tuple[int, str]:
        return (splitmix64(salt ^ zlib.crc32(note.encode())), note)

    return tie


def builder_seeded(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    return play_builder(obs, menu, drawn_tie(rng))


SEEDED_BOTS: dict[str, Bot] = {"builder-seeded": builder_seeded}
