"""The rules proper: attacks, reinforcement, turn order and the end of the game.

Each function takes a state and returns a new one; legality is checked before anything is built.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

from ..errors import IllegalMove
from .board import Board, Cell, cell_text
from .history import TurnRecord, add_points
from .moves import Attack, Reinforce, make_reinforce, move_text
from .state import BLACK, SEAT_NAMES, SIGN, WHITE, InfluenceState


def area(state: InfluenceState, seat: int) -> int:
    if seat == WHITE:
        return sum(1 for v in state.values if v > 0)
    return sum(1 for v in state.values if v < 0)


def value(state: InfluenceState, seat: int) -> int:
    if seat == WHITE:
        return sum(v for v in state.values if v > 0)
    return -sum(v for v in state.values if v < 0)


def totals(state: InfluenceState) -> tuple[int, int, int, int]:
    """White's area and value, then Black's, in one pass."""
    white_area = white_value = black_area = black_value = 0
    for v in state.values:
        if v > 0:
            white_area += 1
            white_value += v
        elif v < 0:
            black_area += 1
            black_value -= v
    return white_area, white_value, black_area, black_value


def headroom(state: InfluenceState, seat: int) -> int:
    """Points the seat's cells can still take before all are capped."""
    sign = SIGN[seat]
    return sum(
        cap - v * sign
        for v, cap in zip(state.values, state.board.caps, strict=True)
        if v * sign > 0
    )


def legal_attacks(state: InfluenceState) -> tuple[tuple[int, int], ...]:
    """(source index, target index) pairs in (source, target) cell order; empty at the cap."""
    if state.phase != "attack" or state.attacks >= state.ruleset.max_attacks_per_phase:
        return ()
    return state.attack_pairs


def resolve(s: int, e: int, target_cap: int) -> tuple[int, int]:
    """One attack by strength `s` on a target whose value is `e` from the attacker's side (> 0
    never happens; 0 empty; < 0 enemy with strength −e). Returns (new source, new target) values
    from the attacker's side: the target's value is positive if captured, 0 if emptied, negative
    if the defender keeps it (influence.md §4.2 and I5)."""
    if e == 0:
        captured = s - 1
    elif s > -e:
        captured = s + e
    elif s == -e:
        return 1, 0
    else:
        return 1, e + s
    if captured > target_cap:
        excess = captured - target_cap
        # I8: 1 + excess ≤ 4 always fits in a big source.
        return 1 + excess, target_cap
    return 1, captured


def attack(state: InfluenceState, move: Attack) -> InfluenceState:
    board = state.board
    src, dst = _cell(board, move.source, "source"), _cell(board, move.target, "target")
    sign = SIGN[state.mover]
    s, t = state.values[src] * sign, state.values[dst] * sign
    text = move_text(move)
    if state.attacks >= state.ruleset.max_attacks_per_phase:
        raise IllegalMove(
            f"This phase already has {state.attacks} attacks, the cap "
            f"({state.ruleset.max_attacks_per_phase}).",
            allowed="end",
        )
    if s <= 0:
        raise IllegalMove(
            f"{text}: the source {cell_text(move.source)} is not yours.",
            allowed="attacks from your own cells with strength ≥ 2 (see legal_moves)",
        )
    if s < 2:
        raise IllegalMove(
            f"{text}: the source {cell_text(move.source)} has strength 1; attacking needs ≥ 2.",
            allowed="attacks from your own cells with strength ≥ 2 (see legal_moves)",
        )
    if dst not in board.neighbours[src]:
        raise IllegalMove(
            f"{text}: {cell_text(move.target)} is not adjacent to {cell_text(move.source)}.",
            allowed="targets at (r,c±1), (r±1,c), (r+1,c+1), (r−1,c−1) that are on the board",
        )
    if t > 0:
        raise IllegalMove(
            f"{text}: the target {cell_text(move.target)} is already yours.",
            allowed="targets that are empty or the opponent's",
        )
    new_s, new_t = resolve(s, t, board.caps[dst])
    values = list(state.values)
    values[src] = new_s * sign
    values[dst] = new_t * sign
    record = (src, dst, state.values[src], state.values[dst], values[src], values[dst])
    after = replace(
        state,
        values=tuple(values),
        attacks=state.attacks + 1,
        turn_attacks=(*state.turn_attacks, record),
    )
    if new_t >= 0 and t < 0 and area(after, 1 - state.mover) == 0:
        # I2: the loss is checked after every attack; the winner's reinforce phase is skipped.
        return replace(
            _close_turn(after, lost=0),
            phase="over",
            winner=state.mover,
            reason="elimination",
            points=0,
        )
    return after


