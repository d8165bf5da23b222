"""Chance nodes drawn from the game's seeded stream, so a state stays a function of (ruleset,
seed, moves) and a record replays: the k-th chance outcome of a game is the k-th draw of the
stream `openspiel-chance`, weighted by the probabilities OpenSpiel gives."""

from __future__ import annotations

from typing import Any

from ..rng import Stream

STREAM = "openspiel-chance"


def resolve_chance(inner: Any, seed: int | str, draws: int) -> int:
    """Applies chance outcomes to `inner` (a fresh clone the caller owns) until a player must act
    or the game is over; returns the new count of draws."""
    stream = Stream(seed, STREAM, draws)
    while inner.is_chance_node():
        outcomes = inner.chance_outcomes()
        point = stream.random() * sum(p for _, p in outcomes)
        chosen = outcomes[-1][0]
        for action, probability in outcomes:
            point -= probability
            if point < 0:
                chosen = action
                break
        inner.apply_action(chosen)
    return stream.counter
