"""Influence bots: greedy must beat random in at least 90% of 200 seeded games."""

from __future__ import annotations

import pytest
from jsonpath import JSON

from cogs_arena.engines import get_engine
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.moves import Reinforce
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE


@pytest.mark.slow
def test_greedy_beats_random_in_90_percent_of_200_games() -> None:
    ruleset = E.ruleset()
    wins = 0
    reasons: dict[str, int] = {}
    for seed in range(200):
        greedy_seat = seed % 2
        bots = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        game = play_bots(E, ruleset, seed, bots)
        reasons[game.outcome.reason] = reasons.get(game.outcome.reason, 0) + 1
        if game.outcome.winners == (greedy_seat,):
            wins += 1
    assert wins >= 180, f"greedy won {wins}/200 ({reasons})"


def test_bot_reinforcements_are_whole_legal_allocations() -> None:
    state = E.new_game(E.ruleset(), 0)
    state = E.apply(state, 0, E.parse_move(state, 0, "9,1>8,1"))
    state = E.apply(state, 0, E.parse_move(state, 0, "end"))
    assert state.points == 2
    for name, bot in E.bots().items():
        text = bot(E.observe(state, 0), E.legal_moves(state, 0), Stream(0, name))
        move = E.parse_move(state, 0, text)
        assert isinstance(move, Reinforce) and move.total == 2, name
        assert E.move_text(move) == text
        after = E.apply(state, 0, move)
        assert after.mover == 1 and after.phase == "attack"


def test_greedy_takes_the_best_capture_and_ends_when_nothing_pays() -> None:
    spec: JSON = {"cells": "rhombus:4", "init": {"1,1": 6, "1,2": -5, "2,1": -2, "3,3": -1}}
    state = E.new_game(E.ruleset({"map": spec}), 0)
    greedy = E.bots()["greedy"]
    text = greedy(E.observe(state, 0), E.legal_moves(state, 0), Stream(0, "g"))
    assert text == "1,1>1,2"  # killing the strong enemy cell beats the weak one and empties
    own_ones = {key: 1 for key in ["0,0", "0,1", "1,0", "2,1", "2,2"]}
    weak: JSON = {"cells": "rhombus:4", "init": {"1,1": 2, "1,2": -5, "0,2": -1, **own_ones}}
    state = E.new_game(E.ruleset({"map": weak}), 0)
    assert greedy(E.observe(state, 0), E.legal_moves(state, 0), Stream(0, "g")) == "end"
