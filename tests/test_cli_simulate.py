"""`cogs-arena simulate blending` over 200 games prints every number the rules document reports."""

from __future__ import annotations

import json
import subprocess
import sys


def test_simulate_two_hundred_games_prints_the_fun_numbers() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cogs_arena",
            "simulate",
            "blending",
            "--games",
            "200",
            "--bots",
            "builder,random,random,random",
            "--json",
            "--jobs",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    stats = json.loads(out.stdout)
    assert stats["games"] == 200
    for key in (
        "rounds",
        "lead_changes",
        "comebacks",
        "fights",
        "kills",
        "bolsters",
        "hand_limit_losses",
        "games_with_a_player_on_0",
        "winner_share_of_points",
        "win_rate_by_seat",
        "win_rate_by_class",
    ):
        assert key in stats, key
    assert len(stats["win_rate_by_seat"]) == 4
    assert abs(sum(stats["win_rate_by_seat"]) - 1) < 0.01
    assert set(stats["win_rate_by_class"]) == {"Warrior", "Amazon", "Mage"}
    assert "200/200 games" in out.stderr


def test_simulate_rejects_bad_arguments() -> None:
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "cogs_arena",
            "simulate",
            "blending",
            "--games",
            "2",
            "--rules",
            '{"nope": 1}',
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "nope" in bad.stderr
    wrong = subprocess.run(
        [
            sys.executable,
            "-m",
            "cogs_arena",
            "simulate",
            "blending",
            "--games",
            "2",
            "--bots",
            "builder,ghost",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert wrong.returncode == 2 and "builder" in wrong.stderr
