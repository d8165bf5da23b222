"""`cogs-arena simulate <game>`: every game, any bot mix, seeds, seat rotation, the game's own
numbers, and transcripts that `replay` verifies and `score` reads; Blending over 200 games
(slow) prints every number its rules document reports."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.numbers import FUN_NUMBERS
from cogs_arena.server.cli.main import main as cli_main
from cogs_arena.server.series.play import Planned, play
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.evaluation.score import score_files
from cogs_arena.transcripts.events import Header


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cogs_arena", "simulate", "blending", *args],
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.slow
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


@pytest.mark.slow
def test_simulate_rejects_bad_arguments() -> None:
    bad = _simulate("--games", "2", "--rules", '{"nope": 1}')
    assert bad.returncode == 2 and "nope" in bad.stderr
    wrong = _simulate("--games", "2", "--bots", "builder,ghost")
    assert wrong.returncode == 2 and "builder" in wrong.stderr


# ---- every game, in-process: few games each ---------------------------------------------------

MIXES = {
    "influence": ["greedy", "random"],
    "territory": ["homesteader", "raider", "diplomat", "random"] * 2 + ["raider"],
    "chemistry": ["courier", "freeloader", "random", "courier"] * 2,
    "blending": ["builder", "random", "builder", "random"],
}
OWN_NUMBERS = {
    "influence": ["turns", "winner_area_share"],
    "territory": ["turns", "razes", "eliminated", "pool_lost", "winner_share"],
    "chemistry": ["ticks", "food_eaten", "delivered", "reactions", "ending"],
    "blending": list(FUN_NUMBERS),
}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli_main(["simulate", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("game", sorted(MIXES))
def test_every_game_simulates_writes_transcripts_that_replay_and_score(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bots = MIXES[game]
    folder = tmp_path / "records"
    code, out, err = _run(
        capsys,
        game,
        "--games",
        "3",
        "--jobs",
        "1",
        "--bots",
        ",".join(bots),
        "--seed",
        "11",
        "--transcripts",
        str(folder),
        "--json",
    )
    assert code == 0, err
    stats = json.loads(out)
    assert stats["games"] == 3 and stats["game"] == game
    assert set(stats["bots"]) == set(bots)
    seats_per_bot = {bot: 3 * bots.count(bot) for bot in bots}
    assert {b: row["seats"] for b, row in stats["bots"].items()} == seats_per_bot
    wins = sum(row["win_rate"] * row["seats"] for row in stats["bots"].values())
    assert abs(wins - 3) < 0.01  # one win per game, shared wins split
    assert len(stats["win_rate_by_seat"]) == len(bots)
    assert abs(sum(stats["endings"].values()) - 1) < 0.01
    assert 0 <= stats["draw_rate"] <= 1 and stats["decisions"]["min"] > 0
    for key in OWN_NUMBERS[game]:
        assert stats[key] is not None, key
    assert "3/3 games" in err
    files = sorted(folder.glob(f"{game}-*.jsonl"))
    assert len(files) == 3
    for path in files:
        report = replay(path)
        assert report.ok and report.finished, report.mismatches
    header = read_transcript(files[0])[0]
    assert isinstance(header, Header) and header.game == game
    assert {s.player.kind for s in header.seats} == {"bot"}
    scored = score_files(files)
    assert not scored.problems and scored.files == 3
    assert {row.label for row in scored.rows} == {f"{game}:bot:{b}" for b in bots}
    for row in scored.rows:
        bot = row.label.rsplit(":", 1)[1]
        assert row.seats == seats_per_bot[bot] and row.finished == row.seats
        assert row.mean_score == pytest.approx(stats["bots"][bot]["mean_score"], abs=1e-3)


def test_the_same_series_gives_the_same_games_and_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = []
    for name in ("a", "b"):
        argv = ["influence", "--games", "4", "--jobs", "1", "--seed", "5", "--json"]
        code, out, _ = _run(
            capsys, *argv, "--bots", "greedy,random", "--transcripts", str(tmp_path / name)
        )
        assert code == 0
        runs.append((json.loads(out), sorted(p.name for p in (tmp_path / name).iterdir())))
    (first, names), (second, again) = runs
    first.pop("transcripts"), second.pop("transcripts")
    assert first == second and names == again
    headers = [read_transcript(tmp_path / "a" / name)[0] for name in names]
    seeds = sorted(int(h.seed) for h in headers if isinstance(h, Header))
    assert seeds == [5, 6, 7, 8]
    # rotation: greedy sits in each seat of the two equally often
    seat_of_greedy = [
        next(s.index for s in h.seats if s.player.bot == "greedy")
        for h in headers
        if isinstance(h, Header)
    ]
    assert sorted(seat_of_greedy) == [0, 0, 1, 1]


def test_fewer_bot_names_than_seats_are_repeated_in_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(
        capsys, "territory", "--games", "1", "--jobs", "1", "--bots", "raider,homesteader", "--json"
    )
    assert code == 0
    bots = json.loads(out)["bots"]
    assert (bots["raider"]["seats"], bots["homesteader"]["seats"]) == (5, 4)


def test_no_rotate_keeps_bots_in_their_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "influence",
        "--games",
        "2",
        "--jobs",
        "1",
        "--bots",
        "greedy,random",
        "--no-rotate",
        "--json",
    )
    assert code == 0
    assert json.loads(out)["bots"]["greedy"]["seats"] == 2


def test_the_text_report_names_every_bot_and_the_games_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(
        capsys,
        "territory",
        "--games",
        "2",
        "--jobs",
        "1",
        "--bots",
        "raider,homesteader,raider,homesteader,raider,homesteader,raider,homesteader,raider",
    )
    assert code == 0
    for text in ("games", "win rate by seat", "turns per game", "razes per game", "raider"):
        assert text in out, text
    assert "homesteader" in out and "mean score" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["territory", "--bots", "raider,ghost"], "unknown: ghost"),
        (["influence", "--bots", "greedy,random,greedy"], "give 1 to 2 bot names"),
        (["chemistry", "--rules", '{"nope": 1}'], "--rules"),
        (["influence", "--rules", "[1]"], "--rules must be a JSON object"),
        (["influence", "--games", "0"], "--games must be 1.."),
        (["influence", "--jobs", "-1"], "--jobs"),
    ],
)
def test_bad_arguments_are_refused_by_name(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and named in err


@pytest.mark.slow
def test_games_over_processes_replay_and_score_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "league"
    out = subprocess.run(
        [
            *(sys.executable, "-m", "cogs_arena", "simulate", "territory", "--games", "8"),
            *("--jobs", "2", "--bots", "raider,homesteader,diplomat"),
            *("--transcripts", str(folder)),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    assert "8/8 games" in out.stderr and "games/s" in out.stderr
    assert "raider" in out.stdout and "turns per game" in out.stdout
    files = [str(p) for p in sorted(folder.glob("territory-*.jsonl"))]
    assert len(files) == 8
    assert cli_main(["replay", *files]) == 0
    assert capsys.readouterr().out.count("ok ") == 8
    assert cli_main(["score", "--json", *files]) == 0
    rows = json.loads(capsys.readouterr().out)["labels"]
    assert {row["label"] for row in rows} == {
        "territory:bot:raider",
        "territory:bot:homesteader",
        "territory:bot:diplomat",
    }


@pytest.mark.parametrize("game", sorted(MIXES))
def test_recorded_and_unrecorded_games_are_the_same_games(game: str, tmp_path: Path) -> None:
    # Without --transcripts the engines' loop plays; with, the host's referee: same numbers.
    engine = get_engine(game)
    rules = engine.ruleset().model_dump(mode="json")
    for seed in (3,):
        plan = Planned(game, rules, seed, tuple(MIXES[game]))
        recorded = play(replace(plan, transcripts=str(tmp_path)))
        assert play(plan) == recorded
