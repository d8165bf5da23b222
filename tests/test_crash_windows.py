"""Fault injection at each crash window of a step: the store commit fails; the store commit
succeeds and the transcript write fails; the process dies right after a game's final commit."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.sessions import NotSaved
from cogs_arena.server.store.memory import Commit, MemoryStore
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.events import Event, Footer
from cogs_arena.transcripts.io import TranscriptDir, read_transcript


class FlakyTranscripts(TranscriptDir):
    """Fails every append while `broken` is set, as a full disk would."""

    broken = False

    def append(self, name: str, events: Sequence[Event]) -> None:
        if self.broken:
            raise OSError("no space left on device")
        super().append(name, events)


class FlakyStore(MemoryStore):
    broken = False

    def commit(self, commit: Commit) -> None:
        if self.broken:
            raise OSError("disk I/O error")
        super().commit(commit)


def _path(tmp_path: Path, game: str, game_id: str) -> Path:
    return tmp_path / "t" / f"{game}-{game_id}.jsonl"


def test_a_failed_store_commit_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    store = FlakyStore()
    service = GameService(store, tmp_path / "t")
    game = service.new_game("influence", seed=3, bots=["greedy"])
    before = service.show(game.game_id, game.credential)
    events_before = len(store.events(game.game_id))
    store.broken = True
    with pytest.raises(NotSaved, match="nothing changed"):
        service.play(game.game_id, game.credential, Submission(number=1), request_id="a")
    store.broken = False
    # The live session was put back: same decision, same view, same counters, same record.
    after = service.show(game.game_id, game.credential)
    assert after.decision == before.decision and after.text == before.text
    assert len(store.events(game.game_id)) == events_before
    session = service.sessions.peek(game.game_id)
    assert session is not None and session.record.seats[game.seat].counters.attempts == 0
    # The retry with the same request id is applied exactly once.
    result = service.play(game.game_id, game.credential, Submission(number=1), request_id="a")
    assert result.accepted and not result.replayed
    again = service.play(game.game_id, game.credential, Submission(number=1), request_id="a")
    assert again.replayed and again.accepted == result.accepted
    moves = [e for e in store.events(game.game_id) if e.type == "move" and e.seat == game.seat]
    assert len(moves) == 1


def test_a_failed_transcript_write_is_mended_from_the_store(tmp_path: Path) -> None:
    transcripts = FlakyTranscripts(tmp_path / "t")
    store = SqliteStore(tmp_path / "a.sqlite3")
    service = GameService(store, tmp_path / "t", transcripts=transcripts)
    game = service.new_game("influence", seed=5, bots=["greedy"])
    path = _path(tmp_path, "influence", game.game_id)
    transcripts.broken = True
    # The step is saved, so the client is told it was accepted, not an error.
    result = service.play(game.game_id, game.credential, Submission(number=1))
    assert result.accepted
    record = store.get(game.game_id)
    assert record is not None
    assert len(read_transcript(path)) < record.event_count
    transcripts.broken = False
    service.play(game.game_id, game.credential, Submission(number=1))
    record = store.get(game.game_id)
    assert record is not None
    assert [e.seq for e in read_transcript(path)] == list(range(1, record.event_count + 1))
    assert replay(path).ok
    store.close()


def test_a_transcript_cut_short_is_mended_at_the_next_start(tmp_path: Path) -> None:
    transcripts = FlakyTranscripts(tmp_path / "t")
    store = SqliteStore(tmp_path / "a.sqlite3")
    service = GameService(store, tmp_path / "t", transcripts=transcripts)
    game = service.new_game("influence", seed=5, bots=["greedy"])
    transcripts.broken = True
    service.play(game.game_id, game.credential, Submission(number=1))
    store.close()
    # A crash: the process is gone before anything mended the file.
    restarted = GameService(SqliteStore(tmp_path / "a.sqlite3"), tmp_path / "t")
    assert game.game_id in restarted.resume_report.transcripts_repaired
    assert replay(_path(tmp_path, "influence", game.game_id)).ok
    restarted.store.close()


def test_a_crash_right_after_the_final_commit_still_ends_with_a_footer(tmp_path: Path) -> None:
    transcripts = FlakyTranscripts(tmp_path / "t")
    store = SqliteStore(tmp_path / "a.sqlite3")
    service = GameService(store, tmp_path / "t", transcripts=transcripts)
    game = service.new_game("chemistry", seed=2)
    path = _path(tmp_path, "chemistry", game.game_id)
    for _ in range(11):
        service.play(game.game_id, game.credential, Submission(move="idle"))
    transcripts.broken = True
    last = service.play(game.game_id, game.credential, Submission(move="idle"))
    assert last.view.status == "over"
    assert not isinstance(read_transcript(path)[-1], Footer)
    store.close()
    restarted = GameService(SqliteStore(tmp_path / "a.sqlite3"), tmp_path / "t")
    assert game.game_id in restarted.resume_report.transcripts_repaired
    events = read_transcript(path)
    assert isinstance(events[-1], Footer)
    report = replay(path)
    assert report.ok and report.finished
    restarted.store.close()


def test_a_game_that_cannot_be_loaded_is_reported_not_fatal(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "a.sqlite3")
    service = GameService(store, tmp_path / "t")
    good = service.new_game("influence", seed=1)
    bad = service.new_game("influence", seed=2)
    store._db.execute("UPDATE games SET state = '{\"broken\": true}' WHERE id = ?", (bad.game_id,))
    store.close()
    restarted = GameService(SqliteStore(tmp_path / "a.sqlite3"), tmp_path / "t")
    assert [p.split(":")[0] for p in restarted.resume_report.problems] == [bad.game_id]
    assert restarted.play(good.game_id, good.credential, Submission(number=1)).accepted
    restarted.store.close()
