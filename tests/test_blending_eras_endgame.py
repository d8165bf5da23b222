"""The game's end across eras (blending.md §6, B17/B19, BE1/BE2): 'rounds' (the default) and the
old 'last_tile' ending, with the discard pile reshuffled 'always' or 'never'."""

from __future__ import annotations

from collections import Counter

import pytest
from jsonpath import at

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.moves import Move
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import Scenario, build
from cogs_arena.engines.blending.state import State, to_json
from cogs_arena.engines.protocol import Engine
from cogs_arena.engines.runner import play_bots

E: Engine[BlendingRules, State, Move] = get_engine("blending")


def play(s: State, text: str) -> State:
    return E.apply(s, s.seat, E.parse_move(s, s.seat, text))


def scene(rules: BlendingRules, stock: int, discard: int) -> State:
    s = build(Scenario(squares={(1, 0): "M"}, hands={0: ["FFFF"]}, heroes={0: (1, 0)}), rules)
    s = s.clone()
    s.discard = s.stock[: len(s.stock) - stock][:discard]
    s.stock = s.stock[len(s.stock) - stock :]
    return s


def finish_round(s: State) -> State:
    """Every seat ends its turn until seat 0 is to act again (or the game is over)."""
    while True:
        s = E.apply(s, s.seat, E.default_move(s, s.seat))
        if s.phase == "over" or (s.seat == 0 and s.phase == "turn"):
            return s


def test_default_game_records_no_era_fields() -> None:
    s = E.new_game(E.ruleset(), 1)
    data = to_json(s)
    assert "endgame" not in data["rules"] and "last_round" not in data
    assert "endgame" not in E.observe(s, 0)
    assert E.state_from_json(data).rules == s.rules
    other = E.new_game(E.ruleset({"endgame": "last_tile"}), 1)
    assert to_json(other)["rules"]["endgame"] == "last_tile"
    assert E.state_from_json(to_json(other)).rules.endgame == "last_tile"


def test_last_tile_never_reshuffled_ends_with_the_round_it_is_drawn() -> None:
    rules = BlendingRules(endgame="last_tile", last_tile_reshuffle="never")
    s = scene(rules, stock=2, discard=5)
    s = play(s, "end")  # seat 1 draws the last 2 tiles; the 5 discards never come back
    assert s.seat == 1 and len(s.hands[1]) == 2 and s.stock == () and len(s.discard) == 5
    assert s.last_round and s.stats.reshuffles == 0
    assert at(E.observe(s, 0), "endgame", "last_round") is True
    assert "this round is the last" in E.render(E.observe(s, 0))
    s = finish_round(s)
    assert s.phase == "over" and s.ended == "last_tile" and s.round == 1
    outcome = E.outcome(s)
    assert outcome is not None and outcome.reason == "last_tile"


def test_last_tile_with_reshuffle_waits_for_an_empty_discard_pile() -> None:
    rules = BlendingRules(endgame="last_tile")
    s = play(scene(rules, stock=1, discard=4), "end")
    assert s.stats.reshuffles == 1 and not s.last_round  # the discard pile refilled the stock
    s = play(scene(rules, stock=1, discard=0), "end")
    assert s.last_round and len(s.hands[1]) == 1  # the last tile, nothing to refill it
    assert finish_round(s).ended == "last_tile"


def test_never_reshuffle_under_rounds_just_draws_nothing() -> None:
    rules = BlendingRules(last_tile_reshuffle="never")
    s = play(scene(rules, stock=0, discard=6), "end")
    assert s.hands[1] == () and len(s.discard) == 6 and s.stats.draws_lost == 3
    assert not s.last_round and s.phase == "turn"  # 'rounds' still ends after end_rounds


def test_the_round_cap_ends_a_last_tile_game() -> None:
    s = E.new_game(E.ruleset({"endgame": "last_tile", "last_tile_cap": 2, "players": 2}), 4)
    turns: Counter[int] = Counter()
    while E.to_act(s):
        move = E.default_move(s, s.seat)
        turns[s.seat] += move.verb == "end"
        s = E.apply(s, s.seat, move)
    assert s.ended == "round_cap" and dict(turns) == {0: 2, 1: 2}


@pytest.mark.parametrize("reshuffle", ["always", "never"])
def test_bots_play_to_the_last_tile(reshuffle: str) -> None:
    rules = E.ruleset({"endgame": "last_tile", "last_tile_reshuffle": reshuffle})
    game = play_bots(E, rules, 3, ["builder"] * 4)
    assert game.state.ended in ("last_tile", "round_cap")
    rounds = len(game.state.stats.round_scores)
    assert rounds == game.state.round  # every seat finished the last round
    if reshuffle == "never":
        assert game.state.ended == "last_tile" and game.state.stats.reshuffles == 0
