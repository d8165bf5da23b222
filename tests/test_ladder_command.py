"""The one command per game that rebuilds a ladder (`benchmarks/ladder.py`): it plays every
line-up of the league, rates them, prints every rung bottom to top, keeps what the league cost,
and `--rate-only` gives the same table again from the kept transcripts."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "ladder.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_separated_means_the_upper_interval_starts_above_the_lower_one() -> None:
    separated = _module().separated
    low = {"low": -1.0, "high": 0.2}
    assert separated([low, {"low": 0.3, "high": 1.0}]) == [True]
    assert separated([low, {"low": 0.2, "high": 1.0}]) == [False]
    assert separated([low, {"low": None, "high": None}]) == [None]


def test_every_league_puts_each_rung_in_some_line_up() -> None:
    for game, league in _module().LEAGUES.items():
        seated = {bot for _, lineup in league.lineups for bot in lineup}
        assert set(league.rungs) <= seated, game
        assert league.rungs[0] == "random", game
        assert league.rungs[-1].startswith("search"), game


@pytest.mark.slow
def test_the_command_plays_rates_and_rates_again(tmp_path: Path) -> None:
    def run(*extra: str) -> str:
        args = [sys.executable, str(SCRIPT), "chemistry", *extra]
        return subprocess.run(args, check=True, capture_output=True, text=True).stdout

    played = run("--games", "2", "--jobs", "1", "--keep", str(tmp_path))
    league = _module().LEAGUES["chemistry"]
    rows = [line for line in played.splitlines() if line.startswith("| ") and "`" in line]
    assert [line.split("`")[1] for line in rows[: len(league.rungs)]] == list(
        reversed(league.rungs)
    )
    assert (tmp_path / "spent.json").is_file()
    assert f"{2 * len(league.lineups)} games" in played
    again = run("--rate-only", str(tmp_path))
    assert [line for line in again.splitlines() if line.startswith("|")] == [
        line for line in played.splitlines() if line.startswith("|")
    ]
