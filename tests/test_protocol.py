"""Shared pieces of the engine protocol: seeded streams, outcomes, lazy menus, the registry."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import pytest

from cogs_arena.engines import (
    InvalidRuleset,
    Ruleset,
    SequentialEngine,
    SimultaneousEngine,
    UnknownGame,
    get_engine,
    names,
)
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


def _refusals(game: str, foreign: Ruleset) -> list[str]:
    """The entry points of `game` that refuse `foreign` with InvalidRuleset."""
    engine = get_engine(game)
    calls: dict[str, Callable[[], object]] = {
        "new_game": lambda: engine.new_game(foreign, 1),
        "seat_names": lambda: engine.seat_names(foreign),
        "default_seat": lambda: engine.default_seat(foreign, 1),
        "era_text": lambda: engine.era_text("text", foreign),
        "rules_play_text": lambda: engine.rules_play_text(foreign),
    }
    refused = []
    for entry, call in calls.items():
        with pytest.raises(InvalidRuleset) as caught:
            call()
        assert game in str(caught.value) and type(foreign).__name__ in str(caught.value)
        refused.append(entry)
    return refused


@pytest.mark.parametrize("game", names())
def test_every_engine_refuses_another_games_ruleset_with_invalid_ruleset(game: str) -> None:
    """Each game, handed every other game's ruleset, raises the one InvalidRuleset (naming the
    game and the class it was given) from every entry point that takes a ruleset; before the
    base class checked, Influence raised TypeError, Blending an AssertionError and Territory and
    Chemistry converted the foreign ruleset silently."""
    for other in names():
        if other != game:
            assert len(_refusals(game, get_engine(other).ruleset())) == 5


def test_the_registry_names_every_game() -> None:
    """`names()` is the public list of registered games, each of which loads by that name."""
    assert names() == ("influence", "territory", "chemistry", "blending")
    assert [get_engine(name).name for name in names()] == list(names())


@pytest.mark.slow
def test_foreign_rulesets_are_refused_under_python_optimised() -> None:
    """Under `python -O` (asserts stripped) the refusal still happens: Blending's used to be a
    bare assert, which `-O` removes."""
    script = (
        "from cogs_arena.engines import InvalidRuleset, get_engine, names\n"
        "for game in names():\n"
        "    for other in names():\n"
        "        if other == game: continue\n"
        "        foreign = get_engine(other).ruleset()\n"
        "        try:\n"
        "            get_engine(game).new_game(foreign, 1)\n"
        "        except InvalidRuleset:\n"
        "            print('refused', game, other)\n"
    )
    result = subprocess.run(
        [sys.executable, "-O", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("refused") == 12, result.stdout


def test_each_base_leaves_abstract_exactly_the_transitions_its_games_must_write() -> None:
    """A sequential game must write `apply` (validate and the refused batch come with the base);
    a simultaneous one `validate` and `apply_batch` (the refused lone move comes with it); and
    each of the four games derives from the base of its kind."""
    transitions = {"apply", "apply_batch", "validate"}
    assert SequentialEngine.__abstractmethods__ & transitions == {"apply"}
    assert SimultaneousEngine.__abstractmethods__ & transitions == {"apply_batch", "validate"}
    kinds = {name: type(get_engine(name)).__mro__[1] for name in names()}
    assert kinds == {
        "influence": SequentialEngine,
        "territory": SimultaneousEngine,
        "chemistry": SimultaneousEngine,
        "blending": SequentialEngine,
    }
