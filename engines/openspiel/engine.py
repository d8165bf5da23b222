"""`openspiel:<game>`: one engine class per offered OpenSpiel game, derived from the sequential
or the simultaneous base by the game's dynamics. Moves are the game's `action_to_string` texts
(numbered in the menu; the structured form is the action id); chance is drawn from the seeded
stream; the stored state is OpenSpiel's own serialization, and the digest is taken from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, ClassVar

from ..errors import GameOver, IllegalMove, InvalidRuleset, MalformedMove, NotYourTurn
from ..protocol import (
    JSON,
    Bot,
    Engine,
    LegalMoves,
    MoveInfo,
    Outcome,
    SequentialEngine,
    SimultaneousEngine,
)
from . import views
from .bots import bots_for
from .catalog import NOT_OFFERED, OFFERED, OPENSPIEL_VERSION
from .chance import resolve_chance
from .state import OpenSpielRules, OpenSpielState, action_description, load_game, pyspiel

FAMILY = "openspiel"
INSTALL = "pip install '.[openspiel]' (from a checkout)"


@dataclass(frozen=True)
class OpenSpielMove:
    action: int
    text: str
    """The menu's notation of the action: `action_to_string`, made unique where two actions of
    one menu read alike."""
    public: bool = False
    """Whether the others may read the text: in a game of perfect information (as OpenSpiel
    types the game under its parameters) only."""


def _move(state: OpenSpielState, action: int, text: str) -> OpenSpielMove:
    return OpenSpielMove(action, text, views.perfect_information(state.game))


def _menu(state: OpenSpielState, seat: int) -> list[tuple[int, str]]:
    inner = state.inner
    actions = [int(a) for a in inner.legal_actions(seat)]
    texts = [str(inner.action_to_string(seat, a)) for a in actions]
    return [
        (a, t if texts.count(t) == 1 else f"{t} [{a}]") for a, t in zip(actions, texts, strict=True)
    ]


class _OpenSpielGame(Engine[OpenSpielRules, OpenSpielState, OpenSpielMove]):
    """What every OpenSpiel game shares; `short_name` is OpenSpiel's name of the game."""

    short_name: ClassVar[str]
    ruleset_model = OpenSpielRules

    # ---- rulesets and setup -----------------------------------------------------------------

    def ruleset(self, overrides: Mapping[str, JSON] | None = None) -> OpenSpielRules:
        rules = super().ruleset(overrides)
        load_game(self.short_name, rules)
        return rules

    def _seat_names(self, ruleset: OpenSpielRules) -> tuple[str, ...]:
        game = load_game(self.short_name, ruleset)
        return tuple(views.seat_label(i) for i in range(int(game.num_players())))

    def ruleset_of(self, state: OpenSpielState) -> OpenSpielRules:
        return state.rules

    def _new_game(self, ruleset: OpenSpielRules, seed: int | str) -> OpenSpielState:
        game = load_game(self.short_name, ruleset)
        inner = game.new_initial_state()
        draws = resolve_chance(inner, seed, 0)
        return OpenSpielState(ruleset, seed, game, inner, draws)

    # ---- whose turn, what is legal ------------------------------------------------------------

    def to_act(self, state: OpenSpielState) -> tuple[int, ...]:
        inner = state.inner
        if state.settled is not None or inner.is_terminal():
            return ()
        if inner.is_simultaneous_node():
            players = range(int(state.game.num_players()))
            return tuple(p for p in players if len(inner.legal_actions(p)) > 0)
        return (int(inner.current_player()),)

    def _require_turn(self, state: OpenSpielState, seat: int) -> None:
        if not 0 <= seat < int(state.game.num_players()):
            raise NotYourTurn(f"There is no seat {seat}.")
        acting = self.to_act(state)
        if not acting:
            raise GameOver("The game is over.")
        if seat not in acting:
            who = ", ".join(views.seat_label(s) for s in acting)
            raise NotYourTurn(f"It is not {views.seat_label(seat)}'s turn.", allowed=who)

    def legal_moves(self, state: OpenSpielState, seat: int) -> LegalMoves:
        self._require_turn(state, seat)
        return LegalMoves(
            tuple(
                MoveInfo(text, action_description(action), "action")
                for action, text in _menu(state, seat)
            ),
            instructions='Play a move by its text or its number, or as {"action": <id>}.',
        )

    def parse_move(self, state: OpenSpielState, seat: int, text: str) -> OpenSpielMove:
        self._require_turn(state, seat)
        menu = _menu(state, seat)
        wanted = text.strip()
        for action, notation in menu:
            if notation == wanted:
                return _move(state, action, notation)
        folded = [(a, n) for a, n in menu if n.casefold() == wanted.casefold()]
        if len(folded) == 1:
            return _move(state, *folded[0])
        sample = "; ".join(n for _, n in menu[:12]) + ("; …" if len(menu) > 12 else "")
        raise MalformedMove(
            f"{wanted[:80]!r} is not one of {views.seat_label(seat)}'s {len(menu)} legal moves.",
            allowed=sample,
        )

    def move_from_json(self, state: OpenSpielState, seat: int, data: JSON) -> OpenSpielMove:
        self._require_turn(state, seat)
        action = data.get("action") if isinstance(data, Mapping) and len(data) == 1 else None
        if not isinstance(action, int) or isinstance(action, bool):
            raise MalformedMove(
                'A structured OpenSpiel move is {"action": <id>}.', allowed="one integer action id"
            )
        for legal, notation in _menu(state, seat):
            if legal == action:
                return _move(state, legal, notation)
        raise IllegalMove(
            f"Action {action} is not legal for {views.seat_label(seat)} now.",
            allowed=", ".join(str(a) for a, _ in _menu(state, seat)[:20]),
        )

    def move_text(self, move: OpenSpielMove) -> str:
        return move.text

    def move_json(self, move: OpenSpielMove) -> JSON:
        return {"action": move.action}

    def move_schema(self) -> dict[str, JSON]:
        return {
            "title": self.name,
            "description": "One of the seat's legal actions, by its OpenSpiel action id.",
            "type": "object",
            "properties": {"action": {"type": "integer", "description": "an OpenSpiel action id"}},
            "required": ["action"],
            "additionalProperties": False,
        }

    def _check_legal(self, state: OpenSpielState, seat: int, move: OpenSpielMove) -> None:
        self._require_turn(state, seat)
        if (move.action, move.text) not in _menu(state, seat):
            raise IllegalMove(f"{move.text!r} is not legal for {views.seat_label(seat)} now.")

    def default_move(
        self, state: OpenSpielState, seat: int, rejected: OpenSpielMove | None = None
    ) -> OpenSpielMove:
        self._require_turn(state, seat)
        return _move(state, *_menu(state, seat)[0])

    def settle(self, state: OpenSpielState, reason: str) -> OpenSpielState:
        return state if self.outcome(state) is not None else replace(state, settled=reason)

    def _after(self, state: OpenSpielState, inner: Any) -> OpenSpielState:
        draws = resolve_chance(inner, state.seed, state.chance_draws)
        return replace(state, inner=inner, chance_draws=draws)

    # ---- views --------------------------------------------------------------------------------

    def observe(self, state: OpenSpielState, seat: int) -> dict[str, JSON]:
        if not 0 <= seat < int(state.game.num_players()):
            raise NotYourTurn(f"There is no seat {seat}.")
        return views.observe(self.name, state, seat, self.to_act(state))

    def spectate(self, state: OpenSpielState, full: bool) -> dict[str, JSON]:
        return views.spectate(self.name, state, full, self.to_act(state))

    def render(self, view: Mapping[str, JSON]) -> str:
        return views.render(view)

    def picture(self, view: Mapping[str, JSON]) -> str:
        return views.picture(view)

    def visible_move_text(self, move: OpenSpielMove, mover: int, viewer: int | None) -> str | None:
        """In a game of imperfect information a move's text may name what the others may not
        know (a bid, a placement, a card): what they learn of it is in their own observation."""
        return move.text if move.public else None

    def outcome(self, state: OpenSpielState) -> Outcome | None:
        inner = state.inner
        if not inner.is_terminal() and state.settled is None:
            return None
        returns = tuple(float(r) for r in inner.returns())
        return Outcome.from_scores(returns, state.settled or "the game's end")

    # ---- serialisation ------------------------------------------------------------------------

    def state_to_json(self, state: OpenSpielState) -> dict[str, JSON]:
        return {
            "game": self.short_name,
            "params": dict(state.rules.params),
            "seed": state.seed,
            "chance_draws": state.chance_draws,
            "settled": state.settled,
            "serialized": pyspiel().serialize_game_and_state(state.game, state.inner),
        }

    def state_from_json(self, data: Mapping[str, JSON]) -> OpenSpielState:
        if data.get("game") != self.short_name:
            raise InvalidRuleset(f"Not a state of {self.name}: game {data.get('game')!r}.")
        rules = self.ruleset({"params": data.get("params") or {}})
        game = load_game(self.short_name, rules)
        _, inner = pyspiel().deserialize_game_and_state(str(data["serialized"]))
        seed = data["seed"]
        draws, settled = data.get("chance_draws"), data.get("settled")
        if not isinstance(seed, int | str) or not isinstance(draws, int):
            raise InvalidRuleset(f"A {self.name} state needs an int or text seed and a draw count.")
        return OpenSpielState(
            rules, seed, game, inner, draws, None if settled is None else str(settled)
        )

    # ---- bots and documents -------------------------------------------------------------------

    @property
    def _perfect(self) -> bool:
        return views.perfect_information(load_game(self.short_name, OpenSpielRules()))

    def bots(self) -> Mapping[str, Bot]:
        return bots_for(self._perfect and not self.simultaneous)

    def rules_text(self) -> str:
        return rules_text(self)

    def rules_play_text(self, ruleset: OpenSpielRules | None = None) -> str:
        return rules_text(self)


