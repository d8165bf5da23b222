"""Shared pieces of the engine protocol: seeded streams, outcomes, lazy menus, the registry."""

from __future__ import annotations

from collections import Counter

import pytest

from cogs_arena.engines import UnknownGame, get_engine
from cogs_arena.engines.protocol import LazyLegalMoves, LegalMoves, MoveInfo, Outcome
from cogs_arena.engines.rng import Stream


def test_streams_are_deterministic_independent_and_resumable() -> None:
    a, b = Stream(7, "deal"), Stream(7, "deal")
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    assert Stream(7, "deal").next_u64() != Stream(7, "flip").next_u64()
    assert Stream(7, "deal").next_u64() != Stream(8, "deal").next_u64()
    first = Stream(7, "deal")
    drawn = [first.below(10) for _ in range(6)]
    resumed = Stream(7, "deal", counter=3)
    head = Stream(7, "deal")
    assert [head.below(10) for _ in range(3)] + [resumed.below(10) for _ in range(3)] == drawn


def test_stream_draws_are_in_range_and_roughly_uniform() -> None:
    rng = Stream("s", "u")
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < c < 1200 for c in counts.values())
    assert all(0.0 <= rng.random() < 1.0 for _ in range(1000))
    items = list(range(20))
    shuffled = rng.shuffled(items)
    assert sorted(shuffled) == items and shuffled != items
    with pytest.raises(ValueError):
        rng.below(0)
    with pytest.raises(ValueError):
        rng.choice([])


def test_outcome_ranks_share_ties() -> None:
    outcome = Outcome.from_scores((3.0, 5.0, 5.0, 1.0), "complete")
    assert outcome.ranks == (3, 1, 1, 4)
    assert outcome.winners == (1, 2)


def test_lazy_menu_is_built_once_and_only_when_read() -> None:
    built: list[int] = []

    def build() -> LegalMoves:
        built.append(1)
        return LegalMoves((MoveInfo("end", "end the phase", "end"),), False, {"k": 1}, "how")

    menu = LazyLegalMoves(build)
    assert built == []
    assert isinstance(menu, LegalMoves)
    assert menu.moves[0].notation == "end" and not menu.complete
    assert menu.hints == {"k": 1} and menu.instructions == "how"
    assert built == [1]


def test_unknown_game_names_the_games() -> None:
    with pytest.raises(UnknownGame) as info:
        get_engine("chess")
    for name in ("influence", "territory", "chemistry", "blending"):
        assert name in str(info.value)
