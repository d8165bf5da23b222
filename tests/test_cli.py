"""The command line: replay (and its failure on a tampered transcript), score, demo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cogs_arena.server.cli.main import main
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts.events import TRANSITIONS


def _finished_game(tmp_path: Path, seed: int, model: str) -> str:
    service = GameService(MemoryStore(), tmp_path / "t")
    game = service.new_game(
        "influence", seed=seed, seat="White", model=model, ruleset={"max_turns": 20}
    )
    with pytest.raises(Exception, match="not a known move"):
        service.play(game.game_id, game.credential, Submission(move="zzz"))
    view = game.view
    while view.status != "over":
        view = service.play(game.game_id, game.credential, Submission(number=1)).view
    path = tmp_path / "t" / f"influence-{game.game_id}.jsonl"
    assert path.is_file()
    return str(path)


def test_replay_accepts_good_and_rejects_tampered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _finished_game(tmp_path, 1, "m1")
    assert main(["replay", path]) == 0
    assert capsys.readouterr().out.startswith("ok ")
    lines = Path(path).read_text().splitlines()
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event["type"] in TRANSITIONS:
            event["digest"] = "0" * 64
            lines[i] = json.dumps(event)
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(bad)]) == 1
    assert "digest" in capsys.readouterr().out
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"type": "nope"}\n')
    assert main(["replay", str(junk)]) == 1


def test_score_groups_by_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [_finished_game(tmp_path / str(s), s, "model-a") for s in (1, 2, 3)]
    assert main(["score", "--json", *paths]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["files"] == 3 and scored["problems"] == []
    rows = {r["label"]: r for r in scored["labels"]}
    mine = rows["influence:model-a"]
    assert mine["games"] == 3 and mine["seats"] == 3 and mine["finished"] == 3
    assert mine["illegal"] == 3 and mine["fallbacks"] == 0
    bot = rows["influence:bot:greedy"]
    assert mine["wins"] + bot["wins"] == 3
    assert main(["score", *paths]) == 0
    assert "model-a" in capsys.readouterr().out


@pytest.mark.slow
def test_demo_plays_a_game_over_stdio(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cogs_arena",
            "demo",
            "--store",
            str(tmp_path / "d.sqlite3"),
            "--max-turns",
            "30",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "Result:" in out.stdout and "Transcript:" in out.stdout
    transcript = out.stdout.rsplit("Transcript: ", 1)[1].strip()
    assert main(["replay", transcript]) == 0
