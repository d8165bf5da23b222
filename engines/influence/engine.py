"""Influence as an `Engine`: two seats, White (0, moves first) and Black (1); a turn is an attack
phase of single attacks ended by `end`, then a reinforce phase of single points or one whole
allocation. Deterministic: the seed is unused by the rules; it only draws the board of a seeded
opening (I7, opening.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from ..errors import GameOver, IllegalMove, NotYourTurn
from ..protocol import JSON, Bot, LegalMoves, Outcome, SequentialEngine, SeriesNumbers
from . import bots as bot_module
from . import moves as notation
from . import picture, rules, views
from .menu import menu
from .moves import END, Attack, EndAttacks, Move, Reinforce
from .news import news
from .numbers import NUMBERS
from .render import render, render_brief
from .ruleset import InfluenceRuleset
from .schema import MOVE_SCHEMA
from .search import search_bots
from .state import SEAT_NAMES, InfluenceState
from .state import state_from_json as _state_from_json
from .state import state_to_json as _state_to_json


class InfluenceEngine(SequentialEngine[InfluenceRuleset, InfluenceState, Move]):
    name: ClassVar[str] = "influence"
    title: ClassVar[str] = "Influence"
    summary: ClassVar[str] = (
        "Two-player territory game on a hex board: attack neighbouring cells, then reinforce "
        "your cells with one point per cell you own. Deterministic."
    )
    fallback_ends_turn: ClassVar[bool] = True
    supports_talk: ClassVar[bool] = False
    view_version: ClassVar[int] = 3
    """2: `end` has no news (version 1 repeated the previous turn's capture after it).
    3: a finished game's seat view shows the turn that ended it (2: the other seat's last)."""
    ruleset_model = InfluenceRuleset
    series_numbers: ClassVar[SeriesNumbers | None] = NUMBERS

    # ---- rulesets and setup -------------------------------------------------------------

    def _seat_names(self, ruleset: InfluenceRuleset) -> tuple[str, ...]:
        return SEAT_NAMES

    def ruleset_of(self, state: InfluenceState) -> InfluenceRuleset:
        return state.ruleset

    def _default_seat(self, ruleset: InfluenceRuleset, seed: int | str) -> int:
        """DECISIONS I10: the caller's colour alternates by seed parity (even seeds White)."""
        number = (
            seed if isinstance(seed, int) else int(hashlib.sha256(seed.encode()).hexdigest(), 16)
        )
        return number % 2

    def _new_game(self, ruleset: InfluenceRuleset, seed: int | str) -> InfluenceState:
        rs = ruleset
        drawn = seed if rs.opening == "seeded" else None
        board = rs.board(drawn)
        return InfluenceState(
            ruleset=rs,
            values=board.init,
            mover=0,
            phase="attack",
            turn=1,
            points=0,
            attacks=0,
            seed=drawn,
            board=board,
        )

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_act(self, state: InfluenceState) -> tuple[int, ...]:
        return () if state.phase == "over" else (state.mover,)

    def _check_turn(self, state: InfluenceState, seat: int) -> None:
        if state.phase == "over":
            raise GameOver("The game is over.", allowed="no moves")
        if seat != state.mover:
            name = SEAT_NAMES[seat] if seat in (0, 1) else f"seat {seat}"
            raise NotYourTurn(
                f"It is {SEAT_NAMES[state.mover]}'s turn, not {name}'s.",
                allowed=f"wait for {SEAT_NAMES[state.mover]} (seat {state.mover})",
            )

    def legal_moves(self, state: InfluenceState, seat: int) -> LegalMoves:
        self._check_turn(state, seat)
        return menu(state, seat)

    def parse_move(self, state: InfluenceState, seat: int, text: str) -> Move:
        return notation.parse_move(text)

    def move_from_json(self, state: InfluenceState, seat: int, data: JSON) -> Move:
        return notation.move_from_json(data)

    def move_text(self, move: Move) -> str:
        return notation.move_text(move)

    def move_json(self, move: Move) -> JSON:
        return notation.move_json(move)

    def move_schema(self) -> dict[str, JSON]:
        return MOVE_SCHEMA

    # ---- transitions -----------------------------------------------------------------------

    def apply(self, state: InfluenceState, seat: int, move: Move) -> InfluenceState:
        self._check_turn(state, seat)
        if state.phase == "attack":
            if isinstance(move, Attack):
                return rules.attack(state, move)
            if isinstance(move, EndAttacks):
                return rules.end_attacks(state)
            raise IllegalMove(
                f"{notation.move_text(move)}: it is the attack phase; reinforcement comes after "
                "`end`.",
                allowed="an attack `row,col>row,col` or `end`",
            )
        if isinstance(move, Reinforce):
            return rules.reinforce(state, move)
        raise IllegalMove(
            f"{notation.move_text(move)}: it is the reinforce phase; the attack phase is over.",
            allowed=(
                f"`+row,col` or a full allocation of "
                f"{min(state.points, rules.headroom(state, seat))} point(s)"
            ),
        )

    def default_move(self, state: InfluenceState, seat: int, rejected: Move | None = None) -> Move:
        """Attack phase: `end`. Reinforce phase: I3's deterministic allocation of every point
        left (lowest strength first, ties by (row, col))."""
        self._check_turn(state, seat)
        if state.phase == "attack":
            return END
        return rules.default_allocation(state)

    def settle(self, state: InfluenceState, reason: str) -> InfluenceState:
        """Ends the game now. The side with more area wins; equal area is a draw (area is what
        the game's economy runs on: it is each turn's reinforcement)."""
        if state.phase == "over":
            raise GameOver("The game is already over.", allowed="no moves")
        return replace(
            state, phase="over", winner=rules.settle_scores(state), reason=reason, points=0
        )

    # ---- views -----------------------------------------------------------------------------

    def observe(self, state: InfluenceState, seat: int) -> dict[str, JSON]:
        if seat not in (0, 1):
            raise NotYourTurn(f"There is no seat {seat}.", allowed="0 (White), 1 (Black)")
        return views.view(state, seat, self._outcome_json(state))

    def spectate(self, state: InfluenceState, full: bool) -> dict[str, JSON]:
        return views.view(state, None, self._outcome_json(state))

    def render(self, view: Mapping[str, JSON]) -> str:
        return render(view)

    def render_brief(self, view: Mapping[str, JSON]) -> str:
        return render_brief(view)

    def picture(self, view: Mapping[str, JSON]) -> str:
        return picture.picture(view)

    def _outcome_json(self, state: InfluenceState) -> JSON:
        outcome = self.outcome(state)
        return None if outcome is None else outcome.to_json()

    def news(self, before: InfluenceState, after: InfluenceState) -> tuple[str, ...]:
        return news(before, after)

    def outcome(self, state: InfluenceState) -> Outcome | None:
        if state.phase != "over":
            return None
        if state.winner is None:
            scores = (0.5, 0.5)
        else:
            scores = (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
        details: dict[str, JSON] = {
            "winner": None if state.winner is None else SEAT_NAMES[state.winner],
            "turn": state.turn,
            "area": {name: rules.area(state, s) for s, name in enumerate(SEAT_NAMES)},
            "value": {name: rules.value(state, s) for s, name in enumerate(SEAT_NAMES)},
        }
        return Outcome.from_scores(scores, state.reason or "over", details)

    # ---- serialisation ---------------------------------------------------------------------

    def state_to_json(self, state: InfluenceState) -> dict[str, JSON]:
        return _state_to_json(state)

    def state_from_json(self, data: Mapping[str, JSON]) -> InfluenceState:
        return _state_from_json(data)

    # ---- bots ------------------------------------------------------------------------------

    def bots(self) -> Mapping[str, Bot]:
        table = bot_module.bots()
        plain = {name: bot for name, bot in table.items() if not name.endswith("-seeded")}
        seeded = {name: bot for name, bot in table.items() if name.endswith("-seeded")}
        # The seeded twins stay last (tests/test_seeded_bots.py); search draws from its stream.
        return {**plain, **search_bots(), **seeded}
