"""Replay re-simulates a record built by driving the engines directly, and reports every kind of
tampering: a state digest, a view digest, the outcome, a gap, a line after the footer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.server.cli.main import main
from cogs_arena.transcripts import TranscriptDir, read_transcript, replay, replay_events
from cogs_arena.transcripts.events import (
    Attempt,
    Batch,
    Event,
    Footer,
    Header,
    Move,
    Player,
    SeatEntry,
    Settle,
    StateTalk,
    Talk,
    ViewShown,
    event_json,
    view_digest,
)

NAME = "influence-00000000000000a1.jsonl"


def _header(game: str, ruleset: Any, seed: int, names: tuple[str, ...]) -> Header:
    seats = [
        SeatEntry(index=i, name=n, player=Player(kind="bot", bot="test"))
        for i, n in enumerate(names)
    ]
    return Header(
        server_version="test",
        game=game,
        ruleset=ruleset.model_dump(mode="json"),
        seed=seed,
        seats=seats,
        wall={"started": 0.0},
    )


def _numbered(events: list[Event]) -> list[Event]:
    return [e.model_copy(update={"seq": i}) for i, e in enumerate(events, start=1)]


def influence_record(seed: int = 5, max_turns: int = 4) -> list[Event]:
    engine = get_engine("influence")
    ruleset = engine.ruleset({"max_turns": max_turns})
    state = engine.new_game(ruleset, seed)
    events: list[Event] = [_header("influence", ruleset, seed, engine.seat_names(ruleset))]
    decision = 0
    while engine.outcome(state) is None:
        decision += 1
        seat = engine.to_act(state)[0]
        view = view_digest(engine.observe(state, seat))
        events.append(ViewShown(seat=seat, decision=decision, digest=view))
        menu = engine.legal_moves(state, seat).moves
        text = menu[(decision * 7) % len(menu)].notation
        if decision == 3:  # a refused attempt is in the record but is no transition
            events.append(
                Attempt(seat=seat, decision=decision, args={"move": "zz"}, ok=False, code="x")
            )
        state = engine.apply(state, seat, engine.parse_move(state, seat, text))
        events.append(Move(seat=seat, move=text, digest=engine.digest(state), decision=decision))
    outcome = engine.outcome(state)
    assert outcome is not None
    events.append(Footer(outcome=outcome.to_json(), digest=engine.digest(state), counters={}))
    return _numbered(events)


BLENDING_ERAS = [
    {"endgame": "last_tile", "last_tile_reshuffle": "never", "players": 3},
    {"combat": "three", "players": 3},
    {"combat": "legacy", "combat_pvp": True, "players": 3},
    {"land": "territories", "merge_tax": 1, "players": 3},
]


def bot_record(game: str, overrides: dict[str, Any], seed: int) -> list[Event]:
    """A game played by the builder bots, each decision's view and move recorded."""
    from cogs_arena.engines.rng import Stream

    engine = get_engine(game)
    ruleset = engine.ruleset(overrides)
    state = engine.new_game(ruleset, seed)
    events: list[Event] = [_header(game, ruleset, seed, engine.seat_names(ruleset))]
    bot, rng = engine.bots()["builder"], Stream(seed, "record")
    decision = 0
    while engine.outcome(state) is None:
        decision += 1
        seat = engine.to_act(state)[0]
        view = engine.observe(state, seat)
        events.append(ViewShown(seat=seat, decision=decision, digest=view_digest(view)))
        text = bot(view, engine.legal_moves(state, seat), rng)
        state = engine.apply(state, seat, engine.parse_move(state, seat, text))
        events.append(Move(seat=seat, move=text, digest=engine.digest(state), decision=decision))
    outcome = engine.outcome(state)
    assert outcome is not None
    events.append(Footer(outcome=outcome.to_json(), digest=engine.digest(state), counters={}))
    return _numbered(events)


@pytest.mark.parametrize("overrides", BLENDING_ERAS, ids=lambda o: "-".join(map(str, o.values())))
def test_blending_eras_replay(tmp_path: Path, overrides: dict[str, Any]) -> None:
    events = bot_record("blending", overrides, 2)
    report = replay(write(tmp_path / "b.jsonl", events))
    assert report.ok, report.mismatches
    assert report.finished and report.outcome_matches and report.transitions > 50
    i = [n for n, e in enumerate(events) if isinstance(e, Move)][-5]
    events[i] = events[i].model_copy(update={"digest": "0" * 64})
    assert not replay(write(tmp_path / "t.jsonl", events)).ok


def write(path: Path, events: list[Event]) -> Path:
    path.write_text("".join(event_json(e) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.fixture
def record(tmp_path: Path) -> tuple[Path, list[Event]]:
    events = influence_record()
    TranscriptDir(tmp_path).append(NAME, events)
    return tmp_path / NAME, events


def _first(events: list[Event], kind: type[Any]) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, kind))


def test_a_real_game_replays(record: tuple[Path, list[Event]]) -> None:
    path, events = record
    report = replay(path)
    assert report.ok, report.mismatches
    moves = sum(isinstance(e, Move) for e in events)
    assert report.transitions == moves > 4
    assert report.views_checked == sum(isinstance(e, ViewShown) for e in events)
    assert report.finished and report.outcome_matches
    assert report.game == "influence" and report.path == str(path)
    footer = events[-1]
    assert isinstance(footer, Footer) and report.final_digest == footer.digest
    assert replay_events(read_transcript(path)) == replay_events(events)


