"""The bots: `random` for every game (one draw from the seat's seeded stream per decision, so
it serves any seat, unlike OpenSpiel's own random bot bound to one player id), and OpenSpiel's
MCTS at three budgets (`mcts:20`, `mcts:200`, `mcts:1000` simulations, random rollouts) for
sequential games of perfect information only. MCTS on a simultaneous game made sequential would
read the earlier seat's hidden move, and this OpenSpiel has no information-set MCTS for the
imperfect-information games: there only `random` is offered."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from ..jsonread import ints
from ..protocol import JSON, Bot, LegalMoves
from ..rng import Stream
from .state import action_description, game_from_string, pyspiel

MCTS_BUDGETS = (20, 200, 1000)
UCT_C = 2.0
MEMORY_MB = 256


def random_bot(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    return rng.choice(menu.moves).notation


def mcts_bot(simulations: int, obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    """Rebuilds the position from the observation's public history (a perfect-information game's
    observation holds it all), then searches `simulations` playouts seeded from the stream."""
    if "history" not in obs:
        raise RuntimeError("mcts plays games of perfect information only: this one hides moves")
    game = game_from_string(str(obs["game_string"]))
    inner = game.new_initial_state()
    for action in ints(obs["history"]):
        inner.apply_action(action)
    seed = rng.next_u64() % 2**31
    evaluator = pyspiel().RandomRolloutEvaluator(1, seed)
    bot = pyspiel().MCTSBot(game, evaluator, UCT_C, simulations, MEMORY_MB, True, seed, False)
    action = int(bot.step(inner))
    for info in menu.moves:
        if info.description == action_description(action):
            return info.notation
    raise RuntimeError(f"MCTS chose action {action}, which is not in the menu")


def bots_for(searchable: bool) -> dict[str, Bot]:
    table: dict[str, Bot] = {"random": random_bot}
    if searchable:
        for budget in MCTS_BUDGETS:
            table[f"mcts:{budget}"] = partial(mcts_bot, budget)
    return table
