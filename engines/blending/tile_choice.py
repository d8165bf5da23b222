"""Which tile to give up or to give: the choices the current builder and the older eras' bots
share (a discard, a guardian's pile, the host's default pick), so neither reaches into the other."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .bot_view import BoardView, hand_of, home_of
from .tiles import Face


def tile_value(face: Face, home: int) -> float:
    """How much a tile is worth keeping: home singles paint estates, blends score borders."""
    n = len(set(face))
    if n == 1:
        return 3.0 if face[0] == home else 1.0
    return 2.0 if n == 2 else 2.5


def worst_tile(faces: Sequence[Face], hand: Sequence[int], home: int) -> int:
    return min(hand, key=lambda t: (tile_value(faces[t - 1], home), t))


def sane_discard(obs: Mapping[str, Any]) -> str:
    hand = hand_of(obs)
    home = home_of(obs)
    tile = min(hand, key=lambda tf: (tile_value(tf[1], home), tf[0]))[0]
    return f"discard t{tile}"


def pile_pick(v: BoardView, notes: list[str]) -> str:
    """The tile to give a guardian: blends defend best; home singles are kept for painting."""

    def keep(notation: str) -> tuple[float, int]:
        tile = int(notation.split()[1][1:])
        face = next(f for t, f in v.hand if t == tile)
        n = len(set(face))
        strength = {1: 0.0, 2: 1.0, 3: 2.0}[n]
        if n == 1 and face[0] == v.home:
            strength -= 1.0
        return (-strength, tile)

    return min(notes, key=keep)
