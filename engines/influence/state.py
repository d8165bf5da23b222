"""The game state and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from ..protocol import JSON
from . import history
from .board import Board
from .history import AttackRecord, Points, TurnRecord
from .ruleset import InfluenceRuleset

Phase = Literal["attack", "reinforce", "over"]
PHASES: tuple[Phase, ...] = ("attack", "reinforce", "over")
WHITE = 0
BLACK = 1
SEAT_NAMES = ("White", "Black")
SIGN = (1, -1)
"""A seat's values are SIGN[seat] × strength: White positive, Black negative."""


@dataclass(frozen=True)
class InfluenceState:
    ruleset: InfluenceRuleset
    values: tuple[int, ...]
    """Signed value per cell, in the board's cell order."""
    mover: int
    phase: Phase
    turn: int
    """1-based; a turn is White's attack and reinforce, then Black's."""
    points: int
    """Reinforcement points left to spend (0 outside the reinforce phase)."""
    attacks: int
    """Attacks made in the current attack phase."""
    winner: int | None = None
    reason: str | None = None
    """Set when the phase is "over": elimination, move_limit, or a settle reason."""
    turn_attacks: tuple[AttackRecord, ...] = ()
    """The mover's attacks so far this turn (history.AttackRecord)."""
    turn_points: Points = ()
    """The points the mover has given so far this reinforce phase."""
    last_turns: tuple[TurnRecord | None, TurnRecord | None] = (None, None)
    """Each seat's last complete turn, for the views (None before its first)."""
    seed: int | str | None = None
    """The game's seed under a seeded opening (the board is drawn from it), else None."""
    board: Board = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.board is None:
            object.__setattr__(self, "board", self.ruleset.board(self.seed))

    @cached_property
    def attack_pairs(self) -> tuple[tuple[int, int], ...]:
        """Every (source, target) index pair the mover could attack, ignoring phase and cap.

        Cached on the state because a host asks for both the menu and the observation of the
        same state; the cache is derived data, so the state's value never changes."""
        values = self.values
        out: list[tuple[int, int]] = []
        append = out.append
        if self.mover == WHITE:
            for i, nbrs in enumerate(self.board.neighbours):
                if values[i] >= 2:
                    for j in nbrs:
                        if values[j] <= 0:
                            append((i, j))
        else:
            for i, nbrs in enumerate(self.board.neighbours):
                if values[i] <= -2:
                    for j in nbrs:
                        if values[j] >= 0:
                            append((i, j))
        return tuple(out)


def state_to_json(state: InfluenceState) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "ruleset": state.ruleset.model_dump(mode="json"),
        "values": list(state.values),
        "mover": state.mover,
        "phase": state.phase,
        "turn": state.turn,
        "points": state.points,
        "attacks": state.attacks,
        "winner": state.winner,
        "reason": state.reason,
        "turn_attacks": history.attacks_json(state.turn_attacks),
        "turn_points": history.points_json(state.turn_points),
        "last_turns": [history.record_json(r) for r in state.last_turns],
    }
    if state.seed is not None:
        # Only a seeded opening records it, so the default game's JSON (and digests) stay as
        # they were.
        out["seed"] = state.seed
    return out


def _int(data: Mapping[str, JSON], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"influence state: {key} must be an integer in {low}..{high}")
    return value


def state_from_json(data: Mapping[str, JSON]) -> InfluenceState:
    ruleset = InfluenceRuleset.model_validate(data["ruleset"])
    seed = data.get("seed")
    if ruleset.opening == "seeded":
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError("influence state: a seeded opening needs the game's seed")
    elif seed is not None:
        raise ValueError("influence state: a seed is recorded only with a seeded opening")
    board = ruleset.board(seed)
    raw = data.get("values")
    if not isinstance(raw, list) or len(raw) != len(board.cells):
        raise ValueError(f"influence state: values must be a list of {len(board.cells)} integers")
    values: list[int] = []
    for cap, v in zip(board.caps, raw, strict=True):
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > cap:
            raise ValueError(f"influence state: value {v!r} is not an integer within ±{cap}")
        values.append(v)
    phase = data.get("phase")
    if phase not in PHASES:
        raise ValueError(f"influence state: phase must be one of {', '.join(PHASES)}")
    winner = data.get("winner")
    # A bool is an int in Python (`true == 1`), and JSON's `true` is no seat.
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or winner not in (WHITE, BLACK)
    ):
        raise ValueError("influence state: winner must be 0, 1 or null")
    reason = data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise ValueError("influence state: reason must be a string or null")
    last = data.get("last_turns")
    if last is None:
        last = [None, None]
    if not isinstance(last, list) or len(last) != 2:
        raise ValueError("influence state: last_turns must be a list of two entries")
    white_last, black_last = (history.record_from_json(r, board) for r in last)
    return InfluenceState(
        ruleset=ruleset,
        values=tuple(values),
        mover=_int(data, "mover", 0, 1),
        phase=phase,
        turn=_int(data, "turn", 1, ruleset.max_turns),
        points=_int(data, "points", 0, len(board.cells)),
        attacks=_int(data, "attacks", 0, ruleset.max_attacks_per_phase),
        winner=winner,
        reason=reason,
        turn_attacks=history.attacks_from_json(data.get("turn_attacks"), board),
        turn_points=history.points_from_json(data.get("turn_points"), board),
        last_turns=(white_last, black_last),
        seed=seed,
        board=board,
    )
