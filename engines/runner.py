"""Plays a game between bots in-process, with no host: the reference loop for benchmarks,
bot-strength tests and the conformance suite."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .protocol import JSON, LazyLegalMoves, Outcome, Ruleset
from .registry import AnyEngine
from .rng import Stream


def bot_stream(seed: int | str, seat: int, decision: int) -> Stream:
    """The stream a bot gets for one decision: a function of the game's seed, the seat and how
    many decisions the game has seen, so a restarted host hands bots the same draws."""
    return Stream(seed, f"bot/{seat}/{decision}")


@dataclass
class BotGame:
    state: Any
    outcome: Outcome
    moves: list[tuple[int, str]] = field(default_factory=list)
    """(seat, canonical text) in application order; for simultaneous games each batch appears
    as consecutive entries with `batches` marking the boundaries."""
    batches: list[dict[int, str]] = field(default_factory=list)


def play_bots(
    engine: AnyEngine,
    ruleset: Ruleset,
    seed: int | str,
    bots: Sequence[str],
    *,
    max_decisions: int = 1_000_000,
) -> BotGame:
    """Plays to the end with bots[seat] choosing for each seat."""
    table = engine.bots()
    players = [table[name] for name in bots]
    state = engine.new_game(ruleset, seed)
    record: list[tuple[int, str]] = []
    batches: list[dict[int, str]] = []
    decision = 0
    while True:
        seats = engine.to_act(state)
        if not seats:
            break
        if decision >= max_decisions:
            raise RuntimeError(f"{engine.name}: no end after {max_decisions} decisions")
        if engine.simultaneous:
            chosen: dict[int, Any] = {}
            texts: dict[int, str] = {}
            for seat in seats:
                obs: dict[str, JSON] = engine.observe(state, seat)
                menu = LazyLegalMoves(partial(engine.legal_moves, state, seat))
                text = players[seat](obs, menu, bot_stream(seed, seat, decision))
                chosen[seat] = engine.parse_move(state, seat, text)
                texts[seat] = engine.move_text(chosen[seat])
            state = engine.apply_batch(state, chosen)
            batches.append(texts)
            record.extend(texts.items())
        else:
            seat = seats[0]
            obs = engine.observe(state, seat)
            menu = LazyLegalMoves(partial(engine.legal_moves, state, seat))
            text = players[seat](obs, menu, bot_stream(seed, seat, decision))
            move = engine.parse_move(state, seat, text)
            state = engine.apply(state, seat, move)
            record.append((seat, engine.move_text(move)))
        decision += 1
    outcome = engine.outcome(state)
    assert outcome is not None, "a game with no seat to act must have an outcome"
    return BotGame(state, outcome, record, batches)


def seat_bots(bots: Sequence[str], game: int, rotate: bool) -> list[str]:
    """The bots of one game of a series: as given, or rotated one seat per game so each bot
    visits every seat."""
    if not rotate:
        return list(bots)
    k = game % len(bots)
    return list(bots[-k:]) + list(bots[:-k]) if k else list(bots)
