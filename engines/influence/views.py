"""Observations and spectator views (the text board is in `render.py`).

Influence hides nothing, so a seat's observation is the spectator view plus the seat's name and
its precomputed legal attacks (DECISIONS §5.2). `last_turn` is the other seat's most recent
complete turn for a seat, and the most recent complete turn of either seat for a spectator and,
once the game is over, for a seat too (the turn that ended it: the winner sees its winning
attacks).
"""

from __future__ import annotations

from ..protocol import JSON
from .history import record_view
from .rules import headroom, legal_attacks, totals
from .state import SEAT_NAMES, InfluenceState


def view(state: InfluenceState, seat: int | None, outcome: JSON) -> dict[str, JSON]:
    board = state.board
    over = state.phase == "over"
    white_area, white_value, black_area, black_value = totals(state)
    out: dict[str, JSON] = {
        "game": "influence",
        "map": board.map_id,
        "seat": seat,
        "you": None if seat is None else SEAT_NAMES[seat],
        "seats": list(SEAT_NAMES),
        "turn": state.turn,
        "max_turns": state.ruleset.max_turns,
        "phase": state.phase,
        "to_move": None if over else SEAT_NAMES[state.mover],
        "points_left": state.points,
        "spendable": (
            min(state.points, headroom(state, state.mover)) if state.phase == "reinforce" else 0
        ),
        "attacks_this_phase": state.attacks,
        "max_attacks_per_phase": state.ruleset.max_attacks_per_phase,
        "origin": list(board.origin),
        "grid": _grid_values(state),
        "big": [list(cell) for cell in board.big],
        "area": {"White": white_area, "Black": black_area},
        "value": {"White": white_value, "Black": black_value},
        "outcome": outcome,
        "last_turn": _last_turn(state, seat),
    }
    if seat is not None:
        mine = not over and state.mover == seat and state.phase == "attack"
        labels = board.labels
        out["legal_attacks"] = (
            [f"{labels[i]}>{labels[j]}" for i, j in legal_attacks(state)] if mine else []
        )
    return out


def _last_turn(state: InfluenceState, seat: int | None) -> JSON:
    if seat is not None and state.phase != "over":
        record = state.last_turns[1 - seat]
    else:
        done = [r for r in state.last_turns if r is not None]
        record = max(done, key=lambda r: (r.turn, r.seat)) if done else None
    return None if record is None else record_view(record, state.board)


def _grid_values(state: InfluenceState) -> list[list[int | None]]:
    """grid[k][m] is the value of cell (origin row + k, origin col + m); None is a wall."""
    board, values = state.board, state.values
    if board.dense:
        width = len(board.layout[0])
        return [list(values[k : k + width]) for k in range(0, len(values), width)]
    return [[values[i] if i >= 0 else None for i in row] for row in board.layout]
