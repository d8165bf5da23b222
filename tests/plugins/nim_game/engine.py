"""The whole plugin: a ruleset, a state, and the engine with its bots."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cogs_arena.engines import GameOver, IllegalMove, MalformedMove, NotYourTurn
from cogs_arena.engines.protocol import (
    Bot,
    LegalMoves,
    MoveInfo,
    Outcome,
    Ruleset,
    SequentialEngine,
)
from cogs_arena.engines.rng import Stream


class NimRules(Ruleset):
    stones: int = 15
    most: int = 3


@dataclass(frozen=True)
class Nim:
    rules: NimRules
    left: int
    turn: int = 0
    winner: int | None = None
    settled: str | None = None


def _random(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    return rng.choice(menu.moves).notation


def _perfect(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    """Leaves a multiple of most+1 where it can."""
    take = int(obs["left"]) % (int(obs["most"]) + 1)
    return f"take {take}" if take else menu.moves[0].notation


class NimEngine(SequentialEngine[NimRules, Nim, int]):
    name = "nim"
    title = "Nim"
    summary = "Take 1 to 3 stones; whoever takes the last stone wins."
    ruleset_model = NimRules

    def _seat_names(self, ruleset: NimRules) -> tuple[str, ...]:
        return ("First", "Second")

    def ruleset_of(self, state: Nim) -> NimRules:
        return state.rules

    def _new_game(self, ruleset: NimRules, seed: int | str) -> Nim:
        return Nim(ruleset, ruleset.stones)

    def to_act(self, state: Nim) -> tuple[int, ...]:
        return () if self.outcome(state) else (state.turn,)

    def _check(self, state: Nim, seat: int) -> None:
        if not self.to_act(state):
            raise GameOver("The game is over.")
        if seat != state.turn:
            raise NotYourTurn(f"It is seat {state.turn}'s turn.")

    def legal_moves(self, state: Nim, seat: int) -> LegalMoves:
        self._check(state, seat)
        most = min(state.rules.most, state.left)
        return LegalMoves(
            tuple(MoveInfo(f"take {n}", f"take {n} stones", "take") for n in range(1, most + 1))
        )

    def parse_move(self, state: Nim, seat: int, text: str) -> int:
        self._check(state, seat)
        word, _, count = text.strip().partition(" ")
        if word != "take" or not count.isdigit():
            raise MalformedMove(f"{text[:40]!r} is not a move.", allowed="take N")
        return int(count)

    def move_from_json(self, state: Nim, seat: int, data: Any) -> int:
        self._check(state, seat)
        if not isinstance(data, dict) or not isinstance(data.get("take"), int):
            raise MalformedMove("A structured move is {'take': N}.")
        return int(data["take"])

    def move_text(self, move: int) -> str:
        return f"take {move}"

    def move_json(self, move: int) -> Any:
        return {"take": move}

    def apply(self, state: Nim, seat: int, move: int) -> Nim:
        self._check(state, seat)
        if not 1 <= move <= min(state.rules.most, state.left):
            raise IllegalMove(
                f"Cannot take {move}.", allowed=f"1..{min(state.rules.most, state.left)}"
            )
        left = state.left - move
        return Nim(state.rules, left, 1 - seat, seat if left == 0 else None)

    def default_move(self, state: Nim, seat: int, rejected: int | None = None) -> int:
        return 1

    def settle(self, state: Nim, reason: str) -> Nim:
        return Nim(state.rules, state.left, state.turn, state.winner, reason)

    def observe(self, state: Nim, seat: int) -> dict[str, Any]:
        return self.spectate(state, False) | {"seat": seat}

    def spectate(self, state: Nim, full: bool) -> dict[str, Any]:
        return {
            "left": state.left,
            "most": state.rules.most,
            "turn": state.turn,
            "winner": state.winner,
            "seat": None,
        }

    def render(self, view: Mapping[str, Any]) -> str:
        return f"{view['left']} stones left; seat {view['turn']} takes 1 to {view['most']}."

    def picture(self, view: Mapping[str, Any]) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{view["left"]}</text></svg>'

    def outcome(self, state: Nim) -> Outcome | None:
        if state.winner is None and state.settled is None:
            return None
        scores = tuple(1.0 if seat == state.winner else 0.0 for seat in (0, 1))
        return Outcome.from_scores(scores, state.settled or "took the last stone")

    def state_to_json(self, state: Nim) -> dict[str, Any]:
        return {
            "rules": state.rules.model_dump(),
            "left": state.left,
            "turn": state.turn,
            "winner": state.winner,
            "settled": state.settled,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> Nim:
        return Nim(
            NimRules(**data["rules"]), data["left"], data["turn"], data["winner"], data["settled"]
        )

    def bots(self) -> Mapping[str, Bot]:
        return {"random": _random, "perfect": _perfect}

    def rules_text(self) -> str:
        return "# Nim\n\nTake 1 to `most` stones in turn; whoever takes the last stone wins.\n"
