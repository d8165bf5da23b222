"""The merge tax under territories (§7 `dispute.mergeTax`, BE17): a single that joins two or more
claimed territories of its land costs `merge_tax` more tiles from hand, picked by its player, to
the discard pile. A placement that cannot pay is not legal."""

from __future__ import annotations

from ...errors import IllegalMove
from ...protocol import MoveInfo
from ..edits import take_from_hand, tile_name, with_log
from ..moves import Move
from ..rules import do_place
from ..state import State
from ..tiles import describe
from .territories import merge_squares

TAXED = " (merges territories: then pick {n} more tiles to pay)"


def taxed(s: State, move: Move) -> bool:
    if s.rules.land != "territories" or not s.rules.merge_tax or move.rot >= 0:
        return False
    if not 1 <= move.tile <= len(s.faces) or (move.x, move.y) in s.squares:
        return False
    return (move.x, move.y) in merge_squares(s, s.faces[move.tile - 1][0])


def place(s: State, move: Move) -> State:
    need = s.rules.merge_tax
    if len(s.hands[s.seat]) - 1 < need:
        raise IllegalMove(
            f"Placing t{move.tile} at {move.x},{move.y} merges territories, which costs {need} "
            "more tiles from your hand.",
            allowed="another 'placement' entry of your menu",
        )
    s = do_place(s, move)
    s.phase, s.pick_for, s.picked = "pick", "tax", ()
    with_log(s, f"seat {s.seat} merged territories at {move.x},{move.y}: {need} tiles of tax")
    return s


def pick(s: State, move: Move) -> State:
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(f"t{move.tile} is not in your hand.", allowed="pick a tile of your hand")
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    s.picked = (*s.picked, move.tile)
    if len(s.picked) >= s.rules.merge_tax:
        s.discard = (*s.discard, *s.picked)
        names = ", ".join(tile_name(s, t) for t in s.picked)
        s.picked, s.pick_for, s.phase = (), "", "turn"
        with_log(s, f"seat {s.seat} paid the merge tax with {names}")
    return s


def entries(s: State) -> list[MoveInfo]:
    left = s.rules.merge_tax - len(s.picked)
    return [
        MoveInfo(
            f"pick t{t}", f"pay t{t} ({describe(s.faces[t - 1])}) ({left} left to pay)", "pick"
        )
        for t in s.hands[s.seat]
    ]


def mark(s: State, menu: list[MoveInfo]) -> list[MoveInfo]:
    """The turn menu with merging placements marked, and dropped where the hand cannot pay."""
    if s.rules.land != "territories" or not s.rules.merge_tax or s.phase != "turn":
        return menu
    need = s.rules.merge_tax
    spots = {land: merge_squares(s, land) for land in range(3)}
    afford = len(s.hands[s.seat]) - 1 >= need
    out = []
    for m in menu:
        words = m.notation.split()
        if m.kind == "placement" and len(words) == 3:
            t = int(words[1][1:])
            x, y = (int(v) for v in words[2].split(","))
            if (x, y) in spots[s.faces[t - 1][0]] and (x, y) not in s.squares:
                if not afford:
                    continue
                m = MoveInfo(m.notation, m.description + TAXED.format(n=need), m.kind)
        out.append(m)
    return out
