"""Influence custom maps (influence.md §1.1, §3, §6; DECISIONS I6) and ruleset settings."""

from __future__ import annotations

from typing import Any

import pytest
from jsonpath import JSON, arr

from cogs_arena.engines import IllegalMove, InvalidRuleset, get_engine
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.ruleset import InfluenceRuleset
from cogs_arena.engines.runner import play_bots

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE

# A 4×6 rhombus with a two-hex hole in the middle and two big cells.
HOLE = {(1, 2), (2, 3)}
MAP: dict[str, Any] = {
    "cells": [[r, c] for r in range(4) for c in range(6) if (r, c) not in HOLE],
    "big": [[1, 1], [3, 5]],
    "init": {"1,1": 12, "3,5": -9, "0,5": -2},
}


def test_custom_map_cells_walls_big_cells_and_start_values() -> None:
    state = E.new_game(E.ruleset({"map": MAP}), 3)
    board = state.board
    assert len(board.cells) == 22
    assert HOLE.isdisjoint(board.cells)
    assert set(board.walls) == HOLE
    assert board.cap((1, 1)) == 12 and board.cap((3, 5)) == 12 and board.cap((0, 0)) == 8
    assert state.values[board.index[(1, 1)]] == 12
    assert state.values[board.index[(3, 5)]] == -9
    assert state.values[board.index[(0, 5)]] == -2
    assert sum(1 for v in state.values if v) == 3


def test_walls_block_adjacency_and_attacks() -> None:
    state = E.new_game(E.ruleset({"map": MAP}), 3)
    board = state.board
    around = {board.cells[j] for j in board.neighbours[board.index[(1, 1)]]}
    # (1,2) is a hole: the other five neighbours remain.
    assert around == {(1, 0), (0, 1), (2, 1), (0, 0), (2, 2)}
    notations = [m.notation for m in E.legal_moves(state, 0).moves]
    assert "1,1>1,2" not in notations and "1,1>1,0" in notations
    with pytest.raises(IllegalMove, match="wall"):
        E.apply(state, 0, E.parse_move(state, 0, "1,1>1,2"))


def test_walls_are_not_counted_or_reinforceable() -> None:
    spec = {**MAP, "init": {"1,1": 10, "3,5": -9, "0,5": -2}}
    state = E.new_game(E.ruleset({"map": spec}), 3)
    view = E.observe(state, 0)
    assert view["area"] == {"White": 1, "Black": 2}
    assert view["value"] == {"White": 10, "Black": 11}
    assert view["origin"] == [0, 0]
    grid = [arr(row) for row in arr(view["grid"])]
    walls = {(k, m) for k, row in enumerate(grid) for m, v in enumerate(row) if v is None}
    assert walls == HOLE
    assert grid[1][1] == 10 and grid[3][5] == -9
    reinforcing = E.apply(state, 0, E.parse_move(state, 0, "end"))
    assert reinforcing.phase == "reinforce"
    with pytest.raises(IllegalMove, match="wall"):
        E.apply(reinforcing, 0, E.parse_move(reinforcing, 0, "+1,2"))


def test_rhombus_shorthand_and_holes_anywhere() -> None:
    spec: JSON = {"cells": "rhombus:3", "init": {"0,0": 2, "2,2": -2}}
    state = E.new_game(E.ruleset({"map": spec}), 0)
    assert len(state.board.cells) == 9 and state.board.walls == ()
    # No connectivity requirement (I6): two islands are a valid map.
    islands: JSON = {"cells": [[0, 0], [0, 1], [5, 5], [5, 6]], "init": {"0,0": 3, "5,5": -3}}
    state = E.new_game(E.ruleset({"map": islands}), 0)
    assert len(state.board.walls) == 6 * 7 - 4  # rows 0..5, cols 0..6