class OpenSpielSequential(
    _OpenSpielGame, SequentialEngine[OpenSpielRules, OpenSpielState, OpenSpielMove]
):
    def apply(self, state: OpenSpielState, seat: int, move: OpenSpielMove) -> OpenSpielState:
        self._check_legal(state, seat, move)
        inner = state.inner.clone()
        inner.apply_action(move.action)
        return self._after(state, inner)


class OpenSpielSimultaneous(
    _OpenSpielGame, SimultaneousEngine[OpenSpielRules, OpenSpielState, OpenSpielMove]
):
    def validate(self, state: OpenSpielState, seat: int, move: OpenSpielMove) -> None:
        self._check_legal(state, seat, move)

    def apply_batch(
        self, state: OpenSpielState, moves: Mapping[int, OpenSpielMove]
    ) -> OpenSpielState:
        acting = self.to_act(state)
        if set(moves) != set(acting):
            raise IllegalMove(
                f"{self.name} needs one move from each of seats {list(acting)}.",
                allowed=", ".join(views.seat_label(s) for s in acting),
            )
        for seat, move in moves.items():
            self._check_legal(state, seat, move)
        inner = state.inner.clone()
        if inner.is_simultaneous_node():
            players = range(int(state.game.num_players()))
            inner.apply_actions(
                [moves[p].action if p in moves else pyspiel().INVALID_ACTION for p in players]
            )
        else:
            inner.apply_action(moves[acting[0]].action)
        return self._after(state, inner)


