"""Influence rules, influence.md §1–§5 and DECISIONS §3 (I1–I5, I8, I9, I12)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from cogs_arena.engines import GameOver, IllegalMove, NotYourTurn, get_engine
from cogs_arena.engines.influence.board import DIRECTIONS, hex_distance
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.state import InfluenceState

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE

Cell = tuple[int, int]


def setup(
    init: Mapping[Cell, int],
    *,
    cells: Any = "rhombus:5",
    big: Iterable[Cell] = (),
    mover: int = 0,
    phase: str = "attack",
    points: int = 0,
    **settings: Any,
) -> InfluenceState:
    spec = {
        "cells": cells,
        "big": [list(c) for c in big],
        "init": {f"{r},{c}": v for (r, c), v in init.items()},
    }
    state = E.new_game(E.ruleset({"map": spec, **settings}), 0)
    return replace(state, mover=mover, phase=phase, points=points)  # type: ignore[arg-type]


def play(state: InfluenceState, seat: int, text: str) -> InfluenceState:
    return E.apply(state, seat, E.parse_move(state, seat, text))


def val(state: InfluenceState, r: int, c: int) -> int:
    return state.values[state.board.index[(r, c)]]


def menu(state: InfluenceState, seat: int | None = None) -> list[str]:
    """The menu's notations without the whole-allocation entries (test_influence_turns.py)."""
    moves = E.legal_moves(state, state.mover if seat is None else seat).moves
    return [m.notation for m in moves if m.kind != "reinforce_all"]


# ---- §1 board ---------------------------------------------------------------------------------


def test_neighbour_vectors_are_the_six_of_the_rules() -> None:
    assert set(DIRECTIONS) == {(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)}
    board = E.new_game(E.ruleset(), 0).board
    inner = board.index[(5, 5)]
    got = {board.cells[j] for j in board.neighbours[inner]}
    assert got == {(5, 6), (5, 4), (6, 5), (4, 5), (6, 6), (4, 4)}
    corner = {board.cells[j] for j in board.neighbours[board.index[(0, 0)]]}
    assert corner == {(0, 1), (1, 0), (1, 1)}
    other_corner = {board.cells[j] for j in board.neighbours[board.index[(0, 10)]]}
    assert other_corner == {(0, 9), (1, 10)}


def test_neighbours_touch_on_the_drawing_and_have_distance_one() -> None:
    def centre(cell: Cell) -> tuple[float, float]:
        return cell[1] - cell[0] / 2, cell[0] * math.sqrt(3) / 2

    for dr, dc in DIRECTIONS:
        (x1, y1), (x2, y2) = centre((5, 5)), centre((5 + dr, 5 + dc))
        assert math.isclose(math.hypot(x2 - x1, y2 - y1), 1.0)
        assert hex_distance((5, 5), (5 + dr, 5 + dc)) == 1
    for dr, dc in [(1, -1), (-1, 1)]:
        assert hex_distance((5, 5), (5 + dr, 5 + dc)) == 2
        assert (dr, dc) not in DIRECTIONS


def test_default_board_and_setup() -> None:
    state = E.new_game(E.ruleset(), 7)
    assert len(state.board.cells) == 121
    assert set(state.board.caps) == {8}
    assert val(state, 9, 1) == 5 and val(state, 1, 9) == -7
    assert sum(1 for v in state.values if v) == 2
    assert E.to_act(state) == (0,)
    assert state.phase == "attack" and state.turn == 1
    assert E.seat_names(E.ruleset()) == ("White", "Black")


def test_default_board_size_setting_places_the_starts_by_offset() -> None:
    state = E.new_game(E.ruleset({"size": 6}), 0)
    assert len(state.board.cells) == 36
    assert val(state, 4, 1) == 5 and val(state, 1, 4) == -7


# ---- §4.1 attack legality -----------------------------------------------------------------------


def test_menu_is_exactly_the_legal_attacks_plus_end() -> None:
    state = setup({(2, 2): 3, (2, 3): 1, (1, 1): -4, (3, 3): 2, (0, 0): 1})
    expected = set()
    own = {cell for cell in state.board.cells if val(state, *cell) > 0}
    for cell in own:
        if val(state, *cell) < 2:
            continue
        for dr, dc in DIRECTIONS:
            target = (cell[0] + dr, cell[1] + dc)
            if target in state.board.index and val(state, *target) <= 0:
                expected.add(f"{cell[0]},{cell[1]}>{target[0]},{target[1]}")
    got = menu(state)
    assert got[-1] == "end"
    assert set(got[:-1]) == expected
    assert "2,3>2,4" not in got and "0,0>0,1" not in got  # strength 1 sources
    assert "2,2>2,3" not in got  # own target
    assert "2,2>1,1" in got  # enemy target


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1,1>1,2", "not yours"),  # enemy source
        ("4,4>4,3", "not yours"),  # empty source
        ("2,3>2,4", "strength 1"),
        ("2,2>2,4", "not adjacent"),
        ("2,2>3,1", "not adjacent"),  # (+1, −1) is not a neighbour vector
        ("2,2>2,3", "already yours"),
        ("2,2>2,9", "not a cell"),
        ("9,9>2,2", "not a cell"),
    ],
)
def test_illegal_attacks_are_rejected_with_a_reason(text: str, why: str) -> None:
    state = setup({(2, 2): 3, (2, 3): 1, (1, 1): -4})
    with pytest.raises(IllegalMove) as info:
        play(state, 0, text)
    assert why in str(info.value)


