"""Positions reached by bots from a seed: the fixed examples that pictures, golden files and
the README are drawn from."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from .protocol import LazyLegalMoves
from .registry import AnyEngine
from .runner import bot_stream


def position(engine: AnyEngine, seed: int, bots: Sequence[str], decisions: int) -> Any:
    """The state after `decisions` decisions (a batch counts once) of a new game with the
    default ruleset, bots[seat % len(bots)] choosing for each seat; earlier if the game ends."""
    table = engine.bots()
    state = engine.new_game(engine.ruleset({}), seed)
    for decision in range(decisions):
        seats = engine.to_act(state)
        if not seats:
            break
        chosen = {}
        for seat in seats:
            bot = table[bots[seat % len(bots)]]
            menu = LazyLegalMoves(partial(engine.legal_moves, state, seat))
            text = bot(engine.observe(state, seat), menu, bot_stream(seed, seat, decision))
            chosen[seat] = engine.parse_move(state, seat, text)
        if engine.simultaneous:
            state = engine.apply_batch(state, chosen)
        else:
            state = engine.apply(state, seats[0], chosen[seats[0]])
    return state


EXAMPLE_SEED = 7
EXAMPLE_BOTS: dict[str, tuple[str, ...]] = {
    "influence": ("greedy", "random"),
    "territory": ("homesteader", "raider", "diplomat"),
    "chemistry": ("courier", "freeloader"),
    "blending": ("builder",),
}
EXAMPLE_DECISIONS: dict[str, int] = {
    "influence": 150,
    "territory": 9,
    "chemistry": 4,
    "blending": 300,
}
"""Where each game's mid-game example stands: Black has just attacked in Influence (turn 7),
razes have cracked tiles in Territory (turn 10), food lies in Chemistry (tick 240), guardians
stand and a blend is laid in Blending (round 7)."""


def example(engine: AnyEngine, mid: bool = True) -> Any:
    """The game's example position: its start, or its mid-game position."""
    decisions = EXAMPLE_DECISIONS[engine.name] if mid else 0
    return position(engine, EXAMPLE_SEED, EXAMPLE_BOTS[engine.name], decisions)
