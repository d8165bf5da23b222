"""The legal-move menu: in the attack phase every legal attack with what it would do, then `end`;
in the reinforce phase a few whole allocations (`allocations.py`), then one point per cell."""

from __future__ import annotations

from ..protocol import LegalMoves, MoveInfo
from .allocations import whole_allocations
from .rules import headroom, legal_attacks, resolve
from .state import SIGN, InfluenceState

ATTACK_INSTRUCTIONS = (
    "Attack phase: play attacks `source>target` (row,col each, e.g. `9,1>8,1`) one by one, in any "
    "number, then `end`. Against empty: target gets s−1. Against an enemy of strength e: s>e "
    "captures with s−e, s=e empties it, s<e leaves it at e−s. The source is left at 1."
)
REINFORCE_INSTRUCTIONS = (
    "Reinforce phase: spend every point, one `+row,col` at a time or all at once as "
    "`+row,col:k +row,col:k ...` totalling every point you can place; the menu's first entries "
    "(kind `reinforce_all`) each spend every point in one move. Own cells only, up to "
    "the cap (8 small, 12 big); leftover points are lost only when all your cells are capped."
)


def menu(state: InfluenceState, seat: int) -> LegalMoves:
    board = state.board
    sign = SIGN[seat]
    values = state.values
    entries: list[MoveInfo] = []
    if state.phase == "attack":
        for i, j in legal_attacks(state):
            s, t = values[i] * sign, values[j] * sign
            new_s, new_t = resolve(s, t, board.caps[j])
            src, dst = board.labels[i], board.labels[j]
            entries.append(
                MoveInfo(f"{src}>{dst}", _describe(src, dst, s, t, new_s, new_t), "attack")
            )
        entries.append(MoveInfo("end", "end the attack phase and go to reinforce", "end"))
        return LegalMoves(tuple(entries), instructions=ATTACK_INSTRUCTIONS)
    spendable = min(state.points, headroom(state, seat))
    entries.extend(whole_allocations(state, spendable))
    for i, v in enumerate(values):
        s = v * sign
        if 0 < s < board.caps[i]:
            cell = board.labels[i]
            entries.append(
                MoveInfo(
                    f"+{cell}",
                    f"one point to {cell} ({s} -> {s + 1}, cap {board.caps[i]})",
                    "reinforce",
                )
            )
    return LegalMoves(
        tuple(entries),
        hints={
            "points_left": state.points,
            "spendable": spendable,
        },
        instructions=REINFORCE_INSTRUCTIONS,
    )


def _describe(src: str, dst: str, s: int, t: int, new_s: int, new_t: int) -> str:
    if t == 0:
        what = f"capture empty {dst} at {new_t}"
    elif new_t > 0:
        what = f"capture enemy {dst} ({-t}) at {new_t}"
    elif new_t == 0:
        what = f"empty enemy {dst} ({-t} = {s})"
    else:
        what = f"repelled: enemy {dst} drops {-t} -> {-new_t}"
    tail = f", {src} keeps {new_s} (overflow)" if new_s > 1 else f", {src} left at 1"
    return f"from {src} ({s}): {what}{tail}"