# ---- §4.2 resolution ---------------------------------------------------------------------------


def test_capture_empty_gives_s_minus_1_and_leaves_source_at_1() -> None:
    after = play(setup({(2, 2): 5, (0, 0): -1}), 0, "2,2>2,3")
    assert val(after, 2, 3) == 4 and val(after, 2, 2) == 1


def test_stronger_attacker_captures_with_the_difference() -> None:
    after = play(setup({(2, 2): 6, (2, 3): -4}), 0, "2,2>2,3")
    assert val(after, 2, 3) == 2 and val(after, 2, 2) == 1


def test_equal_strength_empties_the_target() -> None:
    after = play(setup({(2, 2): 4, (2, 3): -4, (0, 0): -1}), 0, "2,2>2,3")
    assert val(after, 2, 3) == 0 and val(after, 2, 2) == 1
    assert after.phase == "attack"


def test_weaker_attacker_is_repelled() -> None:
    after = play(setup({(2, 2): 3, (2, 3): -7}), 0, "2,2>2,3")
    assert val(after, 2, 3) == -4 and val(after, 2, 2) == 1


def test_black_attacks_mirror_white() -> None:
    state = setup({(2, 2): -6, (2, 3): 4, (0, 0): 1}, mover=1)
    after = play(state, 1, "2,2>2,3")
    assert val(after, 2, 3) == -2 and val(after, 2, 2) == -1
    after = play(after, 1, "end")
    assert after.phase == "reinforce" and after.points == 2


def test_overflow_big_cell_capturing_empty_small_cell() -> None:
    state = setup({(2, 2): 12, (0, 0): -1}, big=[(2, 2)])
    after = play(state, 0, "2,2>2,3")
    assert val(after, 2, 3) == 8 and val(after, 2, 2) == 4
    # The excess left in the source lets it attack again in the same phase (I5).
    again = play(after, 0, "2,2>1,2")
    assert val(again, 1, 2) == 3 and val(again, 2, 2) == 1


def test_overflow_i5_example_against_enemy_small_cell() -> None:
    state = setup({(2, 2): 12, (2, 3): -2, (0, 0): -1}, big=[(2, 2)])
    after = play(state, 0, "2,2>2,3")
    assert val(after, 2, 3) == 8 and val(after, 2, 2) == 3


def test_no_overflow_into_a_big_target() -> None:
    state = setup({(2, 2): 12, (0, 0): -1}, big=[(2, 2), (2, 3)])
    after = play(state, 0, "2,2>2,3")
    assert val(after, 2, 3) == 11 and val(after, 2, 2) == 1


def test_overflow_never_exceeds_the_source_cap() -> None:
    # I8: the worst case (12 against an empty small cell) leaves 4 in a cap-12 source.
    from cogs_arena.engines.influence.rules import resolve

    worst = max(resolve(s, e, 8)[0] for s in range(2, 13) for e in range(-8, 1))
    assert worst == 4


def test_chained_attacks_from_captured_cells() -> None:
    state = setup({(2, 0): 6, (4, 4): -1})
    state = play(state, 0, "2,0>2,1")
    assert "2,1>2,2" in menu(state)
    state = play(state, 0, "2,1>2,2")
    state = play(state, 0, "2,2>2,3")
    assert [val(state, 2, c) for c in range(4)] == [1, 1, 1, 3]
    assert state.attacks == 3


def test_source_at_one_cannot_attack_again_this_turn() -> None:
    state = play(setup({(2, 2): 5, (0, 0): -1}), 0, "2,2>2,3")
    assert not any(m.startswith("2,2>") for m in menu(state))


# ---- §4.3 reinforcement -------------------------------------------------------------------------


def test_points_equal_area_after_the_attacks() -> None:
    state = setup({(2, 0): 6, (4, 4): -1})
    for text in ["2,0>2,1", "2,1>2,2", "end"]:
        state = play(state, 0, text)
    assert state.phase == "reinforce" and state.points == 3
    assert E.legal_moves(state, 0).hints["points_left"] == 3


