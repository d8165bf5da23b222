"""Bad command-line input ends in a clear message and exit 2, never a traceback; every command
that reads transcripts takes files and folders alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogs_arena.server.cli.main import build_parser, main
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore


def _finished_games(folder: Path, seeds: tuple[int, ...]) -> list[Path]:
    service = GameService(MemoryStore(), folder)
    paths = []
    for seed in seeds:
        game = service.new_game("influence", seed=seed, seat="White", ruleset={"max_turns": 12})
        view = game.view
        while view.status != "over":
            view = service.play(game.game_id, game.credential, Submission(number=1)).view
        paths.append(folder / f"influence-{game.game_id}.jsonl")
    assert all(p.is_file() for p in paths)
    return paths


def test_unknown_log_level_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """`serve --log-level foo` exits 2 naming the levels (it was a ValueError traceback from
    logging); a level in lower case is taken."""
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--memory", "--log-level", "foo"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "unknown level 'foo'" in err and "debug, info, warning" in err
    assert "Traceback" not in err
    assert build_parser().parse_args(["serve", "--log-level", "info"]).log_level == "INFO"


def test_fork_of_a_missing_transcript_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`fork missing.jsonl --at 1` says the file cannot be read (it was a TranscriptError
    traceback), and so does a folder."""
    missing = tmp_path / "missing.jsonl"
    for target in (missing, tmp_path):
        code = main(["fork", str(target), "--at", "1", "--memory", "--transcripts", str(tmp_path)])
        assert code == 2
        err = capsys.readouterr().err
        assert err.startswith("cogs-arena fork: ") and str(target) in err
        assert "cannot read" in err and "Traceback" not in err


def test_score_and_replay_take_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`score DIR` and `replay DIR` read every *.jsonl under the folder (they failed with "Is a
    directory"); a file also named through its folder counts once; an empty folder is a
    problem named as such."""
    folder = tmp_path / "t"
    paths = _finished_games(folder, (1, 2))
    assert main(["score", "--json", str(folder), str(paths[0])]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["files"] == 2 and scored["problems"] == []
    assert main(["replay", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(line.split(":")[0] for line in lines) == sorted(f"ok {p}" for p in paths)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["replay", str(empty)]) == 1
    assert "a directory with no *.jsonl files" in capsys.readouterr().out
    assert main(["score", str(empty)]) == 1
    assert "a directory with no *.jsonl files" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--header-timeout", "0"),
        ("--body-timeout", "nan"),
        ("--max-connections", "0"),
        ("--max-mcp-sessions", "-1"),
        ("--mcp-session-idle", "inf"),
    ],
)
def test_http_bounds_must_be_positive(
    flag: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each HTTP bound refuses a value that would switch it off or never fire, before the
    store is opened."""
    store = tmp_path / "s.sqlite3"
    args = ["serve", "--transport", "http", "--store", str(store), flag, value]
    assert main(args) == 2
    assert capsys.readouterr().err == f"cogs-arena serve: {flag} must be a finite number over 0\n"
    assert not store.exists()
