"""The GameService without MCP: seats, credentials, retries, fallbacks, talk, log, transcripts,
restarts and determinism, on Influence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs_arena.engines import (
    GameOver,
    IllegalMove,
    InvalidRuleset,
    MalformedMove,
    NotYourTurn,
    UnknownGame,
)
from cogs_arena.server.errors import BadArgument, BadCredential, UnknownGameId
from cogs_arena.server.models import NewGame
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.sessions import Session
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import read_transcript, replay, strip_wall
from cogs_arena.transcripts.events import TRANSITIONS, Fallback, Header, Player


def start(service: GameService, **kwargs: Any) -> NewGame:
    kwargs.setdefault("seed", 3)
    kwargs.setdefault("seat", "White")
    kwargs.setdefault("bots", ["greedy"])
    return service.new_game("influence", **kwargs)


def live(service: GameService, game_id: str) -> Session:
    """The game's live session (loaded from the store if it is not in memory)."""
    with service.sessions.open(game_id) as session:
        return session


def transcript(service: GameService, game_id: str) -> Path:
    record = service.store.get(game_id)
    assert record is not None
    return service.transcripts.path(record.transcript_name)


def digest(service: GameService, game_id: str) -> str:
    session = live(service, game_id)
    return session.engine.digest(session.state)


def play_out(service: GameService, game: NewGame, limit: int = 5000) -> None:
    """Plays the seat's first menu entry until the game ends."""
    view = game.view
    for _ in range(limit):
        if view.status == "over":
            return
        view = service.play(game.game_id, game.credential, Submission(number=1)).view
    raise AssertionError("game did not end")


def test_new_game_returns_seat_credential_and_view(memory_service: GameService) -> None:
    game = start(memory_service)
    assert game.seat == 0 and game.seat_name == "White"
    assert len(game.credential) >= 43  # 256 bits in URL-safe base64
    assert game.view.your_turn and "White" in game.view.text
    assert "transcript" not in game.model_dump()  # no server paths in results
    path = transcript(memory_service, game.game_id)
    assert path.name == f"influence-{game.game_id}.jsonl"
    header = read_transcript(path)[0]
    assert isinstance(header, Header)
    assert header.game == "influence" and header.seed == 3
    assert header.seats[1].player == Player(kind="bot", bot="greedy")
    assert game.credential not in path.read_text()


def test_full_game_by_number_replays(memory_service: GameService) -> None:
    game = start(memory_service, ruleset={"max_turns": 30})
    play_out(memory_service, game)
    path = transcript(memory_service, game.game_id)
    events = read_transcript(path)
    assert events[-1].type == "footer"
    report = replay(path)
    assert report.ok and report.finished and report.outcome_matches
    assert report.transitions == sum(1 for e in events if e.type in TRANSITIONS)
    with pytest.raises(GameOver):
        memory_service.play(game.game_id, game.credential, Submission(move="end"))


def test_illegal_then_second_rejection_falls_back(memory_service: GameService) -> None:
    game = start(memory_service)
    before = digest(memory_service, game.game_id)
    with pytest.raises(IllegalMove) as info:
        memory_service.play(game.game_id, game.credential, Submission(move="1,9>1,8"))
    assert "try once more" in str(info.value)
    assert digest(memory_service, game.game_id) == before
    result = memory_service.play(
        game.game_id, game.credential, Submission(move="banana"), detail="data"
    )
    # DECISIONS 5.3: the fallback ends the phase and reinforces deterministically; then the
    # bot plays Black's turn and White is to attack again
    assert result.fallback == "end; +9,1" and result.rejected is not None
    assert result.view.your_turn and result.view.observation["phase"] == "attack"
    assert result.rejected.code == "malformed_move"
    record = live(memory_service, game.game_id).record
    assert record.seats[0].counters.fallbacks == 1
    assert record.seats[0].counters.rejected == 2
    path = transcript(memory_service, game.game_id)
    kinds = [e.type for e in read_transcript(path)]
    assert "fallback" in kinds
    assert replay(path).ok


