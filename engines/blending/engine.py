"""Blending as an Engine: a sequential game whose turn is a dialog of several moves by one seat.

Seats 0..players-1 take the Warrior (home Mountain), Amazon (Forest) and Mage (Plains) in turn.
`to_act` names the one seat whose decision it is: each seat's setup walk in seat order, then each
turn's steps, placements, main action, fight steps and the end-of-turn discard.

Move notation (see moves.py for the full table), with examples:
    walk N | move 2,-1 | place t17 3,-1 | place t42 2,-2 r90 | more t4 | fight G2 |
    bolster t4 G2 | guardian | swap | pick t4 | done | skip | lay t5@2 slice | flip | stop |
    discard t4 | end
A blend's square is the top-left square of the 2x2 block it covers; its rotation is clockwise.
Menu entry kinds: setup, move, placement, more, fight, bolster, guardian, swap, pick, done, skip,
lay, flip, stop, discard, end. Placement entries name one tile per face (the lowest id).
The fallback move (DECISIONS §5.3, "pass plus bot discard") is `end`, or `stop` in a fight,
`skip` in a rebuild, `done` in a swap with picks, the first free direction in setup, and the
bot's choice of tile where one must be picked or discarded (tiles that fit nowhere first).
The rules summary for players, notation table included, is the end of rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..errors import GameOver, IllegalMove, NotYourTurn
from ..protocol import JSON, Bot, LegalMoves, Outcome, SequentialEngine, SeriesNumbers
from . import brief, edits, match, picture, rules, views
from . import moves as mv
from .board import spot_pattern
from .bots import BOTS
from .eras.dispatch import era_apply, era_default, era_prompt, era_rules, menu_of
from .moves import Move
from .news import news
from .numbers import NUMBERS
from .odds import PASS_TEXT, lay_hints
from .render import render
from .ruleset import BlendingRules
from .schema import MOVE_SCHEMA
from .scoring import breakdown, totals
from .search import search_bots
from .seeded import SEEDED_BOTS
from .state import State, from_json, to_json
from .tile_choice import worst_tile
from .tiles import CLASS_NAME, fits, pips

INSTRUCTIONS = (
    "Your turn is a dialog: send one move at a time until you 'end'. Draw happens by itself. "
    "In any order: steps ('move X,Y', home land costs 1/3 of a step), placements (1 anywhere, or "
    "up to 3 near your hero; 'place tID X,Y' for a single, 'place tID X,Y rROT' for a blend over "
    "the 2x2 block with top-left X,Y), and one main action (more / fight / bolster / guardian / "
    "swap). In a fight: 'lay tID@POS KIND' for each pair you want (each lay shows its win / tie / "
    "loss odds, also in hints.lay_odds), then 'flip' one by one, or 'stop' ("
    + PASS_TEXT
    + "). Any tile with the same face as a listed one may be named instead."
)


class BlendingEngine(SequentialEngine[BlendingRules, State, Move]):
    name: ClassVar[str] = "blending"
    title: ClassVar[str] = "Blending"
    summary: ClassVar[str] = (
        "Lay land tiles, walk your hero, raise guardians on estates and fight rival guardians "
        "with a rock-paper-scissors match; 10 rounds, estates score at the end."
    )
    fallback_ends_turn: ClassVar[bool] = True
    supports_talk: ClassVar[bool] = False
    view_version: ClassVar[int] = 3
    """2: each guardian lists its estate (the 3x3 it guards). 3: the view gives `near_count`
    (how many tiles may go near the hero in a turn)."""
    ruleset_model = BlendingRules
    series_numbers: ClassVar[SeriesNumbers | None] = NUMBERS

    # ---- setup ---------------------------------------------------------------------------

    def _seat_names(self, ruleset: BlendingRules) -> tuple[str, ...]:
        return tuple(f"{CLASS_NAME[i % 3]} {i}" for i in range(ruleset.players))

    def ruleset_of(self, state: State) -> BlendingRules:
        return state.rules

    def _new_game(self, ruleset: BlendingRules, seed: int | str) -> State:
        return rules.new_game(ruleset, seed)

    # ---- whose turn, what is legal -------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.phase == "over" else (state.seat,)

    def _check_seat(self, state: State, seat: int) -> None:
        if state.phase == "over":
            raise GameOver("The game is over.", allowed="nothing")
        if seat != state.seat:
            raise NotYourTurn(
                f"It is seat {state.seat}'s decision, not seat {seat}'s.", allowed="wait"
            )

    def legal_moves(self, state: State, seat: int) -> LegalMoves:
        self._check_seat(state, seat)
        return LegalMoves(
            tuple(menu_of(state)),
            complete=True,
            hints=lay_hints(state),
            instructions=INSTRUCTIONS,
        )

    def parse_move(self, state: State, seat: int, text: str) -> Move:
        return self._fill(state, mv.parse(text))

    def move_from_json(self, state: State, seat: int, data: JSON) -> Move:
        return self._fill(state, mv.from_json(data))

    def _fill(self, state: State, m: Move) -> Move:
        """Singles take no rotation; a blend named without one gets the only one that fits."""
        if m.verb != "place" or not 1 <= m.tile <= len(state.faces):
            return Move(**{**m.__dict__, "rot": -1}) if m.rot == -2 else m
        face = state.faces[m.tile - 1]
        if pips(face) == 1:
            return Move(**{**m.__dict__, "rot": -1})
        if m.rot == -2:
            x, y = m.x, m.y
            spot = spot_pattern(state.squares, (x, y))
            rot = 0 if spot is None else fits(face, state.rules.triple_match).get(spot, 0)
            return Move(**{**m.__dict__, "rot": rot})
        return m

    def move_text(self, move: Move) -> str:
        return mv.text(move)

    def move_json(self, move: Move) -> JSON:
        return mv.to_json(move)

    def move_schema(self) -> dict[str, JSON]:
        return MOVE_SCHEMA

    # ---- transitions ---------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Move) -> State:
        self._check_seat(state, seat)
        try:
            return self._apply(state, move)
        except IllegalMove as exc:
            raise IllegalMove(exc.message, allowed=_suggest(state, move, exc.allowed)) from None

    def _apply(self, state: State, move: Move) -> State:
        if (era := era_apply(state, move)) is not None:
            return era
        phase, verb = state.phase, move.verb
        allowed_verbs = {
            "walk": ("walk",),
            "turn": ("move", "place", "more", "fight", "bolster", "guardian", "swap", "end"),
            "pick": ("pick", "done", "skip"),
            "fight": ("lay", "flip", "stop"),
            "loss": ("discard",),
            "discard": ("discard",),
        }[phase]
        if verb not in allowed_verbs:
            raise IllegalMove(
                f"'{verb}' is not possible now ({_phase_text(state)}).",
                allowed=", ".join(allowed_verbs),
            )
        if phase == "walk":
            return rules.do_walk(state, move)
        if phase == "turn":
            if verb == "move":
                return rules.do_step(state, move)
            if verb == "place":
                return rules.do_place(state, move)
            if verb == "more":
                return rules.do_more(state, move)
            if verb == "fight":
                return match.do_fight(state, move)
            if verb == "bolster":
                return rules.do_bolster(state, move)
            if verb == "guardian":
                return rules.do_guardian(state)
            if verb == "swap":
                return rules.do_swap(state)
            return rules.do_end(state)
        if phase == "pick":
            if verb == "pick":
                return rules.do_pick(state, move)
            if verb == "done":
                return rules.do_done(state)
            return rules.do_skip(state)
        if phase == "fight":
            if verb == "lay":
                return match.do_lay(state, move)
            if verb == "flip":
                return match.do_flip(state)
            return match.do_stop(state)
        if phase == "loss":
            return match.do_loss_discard(state, move)
        return rules.do_limit_discard(state, move)

    def default_move(self, state: State, seat: int, rejected: Move | None = None) -> Move:
        phase = state.phase
        hand = state.hands[state.seat]
        if (era := era_default(state)) is not None:
            return era
        if phase == "walk":
            return Move("walk", dir=rules.walk_choices(state)[0])
        if phase == "turn":
            return Move("end")
        if phase == "fight":
            return Move("stop")
        if phase == "pick":
            if state.pick_for == "rebuild":
                return Move("skip")
            if state.pick_for == "swap" and state.picked:
                return Move("done")
            return Move("pick", tile=worst_tile(state.faces, hand, edits.home(state.seat)))
        if phase in ("loss", "discard"):
            return Move("discard", tile=worst_tile(state.faces, hand, edits.home(state.seat)))
        raise GameOver("The game is over.", allowed="nothing")

    def settle(self, state: State, reason: str) -> State:
        return rules.settle(state, reason)

    # ---- views ---------------------------------------------------------------------------

    def observe(self, state: State, seat: int) -> dict[str, JSON]:
        return views.view(state, seat, full=False)

    def spectate(self, state: State, full: bool) -> dict[str, JSON]:
        return views.view(state, None, full=full)

    def render(self, view: Mapping[str, JSON]) -> str:
        return render(view)

    def render_brief(self, view: Mapping[str, JSON]) -> str:
        return brief.render_brief(view)

    def picture(self, view: Mapping[str, JSON]) -> str:
        return picture.picture(view)

    def visible_move_text(self, move: Move, mover: int, viewer: int | None) -> str | None:
        """Every move shows tiles going face up, except a pick: a picked tile is face down until
        its guardian stands or its swap is done (and a skipped rebuild takes picks back)."""
        if move.verb == "pick" and viewer != mover:
            return "pick (a tile from hand)"
        return mv.text(move)

    def news(self, before: State, after: State) -> tuple[str, ...]:
        return news(before, after)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = totals(state)
        parts = breakdown(state)
        return Outcome.from_scores(
            tuple(float(x) for x in scores),
            state.ended,
            {"land": [p["land"] for p in parts], "blends": [p["blends"] for p in parts]},
        )

    # ---- serialisation -------------------------------------------------------------------

    def state_to_json(self, state: State) -> dict[str, JSON]:
        return to_json(state)

    def state_from_json(self, data: Mapping[str, JSON]) -> State:
        return from_json(data)

    def bots(self) -> Mapping[str, Bot]:
        return _BOTS

    def _era_text(self, text: str, ruleset: BlendingRules) -> str:
        """A player document (the rules, the seat prompt) rewritten for the ruleset's era."""
        if text.startswith("# You are playing Blending"):
            return era_prompt(text, ruleset)
        return era_rules(text, ruleset)


def _suggest(state: State, move: Move, fallback: str | None) -> str:
    """What an LLM should try instead: menu entries like the rejected move (same verb, and the
    same tile where there is one), else the whole menu's first entries."""
    menu = [m.notation for m in menu_of(state)]
    prefix = move.verb + (f" t{move.tile} " if move.tile else " ")
    alike = [n for n in menu if n.startswith(prefix)] or [
        n for n in menu if n.split()[0] == move.verb
    ]
    pool = alike or menu
    shown = ", ".join(pool[:10])
    more = f" (and {len(pool) - 10} more in legal_moves)" if len(pool) > 10 else ""
    head = "" if alike else f"{fallback}; your menu now: " if fallback else "your menu now: "
    return f"{head}{shown}{more}"


def _phase_text(state: State) -> str:
    return {
        "walk": "choose your setup walk",
        "turn": "your turn: steps, placements, a main action or end",
        "pick": f"picking tiles ({state.pick_for})",
        "fight": "in a fight: lay, flip or stop",
        "loss": "you lost a pair: discard one tile",
        "discard": "discard down to the hand limit",
    }.get(state.phase, state.phase)


_BOTS: Mapping[str, Bot] = {**BOTS, **search_bots(BlendingEngine()), **SEEDED_BOTS}
