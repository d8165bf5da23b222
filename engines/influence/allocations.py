"""Whole-turn reinforcement entries for the menu: a few allocations that each spend every point,
so a player can finish the reinforce phase with one choice (the single-point entries remain)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from ..protocol import MoveInfo
from .moves import make_reinforce, move_text
from .state import SIGN, InfluenceState

MAX_WHOLE = 12
"""At most this many whole-allocation entries, so the menu stays short."""
MAX_WHOLE_CHARS = 1500
"""Past the first two entries, no more are added once their notations reach this many characters
(late in a game an allocation names dozens of cells)."""
WHOLE_KIND = "reinforce_all"


def _weakest_first(
    strengths: list[int], caps: tuple[int, ...], given: dict[int, int], cells: Iterable[int], n: int
) -> int:
    """Gives up to n points to `cells`, each to the weakest (ties by index); returns points left.
    Updates `strengths` and `given` in place."""
    heap = [(strengths[i], i) for i in cells if strengths[i] < caps[i]]
    heapq.heapify(heap)
    while n and heap:
        s, i = heapq.heappop(heap)
        given[i] = given.get(i, 0) + 1
        strengths[i] = s + 1
        n -= 1
        if s + 1 < caps[i]:
            heapq.heappush(heap, (s + 1, i))
    return n


def whole_allocations(state: InfluenceState, spendable: int) -> list[MoveInfo]:
    """Entries that each spend all `spendable` points, in this order:
    - weakest first (the I3 default allocation);
    - the front facing the enemy, weakest first (then the rest, if the front fills up);
    - "all on X" for the frontier cells (an empty or enemy neighbour), most threatened first:
      X up to its cap, any rest weakest first.
    Nothing when at most one point is left, since the single-point entries already cover it."""
    if spendable < 2:
        return []
    board = state.board
    caps = board.caps
    sign = SIGN[state.mover]
    rel = [v * sign for v in state.values]
    own = [i for i, s in enumerate(rel) if s > 0]
    threat = {i: max((-rel[j] for j in board.neighbours[i] if rel[j] < 0), default=0) for i in own}
    frontier = [i for i in own if any(rel[j] <= 0 for j in board.neighbours[i])]
    entries: list[MoveInfo] = []
    seen: set[str] = set()

    def add(given: dict[int, int], how: str) -> None:
        move = make_reinforce({board.cells[i]: k for i, k in given.items()})
        text = move_text(move)
        if text in seen or move.total != spendable or full():
            return
        seen.add(text)
        entries.append(MoveInfo(text, f"reinforce all {spendable} points: {how}", WHOLE_KIND))

    def full() -> bool:
        size = sum(len(e.notation) for e in entries)
        return len(entries) >= MAX_WHOLE or (len(entries) >= 2 and size >= MAX_WHOLE_CHARS)

    given: dict[int, int] = {}
    _weakest_first(list(rel), caps, given, own, spendable)
    add(given, "weakest cells first")

    facing = [i for i in own if threat[i]]
    if facing:
        given, strengths = {}, list(rel)
        rest = _weakest_first(strengths, caps, given, facing, spendable)
        _weakest_first(strengths, caps, given, own, rest)
        add(given, "cells next to the enemy first, weakest first")

    ranked = sorted(
        (i for i in frontier if rel[i] < caps[i]), key=lambda i: (-(threat[i] - rel[i]), i)
    )
    for i in ranked:
        if full():
            break
        given, strengths = {}, list(rel)
        rest = _weakest_first(strengths, caps, given, [i], spendable)
        _weakest_first(strengths, caps, given, own, rest)
        label = board.labels[i]
        k = given[i]
        how = (
            f"all on {label} ({rel[i]} -> {rel[i] + k})"
            if k == spendable
            else f"{label} {rel[i]} -> {rel[i] + k} (its cap), the other {spendable - k} "
            "weakest first"
        )
        add(given, how)
    return entries
