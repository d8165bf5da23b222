"""Refused calls do not grow the record without bound: a seat that keeps calling `play` after
it submitted gets the same refusal every time, but only the first is stored; the rest are
counted and stored as one attempt with the next step, and the record still replays, scores
every call, and comes out the same for the same calls."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs_arena.server.errors import AlreadySubmitted
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript, replay, strip_wall
from cogs_arena.transcripts.evaluation.score import seat_tallies
from cogs_arena.transcripts.events import Attempt, Batch, Event
from cogs_arena.transcripts.viewer.replay_steps import describe

REPEATS = 40


def _territory(directory: Path) -> tuple[GameService, str, dict[int, str]]:
    service = GameService(MemoryStore(), directory)
    game = service.new_game("territory", seed=4, seat=0, bots=["open"], ruleset={"turns": 2})
    creds = {0: game.credential}
    for code in game.invitations.values():
        joined = service.join_game(code)
        creds[joined.seat] = joined.credential
    return service, game.game_id, creds


def _stored(service: GameService, gid: str) -> list[Event]:
    return service.store.events(gid)


def _hammered_turn(directory: Path) -> tuple[GameService, str, dict[int, str]]:
    """Seat 0 submits, then calls play REPEATS more times; the others then hold."""
    service, gid, creds = _territory(directory)
    service.play(gid, creds[0], Submission(move="hold"))
    before = len(_stored(service, gid))
    for _ in range(REPEATS):
        with pytest.raises(AlreadySubmitted) as refused:
            service.play(gid, creds[0], Submission(move="hold"))
        assert "already submitted" in str(refused.value)
    assert len(_stored(service, gid)) == before + 1, "the first refusal only is stored"
    for seat in sorted(creds)[1:]:
        service.play(gid, creds[seat], Submission(move="hold"))
    return service, gid, creds


def test_repeated_refusals_are_counted_not_stored_and_the_record_replays(tmp_path: Path) -> None:
    service, gid, _ = _hammered_turn(tmp_path / "t")
    events = _stored(service, gid)
    mine = [e for e in events if isinstance(e, Attempt) and e.seat == 0]
    assert [(e.ok, e.code, e.repeats) for e in mine] == [
        (True, None, 0),
        (False, "already_submitted", 0),
        (False, "already_submitted", REPEATS - 1),
    ]
    batch = next(e.seq for e in events if isinstance(e, Batch))
    assert mine[-1].seq < batch, "the count is stored with the next step, before it"
    record = service.store.get(gid)
    assert record is not None
    counters = record.seats[0].counters
    assert counters.attempts == REPEATS + 1 and counters.out_of_turn == REPEATS
    path = service.transcripts.path(record.transcript_name)
    assert replay(path).ok
    assert seat_tallies(read_transcript(path))[0].attempts == REPEATS + 1, "every call scores"
    names = [seat.name for seat in record.seats]
    [(kind, line)] = describe(mine[-1], names)
    assert kind == "note" and f"refused {REPEATS - 1} more times the same way" in line


def test_the_same_calls_give_the_same_record_and_a_new_decision_stores_anew(
    tmp_path: Path,
) -> None:
    runs = [_hammered_turn(tmp_path / name) for name in ("a", "b")]
    lines = []
    for service, gid, _ in runs:
        record = service.store.get(gid)
        assert record is not None
        events = read_transcript(service.transcripts.path(record.transcript_name))
        lines.append([{k: v for k, v in strip_wall(e).items() if k != "game_id"} for e in events])
    assert lines[0] == lines[1]
    service, gid, creds = runs[0]
    # The next turn: the same seat's refusal now is for another decision, so it is stored.
    service.play(gid, creds[0], Submission(move="hold"))
    before = len(_stored(service, gid))
    with pytest.raises(AlreadySubmitted):
        service.play(gid, creds[0], Submission(move="hold"))
    assert len(_stored(service, gid)) == before + 1