def test_single_points_until_spent_then_black_moves() -> None:
    state = play(setup({(2, 2): 2, (2, 3): 3, (4, 4): -1}), 0, "end")
    assert state.points == 2
    assert set(menu(state)) == {"+2,2", "+2,3"}
    state = play(state, 0, "+2,2")
    assert state.phase == "reinforce" and state.points == 1 and val(state, 2, 2) == 3
    state = play(state, 0, "+2,2")
    assert val(state, 2, 2) == 4
    assert state.phase == "attack" and state.mover == 1 and state.points == 0


def test_whole_allocation_must_spend_every_point() -> None:
    state = play(setup({(2, 2): 2, (2, 3): 3, (1, 1): 1, (4, 4): -1}), 0, "end")
    assert state.points == 3
    with pytest.raises(IllegalMove) as info:
        play(state, 0, "+2,2 +2,3")
    assert "exactly 3" in str(info.value)
    with pytest.raises(IllegalMove):
        play(state, 0, "+2,2:4")
    after = play(state, 0, "+2,2:2 +1,1")
    assert (val(after, 2, 2), val(after, 1, 1), val(after, 2, 3)) == (4, 2, 3)
    assert after.mover == 1 and after.phase == "attack"


def test_reinforce_only_own_cells_and_never_above_cap() -> None:
    state = play(setup({(2, 2): 8, (2, 3): 3, (1, 1): -2}), 0, "end")
    assert menu(state) == ["+2,3"]
    for text, why in [
        ("+2,2", "cap 8"),
        ("+1,1", "Black's"),
        ("+0,0", "empty"),
        ("+9,9", "not a cell"),
        ("+2,3:6", "cap 8"),
    ]:
        with pytest.raises(IllegalMove) as info:
            play(state, 0, text)
        assert why in str(info.value)


def test_big_cells_cap_at_twelve() -> None:
    state = play(setup({(2, 2): 10, (2, 3): 8, (4, 4): -1}, big=[(2, 2)]), 0, "end")
    assert menu(state) == ["+2,2"]
    after = play(state, 0, "+2,2:2")
    assert val(after, 2, 2) == 12 and after.mover == 1


def test_leftover_points_are_lost_when_every_cell_is_capped() -> None:
    state = play(setup({(2, 2): 8, (2, 3): 7, (1, 1): 8, (4, 4): -1}), 0, "end")
    assert state.points == 3
    after = play(state, 0, "+2,3")
    assert val(after, 2, 3) == 8
    assert after.mover == 1 and after.phase == "attack" and after.points == 0
    # With room for 1 of 3 points, the default allocation is that 1 point.
    assert E.move_text(E.default_move(state, 0)) == "+2,3"
    with pytest.raises(IllegalMove):
        play(state, 0, "+2,3:2")


def test_reinforce_phase_is_skipped_when_already_all_capped() -> None:
    after = play(setup({(2, 2): 8, (2, 3): 8, (4, 4): -1}), 0, "end")
    assert after.mover == 1 and after.phase == "attack"


def test_cells_captured_this_phase_can_be_reinforced() -> None:
    state = setup({(2, 2): 3, (4, 4): -1})
    state = play(play(state, 0, "2,2>2,3"), 0, "end")
    assert "+2,3" in menu(state)
    after = play(state, 0, "+2,3:2")
    assert val(after, 2, 3) == 4


def test_default_allocation_is_lowest_strength_first_ties_by_row_col() -> None:
    state = play(setup({(3, 0): 1, (0, 3): 1, (2, 2): 2, (1, 1): 7, (4, 4): -1}), 0, "end")
    assert state.points == 4
    move = E.default_move(state, 0)
    # 1,1 gets nothing: the three weaker cells take the points, (row, col) breaking ties.
    assert E.move_text(move) == "+0,3:2 +2,2 +3,0"
    after = E.apply(state, 0, move)
    assert after.mover == 1


def test_default_allocation_with_more_points_than_room() -> None:
    state = play(setup({(2, 2): 7, (2, 3): 6, (1, 1): 8, (4, 4): -1}), 0, "end")
    move = E.default_move(state, 0)
    assert E.move_text(move) == "+2,2 +2,3:2"
    assert E.apply(state, 0, move).mover == 1


def test_default_move_in_attack_phase_is_end() -> None:
    state = E.new_game(E.ruleset(), 0)
    assert E.move_text(E.default_move(state, 0)) == "end"


def test_phase_mismatched_moves_are_illegal() -> None:
    state = setup({(2, 2): 3, (4, 4): -1})
    with pytest.raises(IllegalMove, match="attack phase"):
        play(state, 0, "+2,2")
    reinforcing = play(state, 0, "end")
    for text in ["end", "2,2>2,3"]:
        with pytest.raises(IllegalMove, match="reinforce phase"):
            play(reinforcing, 0, text)


