"""Seat views of a pinned bot game, for tests of the brief views: every observation one seat
was shown when it had to act, and the last one, with the text a brief and a full view carry."""

from __future__ import annotations

from functools import partial
from typing import Any

from cogs_arena.engines import get_engine
from cogs_arena.engines.protocol import LazyLegalMoves
from cogs_arena.engines.registry import AnyEngine
from cogs_arena.engines.runner import bot_stream
from cogs_arena.server.seats import default_bot


def seat_views(
    game: str, seed: int = 7, seat: int = 0, rules: dict[str, Any] | None = None
) -> tuple[AnyEngine, list[dict[str, Any]]]:
    """The default bot plays every seat; `seat`'s observation at each of its decisions and at
    the end."""
    engine, states = seat_states(game, seed, seat, rules)
    return engine, [engine.observe(state, seat) for state in states]


def seat_states(
    game: str, seed: int = 7, seat: int = 0, rules: dict[str, Any] | None = None
) -> tuple[AnyEngine, list[Any]]:
    """As `seat_views`, the states themselves (for the menu at each)."""
    engine = get_engine(game)
    bot = engine.bots()[default_bot(engine)]
    state = engine.new_game(engine.ruleset(rules), seed)
    shown: list[Any] = []
    decision = 0

    def choose(s: int) -> Any:
        menu = LazyLegalMoves(partial(engine.legal_moves, state, s))
        text = bot(engine.observe(state, s), menu, bot_stream(seed, s, decision))
        return engine.parse_move(state, s, text)

    while seats := engine.to_act(state):
        if seat in seats:
            shown.append(state)
        if engine.simultaneous:
            state = engine.apply_batch(state, {s: choose(s) for s in seats})
        else:
            state = engine.apply(state, seats[0], choose(seats[0]))
        decision += 1
    shown.append(state)
    return engine, shown


def texts(engine: AnyEngine, view: dict[str, Any]) -> tuple[str, str]:
    """(brief, full): the board text of each, as the host puts it in a view."""
    return engine.render_brief(view), engine.render(view)
