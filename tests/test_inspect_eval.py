"""The Inspect tasks end to end, offline: scripted `mockllm` models that read only their messages
play real games through the task's own server process; the game records join the `.eval` logs
by the Inspect run and sample ids; the results feed `rate` and `compare`.

The evals run in a process of their own started outside the checkout (as a user runs `inspect
eval`), so the tasks are found by name through the package's entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem
from inspect_helpers import LAST_ENTRY

from cogs_arena.prompts import seat_prompt
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.evaluation.score import seat_tallies
from cogs_arena.transcripts.events import Header, Join
from cogs_arena.transcripts.io import read_transcript

pytestmark = pytest.mark.slow

HELPERS = Path(__file__).resolve().parent / "inspect_helpers.py"
SEEDS = [3, 8]
GAMES = ("territory", "chemistry")


def run_evals(tmp_path: Path, evals: list[dict[str, Any]]) -> list[EvalLog]:
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    spec = {"log_dir": str(tmp_path / "logs"), "evals": evals}
    # PYTHONPATH is kept: where it points a checkout (a worktree), that copy is the one tested.
    done = subprocess.run(
        [sys.executable, str(HELPERS), json.dumps(spec)],
        cwd=elsewhere,
        env={**os.environ, "INSPECT_LOG_LEVEL": "warning", "PYTHONNOUSERSITE": "1"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    locations = json.loads(done.stdout.strip().splitlines()[-1])
    logs = [read_eval_log(location) for location in locations]
    for log in logs:
        assert log.status == "success", (log.location, log.error)
    return logs


def samples_of(log: EvalLog) -> Iterator[EvalSample]:
    assert log.samples is not None
    yield from log.samples


def header_of(path: str) -> tuple[Header, list[Any]]:
    events = read_transcript(path)
    header = events[0]
    assert isinstance(header, Header)
    return header, events


def test_two_games_two_prompt_variants_join_their_transcripts(tmp_path: Path) -> None:
    variant = tmp_path / "last.md"
    variant.write_text(f"# Variant: the last entry\n\n{LAST_ENTRY}\n", encoding="utf-8")
    transcripts = tmp_path / "transcripts"
    args = {
        "seeds": SEEDS,
        "seat": 2,
        "prompt": ["default", str(variant)],
        "transcripts": str(transcripts),
        "detail": "brief",
    }
    logs = run_evals(
        tmp_path,
        [{"task": f"cogs_arena/{game}", "args": args} for game in GAMES],
    )
    assert [log.eval.task for log in logs] == ["cogs_arena/territory", "cogs_arena/chemistry"]
    paired: dict[tuple[str, int], set[str]] = {}
    scores: dict[str, list[float]] = {"default": [], "last": []}
    for log in logs:
        game = log.eval.task.split("/")[1]
        found = list(samples_of(log))
        assert len(found) == 4
        for sample in found:
            meta = sample.metadata
            transcript = meta["transcript"]
            assert Path(transcript).parent == transcripts
            header, events = header_of(transcript)
            (seat,) = meta["cogs_arena_seats"]
            # The two records join: the transcript names the eval and the sample.
            player = header.seats[meta["seat"]].player
            assert player.labels["inspect_run"] == log.eval.eval_id
            assert player.labels["inspect_sample"] == sample.uuid
            assert player.labels["inspect_sample_id"] == str(sample.id)
            assert (player.model, player.prompt) == ("mockllm/scripted", meta["prompt"])
            assert (header.game, header.seed) == (game, meta["seed"])
            assert seat["seat"] == meta["seat"] == 2 and seat["ended"] == "over"
            # The score is the game's own outcome.
            tally = seat_tallies(events)[2]
            value = sample.scores["game_outcome"].value if sample.scores else {}
            assert isinstance(value, dict)
            assert value["finished"] == 1 and tally.score is not None
            assert (value["score"], value["rank"], value["win"]) == (
                tally.score,
                tally.rank,
                tally.win,
            )
            assert value["illegal"] == tally.illegal and value["attempts"] == tally.attempts > 0
            assert value["tool_calls"] == seat["tool_calls"] > value["attempts"]
            check_conversation(sample, game, meta["prompt"])
            assert replay(transcript).ok
            paired.setdefault((game, meta["seed"]), set()).add(meta["prompt"])
            scores[meta["prompt"]].append(float(value["score"]))
    assert paired == {(g, s): {"default", "last"} for g in GAMES for s in SEEDS}
    assert logs[0].results is not None
    metrics = logs[0].results.scores[0].metrics
    for label in ("default", "last"):  # one set of metrics per variant, never pooled
        assert metrics[f"{label}/unfinished"].value == 0 and metrics[f"{label}/games"].value == 2
        assert f"{label}/score" in metrics and f"{label}/tool_calls" in metrics
    rate_and_compare(transcripts, scores)


def check_conversation(sample: EvalSample, game: str, prompt: str) -> None:
    """The seat prompt and the rules are the system message; the model never sees or sends the
    game id or the credential."""
    system = sample.messages[0]
    assert isinstance(system, ChatMessageSystem)
    assert "# The rules" in system.text and "game_id and credential into the tools" in system.text
    assert (seat_prompt(game).strip() in system.text) == (prompt == "default")
    assert (LAST_ENTRY in system.text) == (prompt == "last")
    game_id = sample.metadata["game_id"]
    for message in sample.messages:
        assert "credential:" not in message.text
        assert game_id not in message.text
        if isinstance(message, ChatMessageAssistant):
            for call in message.tool_calls or []:
                assert not {"game_id", "credential"} & set(call.arguments)
    for event in sample.events:
        if event.event == "model":
            for info in event.tools:
                assert not {"game_id", "credential"} & set(info.parameters.properties)


def rate_and_compare(transcripts: Path, scores: dict[str, list[float]]) -> None:
    """`rate` and `compare` read the same games the eval logs scored."""

    def cli(*args: str) -> Any:
        done = subprocess.run(
            [sys.executable, "-m", "cogs_arena", *args, "--json"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    rated = cli("rate", str(transcripts), "--by", "prompt", "--bootstrap", "20")
    rows = {(r["game"], r["label"]): r for r in rated["labels"]}
    for game in GAMES:
        for label in ("default", "last"):
            assert rows[(game, label)]["finished"] == len(SEEDS)
    compared = cli("compare", str(transcripts), "--by", "prompt", "--a", "default", "--b", "last")
    assert compared["pairs"] == len(GAMES) * len(SEEDS)
    assert compared["mean_a"] == pytest.approx(sum(scores["default"]) / len(scores["default"]))
    assert compared["mean_b"] == pytest.approx(sum(scores["last"]) / len(scores["last"]))


def test_two_scripted_models_share_one_territory_game(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    args = {
        "seeds": [5],
        "roles": ["red", "blue"],
        "seat": 3,
        "bots": "raider",
        "transcripts": str(transcripts),
    }
    roles = {"red": "first", "blue": "last"}
    stopped = {"seeds": [1], "max_steps": 2, "transcripts": str(tmp_path / "stopped")}
    log, short = run_evals(
        tmp_path,
        [
            {"task": "cogs_arena/territory", "args": args, "roles": roles},
            {"task": "cogs_arena/influence", "args": stopped},
        ],
    )
    check_stopped_early(short)
    (sample,) = samples_of(log)
    red, blue = sample.metadata["cogs_arena_seats"]
    assert (red["role"], red["seat"], red["model"]) == ("red", 3, "mockllm/red")
    assert (blue["role"], blue["seat"], blue["model"]) == ("blue", 4, "mockllm/blue")
    assert red["game_id"] == blue["game_id"] and red["transcript"] == blue["transcript"]
    header, events = header_of(red["transcript"])
    assert header.seats[4].player.kind == "open"  # blue joined with its invitation
    (join,) = [e for e in events if isinstance(e, Join)]
    assert join.seat == 4 and join.player.model == "mockllm/blue"
    assert join.player.labels["role"] == "blue"
    assert join.player.labels["inspect_run"] == log.eval.eval_id
    assert header.seats[3].player.labels["inspect_sample"] == sample.uuid
    assert [header.seats[i].player.bot for i in (0, 1, 2, 5, 6, 7, 8)] == ["raider"] * 7
    tallies = seat_tallies(events)
    value = sample.scores["game_outcome"].value if sample.scores else {}
    assert isinstance(value, dict)
    for role, seat in (("red", 3), ("blue", 4)):
        assert value[f"{role}_finished"] == 1
        assert value[f"{role}_score"] == tallies[seat].score
        assert value[f"{role}_rank"] == tallies[seat].rank
        assert value[f"{role}_attempts"] == tallies[seat].attempts == 18
    assert red["ended"] == blue["ended"] == "over"
    # Two different models: their moves differ.
    moves: dict[int, list[str]] = {3: [], 4: []}
    for event in events:
        if event.type == "batch":
            for seat in moves:
                moves[seat].append(event.moves[str(seat)])
    assert moves[3] != moves[4]
    assert replay(red["transcript"]).ok


def check_stopped_early(log: EvalLog) -> None:
    """A seat the harness stops before the end scores as unfinished, from the same record."""
    (sample,) = samples_of(log)
    (seat,) = sample.metadata["cogs_arena_seats"]
    assert (seat["ended"], seat["steps"]) == ("max_steps", 2)
    value = sample.scores["game_outcome"].value if sample.scores else {}
    assert value == {
        "finished": 0,
        "illegal": 0,
        "fallbacks": 0,
        "attempts": 1,
        "tool_calls": 2,
    }
    _, events = header_of(seat["transcript"])
    assert events[-1].type != "footer" and seat_tallies(events)[0].attempts == 1
