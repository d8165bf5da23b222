"""Tiles entering a guardian's pile under the older eras: under 'three' each is turned to show a
kind chosen by whoever adds it (BE4); under 'legacy' the pile is face down, so the log names only
the pips of the tiles a guardian is raised with (§3.3 #5, BE8)."""

from __future__ import annotations

from dataclasses import replace

from ...errors import IllegalMove
from ..moves import Move
from ..rules import do_bolster as bolster_match
from ..rules import do_pick as pick_match
from ..rules import guardian_by_id
from ..state import State
from ..tiles import KIND_NAME, pips
from .guardians import put_guardian


def tile_kind(s: State, move: Move) -> int:
    """The kind a tile entering a pile shows: a single's land, or the one named (BE4)."""
    face = s.faces[move.tile - 1] if 1 <= move.tile <= len(s.faces) else (-1,) * 4
    lands = sorted(set(face))
    if len(lands) == 1 and move.kind in (-1, lands[0]):
        return lands[0]
    if move.kind not in lands:
        names = " or ".join(KIND_NAME[k] for k in lands if k >= 0)
        raise IllegalMove(
            f"Name the kind t{move.tile} shows in the pile (Three Strikes fixes it now).",
            allowed=f"{move.verb} ... {names}" if names else "a tile of your hand",
        )
    return move.kind


def do_bolster(s: State, move: Move) -> State:
    kind = tile_kind(s, move)
    s = bolster_match(s, replace(move, kind=-1))
    g = guardian_by_id(s, move.gid)
    assert g is not None
    put_guardian(s, replace(g, kinds=(*g.kinds, (move.tile, kind))))
    return s


def do_pick(s: State, move: Move) -> State:
    """A pick for a guardian's pile (raise or rebuild) under 'three' (with its kind) or 'legacy'
    (face down); a swap's picks are as ever."""
    if s.pick_for == "swap":
        if move.kind >= 0:
            raise IllegalMove("A swap's picks name no kind.", allowed=f"pick t{move.tile}")
        return pick_match(s, move)
    three = s.rules.combat == "three"
    kind = tile_kind(s, move) if three else -1
    if not three and move.kind >= 0:
        raise IllegalMove("This era's piles are face down: no kind.", allowed=f"pick t{move.tile}")
    picks = (*s.pick_kinds, (move.tile, kind))
    before = len(s.guardians)
    s = pick_match(s, replace(move, kind=-1))
    if len(s.guardians) == before:
        s.pick_kinds = picks if three else ()
        return s
    s.pick_kinds = ()
    g = s.guardians[-1]
    if three:
        put_guardian(s, replace(g, kinds=picks))
    else:
        backs = ", ".join(str(pips(s.faces[t - 1])) for t, _ in g.pile)
        how = s.log[-1].split(" G", 1)[0]
        s.log = (*s.log[:-1], f"{how} G{g.gid} on {g.x},{g.y}, face down (pips {backs})")
    return s
