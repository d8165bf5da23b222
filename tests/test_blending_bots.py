"""Bots: the builder beats random; a series reports every fun number."""

from __future__ import annotations

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.numbers import FUN_NUMBERS
from cogs_arena.engines.runner import play_bots, seat_bots
from cogs_arena.server.series.numbers import report, summary

E = get_engine("blending")


@pytest.mark.slow
def test_builder_beats_random_in_at_least_80_percent_of_200_games() -> None:
    """One builder and three randoms, the builder's seat rotating with the seed. A win is a
    rank-1 finish (a shared first place counts)."""
    ruleset = E.ruleset()
    wins = 0
    for seed in range(200):
        seat = seed % 4
        bots = ["random"] * 4
        bots[seat] = "builder"
        game = play_bots(E, ruleset, seed, bots)
        wins += seat in game.outcome.winners
    assert wins >= 160, f"builder won {wins} of 200"


def test_random_bot_discards_sanely() -> None:
    s = E.new_game(E.ruleset(), 2)
    # the random bot discards down to the limit with the same rule as the fallback move
    from cogs_arena.engines.blending.scenario import Scenario, build

    s = build(
        Scenario(
            squares={(1, 0): "M"},
            hands={0: ["FFFF"] * 5 + ["MMMM"] * 5 + ["MMFP"]},
            heroes={0: (1, 0)},
        )
    )
    s = E.apply(s, 0, E.parse_move(s, 0, "end"))
    obs = E.observe(s, 0)
    text = E.bots()["random"](
        obs,
        E.legal_moves(s, 0),
        __import__("cogs_arena.engines.rng", fromlist=["Stream"]).Stream(1, "x"),
    )
    assert text == E.move_text(E.default_move(s, 0))
    tile = int(text.split()[1][1:])
    assert s.faces[tile - 1] == (1, 1, 1, 1)  # a non-home single goes first (seat 0 is Mountain)


def test_a_series_reports_every_fun_number() -> None:
    """Six games, builders and randoms rotating seats, summed up by the host's series numbers
    with the numbers the engine brings (`series_numbers`, blending/numbers.py): every fun number
    of blending.md is there, plausible, and printed."""
    spec = E.series_numbers
    assert spec is not None and spec.aggregate is not None
    records = []
    for seed in range(6):
        bots = seat_bots(["builder", "random", "builder", "random"], seed, True)
        game = play_bots(E, E.ruleset(), seed, bots)
        records.append(
            {
                "bots": bots,
                "ranks": list(game.outcome.ranks),
                "reason": game.outcome.reason,
                "decisions": len(game.moves),
                **spec.of_game(game.state, game.outcome),
            }
        )
    stats = summary("blending", records)
    for key in FUN_NUMBERS:
        assert key in stats
    assert stats["games"] == 6 and stats["rounds"] == 10
    assert abs(sum(stats["win_rate_by_seat"]) - 1.0) < 1e-6
    assert set(stats["win_rate_by_class"]) == {"Warrior", "Amazon", "Mage"}
    assert 0 < stats["winner_share_of_points"] <= 1
    text = report(stats)
    assert "lead changes" in text and "win rate by class" in text
    assert seat_bots(["a", "b", "c", "d"], 1, True) == ["d", "a", "b", "c"]