# ---- turn order, §5 end, I1, I2, I4, I12 ---------------------------------------------------


def test_turn_cycle_and_turn_counter() -> None:
    state = E.new_game(E.ruleset(), 0)
    seen = []
    for _ in range(4):
        seen.append((state.mover, state.phase, state.turn))
        state = E.apply(state, state.mover, E.default_move(state, state.mover))
    seen.append((state.mover, state.phase, state.turn))
    assert seen == [
        (0, "attack", 1),
        (0, "reinforce", 1),
        (1, "attack", 1),
        (1, "reinforce", 1),
        (0, "attack", 2),
    ]


def test_not_your_turn_and_game_over() -> None:
    state = E.new_game(E.ruleset(), 0)
    with pytest.raises(NotYourTurn):
        E.apply(state, 1, E.parse_move(state, 1, "end"))
    with pytest.raises(NotYourTurn):
        E.legal_moves(state, 1)
    over = E.settle(state, "deadline")
    for call in (
        lambda: E.apply(over, 0, E.parse_move(over, 0, "end")),
        lambda: E.legal_moves(over, 0),
        lambda: E.default_move(over, 0),
        lambda: E.settle(over, "again"),
    ):
        with pytest.raises(GameOver):
            call()


def test_immediate_win_skips_the_reinforce_phase() -> None:
    state = setup({(2, 2): 6, (2, 3): -3})
    after = play(state, 0, "2,2>2,3")
    assert after.phase == "over" and E.to_act(after) == ()
    assert val(after, 2, 3) == 3 and val(after, 2, 2) == 1  # nothing reinforced
    outcome = E.outcome(after)
    assert outcome is not None
    assert outcome.scores == (1.0, 0.0) and outcome.winners == (0,)
    assert outcome.reason == "elimination"
    assert outcome.details["area"] == {"White": 2, "Black": 0}


def test_emptying_the_last_enemy_cell_also_wins() -> None:
    state = setup({(2, 2): -4, (2, 3): 4}, mover=1)
    after = play(state, 1, "2,2>2,3")
    outcome = E.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (0.0, 1.0)
    assert outcome.reason == "elimination"


def test_no_win_while_the_opponent_keeps_a_cell() -> None:
    after = play(setup({(2, 2): 6, (2, 3): -3, (0, 0): -1}), 0, "2,2>2,3")
    assert after.phase == "attack" and E.outcome(after) is None


def test_move_limit_is_a_draw_after_blacks_reinforce() -> None:
    state = setup({(3, 1): 5, (1, 3): -5}, max_turns=2)
    for expected_turn in (1, 1, 1, 1, 2, 2, 2):
        assert state.turn == expected_turn and E.outcome(state) is None
        state = E.apply(state, state.mover, E.default_move(state, state.mover))
    assert state.mover == 1 and state.phase == "reinforce"
    state = E.apply(state, 1, E.default_move(state, 1))
    outcome = E.outcome(state)
    assert outcome is not None and E.to_act(state) == ()
    assert outcome.reason == "move_limit"
    assert outcome.scores == (0.5, 0.5) and outcome.winners == (0, 1)
    assert outcome.details["winner"] is None
    assert outcome.details["value"] == {"White": 7, "Black": 7}


def test_move_limit_counts_a_skipped_reinforce_phase() -> None:
    state = setup({(2, 2): 3, (0, 0): -8}, mover=1, max_turns=1)
    after = play(state, 1, "end")
    outcome = E.outcome(after)
    assert outcome is not None and outcome.reason == "move_limit"


def test_attack_cap_leaves_only_end() -> None:
    state = setup({(2, 0): 8, (4, 4): -1}, max_attacks_per_phase=2)
    state = play(play(state, 0, "2,0>2,1"), 0, "2,1>2,2")
    assert menu(state) == ["end"]
    assert E.observe(state, 0)["legal_attacks"] == []
    with pytest.raises(IllegalMove, match="cap"):
        play(state, 0, "2,2>2,3")
    after = play(state, 0, "end")
    after = play(after, 0, E.move_text(E.default_move(after, 0)))
    assert after.attacks == 0 and after.mover == 1


def test_settle_by_area() -> None:
    ahead = setup({(2, 2): 1, (2, 3): 1, (0, 0): -8})
    outcome = E.outcome(E.settle(ahead, "deadline"))
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.reason == "deadline"
    level = setup({(2, 2): 1, (0, 0): -8})
    outcome = E.outcome(E.settle(level, "forfeit"))
    assert outcome is not None and outcome.scores == (0.5, 0.5)
    behind = setup({(2, 2): 8, (0, 0): -1, (0, 1): -1}, mover=1)
    outcome = E.outcome(E.settle(behind, "deadline"))
    assert outcome is not None and outcome.winners == (1,)
