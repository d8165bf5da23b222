"""The Chemistry engine: eight cogs, standing orders per shift, a 720-tick reaction room."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from ..errors import GameOver, IllegalMove, MalformedMove, NotYourTurn
from ..protocol import JSON, Bot, LegalMoves, Outcome, SeriesNumbers, SimultaneousEngine
from ..rng import Stream
from . import moves as mv
from . import picture
from .bots import BOTS
from .brief import render_brief
from .frames import frame_record
from .menu import menu
from .moves import Action, Move, Order
from .news import news
from .numbers import NUMBERS
from .porter import PORTER_BOTS, SEEDED_PORTER_BOTS
from .render import render
from .room import ALIASES, HOMES, VATS
from .rules import SEATS, Room
from .ruleset import ChemistryRuleset
from .schema import MOVE_SCHEMA
from .search import SEARCH_BOTS
from .seeded import SEEDED_BOTS
from .state import ChemState, Cog, Counters, Vat, state_from_json, state_to_json
from .trip import own_cog
from .views import room_view


class ChemistryEngine(SimultaneousEngine[ChemistryRuleset, ChemState, Move]):
    name: ClassVar[str] = "chemistry"
    title: ClassVar[str] = "Chemistry"
    summary: ClassVar[str] = (
        "Eight couriers carry feedstock from vents to reaction vats under standing orders set "
        "once per shift; reactions spill food on the vats' rings, and score is food eaten."
    )
    talk_refused: ClassVar[str | None] = (
        "Chemistry has one talk channel, the `say:` line of your order (at most 80 characters, "
        "longer is cut; every seat reads it at the next shift), so the talk tool is refused. "
        "Nothing was sent."
    )
    ruleset_model = ChemistryRuleset
    series_numbers: ClassVar[SeriesNumbers | None] = NUMBERS
    supports_talk: ClassVar[bool] = False
    rules_version: ClassVar[int] = 2
    """2: the kernel and order intake of DECISIONS C24 (rules.md C24): supply's nearest approach
    cell, hoarding from home, ignored fields, cut text, the pad stall, the reference's ranges."""

    # ---- rulesets and setup -------------------------------------------------------------

    def _seat_names(self, ruleset: ChemistryRuleset) -> tuple[str, ...]:
        return ALIASES

    def ruleset_of(self, state: ChemState) -> ChemistryRuleset:
        return state.ruleset

    def _new_game(self, ruleset: ChemistryRuleset, seed: int | str) -> ChemState:
        rs = ruleset
        zeros = (0,) * SEATS
        return ChemState(
            ruleset=rs,
            seed=seed,
            tick=0,
            shifts_done=0,
            cogs=tuple(Cog(h) for h in HOMES),
            molecules=(),
            food=(),
            vats=tuple(Vat(v, rs.charge0) for v in rs.vats),
            last=(None,) * SEATS,
            notes=("",) * SEATS,
            counters=Counters(zeros, zeros, zeros, zeros),
        )

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_act(self, state: ChemState) -> tuple[int, ...]:
        return () if state.ended is not None else tuple(range(SEATS))

    def _check_seat(self, state: ChemState, seat: int) -> None:
        if state.ended is not None:
            raise GameOver("The game is over.", allowed="no moves")
        if not 0 <= seat < SEATS:
            raise NotYourTurn(f"There is no seat {seat}.", allowed=f"seats 0..{SEATS - 1}")

    def legal_moves(self, state: ChemState, seat: int) -> LegalMoves:
        self._check_seat(state, seat)
        return menu(state, seat)

    def _clamp(self, state: ChemState, order: Order) -> Order:
        """C7: a vat absent from the variant becomes the present vat with the lowest charge."""
        if order.reactor is None or order.reactor in state.ruleset.vats:
            return order
        lowest = min(state.vats, key=lambda v: (v.charge, v.vat))
        notice = (
            f"{VATS[order.reactor]} is not in this variant: the order goes to the coldest "
            f"present vat, {VATS[lowest.vat]}."
        )
        return replace(order, reactor=lowest.vat, notices=(*order.notices, notice))

    def _finish(self, state: ChemState, move: Move) -> Move:
        if state.ruleset.control == "ticks":
            if not isinstance(move, Action):
                raise IllegalMove(
                    "This room runs under `control: ticks`: send one raw action.",
                    allowed=mv.ACTION_SYNTAX,
                )
            return move
        if not isinstance(move, Order):
            raise IllegalMove("Send a standing order, not a raw action.", allowed=mv.ORDER_SYNTAX)
        move = mv.drop_unused(move)
        mv.check_order(state.ruleset, move)
        return self._clamp(state, move)

    def parse_move(self, state: ChemState, seat: int, text: str) -> Move:
        if not isinstance(text, str):
            raise MalformedMove("A move is a text.", allowed=mv.ORDER_SYNTAX)
        if state.ruleset.control == "ticks":
            return mv.parse_action(text)
        return self._finish(state, mv.parse_order(text))

    def move_from_json(self, state: ChemState, seat: int, data: JSON) -> Move:
        if state.ruleset.control == "ticks":
            return mv.action_from_json(data)
        return self._finish(state, mv.order_from_json(data))

    def move_text(self, move: Move) -> str:
        return mv.move_text(move)

    def move_notices(self, move: Move) -> tuple[str, ...]:
        return move.notices if isinstance(move, Order) else ()

    def move_json(self, move: Move) -> JSON:
        return mv.move_json(move)

    def move_schema(self) -> dict[str, JSON]:
        return MOVE_SCHEMA

    def visible_move_text(self, move: Move, mover: int, viewer: int | None) -> str | None:
        return mv.move_text(move, with_notes=viewer == mover)

    def validate(self, state: ChemState, seat: int, move: Move) -> None:
        self._check_seat(state, seat)
        self._finish(state, move)

    # ---- transitions -----------------------------------------------------------------------

    def apply_batch(self, state: ChemState, moves: Mapping[int, Move]) -> ChemState:
        if state.ended is not None:
            raise GameOver("The game is over.", allowed="no moves")
        extra = sorted(set(moves) - set(range(SEATS)))
        if extra:
            raise NotYourTurn(f"Seats {extra} do not exist.", allowed=f"seats 0..{SEATS - 1}")
        missing = [s for s in range(SEATS) if s not in moves]
        if missing:
            raise IllegalMove(
                f"Every seat must submit; missing seats {missing}.", allowed="one move per seat"
            )
        chosen = tuple(self._finish(state, moves[s]) for s in range(SEATS))
        rs = state.ruleset
        room = Room(state)
        if rs.control == "ticks":
            room.run_tick(None, [m.code for m in chosen if isinstance(m, Action)])
            notes = state.notes
        else:
            # The notices were for the seat's answer; the state keeps the order alone.
            chosen = tuple(replace(m, notices=()) if isinstance(m, Order) else m for m in chosen)
            orders = [m if isinstance(m, Order) else None for m in chosen]
            while True:
                room.run_tick(orders, None)
                if room.tick % rs.ticks_per_shift == 0:
                    break
            notes = tuple(
                state.notes[s] if o is None or o.notes is None else o.notes
                for s, o in enumerate(orders)
            )
        out = room.freeze(replace(state, last=chosen, notes=notes))
        if out.tick % rs.ticks_per_shift == 0:
            out = self._close_shift(out)
        return out

    def _close_shift(self, state: ChemState) -> ChemState:
        rs = state.ruleset
        done = state.shifts_done + 1
        if done >= rs.shifts:
            return replace(state, shifts_done=done, ended="complete", ending="shift_limit")
        streak = state.cold_streak + 1 if all(v.charge == 0 for v in state.vats) else 0
        if streak >= 3 and not state.food:
            return replace(
                state, shifts_done=done, cold_streak=streak, ended="complete", ending="famine"
            )
        return replace(state, shifts_done=done, cold_streak=streak)

    def default_move(self, state: ChemState, seat: int, rejected: Move | None = None) -> Move:
        """The courier order (or, under ticks, the courier kernel's action) for this seat."""
        self._check_seat(state, seat)
        view = self.observe(state, seat)
        text = BOTS["courier"](view, self.legal_moves(state, seat), Stream(0, "unused"))
        return self.parse_move(state, seat, text)

    def settle(self, state: ChemState, reason: str) -> ChemState:
        if state.ended is not None:
            return state
        return replace(state, ended=reason, ending=reason)

    # ---- views -----------------------------------------------------------------------------

    def observe(self, state: ChemState, seat: int) -> dict[str, JSON]:
        if not 0 <= seat < SEATS:
            raise NotYourTurn(f"There is no seat {seat}.", allowed=f"seats 0..{SEATS - 1}")
        view = room_view(state)
        view["seat"] = seat
        view["alias"] = ALIASES[seat]
        view["notes"] = state.notes[seat]
        report = view.get("report")
        if isinstance(report, dict):
            report["own_cog"] = own_cog(state, seat)
        view["menu"] = (
            []
            if state.ended is not None
            else [m.notation for m in self.legal_moves(state, seat).moves]
        )
        return view

    def spectate(self, state: ChemState, full: bool) -> dict[str, JSON]:
        view = room_view(state)
        if full:
            view["all_notes"] = {ALIASES[i]: n for i, n in enumerate(state.notes)}
        return view

    def render(self, view: Mapping[str, JSON]) -> str:
        return render(view)

    def render_brief(self, view: Mapping[str, JSON]) -> str:
        return render_brief(view)

    def picture(self, view: Mapping[str, JSON]) -> str:
        return picture.picture(view)

    def news(self, before: ChemState, after: ChemState) -> tuple[str, ...]:
        return news(before, after)

    def outcome(self, state: ChemState) -> Outcome | None:
        if state.ended is None:
            return None
        c = state.counters
        scores = tuple(float(0 if state.ended == "forfeit" else e) for e in c.eaten)
        details: dict[str, JSON] = {
            "ending": state.ending,
            "variant": state.ruleset.variant,
            "food_eaten": sum(c.eaten),
            "eaten": list(c.eaten),
            "delivered": sum(c.delivered),
            "delivered_by_seat": list(c.delivered),
            "misdrops": sum(c.misdrops),
            "misdrops_by_seat": list(c.misdrops),
            "hoarded": sum(c.hoarded),
            "hoarded_by_seat": list(c.hoarded),
            "reactions": c.reactions,
            "food_made": c.food_made,
            "food_rotted": c.food_rotted,
            "food_spoiled": c.food_spoiled,
            "cold_starts": c.cold_starts,
            "cold_events": c.cold_events,
            "shifts": state.shifts_done,
            "ticks": state.tick,
            "final_charges": {VATS[v.vat]: v.charge for v in state.vats},
        }
        return Outcome.from_scores(scores, state.ended, details)

    # ---- serialisation ---------------------------------------------------------------------

    def state_to_json(self, state: ChemState) -> dict[str, JSON]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, JSON]) -> ChemState:
        return state_from_json(data)

    def frames(self, state: ChemState) -> dict[str, Any]:
        """The replay record: the opening room and one delta-encoded line per tick."""
        return frame_record(state)

    # ---- bots ------------------------------------------------------------------------------

    def bots(self) -> Mapping[str, Bot]:
        return _BOTS


_BOTS: Mapping[str, Bot] = {
    **BOTS,
    **PORTER_BOTS,
    **SEARCH_BOTS,
    **SEEDED_BOTS,
    **SEEDED_PORTER_BOTS,
}