def test_a_tampered_state_digest_is_reported(tmp_path: Path) -> None:
    events = influence_record()
    i = _first(events, Move)
    events[i] = events[i].model_copy(update={"digest": "0" * 64})
    report = replay(write(tmp_path / "t.jsonl", events))
    assert not report.ok and not report.finished  # replay stops: every later state differs
    assert len(report.mismatches) == 1 and f"line {i + 1}: move digest" in report.mismatches[0]
    assert "recorded 000000000000" in report.mismatches[0]


def test_a_tampered_view_digest_is_reported(tmp_path: Path) -> None:
    events = influence_record()
    i = [n for n, e in enumerate(events) if isinstance(e, ViewShown)][2]
    events[i] = events[i].model_copy(update={"digest": "f" * 32})
    report = replay(write(tmp_path / "t.jsonl", events))
    assert len(report.mismatches) == 1
    assert report.mismatches[0].startswith(f"line {i + 1}: view digest for seat")
    assert report.finished and report.outcome_matches  # the rest still replayed


def test_a_line_after_the_footer_is_reported(tmp_path: Path) -> None:
    events = influence_record()
    late = ViewShown(seq=len(events) + 1, seat=0, decision=99, digest="a" * 32)
    report = replay(write(tmp_path / "t.jsonl", [*events, late]))
    assert report.finished
    assert report.mismatches == [
        f"line {len(events) + 1}: view event after the footer (line {len(events)})"
    ]


def test_a_wrong_outcome_a_gap_and_a_bad_move_are_reported(tmp_path: Path) -> None:
    events = influence_record()
    footer = events[-1]
    assert isinstance(footer, Footer)
    outcome = dict(footer.outcome, scores=[9.0, 9.0])
    tampered = [*events[:-1], footer.model_copy(update={"outcome": outcome})]
    report = replay(write(tmp_path / "o.jsonl", tampered))
    assert report.outcome_matches is False
    assert report.mismatches == [f"line {len(events)}: outcome differs from the footer"]

    gap = [*events[:2], *events[3:]]  # a lost line shows as a gap in seq
    report = replay(write(tmp_path / "g.jsonl", gap))
    assert report.mismatches[0] == "line 3: seq 4, expected 3"

    i = _first(events, Move)
    bad = list(events)
    bad[i] = bad[i].model_copy(update={"move": "99,99>98,98"})
    report = replay(write(tmp_path / "m.jsonl", bad))
    assert len(report.mismatches) == 1
    assert report.mismatches[0].startswith(f"line {i + 1}: move failed:")
    assert not report.finished


def test_an_unreadable_or_unstartable_file_is_a_mismatch_not_a_crash(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"type": "nope"}\n')
    report = replay(junk)
    assert not report.ok and "junk.jsonl: line 1" in report.mismatches[0]
    events = influence_record()
    header = events[0]
    assert isinstance(header, Header)
    unknown = [header.model_copy(update={"game": "chess"}), *events[1:]]
    report = replay(write(tmp_path / "u.jsonl", unknown))
    assert report.mismatches[0].startswith("line 1: cannot start the game:")


def test_a_simultaneous_game_with_talk_and_settle_replays(tmp_path: Path) -> None:
    engine = get_engine("territory")
    ruleset = engine.ruleset({})
    state = engine.new_game(ruleset, 3)
    events: list[Event] = [_header("territory", ruleset, 3, engine.seat_names(ruleset))]
    for decision in (1, 2):
        state = engine.talk(state, 0, "to you\u2028two", (1,))
        events.append(
            StateTalk(
                seat=0,
                to=[1],
                text="to you\u2028two",
                digest=engine.digest(state),
                decision=decision,
                audience=[0, 1],
            )
        )
        events.append(Talk(seat=2, to=None, text="aside"))
        moves = {s: engine.default_move(state, s) for s in engine.to_act(state)}
        state = engine.apply_batch(state, moves)
        texts = {str(s): engine.move_text(m) for s, m in moves.items()}
        events.append(Batch(moves=texts, digest=engine.digest(state), decision=decision))
        events.append(
            ViewShown(seat=4, decision=decision, digest=view_digest(engine.observe(state, 4)))
        )
    state = engine.settle(state, "time limit")
    events.append(Settle(reason="time limit", digest=engine.digest(state), decision=3))
    outcome = engine.outcome(state)
    assert outcome is not None
    events.append(Footer(outcome=outcome.to_json(), digest=engine.digest(state), counters={}))
    name = "territory-00000000000000b2.jsonl"
    TranscriptDir(tmp_path).append(name, _numbered(events))
    report = replay(tmp_path / name)
    assert report.ok, report.mismatches
    assert report.transitions == 5 and report.views_checked == 2 and report.finished


def test_cli_replay_prints_one_line_per_file_and_fails_on_a_mismatch(
    record: tuple[Path, list[Event]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, events = record
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok {path}: influence, ") and "finished" in out
    assert len(out.splitlines()) == 1
    late = Talk(seq=len(events) + 1, seat=0, to=None, text="gg")
    bad = write(tmp_path / "late.jsonl", [*events, late])
    assert main(["replay", str(path), str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ok ") and lines[1].startswith(f"FAIL {bad}")
    assert "after the footer" in lines[2]
