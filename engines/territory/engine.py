"""Territory: nine seats paint claims on a hex lattice, raze each other's walls and talk."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from ..errors import GameOver, IllegalMove, NotYourTurn
from ..protocol import JSON, Bot, LegalMoves, Outcome, SeriesNumbers, SimultaneousEngine
from . import picture
from .board import ALIASES, HEARTHS, N_TILES, SEATS, WALL
from .bots import BOTS
from .brief import render_brief
from .menu import menu
from .moves import (
    TerritoryMove,
    clean_talk,
    move_from_json,
    move_json,
    move_text,
    parse_text,
    talk_text,
)
from .news import news
from .numbers import NUMBERS
from .render import render
from .resolve import capped_talk, hold_keeping_talk, queue_talk, resolve
from .rules import check_move, living, pool, talk_count
from .ruleset import TerritoryRuleset
from .schema import MOVE_SCHEMA
from .search import SEARCH_BOTS
from .seeded import SEEDED_BOTS
from .state import ELIMINATED, SeatState, TerritoryState, state_from_json, state_to_json
from .views import observe, spectate


class TerritoryEngine(SimultaneousEngine[TerritoryRuleset, TerritoryState, TerritoryMove]):
    name: ClassVar[str] = "territory"
    title: ClassVar[str] = "Territory"
    summary: ClassVar[str] = (
        "Nine seats claim walls on a hex lattice, raze rivals' walls (permanently) and talk in "
        "public or private; all seats order simultaneously for 18 turns. Score = income earned."
    )
    supports_talk: ClassVar[bool] = True
    view_version: ClassVar[int] = 3
    """2: an eliminated seat's view says it is out (no reach, no talk left), and a submitted
    turn's talk lines count against the talk left the view shows. 3: each seat's `ownRazes`
    (razes of its own tiles, salvage) beside its `razes`."""
    ruleset_model = TerritoryRuleset
    series_numbers: ClassVar[SeriesNumbers | None] = NUMBERS

    # ---- setup ---------------------------------------------------------------------------

    def _seat_names(self, ruleset: TerritoryRuleset) -> tuple[str, ...]:
        return ALIASES

    def ruleset_of(self, state: TerritoryState) -> TerritoryRuleset:
        return state.ruleset

    def _new_game(self, ruleset: TerritoryRuleset, seed: int | str) -> TerritoryState:
        probe = TerritoryState(
            ruleset=ruleset,
            seed=seed,
            turn=1,
            tiles=(WALL,) * N_TILES,
            owner=(-1,) * N_TILES,
            wet=(False,) * N_TILES,
            claimed_turn=(0,) * N_TILES,
            seats=(),
            pool_start=0,
        )
        board = probe.board
        owner = [-1] * N_TILES
        tiles = list(board.states)
        for seat, h in enumerate(HEARTHS):
            owner[h] = seat
            tiles[h] = WALL
        seats = tuple(SeatState(paint=ruleset.starting_paint, banked=0) for _ in range(SEATS))
        state = replace(probe, tiles=tuple(tiles), owner=tuple(owner), seats=seats)
        return replace(state, pool_start=pool(state))

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_act(self, state: TerritoryState) -> tuple[int, ...]:
        return () if state.ended is not None else living(state)

    def _check_seat(self, state: TerritoryState, seat: int) -> None:
        if state.ended is not None:
            raise GameOver(f"The game is over ({state.ended}).")
        if not 0 <= seat < SEATS or state.seats[seat].life == ELIMINATED:
            alive = ", ".join(ALIASES[s] for s in living(state))
            raise NotYourTurn(f"Seat {seat} is not a living seat.", allowed=f"seats {alive}")

    def legal_moves(self, state: TerritoryState, seat: int) -> LegalMoves:
        self._check_seat(state, seat)
        return menu(state, seat)

    def parse_move(self, state: TerritoryState, seat: int, text: str) -> TerritoryMove:
        r = state.ruleset
        return parse_text(text, r.talk_chars, r.note_chars)

    def move_from_json(self, state: TerritoryState, seat: int, data: JSON) -> TerritoryMove:
        r = state.ruleset
        return move_from_json(data, r.talk_chars, r.note_chars)

    def move_text(self, move: TerritoryMove) -> str:
        return move_text(move)

    def move_json(self, move: TerritoryMove) -> JSON:
        return move_json(move)

    def move_schema(self) -> dict[str, JSON]:
        return MOVE_SCHEMA

    def validate(self, state: TerritoryState, seat: int, move: TerritoryMove) -> None:
        self._check_seat(state, seat)
        check_move(state, seat, move)

    # ---- transitions -----------------------------------------------------------------------

    def apply_batch(
        self, state: TerritoryState, moves: Mapping[int, TerritoryMove]
    ) -> TerritoryState:
        if state.ended is not None:
            raise GameOver(f"The game is over ({state.ended}).")
        acting = set(living(state))
        extra = sorted(set(moves) - acting)
        if extra:
            raise NotYourTurn(
                f"Seats {extra} are not living seats.",
                allowed=", ".join(ALIASES[s] for s in sorted(acting)),
            )
        missing = sorted(acting - set(moves))
        if missing:
            raise IllegalMove(
                "Every living seat must submit before the turn resolves; missing "
                + ", ".join(ALIASES[s] for s in missing)
                + "."
            )
        return resolve(state, moves)

    def default_move(
        self, state: TerritoryState, seat: int, rejected: TerritoryMove | None = None
    ) -> TerritoryMove:
        # The rules post the talk of a rejected attempt, so the fallback keeps it.
        return hold_keeping_talk(state, seat, rejected)

    def talk(
        self, state: TerritoryState, seat: int, text: str, to: tuple[int, ...] | None
    ) -> TerritoryState:
        self._check_seat(state, seat)
        if to is not None:
            if len(to) != 1:
                raise IllegalMove(
                    f"A talk line goes to everyone or to exactly one seat, not {len(to)}.",
                    allowed="to = None (public) or one seat alias",
                )
            if not 0 <= to[0] < SEATS:
                raise IllegalMove(f"No seat {to[0]}.", allowed=", ".join(ALIASES))
        line = clean_talk(text, state.ruleset.talk_chars)
        if not line:
            raise IllegalMove("A talk line needs some text.")
        return queue_talk(state, seat, line, None if to is None else to[0])

    def talk_audience(
        self, state: TerritoryState, seat: int, to: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        # T14: a line to oneself or to an eliminated seat is posted publicly.
        if to is None or any(t == seat or state.seats[t].life == ELIMINATED for t in to):
            return None
        return to

    def trimmed(
        self, state: TerritoryState, seat: int, move: TerritoryMove
    ) -> tuple[TerritoryMove, tuple[str, ...]]:
        # T14: lines over the cap are dropped, never the set; resolve would drop the same ones.
        kept = capped_talk(state, seat, move.talk)
        if len(kept) == len(move.talk):
            return move, ()
        cap, queued = state.ruleset.talk_lines, talk_count(state, seat)
        why = f"at most {cap} talk lines per seat per turn" + (
            f", {queued} already queued with talk" if queued else ""
        )
        dropped = tuple(
            f"talk line {i + 1} ({talk_text(t)!r}) dropped: {why}"
            for i, t in enumerate(move.talk)
            if i >= len(kept)
        )
        return TerritoryMove(move.orders, kept, move.note), dropped

    def talk_left(
        self, state: TerritoryState, seat: int, submitted: TerritoryMove | None = None
    ) -> int | None:
        used = talk_count(state, seat) + (0 if submitted is None else len(submitted.talk))
        return max(0, state.ruleset.talk_lines - used)

    def observe_submitted(
        self, state: TerritoryState, seat: int, move: TerritoryMove
    ) -> dict[str, JSON]:
        view = self.observe(state, seat)
        if "talkLinesLeft" in view:
            view["talkLinesLeft"] = self.talk_left(state, seat, move)
        return view

    def out(self, state: TerritoryState, seat: int) -> str | None:
        if state.ended is not None or state.seats[seat].life != ELIMINATED:
            return None
        return f"{ALIASES[seat]} was eliminated on turn {state.seats[seat].eliminated_turn}"

    def queued_talk(
        self, state: TerritoryState
    ) -> tuple[tuple[int, tuple[int, ...] | None, str], ...]:
        # Resolve posts every queued line (step "talk"); T14's public DMs were made so at queueing.
        return tuple((t.frm, None if t.to is None else (t.to,), t.text) for t in state.pending_talk)

    def private_lines(self, move: TerritoryMove) -> tuple[tuple[int, ...], ...]:
        return tuple((t.to,) for t in move.talk if t.to is not None)

    def settle(self, state: TerritoryState, reason: str) -> TerritoryState:
        if state.ended is not None:
            return state
        return replace(state, ended=reason, pending_talk=())

    # ---- views -----------------------------------------------------------------------------

    def observe(self, state: TerritoryState, seat: int) -> dict[str, JSON]:
        if not 0 <= seat < SEATS:
            raise NotYourTurn(f"No seat {seat}.", allowed="seats 0..8")
        return observe(state, seat, self._outcome_json(state))

    def spectate(self, state: TerritoryState, full: bool) -> dict[str, JSON]:
        return spectate(state, full, self._outcome_json(state))

    def render(self, view: Mapping[str, JSON]) -> str:
        return render(view)

    def render_brief(self, view: Mapping[str, JSON]) -> str:
        return render_brief(view)

    def picture(self, view: Mapping[str, JSON]) -> str:
        return picture.picture(view)

    def visible_move_text(self, move: TerritoryMove, mover: int, viewer: int | None) -> str | None:
        if viewer == mover:
            return move_text(move)
        # Orders are public once resolved; private lines only reach their recipient, notes
        # only their author.
        shown = TerritoryMove(
            move.orders,
            tuple(t for t in move.talk if t.to is None or (viewer is not None and t.to == viewer)),
            None,
        )
        return move_text(shown)

    def _outcome_json(self, state: TerritoryState) -> JSON:
        result = self.outcome(state)
        return None if result is None else result.to_json()

    def news(self, before: TerritoryState, after: TerritoryState) -> tuple[str, ...]:
        return news(before, after)

    def outcome(self, state: TerritoryState) -> Outcome | None:
        if state.ended is None:
            return None
        scores = tuple(float(s.banked) for s in state.seats)
        order = sorted(
            range(SEATS), key=lambda i: (-state.seats[i].banked, state.seats[i].razes, i)
        )
        details: dict[str, JSON] = {
            "aliases": list(ALIASES),
            "razes": [s.razes for s in state.seats],
            "salvage": [s.salvage for s in state.seats],
            "life": [("steady", "staggered", "eliminated")[s.life] for s in state.seats],
            "turnsPlayed": state.reports[0].turn if state.reports else 0,
            "poolStart": state.pool_start,
            "poolEnd": pool(state),
            "displayOrder": [ALIASES[i] for i in order],
        }
        return Outcome.from_scores(scores, state.ended, details)

    # ---- serialisation ---------------------------------------------------------------------

    def state_to_json(self, state: TerritoryState) -> dict[str, JSON]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, JSON]) -> TerritoryState:
        return state_from_json(data)

    # ---- bots ------------------------------------------------------------------------------

    def bots(self) -> Mapping[str, Bot]:
        return _BOTS


# The seeded twins stay last (tests/test_seeded_bots.py).
_BOTS: Mapping[str, Bot] = {**BOTS, **SEARCH_BOTS, **SEEDED_BOTS}
