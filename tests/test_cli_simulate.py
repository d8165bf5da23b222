"""`cogs-arena simulate blending` over 200 games prints every number the rules document reports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cogs_arena.engines.blending.simulate import FUN_NUMBERS

pytestmark = pytest.mark.slow


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cogs_arena", "simulate", "blending", *args],
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_simulate_two_hundred_games_prints_the_fun_numbers() -> None:
    out = _simulate(
        "--games", "200", "--bots", "builder,random,random,random", "--json", "--jobs", "2"
    )
    assert out.returncode == 0, out.stderr
    stats = json.loads(out.stdout)
    assert stats["games"] == 200
    for key in FUN_NUMBERS:
        assert key in stats, key
    assert len(stats["win_rate_by_seat"]) == 4
    assert abs(sum(stats["win_rate_by_seat"]) - 1) < 0.01
    assert set(stats["win_rate_by_class"]) == {"Warrior", "Amazon", "Mage"}
    assert "200/200 games" in out.stderr


def test_simulate_rejects_bad_arguments() -> None:
    bad = _simulate("--games", "2", "--rules", '{"nope": 1}')
    assert bad.returncode == 2 and "nope" in bad.stderr
    wrong = _simulate("--games", "2", "--bots", "builder,ghost")
    assert wrong.returncode == 2 and "builder" in wrong.stderr
