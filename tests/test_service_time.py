"""Deadlines, absent seats, join timeouts, game time limits, waiting, races and retried requests,
all on a fake clock so nothing sleeps."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from record_helpers import FakeClock

from cogs_arena.engines import NotYourTurn
from cogs_arena.server.errors import BadArgument, BadCredential, StaleDecision
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.store.records import GameRecord
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Fallback, Move


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(tmp_path: Path, clock: FakeClock) -> GameService:
    return GameService(MemoryStore(), tmp_path / "t", clock=clock)


def record_of(service: GameService, game_id: str) -> GameRecord:
    """The live session's record. A call that fails puts a fresh copy in place (the store's),
    so fetch it again after one."""
    with service.sessions.open(game_id) as session:
        return session.record


def transcript(service: GameService, game_id: str) -> Path:
    record = service.store.get(game_id)
    assert record is not None
    return service.transcripts.path(record.transcript_name)


def _fallbacks(path: Path, *, first_only: bool = False) -> list[tuple[int, str, str]]:
    """Fallback events; with first_only, one per incident (not the rest-of-turn moves)."""
    return [
        (e.seat, e.reason, e.move)
        for e in read_transcript(path)
        if isinstance(e, Fallback) and not (first_only and e.continued)
    ]


def test_deadline_default_is_recorded_as_fallback(service: GameService, clock: FakeClock) -> None:
    game = service.new_game("influence", seed=1, seat="White", deadline_seconds=30)
    clock.now += 29
    assert service.tick() == 0
    clock.now += 2
    assert service.tick() == 1
    # the deadline default plays out White's turn: end the attacks, then reinforce
    assert _fallbacks(transcript(service, game.game_id)) == [
        (0, "deadline", "end"),
        (0, "deadline", "+9,1"),
    ]
    assert service.show(game.game_id, game.credential).your_turn
    seat = record_of(service, game.game_id).seats[0]
    assert seat.counters.fallbacks == 1 and seat.counters.missed_deadlines == 1
    assert not seat.absent
    assert replay(transcript(service, game.game_id)).ok


def test_three_missed_deadlines_make_a_seat_absent_until_it_acts(
    service: GameService, clock: FakeClock
) -> None:
    game = service.new_game(
        "influence", seed=2, seat="White", deadline_seconds=10, ruleset={"max_turns": 40}
    )
    for _ in range(3):
        clock.now += 11
        service.tick()
    record = record_of(service, game.game_id)
    assert record.seats[0].absent and record.seats[0].consecutive_missed == 3
    kinds = [e.type for e in read_transcript(transcript(service, game.game_id))]
    assert "absent" in kinds
    # absent: defaulted at once, without waiting for a deadline, until the game ends
    service.show(game.game_id, game.credential)
    reasons = [r for _, r, _ in _fallbacks(transcript(service, game.game_id), first_only=True)]
    assert reasons[:3] == ["deadline"] * 3 and "absent" in reasons[3:]
    assert record.status == "over"
    assert replay(transcript(service, game.game_id)).ok


def test_absent_flag_clears_when_the_seat_plays(service: GameService, clock: FakeClock) -> None:
    game = service.new_game(
        "influence", seed=4, seat="White", bots=["open"], join_timeout=60, deadline_seconds=5
    )
    black = service.join_game(game.invitations["Black"])
    # as if White had missed two deadlines already: the next miss makes it absent
    record_of(service, game.game_id).seats[0].consecutive_missed = 2
    clock.now += 6
    assert service.tick() == 1
    assert record_of(service, game.game_id).seats[0].absent
    # White is absent: its decisions are defaulted at once, so Black is to move now
    view = service.show(game.game_id, black.credential)
    assert view.your_turn
    service.play(game.game_id, black.credential, Submission(move="end"))
    # White's next turn is defaulted at once, so it is Black's turn again
    assert service.show(game.game_id, black.credential).your_turn
    assert record_of(service, game.game_id).seats[0].absent
    # White's decisions were played for it since its last view: a play now is refused as
    # stale and names what was played, instead of being applied to a later decision
    with pytest.raises(StaleDecision, match="played for you"):
        service.play(game.game_id, game.credential, Submission(move="end"))
    assert service.show(game.game_id, game.credential).decision > 0
    with pytest.raises(NotYourTurn):
        service.play(game.game_id, game.credential, Submission(move="end"))
    # any play, even out of turn, shows the seat is back (and is kept in the store)
    assert not record_of(service, game.game_id).seats[0].absent
    stored = service.store.get(game.game_id)
    assert stored is not None and not stored.seats[0].absent


def test_join_timeout_starts_with_defaults_or_forfeits(
    service: GameService, clock: FakeClock
) -> None:
    nobody = service.new_game("influence", seed=5, seat="White", bots=["open"], join_timeout=60)
    clock.now += 61
    service.tick()
    record = record_of(service, nobody.game_id)
    assert record.status == "over"
    outcome = service.show(nobody.game_id, nobody.credential).outcome
    assert outcome is not None and outcome["reason"] == "forfeit"
    assert replay(transcript(service, nobody.game_id)).ok

    game = service.new_game("influence", seed=6, seat="White", bots=["open"], join_timeout=60)
    with pytest.raises(NotYourTurn):
        service.play(game.game_id, game.credential, Submission(move="end"))


def test_join_timeout_with_some_joined_starts_the_game(tmp_path: Path, clock: FakeClock) -> None:
    service = GameService(MemoryStore(), tmp_path / "t", clock=clock)
    game = service.new_game(
        "chemistry", seed=1, seat=0, bots=["open", "open"] + ["courier"] * 5, join_timeout=30
    )
    assert len(game.invitations) == 2
    first = next(iter(game.invitations.values()))
    joined = service.join_game(first)
    clock.now += 31
    service.tick()
    record = record_of(service, game.game_id)
    assert record.status == "active"
    empty = [s for s in record.seats if s.kind == "open"]
    assert len(empty) == 1 and empty[0].absent
    waiting = service.play(game.game_id, game.credential, Submission(number=1))
    assert waiting.submitted_waiting and waiting.view.decision == 0
    result = service.play(game.game_id, joined.credential, Submission(number=1))
    assert result.view.decision == 1  # the shift ran with the empty seat defaulted
    assert any(r == "absent" for _, r, _ in _fallbacks(transcript(service, game.game_id)))


def test_game_time_limit_settles(service: GameService, clock: FakeClock) -> None:
    game = service.new_game("influence", seed=7, seat="White", time_limit=600)
    service.play(game.game_id, game.credential, Submission(number=1))
    clock.now += 601
    view = service.show(game.game_id, game.credential)
    assert view.status == "over" and view.outcome is not None
    assert view.outcome["reason"] == "deadline"
    assert replay(transcript(service, game.game_id)).ok


def test_poll_reports_each_trigger(service: GameService) -> None:
    game = service.new_game("influence", seed=8, seat="White", bots=["open"])
    black = service.join_game(game.invitations["Black"])
    cursor = service.show(game.game_id, black.credential).log_cursor
    waiting = service.poll(game.game_id, black.credential, cursor)
    assert not waiting.ready and waiting.reason == "timeout"
    service.talk(game.game_id, game.credential, "hi")
    heard = service.poll(game.game_id, black.credential, cursor)
    assert heard.ready and heard.reason == "events" and heard.events[0].type == "talk"
    assert service.poll(game.game_id, game.credential, 0).reason == "your_turn"
    service.play(game.game_id, game.credential, Submission(move="end"))
    service.play(game.game_id, game.credential, Submission(number=1))
    assert service.poll(game.game_id, black.credential, heard.cursor).reason == "your_turn"
    service.settle(game.game_id, "deadline")
    assert service.poll(game.game_id, black.credential, 0).reason == "game_over"
    with pytest.raises(BadCredential):
        service.poll(game.game_id, "nope", 0)


def test_race_for_one_seat_applies_exactly_one_move(service: GameService) -> None:
    game = service.new_game("influence", seed=9, seat="White")
    decision = game.view.decision
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit(move: str) -> None:
        barrier.wait()
        try:
            service.play(
                game.game_id, game.credential, Submission(move=move), expect_decision=decision
            )
            outcomes.append("applied")
        except StaleDecision:
            outcomes.append("stale")

    threads = [threading.Thread(target=submit, args=(m,)) for m in ("9,1>8,1", "9,1>9,2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale"]
    events = read_transcript(transcript(service, game.game_id))
    assert len([e for e in events if isinstance(e, Move)]) == 1


def test_retried_request_id_is_not_applied_twice(service: GameService) -> None:
    game = service.new_game("influence", seed=10, seat="White")
    first = service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
    again = service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
    assert again.replayed and not first.replayed
    assert again.accepted == first.accepted
    events = read_transcript(transcript(service, game.game_id))
    assert len([e for e in events if isinstance(e, Move)]) == 1
    # a rejected request replays its error without counting a second rejection
    for _ in range(2):
        with pytest.raises(Exception, match=r"[Ii]llegal|not"):
            service.play(game.game_id, game.credential, Submission(move="1,9>1,8"), request_id="r2")
    seat = record_of(service, game.game_id).seats[0]
    assert seat.counters.fallbacks == 0 and seat.rejections_this_decision == 1
    # every id is kept, not only the last few: r1 still answers after 20 more requests
    for n in range(20):
        played = service.play(
            game.game_id, game.credential, Submission(number=1), request_id=f"n{n}"
        )
        assert not played.replayed
    late = service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
    assert late.replayed and late.accepted == first.accepted
    # an id is bound to its move: the same id with another move is refused, not replayed
    with pytest.raises(BadArgument, match="r1"):
        service.play(game.game_id, game.credential, Submission(number=1), request_id="r1")
