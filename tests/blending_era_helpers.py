"""Shared helpers for the Blending era tests: play a move, read a menu, find a tile by face."""

from __future__ import annotations

from dataclasses import replace

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.moves import Move
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import LAND_LETTER, face_text
from cogs_arena.engines.protocol import Engine

E: Engine[BlendingRules, State, Move] = get_engine("blending")


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


def fight_scene(
    combat: str,
    squares: dict[tuple[int, int], str],
    base: list[str],
    bolsters: list[str] | None,
    hand: list[str],
    own: bool,
    rules: dict[str, object],
) -> State:
    """Seat 0's hero at 1,0 beside seat 1's guardian G1 at 2,0 (its pile `base`, then
    `bolsters`), seat 0 holding `hand`; with `own`, seat 0 has a guardian of its own at 5,5."""
    guards = [GuardianSpec(1, (2, 0), base, bolsters or [])]
    if own:
        guards.append(GuardianSpec(0, (5, 5), ["PPPP"] * 3))
    spec = Scenario(squares=squares, hands={0: hand}, heroes={0: (1, 0)}, guardians=guards)
    return build(spec, BlendingRules(combat=combat, **rules))