def test_bots_finish_a_game_on_a_custom_map() -> None:
    ruleset = E.ruleset({"map": MAP, "max_turns": 30})
    game = play_bots(E, ruleset, 4, ["greedy", "random"])
    assert game.outcome.reason in {"elimination", "move_limit"}


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ({"cells": "rhombus:5", "init": {"7,7": 3, "0,0": -1}}, "cell 7,7 is not on the board"),
        (
            {"cells": [[0, 0], [0, 1], [0, 2]], "init": {"0,0": 1, "0,2": -1, "1,1": 2}},
            "cell 1,1 is not on the board",
        ),
        ({"cells": "rhombus:5", "init": {"1,1": 9, "0,0": -1}}, "|9| exceeds the cap 8"),
        (
            {"cells": "rhombus:5", "big": [[1, 1]], "init": {"1,1": -13, "0,0": 1}},
            "|-13| exceeds the cap 12 of big cell 1,1",
        ),
        ({"cells": "rhombus:5", "init": {"1,1": 3}}, "Black has no starting cell"),
        ({"cells": "rhombus:5", "init": {"1,1": -3}}, "White has no starting cell"),
        ({"cells": "rhombus:5", "init": {"1,1": 3, "2,2": 0}}, "Black has no starting cell"),
        ({"cells": "rhombus:5"}, "White has no starting cell"),
        ({"cells": "hexagon:5", "init": {"0,0": 1, "1,1": -1}}, "rhombus:N"),
        ({"cells": "rhombus:99", "init": {"0,0": 1, "1,1": -1}}, "outside 2..40"),
        ({"cells": [[0, 0], [0, 0]], "init": {"0,0": 1}}, "cell 0,0 is listed twice"),
        ({"cells": [[0, -1], [0, 0]], "init": {"0,0": 1}}, "outside rows/cols 0..99"),
        ({"cells": [[0, "a"], [0, 0]], "init": {"0,0": 1}}, "cells[0]"),
        ({"cells": "rhombus:5", "init": {"1;1": 3, "0,0": -1}}, "not of the form"),
        ({"cells": "rhombus:5", "init": {"1,1": "x", "0,0": -1}}, "not an integer"),
        ({"cells": "rhombus:5", "init": {"1,1": 1, " 1 ,1": 2, "0,0": -1}}, "given twice"),
        ({"cells": "rhombus:5", "init": [[1, 1, 3]]}, "init: expected an object"),
        ({"cells": "rhombus:5", "big": [[9, 9]], "init": {"0,0": 1, "1,1": -1}}, "big[0]"),
        ({"init": {"0,0": 1, "1,1": -1}}, "cells: missing"),
        ({"cells": "rhombus:5", "walls": [], "init": {"0,0": 1, "1,1": -1}}, "unknown map key"),
    ],
)
def test_invalid_maps_are_rejected_with_a_reason(spec: dict[str, Any], reason: str) -> None:
    with pytest.raises(InvalidRuleset) as info:
        E.ruleset({"map": spec})
    assert reason in str(info.value)


def test_ruleset_defaults_and_ranges() -> None:
    ruleset = E.ruleset()
    assert isinstance(ruleset, InfluenceRuleset)
    assert (ruleset.size, ruleset.map, ruleset.max_turns, ruleset.max_attacks_per_phase) == (
        11,
        None,
        100,
        500,
    )
    for bad in [{"size": 3}, {"max_turns": 0}, {"max_attacks_per_phase": 0}, {"colour": 1}]:
        with pytest.raises(InvalidRuleset):
            E.ruleset(bad)
    with pytest.raises(InvalidRuleset, match="size applies only to the default board"):
        E.ruleset({"size": 7, "map": MAP})


def test_same_map_shares_one_board() -> None:
    a = E.new_game(E.ruleset({"map": MAP}), 1)
    b = E.new_game(E.ruleset({"map": dict(MAP)}), 2)
    assert a.board is b.board
    assert a.board.map_id.startswith("custom:") and a.board.map_id != "rhombus:11"
