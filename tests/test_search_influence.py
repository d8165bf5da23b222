"""Influence's `search` bots: legal, observation-only, repeatable, within budget, and they see
a win that greedy's ranking does not put first."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest
from jsonpath import JSON

from cogs_arena.engines import get_engine
from cogs_arena.engines.influence import search
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.state import InfluenceState
from cogs_arena.engines.protocol import LazyLegalMoves
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import bot_stream

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE
LEVELS = sorted(search.LEVELS)


def _positions(seed: int, count: int) -> list[InfluenceState]:
    """States along a greedy-seeded vs random game on a seeded opening, every few decisions."""
    ruleset = E.ruleset_model.model_validate({"opening": "seeded"})
    state = E.new_game(ruleset, seed)
    bots = E.bots()
    players = (bots["greedy-seeded"], bots["random"])
    out: list[InfluenceState] = []
    decision = 0
    while E.to_act(state) and len(out) < count:
        mover = E.to_act(state)[0]
        if decision % 7 == 3:
            out.append(state)
        menu = LazyLegalMoves(partial(E.legal_moves, state, mover))
        text = players[mover](E.observe(state, mover), menu, bot_stream(seed, mover, decision))
        state = E.apply(state, mover, E.parse_move(state, mover, text))
        decision += 1
    return out


def test_every_level_plays_legal_moves_within_its_budget() -> None:
    """Each level's move over many positions (both phases, both colours) is accepted by the
    engine, and the decision's rollouts never exceed the level's budget."""
    phases: set[str] = set()
    for seed in (1, 2, 3):
        for state in _positions(seed, 12):
            mover = E.to_act(state)[0]
            phases.add(state.phase)
            for level in LEVELS:
                work = search.Work()
                text = search.decide(E.observe(state, mover), level, Stream(seed, "t"), work)
                E.apply(state, mover, E.parse_move(state, mover, text))
                assert 0 < work.rollouts <= search.LEVELS[level].budget or text == "end"
    assert phases == {"attack", "reinforce"}


def test_budgets_grow_with_the_level() -> None:
    """A higher level is never given less work than the one below it."""
    budgets = [search.LEVELS[k].budget for k in LEVELS]
    assert budgets == sorted(budgets) and budgets[0] < budgets[-1]
    assert set(E.bots()) >= {"search", *(f"search:{k}" for k in LEVELS)}


def test_same_seed_same_decision_and_a_seed_is_all_it_draws_from() -> None:
    """Two calls with streams of one seed answer alike (nothing global is drawn)."""
    for state in _positions(4, 6):
        mover = E.to_act(state)[0]
        obs = E.observe(state, mover)
        first = search.decide(obs, 2, Stream(9, "x"))
        assert search.decide(obs, 2, Stream(9, "x")) == first


def test_what_the_seat_is_not_shown_does_not_change_the_decision() -> None:
    """The state keeps the mover's own last turn and this turn's attack records, which its
    observation does not carry: emptying them leaves the decision as it was."""
    checked = 0
    for state in _positions(5, 8):
        mover = E.to_act(state)[0]
        other = replace(
            state,
            turn_attacks=(),
            turn_points=(),
            last_turns=(None, None) if mover == 0 else (state.last_turns[0], None),
        )
        if mover == 0:
            other = replace(other, last_turns=(None, state.last_turns[1]))
        assert other != state or not state.turn_attacks
        for level in (1, 3):
            a = search.decide(E.observe(state, mover), level, Stream(5, "h"))
            b = search.decide(E.observe(other, mover), level, Stream(5, "h"))
            assert a == b
        checked += 1
    assert checked


def test_search_finishes_a_won_game_at_once() -> None:
    """White can take Black's only cell and win at once: every level plays that attack rather
    than ending (which also wins, but a turn later) or expanding first."""
    spec: JSON = {"cells": "rhombus:5", "init": {"2,2": 8, "2,3": -1, "0,0": 8}}
    state = E.new_game(E.ruleset({"map": spec}), 0)
    for level in LEVELS:
        text = search.decide(E.observe(state, 0), level, Stream(0, "w"))
        after = E.apply(state, 0, E.parse_move(state, 0, text))
        assert after.phase == "over" and after.winner == 0, (level, text)


@pytest.mark.slow
def test_top_level_beats_greedy_on_seeded_openings() -> None:
    """search:4 scores more than greedy over 10 games, colours alternating, on seeded openings
    (6.5 of 10 on these seeds; the issue's 80% is measured over a longer `simulate` series,
    docs/benchmarks.md)."""
    from cogs_arena.engines.runner import play_bots

    ruleset = E.ruleset_model.model_validate({"opening": "seeded"})
    wins = 0.0
    for k in range(10):
        bots = ["search:4", "greedy"] if k % 2 == 0 else ["greedy", "search:4"]
        wins += play_bots(E, ruleset, 300 + k, bots).outcome.scores[k % 2]
    assert wins >= 6
