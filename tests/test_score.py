"""Score: games are counted once per label, seats per seat, counters come from the events (so
unfinished games count), labels are printed in full, and an unreadable file is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogs_arena.server.cli.main import main
from cogs_arena.transcripts import score_files, seat_label
from cogs_arena.transcripts.events import (
    Attempt,
    Event,
    Fallback,
    Footer,
    Header,
    Join,
    Player,
    SeatEntry,
    Talk,
    event_json,
)

LONG = "provider/" + "m" * 51  # 60 characters


def llm(model: str | None = None, **kwargs: Any) -> Player:
    return Player(kind="llm", model=model, **kwargs)


def game(
    path: Path,
    players: list[Player],
    *,
    outcome: dict[str, Any] | None = None,
    body: list[Event] | None = None,
) -> Path:
    seats = [SeatEntry(index=i, name=f"S{i}", player=p) for i, p in enumerate(players)]
    events: list[Event] = [
        Header(server_version="t", game="influence", ruleset={}, seed=1, seats=seats)
    ]
    events += body or []
    if outcome is not None:
        events.append(Footer(outcome=outcome, digest="d", counters={}))
    events = [e.model_copy(update={"seq": i}) for i, e in enumerate(events, start=1)]
    path.write_text("".join(event_json(e) + "\n" for e in events), encoding="utf-8")
    return path


def won(scores: list[float], winners: list[int]) -> dict[str, Any]:
    return {"scores": scores, "ranks": [], "winners": winners, "reason": "r", "details": {}}


def rejected(seat: int, counted: bool = True) -> Attempt:
    return Attempt(seat=seat, decision=1, args={}, ok=False, counted=counted)


def test_labels() -> None:
    assert seat_label("influence", llm("gpt", client_name="c", prompt="p1")) == "influence:gpt [p1]"
    assert seat_label("influence", llm(client_name="claude-code")) == "influence:claude-code"
    assert seat_label("territory", Player(kind="bot", bot="greedy")) == "territory:bot:greedy"
    assert seat_label("influence", llm()) == "influence:llm"
    assert seat_label("influence", Player(kind="open")) == "influence:open"


def test_two_seats_of_one_label_are_one_game_and_two_seats(tmp_path: Path) -> None:
    a = game(tmp_path / "a.jsonl", [llm("m"), llm("m")], outcome=won([3.0, 1.0], [0]))
    b = game(tmp_path / "b.jsonl", [llm("m"), llm("x")], outcome=won([2.0, 2.0], [0, 1]))
    result = score_files([a, b, a])  # the same file twice counts once
    assert not result.problems and result.files == 2
    m, x = result.row("influence:m"), result.row("influence:x")
    assert m is not None and x is not None
    assert (m.games, m.seats, m.finished) == (2, 3, 3)
    assert m.wins == 1.5 and x.wins == 0.5
    assert m.mean_score == pytest.approx(2.0) and x.mean_score == 2.0


def test_joins_replace_the_seat_player(tmp_path: Path) -> None:
    path = game(
        tmp_path / "j.jsonl",
        [llm("host"), Player(kind="open")],
        body=[Join(seat=1, player=llm("guest", prompt="terse"))],
        outcome=won([0.0, 1.0], [1]),
    )
    result = score_files([path])
    assert [r.label for r in result.rows] == ["influence:guest [terse]", "influence:host"]
    guest = result.row("influence:guest [terse]")
    assert guest is not None and guest.wins == 1.0


def test_unfinished_games_keep_their_counters(tmp_path: Path) -> None:
    body: list[Event] = [
        rejected(0),
        rejected(0),
        rejected(0, counted=False),  # already submitted: not a rejection
        Attempt(seat=0, decision=2, args={}, ok=True),
        Fallback(seat=0, decision=2, reason="second_rejection", move="end", audience=[0]),
        Fallback(seat=1, decision=3, reason="deadline", move="end", audience=[1]),
        Talk(seat=1, to=None, text="hi"),
    ]
    path = game(tmp_path / "u.jsonl", [llm("a"), Player(kind="bot", bot="b")], body=body)
    result = score_files([path])
    a, b = result.row("influence:a"), result.row("influence:bot:b")
    assert a is not None and b is not None
    assert (a.games, a.seats, a.finished, a.illegal, a.fallbacks) == (1, 1, 0, 2, 1)
    assert (b.illegal, b.fallbacks) == (0, 1)
    assert a.mean_score is None and a.wins == 0.0
    assert a.to_json()["mean_score"] is None


def test_an_unreadable_file_is_reported_and_the_rest_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = game(tmp_path / "g.jsonl", [llm(LONG), llm("x")], outcome=won([1.0, 0.0], [0]))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    unfit = game(tmp_path / "f.jsonl", [llm("y")], outcome=won([1.0, 2.0], [0]))
    result = score_files([bad, good, tmp_path / "missing.jsonl", unfit])
    assert result.files == 1 and [r.label for r in result.rows] == [
        f"influence:{LONG}",
        "influence:x",
    ]
    assert [p.path for p in result.problems] == [
        str(bad),
        str(tmp_path / "missing.jsonl"),
        str(unfit),
    ]
    lines = len(good.read_text(encoding="utf-8").splitlines()) + 1
    assert result.problems[0].reason.startswith(f"line {lines}: ")
    assert "cannot read" in result.problems[1].reason
    assert "does not fit 1 seats" in result.problems[2].reason

    assert main(["score", str(good), str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"influence:{LONG} " in captured.out  # in full, not cut at 40
    assert f"skipped {bad}: line {lines}" in captured.err
    assert main(["score", "--json", str(good)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["problems"] == [] and data["labels"][0]["label"] == f"influence:{LONG}"
    assert data["labels"][0]["games"] == 1 and data["labels"][0]["seats"] == 1


def test_labels_cannot_break_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = game(tmp_path / "c.jsonl", [llm("evil\nmodel\u2028x"), llm("ok")])
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and "evil\\nmodel\\u2028x" in out[1]