def test_malformed_move_names_the_syntax(memory_service: GameService) -> None:
    game = start(memory_service)
    with pytest.raises(MalformedMove) as info:
        memory_service.play(game.game_id, game.credential, Submission(move="attack!!"))
    assert "9,1>8,1" in str(info.value) or "row,col" in str(info.value)


def test_move_list_stops_at_first_illegal_step(memory_service: GameService) -> None:
    game = start(memory_service)
    result = memory_service.play(
        game.game_id, game.credential, Submission(moves=["9,1>8,1", "9,1>9,2", "end"])
    )
    assert result.accepted == ["9,1>8,1"]
    assert result.rejected is not None and result.rejected.index == 1
    assert result.view.your_turn


def test_bad_ids_and_credentials(memory_service: GameService) -> None:
    game = start(memory_service)
    before = digest(memory_service, game.game_id)
    with pytest.raises(UnknownGame):
        memory_service.new_game("chess")
    with pytest.raises(UnknownGameId):
        memory_service.show("nope", game.credential)
    with pytest.raises(BadCredential):
        memory_service.show(game.game_id, "wrong")
    with pytest.raises(BadCredential):
        memory_service.play(game.game_id, "", Submission(move="end"))
    with pytest.raises(InvalidRuleset) as info:
        memory_service.new_game("influence", ruleset={"colour": "red"})
    assert "colour" in str(info.value) and "max_turns" in str(info.value)
    with pytest.raises(BadArgument):
        memory_service.play(game.game_id, game.credential, Submission(move="x" * 5000))
    with pytest.raises(BadArgument):
        memory_service.play(game.game_id, game.credential, Submission(move="end", number=1))
    with pytest.raises(BadArgument):
        memory_service.talk(game.game_id, game.credential, "y" * 5000)
    with pytest.raises(BadArgument):
        memory_service.new_game("influence", bots=["nobody"])
    with pytest.raises(BadArgument):
        memory_service.new_game("influence", seat="Purple")
    with pytest.raises(MalformedMove):
        memory_service.play(game.game_id, game.credential, Submission(number=10_000))
    assert digest(memory_service, game.game_id) == before


def test_two_clients_out_of_turn_talk_and_log(memory_service: GameService) -> None:
    game = start(memory_service, bots=["open"])
    assert set(game.invitations) == {"Black"}
    with pytest.raises(NotYourTurn):
        memory_service.play(game.game_id, game.credential, Submission(move="end"))
    black = memory_service.join_game(game.invitations["Black"], model="m2")
    with pytest.raises(BadCredential):
        memory_service.join_game(game.invitations["Black"])
    assert black.seat_name == "Black"
    before = digest(memory_service, game.game_id)
    with pytest.raises(NotYourTurn) as info:
        memory_service.play(game.game_id, black.credential, Submission(move="end"))
    assert "White" in str(info.value)
    assert digest(memory_service, game.game_id) == before
    memory_service.talk(game.game_id, game.credential, "hello Black")
    assert any(
        "hello Black" in line for line in memory_service.show(game.game_id, black.credential).chat
    )
    memory_service.play(game.game_id, game.credential, Submission(move="end"))
    log = memory_service.log(game.game_id, black.credential)
    texts = [(e.type, e.text) for e in log.events]
    assert ("talk", "to all: hello Black") in texts
    assert any(kind == "move" and text == "end" for kind, text in texts)
    later = memory_service.log(game.game_id, black.credential, after=log.cursor)
    assert later.events == []


def _scripted_game(service: GameService) -> NewGame:
    game = start(service, ruleset={"max_turns": 20})
    service.play(game.game_id, game.credential, Submission(move="9,1>8,1"))
    with pytest.raises(MalformedMove):
        service.play(game.game_id, game.credential, Submission(move="garbage"))
    play_out(service, game)
    return game


def transcript_in(directory: Path, game: NewGame) -> Path:
    return directory / f"influence-{game.game_id}.jsonl"


