"""Shared helpers for the Blending era tests: play a move, read a menu, find a tile by face."""

from __future__ import annotations

from dataclasses import replace

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import LAND_LETTER, face_text

E = get_engine("blending")


def play(s: State, text: str) -> State:
    return E.apply(s, s.seat, E.parse_move(s, s.seat, text))


def menu(s: State) -> list[str]:
    return [m.notation for m in E.legal_moves(s, s.seat).moves]


def tile(s: State, seat: int, face: str) -> int:
    return next(t for t in s.hands[seat] if face_text(s.faces[t - 1]) == face)


def pile_faces(s: State, gid: int) -> list[str]:
    g = next(x for x in s.guardians if x.gid == gid)
    return [face_text(s.faces[t - 1]) for t, _ in g.pile]


def with_kinds(s: State, gid: int, kinds: str) -> State:
    """Turns guardian gid's pile tiles to show the given kinds (letters M/F/P, pile order)."""
    s = s.clone()
    g = next(x for x in s.guardians if x.gid == gid)
    pairs = tuple((t, LAND_LETTER.index(k)) for (t, _), k in zip(g.pile, kinds, strict=True))
    s.guardians = tuple(replace(x, kinds=pairs) if x.gid == gid else x for x in s.guardians)
    return s
