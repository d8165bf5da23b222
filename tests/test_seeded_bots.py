"""The seeded bots (`<bot>-seeded`, one beside every scripted bot of the four games): they break
their ties from the game's seeded bot stream, so their games differ across seeds, repeat for one
seed, and are not their namesakes' games; they are named wherever a bot is named."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots
from cogs_arena.inspect_tasks.params import game_plan
from cogs_arena.server.seats import default_bot
from cogs_arena.server.series.plan import plan_series

GAMES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "influence": ({"max_turns": 30}, ["greedy", "greedy"]),
    "territory": ({"turns": 8}, ["homesteader", "raider", "diplomat"] * 3),
    "chemistry": ({"shifts": 2}, ["courier"] * 6 + ["freeloader"] * 2),
    "blending": ({"end_rounds": 3}, ["builder"] * 4),
}
SEEDS = (0, 1, 2)


def _games(game: str, bots: list[str]) -> list[tuple[tuple[int, str], ...]]:
    engine = get_engine(game)
    ruleset = engine.ruleset(GAMES[game][0])
    return [tuple(play_bots(engine, ruleset, seed, bots).moves) for seed in SEEDS]


def _seeded(bots: list[str]) -> list[str]:
    return [f"{bot}-seeded" for bot in bots]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seeded_bots_differ_across_seeds_and_repeat_for_one(game: str) -> None:
    """Three seeds, three different games; the first seed again, the same game move for move;
    and on some seed the game is not the one the unseeded bots play."""
    bots = _seeded(GAMES[game][1])
    games = _games(game, bots)
    assert len(set(games)) == len(SEEDS)
    assert _games(game, bots)[0] == games[0]
    plain = _games(game, GAMES[game][1])
    assert any(a != b for a, b in zip(games, plain, strict=True))


def test_chemistry_seeds_change_nothing_without_the_seeded_bots() -> None:
    """Why the seeded variants exist: Chemistry has no randomness and its reference bots none,
    so their games are one game whatever the seed, while the seeded bots' are not."""
    assert len(set(_games("chemistry", GAMES["chemistry"][1]))) == 1
    assert len(set(_games("chemistry", _seeded(GAMES["chemistry"][1])))) == len(SEEDS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_scripted_bot_has_a_seeded_variant_registered_after_it(game: str) -> None:
    """The table lists each scripted bot's `-seeded` twin after every unseeded bot, so the
    default bot (the first that is not `random`) stays the unseeded one. The search levels
    (`search`, `search:N`) draw from the decision's seeded stream themselves: no twin."""
    names = list(get_engine(game).bots())
    plain = [n for n in names if not n.endswith("-seeded")]
    seeded = [n for n in names if n.endswith("-seeded")]
    assert names == plain + seeded
    # random and the search levels draw from the seeded stream already; they have no twin.
    scripted = [n for n in plain if n != "random" and not n.startswith("search")]
    assert seeded == [f"{n}-seeded" for n in scripted]
    assert not default_bot(get_engine(game)).endswith("-seeded")


def test_seeded_bots_are_accepted_by_simulate_and_the_inspect_tasks() -> None:
    """`simulate --bots` and the Inspect tasks' `-T bots=` / `-T ruleset=` take the seeded
    bots and the seeded opening."""
    args = argparse.Namespace(
        game="influence",
        games=2,
        jobs=1,
        rules='{"opening": "seeded"}',
        bots="greedy-seeded,random",
        seed=5,
        no_rotate=False,
        transcripts=None,
    )
    first, second = plan_series(args)
    assert first.bots == ("greedy-seeded", "random") and second.bots == ("random", "greedy-seeded")
    assert first.rules["opening"] == "seeded"
    plan = game_plan(
        "influence",
        seeds=2,
        seat=0,
        bots="greedy-seeded",
        prompt="default",
        prompt_label=None,
        ruleset={"opening": "seeded"},
        detail="full",
    )
    assert plan.bots == ("greedy-seeded",) and plan.ruleset == {"opening": "seeded"}


def test_chemistry_seeded_bots_under_tick_control() -> None:
    """Under `control: ticks` the seeded bots answer with the kernel's action for their drawn
    order: their games differ across seeds and repeat for one, where the reference bots' do
    not differ."""
    engine = get_engine("chemistry")
    ruleset = engine.ruleset({"control": "ticks", "shifts": 1, "ticks_per_shift": 30})
    plain = GAMES["chemistry"][1]
    for bots, distinct in ((plain, 1), (_seeded(plain), len(SEEDS))):
        games = [tuple(play_bots(engine, ruleset, s, bots).moves) for s in SEEDS]
        assert len(set(games)) == distinct
        assert tuple(play_bots(engine, ruleset, SEEDS[-1], bots).moves) == games[-1]