def _close_turn(state: InfluenceState, lost: int) -> InfluenceState:
    """The mover's turn so far becomes its last complete turn (history.TurnRecord)."""
    record = TurnRecord(state.mover, state.turn, state.turn_attacks, state.turn_points, lost)
    last = list(state.last_turns)
    last[state.mover] = record
    return replace(state, turn_attacks=(), turn_points=(), last_turns=(last[0], last[1]))


def end_attacks(state: InfluenceState) -> InfluenceState:
    points = area(state, state.mover)
    after = replace(state, phase="reinforce", points=points, attacks=0)
    if headroom(after, state.mover) == 0:
        return end_turn(after)
    return after


def end_turn(state: InfluenceState) -> InfluenceState:
    """After a reinforce phase: leftover points are lost; play passes on (I1: the game is a draw
    once Black has finished turn `max_turns`)."""
    state = _close_turn(state, lost=state.points)
    if state.mover == BLACK:
        if state.turn >= state.ruleset.max_turns:
            return replace(
                state, phase="over", points=0, attacks=0, winner=None, reason="move_limit"
            )
        return replace(state, mover=WHITE, phase="attack", points=0, attacks=0, turn=state.turn + 1)
    return replace(state, mover=BLACK, phase="attack", points=0, attacks=0)


def reinforce(state: InfluenceState, move: Reinforce) -> InfluenceState:
    board = state.board
    sign = SIGN[state.mover]
    values = list(state.values)
    for cell, k in move.allocation:
        i = _cell(board, cell, "cell")
        v = values[i] * sign
        if v <= 0:
            owner = "empty" if v == 0 else f"{SEAT_NAMES[1 - state.mover]}'s"
            raise IllegalMove(
                f"{move_text(move)}: {cell_text(cell)} is {owner}; only your own cells take "
                "points.",
                allowed="your cells below their cap (see legal_moves)",
            )
        if v + k > board.caps[i]:
            raise IllegalMove(
                f"{move_text(move)}: {cell_text(cell)} is at {v} with cap {board.caps[i]}; "
                f"+{k} would exceed it.",
                allowed=f"at most +{board.caps[i] - v} on {cell_text(cell)}",
            )
        values[i] = (v + k) * sign
    spendable = min(state.points, headroom(state, state.mover))
    if not move.single and move.total != spendable:
        raise IllegalMove(
            f"{move_text(move)}: the allocation gives {move.total} points but you must spend "
            f"exactly {spendable} (points {state.points}, room below caps "
            f"{headroom(state, state.mover)}).",
            allowed=f"one point `+row,col` at a time, or an allocation totalling {spendable}",
        )
    given = [(board.index[cell], k) for cell, k in move.allocation]
    after = replace(
        state,
        values=tuple(values),
        points=state.points - move.total,
        turn_points=add_points(state.turn_points, given),
    )
    if after.points == 0 or headroom(after, state.mover) == 0:
        return end_turn(after)
    return after


def default_allocation(state: InfluenceState) -> Reinforce:
    """I3's fallback: each point to the own cell with the lowest strength, ties by (row, col)."""
    sign = SIGN[state.mover]
    board = state.board
    # Index order is (row, col) order, so the heap's tie-break on the index is the rule's.
    heap = [(v * sign, i) for i, v in enumerate(state.values) if 0 < v * sign < board.caps[i]]
    heapq.heapify(heap)
    given: dict[Cell, int] = {}
    for _ in range(state.points):
        if not heap:
            break
        strength, i = heapq.heappop(heap)
        given[board.cells[i]] = given.get(board.cells[i], 0) + 1
        if strength + 1 < board.caps[i]:
            heapq.heappush(heap, (strength + 1, i))
    return make_reinforce(given)


def settle_scores(state: InfluenceState) -> int | None:
    """The winner when a game is cut short: the side with more area; equal area is a draw."""
    white, black = area(state, WHITE), area(state, BLACK)
    if white == black:
        return None
    return WHITE if white > black else BLACK


def _cell(board: Board, cell: Cell, what: str) -> int:
    i = board.index.get(cell)
    if i is None:
        raise IllegalMove(
            f"The {what} {cell_text(cell)} is not a cell of the board (it is a wall).",
            allowed="cells shown on the board",
        )
    return i
