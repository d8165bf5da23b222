"""One suite over every registered engine and every Blending era: the shipped harness
(`engines.testing.check_engine`, after OpenSpiel's random-simulation test) run as a plugin game
would run it, and a check that the harness catches a broken engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs_arena.engines import AnyEngine, get_engine
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.registry import names
from cogs_arena.engines.testing import ConformanceFailure, check_engine

ENGINE_DIR = Path(__file__).resolve().parent.parent / "engines"
LANDED = sorted(name for name in names() if (ENGINE_DIR / name / "engine.py").exists())
SEEDS = [1, 2, 3]


def test_every_engine_folder_is_registered() -> None:
    assert "influence" in LANDED
    for name in LANDED:
        assert get_engine(name).name == name


ERAS: dict[str, list[dict[str, Any]]] = {
    "blending": [
        {"endgame": "last_tile", "last_tile_reshuffle": "never"},
        {"combat": "three"},
        {"combat": "three", "kill_on": "win", "heal_to": 4},
        {"combat": "legacy"},
        {"combat": "legacy", "combat_pvp": True, "damage": "difference", "escape_rule": "win"},
        {"land": "territories"},
        {"land": "territories", "guardians_tie": "full", "guarded_per_tile": 1, "merge_tax": 1},
        {"land": "territories", "combat": "three", "endgame": "last_tile"},
    ],
}
"""Rule eras a game keeps behind ruleset switches: each is played out like the defaults, with the
builder bot choosing half the moves so that its fights (rare in random play) happen too."""


def _one_search_level(engine: AnyEngine) -> list[str]:
    """Every bot but the search levels above the first: every level is held to its seed and its
    budget in tests/test_search_<game>.py, and self-play of all four costs minutes."""
    return [b for b in engine.bots() if not b.startswith("search") or b == "search:1"]


@pytest.mark.parametrize("name", LANDED)
def test_check_engine(name: str) -> None:
    engine = get_engine(name)
    report = check_engine(engine, seeds=SEEDS, bots=_one_search_level(engine))
    assert report.seeds == SEEDS and report.steps > 0
    assert "random" in report.bots and "search:1" in report.bots


@pytest.mark.parametrize(
    ("name", "overrides"),
    [
        # The combined era (4 s) goes to the slow loop: each of its parts has its own fast run.
        pytest.param(name, era, marks=pytest.mark.slow)
        if era is ERAS["blending"][-1]
        else (name, era)
        for name, eras in sorted(ERAS.items())
        for era in eras
    ],
    ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={w}" for k, w in v.items()),
)
def test_check_engine_over_every_era(name: str, overrides: dict[str, Any]) -> None:
    engine = get_engine(name)
    bots = _one_search_level(engine)
    report = check_engine(engine, seeds=[2, 3], overrides=overrides, bot="builder", bots=bots)
    assert report.steps > 0


class _Mutating(InfluenceEngine):
    """Applies a move by changing the state it was given (the sin the harness must catch)."""

    def apply(self, state: Any, seat: int, move: Any) -> Any:
        following = super().apply(state, seat, move)
        state.__dict__.update(following.__dict__)
        return following


class _Chatty(InfluenceEngine):
    """Accepts any spelling but writes another (notation not canonical)."""

    def move_text(self, move: Any) -> str:
        return " " + super().move_text(move)


class _Misfiled(InfluenceEngine):
    """Says it is simultaneous while deriving from the sequential base."""

    simultaneous = True


class _Converting(InfluenceEngine):
    """Turns any ruleset into its own by its fields (what Territory and Chemistry once did)."""

    def new_game(self, ruleset: Any, seed: int | str) -> Any:
        return self._new_game(self.ruleset(ruleset.model_dump()), seed)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_Mutating, "applying mutated the state"),
        (_Chatty, "not canonical"),
        (_Misfiled, "must derive from SimultaneousEngine"),
        (_Converting, "new_game accepted a foreign ruleset"),
    ],
)
def test_check_engine_catches_a_broken_engine(broken: type[AnyEngine], message: str) -> None:
    with pytest.raises(ConformanceFailure, match=message):
        check_engine(broken(), seeds=[1], bots=False)
