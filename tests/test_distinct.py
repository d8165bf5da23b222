"""Distinct games: the same game played again (Chemistry and its couriers draw nothing from the
seed: C19) is one game, whatever its seed; a game whose draws differ, or whose seats differ, is
not."""

from __future__ import annotations

from pathlib import Path

from cogs_arena.engines import get_engine
from cogs_arena.server.series.play import Planned, play
from cogs_arena.transcripts.evaluation.results import read_results


def _games(tmp_path: Path, game: str, bots: tuple[str, ...], seeds: list[int]) -> set[str]:
    short = {"chemistry": {"shifts": 2}}.get(game, {})
    rules = get_engine(game).ruleset(short).model_dump(mode="json")
    folder = tmp_path / f"{game}-{'-'.join(bots)}"
    for seed in seeds:
        play(Planned(game, rules, seed, bots, transcripts=str(folder)))
    rows = read_results([folder]).rows
    assert len({r.game_id for r in rows}) == len(seeds)
    return {r.game_key for r in rows}


def test_a_deterministic_game_is_one_game_whatever_the_seed(tmp_path: Path) -> None:
    assert len(_games(tmp_path, "chemistry", ("courier",) * 8, [1, 2, 3])) == 1


def test_other_seats_or_other_draws_are_other_games(tmp_path: Path) -> None:
    one = _games(tmp_path, "chemistry", ("courier",) * 8, [1])
    swapped = _games(tmp_path, "chemistry", ("freeloader",) + ("courier",) * 7, [1])
    assert one != swapped
    assert len(_games(tmp_path, "blending", ("builder",) * 4, [1, 2])) == 2
