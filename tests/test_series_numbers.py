"""The host's series numbers find a game's own numbers through its engine
(`Engine.series_numbers`), so a game brought as a plugin reports its own."""

from __future__ import annotations

from typing import Any

import pytest

from cogs_arena.engines import Outcome, SeriesNumbers, get_engine, names
from cogs_arena.engines.runner import play_bots
from cogs_arena.server.series.numbers import game_numbers, report, summary


def _flips(state: Any, outcome: Outcome) -> dict[str, Any]:
    return {"flips": len(outcome.winners), "mood": "calm"}


def test_a_games_own_numbers_come_from_its_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replacing an engine's `series_numbers` changes what the host reports for that game: the
    per-game numbers, their mean and tally in the summary, and their lines in the report (the
    host keeps no table of its own)."""
    engine = get_engine("influence")
    own = SeriesNumbers(_flips, (("flips", "flips per game"),), (("mood", "moods"),))
    monkeypatch.setattr(type(engine), "series_numbers", own)
    game = play_bots(engine, engine.ruleset(), 1, ["greedy", "random"])
    numbers = game_numbers("influence", game.state, game.outcome)
    assert numbers == {"flips": len(game.outcome.winners), "mood": "calm"}
    record = {
        "bots": ["greedy", "random"],
        "scores": list(game.outcome.scores),
        "ranks": list(game.outcome.ranks),
        "winners": list(game.outcome.winners),
        "reason": game.outcome.reason,
        "decisions": len(game.moves),
        **numbers,
    }
    stats = summary("influence", [record, record])
    assert stats["flips"] == float(len(game.outcome.winners))
    assert stats["mood"] == {"calm": 1.0}
    assert "turns" not in stats, "Influence's own table is not consulted"
    text = report(stats)
    assert "flips per game" in text and "moods" in text and "calm:100%" in text


def test_a_game_without_numbers_reports_only_the_common_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`series_numbers = None` (the protocol's default) leaves only the host's numbers."""
    engine = get_engine("influence")
    monkeypatch.setattr(type(engine), "series_numbers", None)
    game = play_bots(engine, engine.ruleset(), 1, ["greedy", "random"])
    assert game_numbers("influence", game.state, game.outcome) == {}


@pytest.mark.parametrize("game", names())
def test_every_game_brings_its_numbers_from_its_own_folder(game: str) -> None:
    """Each registered game's series numbers live in its folder's `numbers.py`."""
    spec = get_engine(game).series_numbers
    assert spec is not None
    assert spec.of_game.__module__ == f"cogs_arena.engines.{game}.numbers"