def test_same_seed_and_moves_give_identical_transcripts(tmp_path: Path) -> None:
    first = _scripted_game(GameService(MemoryStore(), tmp_path / "a"))
    second = _scripted_game(GameService(MemoryStore(), tmp_path / "b"))
    text_a = [strip_wall(e) for e in read_transcript(transcript_in(tmp_path / "a", first))]
    text_b = [strip_wall(e) for e in read_transcript(transcript_in(tmp_path / "b", second))]
    assert text_a == text_b
    assert first.game_id != second.game_id


def test_restart_on_sqlite_resumes_the_game(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite3"
    store = SqliteStore(path)
    service = GameService(store, tmp_path / "t")
    game = start(service, ruleset={"max_turns": 25})
    for _ in range(5):
        service.play(game.game_id, game.credential, Submission(number=1))
    mid = digest(service, game.game_id)
    store.close()
    reopened = SqliteStore(path)
    restarted = GameService(reopened, tmp_path / "t")
    assert digest(restarted, game.game_id) == mid
    view = restarted.show(game.game_id, game.credential)
    assert view.your_turn
    play_out(restarted, game)
    assert replay(transcript(restarted, game.game_id)).ok
    reopened.close()


def test_spectators_read_only_and_see_hidden_things_only_after_the_end(
    memory_service: GameService,
) -> None:
    secret = "a private plan for Ochre"
    game = memory_service.new_game("territory", seed=4, seat="Sable", ruleset={"turns": 3})
    assert game.spectator_code
    with pytest.raises(BadCredential):
        memory_service.play(game.game_id, game.spectator_code, Submission(move="hold"))
    with pytest.raises(BadCredential):
        memory_service.show(game.game_id, game.spectator_code)
    with pytest.raises(BadCredential):
        memory_service.spectate_with_code(game.credential)
    memory_service.talk(game.game_id, game.credential, secret, to=["Ochre"])
    view = game.view
    while view.status != "over":
        during = memory_service.spectate_with_code(game.spectator_code)
        assert secret not in during.text + str(during.observation)
        assert "paint" not in str(during.observation.get("seats", ""))
        view = memory_service.play(game.game_id, game.credential, Submission(move="hold")).view
    after = memory_service.spectate_with_code(game.spectator_code)
    assert secret in str(after.observation)


def test_blending_fallback_plays_out_the_turn(memory_service: GameService) -> None:
    game = memory_service.new_game("blending", seed=5, seat=0, bots=["random"])
    view = game.view
    # get past setup: take the first menu entry until seat 0 has a normal turn
    while memory_service.legal_moves(game.game_id, game.credential).kinds == ["setup"]:
        view = memory_service.play(
            game.game_id, game.credential, Submission(number=1), detail="data"
        ).view
    turn_before = view.observation
    with pytest.raises(MalformedMove):
        memory_service.play(game.game_id, game.credential, Submission(move="dance"))
    result = memory_service.play(
        game.game_id, game.credential, Submission(move="fly"), detail="data"
    )
    assert result.fallback is not None and "end" in result.fallback.split("; ")
    assert result.view.your_turn and result.view.observation != turn_before
    events = read_transcript(transcript(memory_service, game.game_id))
    incidents = [e for e in events if isinstance(e, Fallback) and not e.continued]
    assert len(incidents) == 1
    assert live(memory_service, game.game_id).record.seats[0].counters.fallbacks == 1


def test_a_bot_bug_becomes_a_recorded_fallback(
    memory_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = live(memory_service, start(memory_service).game_id).engine
    real = dict(engine.bots())
    monkeypatch.setattr(type(engine), "bots", lambda self: {**real, "greedy": lambda *a: "oops"})
    game = start(memory_service)
    result = memory_service.play(game.game_id, game.credential, Submission(move="end"))
    result = memory_service.play(game.game_id, game.credential, Submission(number=1))
    assert result.view.your_turn
    events = read_transcript(transcript(memory_service, game.game_id))
    fallbacks = [e for e in events if isinstance(e, Fallback)]
    assert fallbacks and all(f.seat == 1 and f.reason == "bot_error" for f in fallbacks)
    assert live(memory_service, game.game_id).record.seats[1].counters.fallbacks >= 1
