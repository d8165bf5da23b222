"""The offline model `cogs_arena/first-legal`, found through the package's Inspect entry point:
`inspect eval` runs a game task with no network and no tokenizer, from the command line and
through `inspect_ai.eval`; the metrics come per prompt variant and per seat with standard
errors, count distinct games, and count unfinished games as losses.

The evals run in processes of their own, outside the checkout, with PYTHONPATH kept so they
load this copy of the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, read_eval_log

from cogs_arena.inspect_tasks.metrics import played_key
from cogs_arena.transcripts.events import Header, Join
from cogs_arena.transcripts.io import read_transcript

pytestmark = pytest.mark.slow

HELPERS = Path(__file__).resolve().parent / "inspect_helpers.py"
INSPECT = Path(sys.executable).parent / "inspect"
OFFLINE = "cogs_arena/first-legal"


def offline_env() -> dict[str, str]:
    # No provider key and no tokenizer cache: anything that reached for the network would fail.
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return {**env, "INSPECT_LOG_LEVEL": "warning", "PYTHONNOUSERSITE": "1", "HF_HUB_OFFLINE": "1"}


def value_of(sample: Any) -> dict[str, Any]:
    assert sample.scores is not None
    value = sample.scores["game_outcome"].value
    assert isinstance(value, dict)
    return value


def metrics_of(log: EvalLog) -> dict[str, float]:
    assert log.status == "success", log.error
    assert log.results is not None
    (scores,) = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}


def test_inspect_eval_runs_offline_from_the_command_line(tmp_path: Path) -> None:
    """`inspect eval cogs_arena/influence --model cogs_arena/first-legal -T seeds=4` finishes
    its four games; the seats alternate by seed; the metrics, read back from the log, count
    the distinct games the transcripts hold (Influence's bot breaks ties from the seed, so
    whether two seeds repeat a game is read from the records, not assumed)."""
    log = _inspect_eval(tmp_path, "cogs_arena/influence", "seeds=4")
    assert log.eval.model == OFFLINE and log.samples is not None
    seats = {}
    keys = {}
    for sample in log.samples:
        meta = sample.metadata
        events = read_transcript(meta["transcript"])
        header = events[0]
        assert isinstance(header, Header) and events[-1].type == "footer"
        player = header.seats[meta["seat"]].player
        assert (player.kind, player.model) == ("llm", OFFLINE)
        seats[meta["seed"]] = meta["seat"]
        keys[meta["seed"]] = played_key(events)
        assert value_of(sample)["finished"] == 1
    assert seats == {0: 0, 1: 1, 2: 0, 3: 1}
    metrics = metrics_of(log)
    distinct = len(set(keys.values()))
    assert (metrics["default/games"], metrics["default/distinct"]) == (4, distinct)
    assert (metrics["default/repeats"], metrics["default/unfinished"]) == (4 - distinct, 0)
    assert ("default/win_stderr" in metrics) == (distinct > 1)
    for seat in (0, 1):
        mine = {keys[seed] for seed in (seat, seat + 2)}
        assert metrics[f"default/seat{seat}/games"] == 2
        assert metrics[f"default/seat{seat}/distinct"] == len(mine)
        assert (f"default/seat{seat}/score_stderr" in metrics) == (len(mine) == 2)


def run_evals(tmp_path: Path, evals: list[dict[str, Any]]) -> list[EvalLog]:
    cwd = tmp_path / "cwd"
    cwd.mkdir(parents=True, exist_ok=True)
    spec = {"log_dir": str(tmp_path / "logs"), "evals": evals}
    done = subprocess.run(
        [sys.executable, str(HELPERS), json.dumps(spec)],
        cwd=cwd,
        env=offline_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    locations = json.loads(done.stdout.strip().splitlines()[-1])
    return [read_eval_log(location) for location in locations]


def test_metrics_per_variant_and_seat_through_inspect_eval(tmp_path: Path) -> None:
    """Through `inspect_ai.eval` with the offline model: two prompt variants of Territory over
    two seeds each get their own win rate and score with standard errors and a column per
    seat; an Influence game the harness stops is counted as unfinished and as a loss."""
    variants = {
        "seeds": 2,
        "prompt": ["default", "none"],
        "transcripts": str(tmp_path / "territory"),
    }
    stopped = {"seeds": 1, "max_steps": 3, "transcripts": str(tmp_path / "stopped")}
    territory, influence = run_evals(
        tmp_path,
        [
            {"task": "cogs_arena/territory", "args": variants, "model": OFFLINE},
            {"task": "cogs_arena/influence", "args": stopped, "model": OFFLINE},
        ],
    )
    metrics = metrics_of(territory)
    assert territory.samples is not None
    for label in ("default", "none"):
        mine = [s for s in territory.samples if s.metadata["prompt"] == label]
        wins = [value_of(s)["win"] for s in mine]
        assert metrics[f"{label}/games"] == metrics[f"{label}/distinct"] == 2
        assert metrics[f"{label}/win"] == pytest.approx(sum(wins) / 2)
        for stat in ("win", "score", "rank"):
            assert f"{label}/{stat}_stderr" in metrics
        assert metrics[f"{label}/seat0/games"] == metrics[f"{label}/seat1/games"] == 1
    assert not any(name.split("/")[0] not in ("default", "none") for name in metrics)
    short = metrics_of(influence)
    assert short["default/unfinished"] == 1 and short["default/win"] == 0
    assert "default/score" not in short


def test_the_ab_design_plays_seat_swapped_pairs_and_a_null_arm(tmp_path: Path) -> None:
    """`-T ab=true` with the offline model on Territory, two seeds: each seed's arm and null
    arm are played twice with the two seats swapped, both seats by the main model under the
    two prompts (the record says which); the metric reports both arms' pairs beside each
    other and, with fewer than 20 distinct pairs, no p-value."""
    args = {
        "seeds": 2,
        "ab": True,
        "prompt": ["default", "none"],
        "transcripts": str(tmp_path / "ab"),
    }
    (log,) = run_evals(tmp_path, [{"task": "cogs_arena/territory", "args": args, "model": OFFLINE}])
    metrics = metrics_of(log)
    assert log.samples is not None and len(log.samples) == 8
    seen = set()
    for sample in log.samples:
        ab = sample.metadata["ab"]
        events = read_transcript(sample.metadata["transcript"])
        header = events[0]
        assert isinstance(header, Header)
        joined = {e.seat: e.player for e in events if isinstance(e, Join)}
        for player in ab["players"]:
            seated = joined.get(player["seat"]) or header.seats[player["seat"]].player
            assert (seated.kind, seated.model, seated.prompt) == ("llm", OFFLINE, player["prompt"])
            assert seated.labels["ab_arm"] == ab["arm"]
            assert seated.labels["ab_side"] == player["side"]
        seats = tuple(p["seat"] for p in ab["players"])
        seen.add((sample.metadata["seed"], ab["arm"], seats))
        value = value_of(sample)
        assert value["a_finished"] == value["b_finished"] == 1
    assert seen == {
        (seed, arm, seats)
        for seed, pair in ((0, (0, 1)), (1, (1, 2)))
        for arm in ("arm", "null")
        for seats in (pair, pair[::-1])
    }
    for arm in ("ab.arm", "ab.null"):
        assert metrics[f"{arm}/pairs"] == 2 and f"{arm}/win_diff" in metrics
        assert f"{arm}/win_p" not in metrics  # two pairs: too few for a claim
    assert metrics["default/games"] == 8 and metrics["none/games"] == 4
    assert metrics["default.null/games"] == 4


def _inspect_eval(tmp_path: Path, task: str, *params: str) -> EvalLog:
    cwd = tmp_path / "cwd"
    cwd.mkdir(parents=True, exist_ok=True)
    argv = [str(INSPECT), "eval", task, "--model", OFFLINE, "--log-dir", str(tmp_path / "logs")]
    for param in params:
        argv += ["-T", param]
    done = subprocess.run(
        [*argv, "-T", f"transcripts={tmp_path / 'transcripts'}", "--display", "none"],
        cwd=cwd,
        env=offline_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    (location,) = sorted((tmp_path / "logs").glob("*.eval"))
    return read_eval_log(str(location))


def test_an_openspiel_game_runs_offline_and_is_scored_from_its_record(tmp_path: Path) -> None:
    """`inspect eval cogs_arena/openspiel -T game=connect_four --model cogs_arena/first-legal`,
    and OpenSpiel's parameter form `goofspiel(num_cards=4)` through the same task."""
    log = _inspect_eval(tmp_path / "c4", "cogs_arena/openspiel", "game=connect_four", "seeds=2")
    assert log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        header = read_transcript(sample.metadata["transcript"])[0]
        assert isinstance(header, Header) and header.game == "openspiel:connect_four"
        assert value_of(sample)["finished"] == 1
    assert metrics_of(log)["default/games"] == 2
    log = _inspect_eval(tmp_path / "gs", "cogs_arena/openspiel", "game=goofspiel(num_cards=4)")
    (sample,) = log.samples or []
    header = read_transcript(sample.metadata["transcript"])[0]
    assert isinstance(header, Header) and header.ruleset == {"params": {"num_cards": 4}}


def test_the_generic_task_plays_any_game_by_name(tmp_path: Path) -> None:
    log = _inspect_eval(tmp_path, "cogs_arena/game", "name=openspiel:tic_tac_toe", "bots=mcts:20")
    (sample,) = log.samples or []
    assert value_of(sample)["finished"] == 1