def rules_text(engine: _OpenSpielGame) -> str:
    game = load_game(engine.short_name, OpenSpielRules())
    kind = game.get_type()
    perfect = views.perfect_information(game)
    players = (
        f"{kind.min_num_players}"
        if kind.min_num_players == kind.max_num_players
        else f"{kind.min_num_players}–{kind.max_num_players}"
    )
    defaults = ", ".join(f"{k}={v}" for k, v in sorted(game.get_parameters().items())) or "none"
    bots = ", ".join(engine.bots())
    bot_kind = (
        "MCTS with random rollouts at that many simulations per move"
        if "mcts:20" in bots
        else "random only: no search here reads only what a seat may see"
    )
    return (
        f"# {kind.long_name} (OpenSpiel `{engine.short_name}`)\n\n"
        f"The game as OpenSpiel {OPENSPIEL_VERSION} implements it: {players} players, "
        f"{'moves made together each turn' if engine.simultaneous else 'one move at a time'}, "
        f"{'perfect' if perfect else 'imperfect'} information"
        f"{', with chance' if kind.chance_mode.name != 'DETERMINISTIC' else ''}.\n\n"
        "- Seats are P0, P1, …; OpenSpiel's own texts name them the same way.\n"
        "- Your view is what OpenSpiel says your player observes"
        f"{'' if perfect else ' (never the others’ private cards, dice, ships or moves)'}.\n"
        "- Moves are OpenSpiel's action texts: `legal_moves` numbers them; play one by its text, "
        'its number, or `{"action": <id>}`.\n'
        "- Chance (deals, dice) is drawn from the game's seed, so a seed repeats the game.\n"
        f"- The score is OpenSpiel's return for each player at the end.\n"
        f"- Parameters (ruleset `params`), with their defaults: {defaults}.\n"
        f"- Bots: {bots} ({bot_kind}).\n"
    )


@cache
def engine_for(short_name: str) -> _OpenSpielGame:
    """The engine of one offered OpenSpiel game (UnknownGame-worthy names are the caller's)."""
    if short_name not in OFFERED:
        reason = NOT_OFFERED.get(short_name, "not an OpenSpiel game")
        raise InvalidRuleset(f"OpenSpiel's {short_name} is not offered: {reason}.")
    game = pyspiel().load_game(short_name)
    kind = game.get_type()
    simultaneous = kind.dynamics == pyspiel().GameType.Dynamics.SIMULTANEOUS
    base: type[_OpenSpielGame] = OpenSpielSimultaneous if simultaneous else OpenSpielSequential
    cls = type(
        f"OpenSpiel_{short_name}",
        (base,),
        {
            "name": f"{FAMILY}:{short_name}",
            "title": f"{kind.long_name} (OpenSpiel)",
            "summary": f"OpenSpiel's {kind.long_name}: {game.num_players()} players by default.",
            "short_name": short_name,
            "__module__": __name__,
        },
    )
    engine: _OpenSpielGame = cls()
    return engine
