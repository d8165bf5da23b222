"""Positions drawn by hand: a state mid-turn built from a small map, hands and guardians, with
every tile taken out of that game's own stock (so tiles stay unique). For tests and puzzles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .rules import new_game
from .ruleset import BlendingRules
from .state import Guardian, Pos, State
from .tiles import START, face_from_text


@dataclass
class GuardianSpec:
    owner: int
    at: Pos
    base: Sequence[str]
    bolsters: Sequence[str] = ()


@dataclass
class Scenario:
    squares: Mapping[Pos, str] = field(default_factory=dict)
    """Land letters (M/F/P) by square; the start square (0,0) is always there."""
    blends: Mapping[Pos, tuple[str, int, int]] = field(default_factory=dict)
    """Top-left square -> (face such as 'MMFF', rotation, seat that laid it)."""
    hands: Mapping[int, Sequence[str]] = field(default_factory=dict)
    """Faces like 'MMMM' or 'MMFF' (unrotated, as in the supply)."""
    heroes: Mapping[int, Pos] = field(default_factory=dict)
    guardians: Sequence[GuardianSpec] = ()
    seat: int = 0


def build(spec: Scenario, rules: BlendingRules | None = None, seed: int | str = 0) -> State:
    rules = rules or BlendingRules()
    s = new_game(rules, seed)
    pool = [*s.stock, *(t for hand in s.hands for t in hand), *(t for r in s.reserve for t in r)]

    def take(face_text: str) -> int:
        face = face_from_text(face_text)
        for t in pool:
            if s.faces[t - 1] == face:
                pool.remove(t)
                return t
        raise ValueError(f"no tile {face_text} left in the supply")

    squares: dict[Pos, int] = {(0, 0): START}
    stacks: dict[Pos, tuple[int, ...]] = {}
    for pos, letter in spec.squares.items():
        tile = take(letter * 4)
        squares[pos] = "MFP".index(letter)
        stacks[pos] = (tile,)
    blends = {tl: (take(face), rot, by) for tl, (face, rot, by) in spec.blends.items()}
    guardians = []
    for gid, g in enumerate(spec.guardians, start=1):
        pile = tuple((take(f), True) for f in g.base) + tuple((take(f), False) for f in g.bolsters)
        guardians.append(Guardian(gid, g.owner, g.at[0], g.at[1], squares[g.at], pile))
    hands = tuple(
        tuple(sorted(take(f) for f in spec.hands.get(seat, ()))) for seat in range(rules.players)
    )
    heroes = tuple(spec.heroes.get(seat, (0, 0)) for seat in range(rules.players))
    s = s.clone()
    s.phase = "turn"
    s.round = 1
    s.seat = spec.seat
    s.walks = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")[: rules.players]
    s.squares, s.stacks, s.blends = squares, stacks, blends
    s.guardians = tuple(guardians)
    s.next_gid = len(guardians) + 1
    s.hands = hands
    s.heroes = heroes
    s.stock = tuple(pool)
    s.reserve = tuple(() for _ in range(rules.players))
    s.moves_left = rules.free_moves * rules.native_speed
    return s
