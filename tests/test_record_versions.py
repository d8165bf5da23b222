"""A record that knows which rules wrote it: every header names its engine's rules and view
versions (an absent field is version 1), and `replay` of a record from another version checks what
it can and reports the rest as not checked, never as corruption.

The fixtures in `tests/fixtures/record_v1` were recorded by `scripts/record_fixtures.py` before
Chemistry's rules version 2 (engines/chemistry/rules.md C24)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.server.cli.main import main
from cogs_arena.server.errors import BadArgument
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.events import Header
from cogs_arena.transcripts.io import read_transcript

FIXTURES = Path(__file__).parent / "fixtures" / "record_v1"
GAMES = ("influence", "territory", "chemistry", "blending")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    # Not a game's file name: the conftest hook that replays every game transcript skips it.
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_fixtures_carry_no_version_so_they_read_as_version_1() -> None:
    for game in GAMES:
        first = _lines(FIXTURES / f"{game}.jsonl")[0]
        assert "rules_version" not in first and "view_version" not in first
        header = read_transcript(FIXTURES / f"{game}.jsonl")[0]
        assert isinstance(header, Header)
        assert (header.rules_version, header.view_version) == (1, 1)


def test_chemistry_plays_rules_version_2_since_c24() -> None:
    assert get_engine("chemistry").rules_version == 2


@pytest.mark.parametrize("game", GAMES)
def test_each_fixture_replays_as_far_as_its_versions_allow(game: str) -> None:
    engine = get_engine(game)
    report = replay(FIXTURES / f"{game}.jsonl")
    assert report.ok, report.mismatches
    assert report.finished
    recorded = sum(1 for e in _lines(FIXTURES / f"{game}.jsonl") if "digest" in e) - 1
    if engine.rules_version != 1:
        assert report.transitions == 0 and report.views_checked == 0
        assert not report.complete
        [gap] = report.not_checked
        assert f"recorded by {game} rules version 1" in gap and "not checked" in gap
        assert "not re-simulated" in gap
    elif engine.view_version != 1:
        assert report.transitions > 0 and report.views_checked == 0
        assert any(f"{game} view version 1" in gap for gap in report.not_checked)
    else:
        assert report.complete, report.not_checked
        assert report.transitions > 0 and report.views_checked > 0
        assert report.transitions + report.views_checked <= recorded


def test_a_forged_digest_under_the_same_version_is_still_a_mismatch(tmp_path: Path) -> None:
    lines = _lines(FIXTURES / "influence.jsonl")
    move = next(i for i, e in enumerate(lines) if e["type"] == "move" and i > 5)
    lines[move]["digest"] = "0" * 64
    report = replay(_write(tmp_path / "forged-move.jsonl", lines))
    assert not report.ok and any("digest" in m for m in report.mismatches)

    lines = _lines(FIXTURES / "influence.jsonl")
    view = next(i for i, e in enumerate(lines) if e["type"] == "view")
    lines[view]["digest"] = "f" * 64
    report = replay(_write(tmp_path / "forged-view.jsonl", lines))
    assert not report.ok and any("view digest" in m for m in report.mismatches)


def test_another_view_version_checks_transitions_and_skips_views(tmp_path: Path) -> None:
    lines = _lines(FIXTURES / "influence.jsonl")
    lines[0]["view_version"] = 99
    view = next(i for i, e in enumerate(lines) if e["type"] == "view")
    lines[view]["digest"] = "f" * 64  # a view of version 99 need not match today's
    report = replay(_write(tmp_path / "views-99.jsonl", lines))
    assert report.ok, report.mismatches
    assert report.transitions > 0 and report.views_checked == 0 and not report.complete
    assert any("view version 99" in gap for gap in report.not_checked)

    move = next(i for i, e in enumerate(lines) if e["type"] == "move" and i > 5)
    lines[move]["digest"] = "0" * 64
    report = replay(_write(tmp_path / "views-99-forged.jsonl", lines))
    assert not report.ok and any("digest" in m for m in report.mismatches)


def test_another_rules_version_still_checks_the_sequence(tmp_path: Path) -> None:
    lines = _lines(FIXTURES / "territory.jsonl")
    lines[0]["rules_version"] = 7
    del lines[2]
    report = replay(_write(tmp_path / "rules-7.jsonl", lines))
    assert not report.ok and any("seq" in m for m in report.mismatches)
    assert any("rules version 7" in gap for gap in report.not_checked)


def test_a_new_game_records_the_versions_it_was_played_by(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    for game in GAMES:
        started = service.new_game(game, seed=3, seat=0)
        [path] = (tmp_path / "t").rglob(f"{game}-{started.game_id}*.jsonl")
        header = read_transcript(path)[0]
        assert isinstance(header, Header)
        engine = get_engine(game)
        assert header.rules_version == engine.rules_version
        assert header.view_version == engine.view_version
        assert replay(path).complete


def test_the_replay_command_says_what_it_did_not_check(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(FIXTURES / "chemistry.jsonl"), str(FIXTURES / "influence.jsonl")])
    out = capsys.readouterr().out
    assert code == 0
    assert "partly checked" in out
    assert "recorded by chemistry rules version 1; this engine plays version 2" in out
    assert "FAIL" not in out and "mismatch" not in out


def test_an_old_record_is_not_forked_or_drawn_as_if_it_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    with pytest.raises(BadArgument, match="rules version 1; this server plays version 2"):
        service.fork_transcript(FIXTURES / "chemistry.jsonl", 1, seat=0)
    assert not list((tmp_path / "t").rglob("*.jsonl"))
    code = main(["view", str(FIXTURES / "chemistry.jsonl"), "-o", str(tmp_path / "c.html")])
    err = capsys.readouterr().err
    assert code == 1 and "rules version 1" in err and "not corrupt" in err
    assert not (tmp_path / "c.html").exists()
