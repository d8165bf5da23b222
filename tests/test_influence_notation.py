"""Influence move notation, parse errors, JSON forms, state round trip, views and rendering."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from jsonpath import JSON, arr, ints

from cogs_arena.engines import MalformedMove, get_engine
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.moves import END, Attack, Reinforce
from cogs_arena.engines.runner import play_bots

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE
START = E.new_game(E.ruleset(), 0)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9,1>8,1", "9,1>8,1"),
        ("  9, 1 > 8 ,1 ", "9,1>8,1"),
        ("(9,1) -> (8,1)", "9,1>8,1"),
        ("`9,1→8,1`", "9,1>8,1"),
        ("end", "end"),
        ("END", "end"),
        ("end_attack", "end"),
        ("End Attacks", "end"),
        ("done", "end"),
        ("+9,1", "+9,1"),
        ("+ 9 , 1", "+9,1"),
        ("+9,1:3 +8,2:2", "+8,2:2 +9,1:3"),
        ("+9,1:3; +8,2:2", "+8,2:2 +9,1:3"),
        ("+9,1, +9,1", "+9,1:2"),
        ("+(9,1):1", "+9,1"),
        ('{"9,1": 3, "8,2": 2}', "+8,2:2 +9,1:3"),
    ],
)
def test_parse_variants_read_to_canonical_text(text: str, canonical: str) -> None:
    move = E.parse_move(START, 0, text)
    assert E.move_text(move) == canonical
    assert E.parse_move(START, 0, canonical) == move


def test_move_values() -> None:
    assert E.parse_move(START, 0, "9,1>8,1") == Attack((9, 1), (8, 1))
    assert E.parse_move(START, 0, "end") == END
    move = E.parse_move(START, 0, "+9,1:3 +8,2")
    assert move == Reinforce((((8, 2), 1), ((9, 1), 3)))
    assert isinstance(move, Reinforce) and move.total == 4 and not move.single
    single = E.parse_move(START, 0, "+9,1")
    assert isinstance(single, Reinforce) and single.single


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "empty"),
        ("attack", "not a known move"),
        ("9,1", "prefix `+`"),
        ("9,1>8,1 8,1>7,1", "exactly one"),
        ("9,1>", "exactly one"),
        ("+9,1:0", "at least 1"),
        ("+9,1 9,2", "not of the form"),
        ("+9;1", "not of the form"),
        ("+9,1:999999", "far too many"),
        ("{9,1: 3}", "not a JSON object"),
        ('{"9,1": 0}', "integer ≥ 1"),
        ("{}", "empty"),
    ],
)
def test_malformed_moves_explain_the_syntax(text: str, hint: str) -> None:
    with pytest.raises(MalformedMove) as info:
        E.parse_move(START, 0, text)
    message = str(info.value)
    assert hint in message
    assert "9,1>8,1" in message and "+9,1:3 +8,2:2" in message  # the syntax with examples


@pytest.mark.parametrize("text", ["9,1>8,1", "end", "+9,1", "+8,2:2 +9,1:3"])
def test_json_form_round_trips(text: str) -> None:
    move = E.parse_move(START, 0, text)
    data = json.loads(json.dumps(E.move_json(move)))
    assert E.move_from_json(START, 0, data) == move


def test_json_form_variants_and_errors() -> None:
    attack: JSON = {"kind": "attack", "from": "9,1", "to": [8, 1]}
    assert E.move_text(E.move_from_json(START, 0, attack)) == "9,1>8,1"
    assert E.move_text(E.move_from_json(START, 0, "end")) == "end"
    alloc: JSON = {"kind": "reinforce", "cells": [[9, 1, 2]]}
    assert E.move_text(E.move_from_json(START, 0, alloc)) == "+9,1:2"
    bads: list[JSON] = [
        {"kind": "fly"},
        {"kind": "attack", "from": [9], "to": [8, 1]},
        {"kind": "reinforce", "cells": {"9,1": -1}},
        [1, 2],
    ]
    for bad in bads:
        with pytest.raises(MalformedMove):
            E.move_from_json(START, 0, bad)


def test_state_json_round_trip_mid_game() -> None:
    game = play_bots(E, E.ruleset(), 2, ["greedy", "random"])
    state = E.new_game(E.ruleset(), 2)
    for seat, text in game.moves[:57]:
        state = E.apply(state, seat, E.parse_move(state, seat, text))
    data = json.loads(json.dumps(E.state_to_json(state)))
    restored = E.state_from_json(data)
    assert restored == state
    assert E.digest(restored) == E.digest(state)
    assert E.legal_moves(restored, restored.mover) == E.legal_moves(state, state.mover)


def test_state_json_round_trip_custom_map_and_finished_game() -> None:
    spec: JSON = {"cells": "rhombus:4", "big": [[0, 0]], "init": {"0,0": 12, "3,3": -1}}
    state = E.new_game(E.ruleset({"map": spec, "max_turns": 9}), 0)
    over = E.settle(state, "deadline")
    for s in (state, over):
        restored = E.state_from_json(json.loads(json.dumps(E.state_to_json(s))))
        assert E.digest(restored) == E.digest(s) and restored == s
    assert E.outcome(E.state_from_json(E.state_to_json(over))) == E.outcome(over)


def test_state_from_json_rejects_a_corrupt_state() -> None:
    data = E.state_to_json(START)
    corrupt: list[tuple[str, JSON]] = [
        ("values", [0] * 3),
        ("phase", "dance"),
        ("mover", 2),
        ("turn", 0),
    ]
    for key, value in corrupt:
        with pytest.raises(ValueError):
            E.state_from_json({**data, key: value})
    values = list(START.values)
    values[0] = 9
    with pytest.raises(ValueError):
        E.state_from_json({**data, "values": values})


def test_state_from_json_refuses_a_winner_that_is_no_seat() -> None:
    """JSON's `true` and `1.0` equal seat 1 in Python (a bool is an int) but are no seat: the
    loader refuses them, and still takes 0, 1 and null."""
    over = E.state_to_json(E.settle(START, "deadline"))
    for winner in (True, False, 1.0, 0.0, "1", 2):
        with pytest.raises(ValueError, match="winner must be 0, 1 or null"):
            E.state_from_json({**over, "winner": winner})
    for seat in (0, 1, None):
        assert E.state_from_json({**over, "winner": seat}).winner == seat


def test_digest_changes_with_the_state_and_not_with_the_seed() -> None:
    assert E.digest(E.new_game(E.ruleset(), 1)) == E.digest(E.new_game(E.ruleset(), 2))
    after = E.apply(START, 0, E.parse_move(START, 0, "9,1>8,1"))
    assert E.digest(after) != E.digest(START)


def test_observation_holds_the_whole_board_and_the_legal_attacks() -> None:
    view = E.observe(START, 0)
    json.dumps(view)
    assert view["you"] == "White" and view["to_move"] == "White" and view["phase"] == "attack"
    assert view["origin"] == [0, 0]
    grid = [ints(row) for row in arr(view["grid"])]
    assert grid[9][1] == 5 and grid[1][9] == -7
    assert [len(row) for row in grid] == [11] * 11
    assert sum(1 for row in grid for v in row if v) == 2
    assert view["area"] == {"White": 1, "Black": 1}
    assert view["value"] == {"White": 5, "Black": 7}
    expected = [m.notation for m in E.legal_moves(START, 0).moves if m.kind == "attack"]
    assert view["legal_attacks"] == expected and len(expected) == 6
    assert E.observe(START, 1)["legal_attacks"] == []
    spectator = E.spectate(START, full=True)
    assert "legal_attacks" not in spectator and spectator["seat"] is None
    assert {k: v for k, v in view.items() if k not in {"seat", "you", "legal_attacks"}} == {
        k: v for k, v in spectator.items() if k not in {"seat", "you"}
    }


def test_render_draws_an_offset_hex_board() -> None:
    spec: JSON = {
        "cells": [[r, c] for r in range(3) for c in range(3) if (r, c) != (1, 1)],
        "big": [[0, 0]],
        "init": {"0,0": 12, "2,2": -7, "2,0": 3},
    }
    state = E.new_game(E.ruleset({"map": spec}), 0)
    text = E.render(E.observe(state, 0))
    lines = text.splitlines()
    rows = {line.split()[1]: line for line in lines if line.startswith("row ")}
    assert set(rows) == {"0", "1", "2"}
    assert "W12*" in rows["0"] and "#" in rows["1"] and "B7" in rows["2"] and "W3" in rows["2"]
    # x = c − r/2: the same column moves half a cell (2 characters) left per row down.
    # Tokens are right-aligned in their field, so compare where they end.
    assert (rows["0"].index("W12") + 3) - (rows["2"].index("W3") + 2) == 4
    assert (rows["1"].index("#") + 1) - (rows["2"].index(".") + 1) == 2
    assert any(line.strip().startswith("col:") for line in lines)
    assert "turn 1 of 100" in text and "attack phase" in text and "you (White)" in text
    assert "Legend" in text and "big cell" in text
    assert "0,0> 0,1  1,0" in text  # legal attacks grouped by source
    spectator = E.render(E.spectate(state, full=False))
    assert "you" not in spectator.split("\n")[1] and "Your legal attacks" not in spectator


def test_render_reinforce_phase_and_game_over() -> None:
    reinforcing = E.apply(START, 0, E.parse_move(START, 0, "end"))
    text = E.render(E.observe(reinforcing, 0))
    assert "reinforce phase; 1 point(s) left" in text and "+9,1:3 +8,2:2" in text
    over = E.settle(replace(START), "deadline")
    text = E.render(E.spectate(over, full=True))
    assert "Game over: a draw (deadline)" in text


def test_render_says_when_points_exceed_the_room_below_caps() -> None:
    spec: JSON = {"cells": "rhombus:4", "init": {"1,1": 8, "1,2": 7, "0,0": 8, "3,3": -1}}
    state = E.new_game(E.ruleset({"map": spec}), 0)
    reinforcing = E.apply(state, 0, E.parse_move(state, 0, "end"))
    view = E.observe(reinforcing, 0)
    assert view["points_left"] == 3 and view["spendable"] == 1
    text = E.render(view)
    assert "3 point(s) left to spend (only 1 fit below the caps)" in text
    assert "totalling 1" in text
