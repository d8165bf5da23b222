"""One test (or more) per numbered item of issue 9, "A record you can trust", each written to
fail on the code before the issue and pass once the record is typed, committed atomically and
read without writing. Names start with the item's number. Modules that only exist after the
issue (`server.limits`) are imported inside the tests that need them."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from http_helpers import free_port
from mcp import Client, MCPError
from mcp_helpers import call, call_error, error_text, text_of
from record_helpers import (
    FakeClock,
    FaultyStore,
    SqliteStore,
    batch_moves,
    event_type,
    footer,
    log_texts,
    stored_events,
    transcript_lines,
    transcript_of,
)

from cogs_arena.engines import GameError
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.cli.main import main as cli_main
from cogs_arena.server.models import NewGame
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.web.guard import BindRefused, HttpOptions, check_bind
from cogs_arena.transcripts import replay

SURROGATE = "\ud800"
OTHERS = 7  # the other seats of a Territory (9) or Chemistry (8) game, but one


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(tmp_path: Path, clock: FakeClock) -> GameService:
    return GameService(MemoryStore(), tmp_path / "t", clock=clock)


def influence(service: GameService, **kwargs: Any) -> NewGame:
    kwargs.setdefault("seed", 10)
    kwargs.setdefault("seat", "White")
    return service.new_game("influence", **kwargs)


def play_out(service: GameService, game: NewGame) -> None:
    view = game.view
    for _ in range(2000):
        if view.status == "over":
            return
        view = service.play(game.game_id, game.credential, Submission(number=1)).view
    raise AssertionError("the game did not end")


def score_json(capsys: pytest.CaptureFixture[str], *paths: Path) -> list[dict[str, Any]]:
    """The rows of `cogs-arena score --json`: one per label (a bare list before issue 9)."""
    capsys.readouterr()
    assert cli_main(["score", "--json", *map(str, paths)]) == 0
    printed = json.loads(capsys.readouterr().out)
    rows: list[dict[str, Any]] = printed["labels"] if isinstance(printed, dict) else printed
    return rows


# ---- 1. a lone surrogate is refused at the boundary, before anything is written ------------


@pytest.mark.parametrize("field", ["structured", "move", "moves", "why", "request_id"])
def test_1_lone_surrogate_in_play_is_refused_naming_the_field(
    service: GameService, tmp_path: Path, field: str
) -> None:
    game = influence(service)
    path = transcript_of(tmp_path / "t", game.game_id)
    events, size = len(stored_events(service, game.game_id)), path.stat().st_size
    submission = Submission(move="9,1>8,1")
    extra: dict[str, str] = {}
    if field == "structured":
        submission = Submission(structured={"from": "9,1", "to": SURROGATE})
    elif field == "move":
        submission = Submission(move="9,1>8,1" + SURROGATE)
    elif field == "moves":
        submission = Submission(moves=["9,1>8,1", SURROGATE])
    else:
        extra[field] = "r" + SURROGATE
    with pytest.raises(GameError) as info:
        service.play(game.game_id, game.credential, submission, **extra)  # type: ignore[arg-type]
    assert info.value.code == "bad_argument"
    assert field in str(info.value)
    assert len(stored_events(service, game.game_id)) == events
    assert path.stat().st_size == size
    assert service.play(game.game_id, game.credential, Submission(move="9,1>8,1")).accepted


def test_1_lone_surrogate_in_a_territory_talk_line_is_refused(
    service: GameService, tmp_path: Path
) -> None:
    game = service.new_game("territory", seed=4, seat="Sable", bots=["homesteader"])
    path = transcript_of(tmp_path / "t", game.game_id)
    events, size = len(stored_events(service, game.game_id)), path.stat().st_size
    with pytest.raises(GameError) as info:
        service.talk(game.game_id, game.credential, "psst " + SURROGATE, to=["Ash"])
    assert info.value.code == "bad_argument" and "text" in str(info.value)
    with pytest.raises(GameError) as info:
        service.play(game.game_id, game.credential, Submission(move="hold\nsay: " + SURROGATE))
    assert info.value.code == "bad_argument" and "move" in str(info.value)
    assert len(stored_events(service, game.game_id)) == events
    assert path.stat().st_size == size
    # not frozen: every seat's turns still resolve
    view = service.play(game.game_id, game.credential, Submission(move="hold")).view
    assert view.decision == 1
    service.talk(game.game_id, game.credential, "still talking", to=["Ash"])


def test_1_lone_surrogate_in_a_label_creates_no_game(service: GameService, tmp_path: Path) -> None:
    with pytest.raises(GameError) as info:
        influence(service, model="model" + SURROGATE)
    assert info.value.code == "bad_argument" and "model" in str(info.value)
    assert service.store.game_ids() == []
    assert list((tmp_path / "t").rglob("*.jsonl")) == []


@pytest.mark.anyio
async def test_1_lone_surrogate_through_mcp_is_a_bad_argument(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="influence", seed=10, seat="White")
        text = await call_error(
            client,
            "play",
            game_id=game["game_id"],
            credential=game["credential"],
            structured={"from": "9,1", "to": SURROGATE},
        )
    assert text.startswith("[bad_argument]") and "structured" in text


def test_1_store_restarts_and_games_play_after_surrogates(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "arena.sqlite3"
    store = SqliteStore(path)
    service = GameService(store, tmp_path / "t", clock=clock)
    duel = influence(service)
    nine = service.new_game("territory", seed=4, seat="Sable", bots=["homesteader"])
    with contextlib.suppress(Exception):
        service.play(duel.game_id, duel.credential, Submission(move="9,1>8,1"), why=SURROGATE)
    with contextlib.suppress(Exception):
        service.talk(nine.game_id, nine.credential, "psst " + SURROGATE, to=["Ash"])
    store.close()
    reopened = SqliteStore(path)
    try:
        restarted = GameService(reopened, tmp_path / "t", clock=clock)
        assert restarted.play(duel.game_id, duel.credential, Submission(move="9,1>8,1")).accepted
        view = restarted.play(nine.game_id, nine.credential, Submission(move="hold")).view
        assert view.decision == 1  # not rolled back, not frozen
    finally:
        reopened.close()


# ---- 2. line separators in free text keep the transcript readable ---------------------------


def test_2_line_separators_in_why_and_model_replay_and_score(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label = "sep-model\u2028a\u2029b\u0085-end"
    odd = influence(service, model=label)
    service.play(
        odd.game_id, odd.credential, Submission(move="9,1>8,1"), why="so\u2028and\u2029so\u0085"
    )
    service.settle(odd.game_id, "deadline")
    plain = influence(service, model="plain-model")
    service.settle(plain.game_id, "deadline")
    odd_path = transcript_of(tmp_path / "t", odd.game_id)
    report = replay(odd_path)
    assert report.ok and report.finished
    assert cli_main(["replay", str(odd_path)]) == 0
    rows = score_json(capsys, odd_path, transcript_of(tmp_path / "t", plain.game_id))
    labels = [row["label"] for row in rows]
    assert any("sep-model" in label and "-end" in label for label in labels), labels
    assert any("plain-model" in label for label in labels), labels


# ---- 3. fallbacks and private talk stay private ---------------------------------------------


def test_3_territory_second_rejection_fallback_keeps_private_lines_from_others(
    service: GameService,
) -> None:
    game = service.new_game(
        "territory", seed=4, seat="Sable", bots=["open"] + ["homesteader"] * OTHERS
    )
    ochre = service.join_game(game.invitations["Ochre"])
    cursor = service.show(game.game_id, ochre.credential).log_cursor
    # a raze on turn 1 is illegal; the rules keep a rejected attempt's talk and note
    bad = "raze 4,0\nsay Ash: psst-private-line\nnote: psst-private-note"
    with pytest.raises(GameError):
        service.play(game.game_id, game.credential, Submission(move=bad))
    with contextlib.suppress(GameError):
        service.play(game.game_id, game.credential, Submission(move=bad))
    assert service.show(game.game_id, game.credential).submitted  # the fallback is pending
    seen = service.log(game.game_id, ochre.credential, after=cursor)
    waited = service.poll(game.game_id, ochre.credential, cursor)
    everything = service.log(game.game_id, ochre.credential)
    for result in (seen, waited, everything):
        assert "psst-private" not in log_texts(result)
    assert [e for e in seen.events if e.seat == "Sable"] == []
    service.play(game.game_id, ochre.credential, Submission(move="hold"))
    assert "psst-private" not in log_texts(service.log(game.game_id, ochre.credential))


def test_3_chemistry_fallback_order_is_hidden_until_the_shift_resolves(
    service: GameService,
) -> None:
    game = service.new_game("chemistry", seed=3, seat=0, bots=["open"] + ["courier"] * (OTHERS - 1))
    borax = service.join_game(game.invitations["Borax"])
    cursor = service.show(game.game_id, borax.credential).log_cursor
    with pytest.raises(GameError):
        service.play(game.game_id, game.credential, Submission(move="dance"))
    with contextlib.suppress(GameError):
        service.play(game.game_id, game.credential, Submission(move="dance"))
    assert service.show(game.game_id, game.credential).submitted  # the courier order is pending
    seen = service.log(game.game_id, borax.credential, after=cursor)
    waited = service.poll(game.game_id, borax.credential, cursor)
    assert [e.text for e in seen.events if e.seat == "Argon"] == []
    assert [e.text for e in waited.events if e.seat == "Argon"] == []


def test_3_talk_to_an_eliminated_territory_seat_is_refused(service: GameService) -> None:
    # The first seed (from 0) on which the raiders eliminate a seat while Sable holds.
    for seed in range(40):
        game = service.new_game("territory", seed=seed, seat="Sable", bots=["raider"])
        view = game.view
        dead: list[str] = []
        for _ in range(18):
            dead = [s["alias"] for s in view.observation["seats"] if s["life"] == "eliminated"]
            if dead or view.status == "over":
                break
            view = service.play(
                game.game_id, game.credential, Submission(move="hold"), detail="data"
            ).view
        if dead and view.status == "active" and "Sable" not in dead:
            break
    assert dead and view.status == "active", "the raiders eliminated nobody on seeds 0..39"
    with pytest.raises(GameError) as info:
        service.talk(game.game_id, game.credential, "just between us", to=[dead[0]])
    assert dead[0] in str(info.value)


# ---- 4. a request id is stored in the same transaction as its move --------------------------


def test_4_request_id_result_survives_a_crash_after_the_move(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "arena.sqlite3"
    store = FaultyStore(path)
    service = GameService(store, tmp_path / "t", clock=clock)
    game = influence(service)
    store.crash_after(1)  # the process dies after the call's first transaction
    with contextlib.suppress(Exception):
        service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
    store.close()
    reopened = SqliteStore(path)
    try:
        restarted = GameService(reopened, tmp_path / "t", clock=clock)
        again = restarted.play(
            game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1"
        )
        assert again.replayed, "the move was committed, so its request id must be too"
        assert restarted.show(game.game_id, game.credential).decision == 1
    finally:
        reopened.close()


def test_4_a_failed_commit_leaves_no_trace_and_the_retry_applies_once(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = FaultyStore(tmp_path / "arena.sqlite3")
    try:
        service = GameService(store, tmp_path / "t", clock=clock)
        game = influence(service)
        before = service.spectate_with_code(game.spectator_code or "")
        store.fail_once()
        with pytest.raises(Exception):  # noqa: B017 - whichever error the host reports
            service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
        after = service.spectate_with_code(game.spectator_code or "")
        assert (after.decision, after.observation) == (before.decision, before.observation)
        first = service.play(
            game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1"
        )
        assert not first.replayed and first.view.decision == 1
        again = service.play(
            game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1"
        )
        assert again.replayed and service.show(game.game_id, game.credential).decision == 1
    finally:
        store.close()


# ---- 5. resume repairs finished games too ---------------------------------------------------


def test_5_resume_repairs_the_cut_transcript_of_a_finished_game(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "arena.sqlite3"
    store = SqliteStore(path)
    service = GameService(store, tmp_path / "t", clock=clock)
    game = influence(service, seed=3, ruleset={"max_turns": 6})
    play_out(service, game)
    transcript = transcript_of(tmp_path / "t", game.game_id)
    lines = transcript.read_bytes().split(b"\n")  # [..., line, footer, b""]
    # the crash came during the last write: half a line, and no footer
    transcript.write_bytes(b"\n".join(lines[:-3]) + b"\n" + lines[-3][: len(lines[-3]) // 2])
    store.close()
    reopened = SqliteStore(path)
    try:
        restarted = GameService(reopened, tmp_path / "t", clock=clock)
        restarted.resume()
        report = replay(transcript)
        assert report.ok and report.finished
        assert event_type(transcript_lines(transcript)[-1]) == "footer"
    finally:
        reopened.close()


# ---- 6. a moves list is one submission in simultaneous games --------------------------------


def test_6_territory_moves_list_is_one_submission_and_resubmitting_is_not_a_rejection(
    service: GameService, tmp_path: Path
) -> None:
    game = service.new_game(
        "territory", seed=4, seat="Sable", bots=["open"] + ["homesteader"] * OTHERS
    )
    ochre = service.join_game(game.invitations["Ochre"])
    result = service.play(
        game.game_id, game.credential, Submission(moves=["claim 4,0", "say: hello from Sable"])
    )
    assert result.rejected is None and result.fallback is None
    assert result.submitted_waiting
    with pytest.raises(GameError) as info:
        service.play(game.game_id, game.credential, Submission(move="hold"))
    assert info.value.code == "already_submitted"
    service.play(game.game_id, ochre.credential, Submission(move="hold"))
    service.settle(game.game_id, "deadline")
    path = transcript_of(tmp_path / "t", game.game_id)
    sable = batch_moves(path)[0]["0"]
    assert "claim 4,0" in sable and "say: hello from Sable" in sable
    assert footer(path)["counters"]["0"]["rejected"] == 0


def test_6_a_submission_after_one_rejection_is_not_replaced_by_a_fallback(
    service: GameService, tmp_path: Path
) -> None:
    game = service.new_game("territory", seed=4, seat="Sable", bots=["homesteader"])
    with pytest.raises(GameError):  # a raze on turn 1 is illegal: one rejection
        service.play(game.game_id, game.credential, Submission(move="raze 4,0"))
    result = service.play(
        game.game_id, game.credential, Submission(moves=["claim 4,0", "say: mine now"])
    )
    assert result.fallback is None and result.rejected is None
    service.settle(game.game_id, "deadline")
    sable = batch_moves(transcript_of(tmp_path / "t", game.game_id))[0]["0"]
    assert "claim 4,0" in sable and "say: mine now" in sable


def test_6_chemistry_moves_list_is_one_submission(service: GameService, tmp_path: Path) -> None:
    game = service.new_game("chemistry", seed=3, seat=0, bots=["courier"])
    result = service.play(
        game.game_id, game.credential, Submission(moves=["forage", "say: going for food"])
    )
    assert result.rejected is None and result.fallback is None
    service.settle(game.game_id, "deadline")
    argon = batch_moves(transcript_of(tmp_path / "t", game.game_id))[0]["0"]
    assert "forage" in argon and "going for food" in argon


# ---- 7. a play for a decision defaulted at its deadline is stale ---------------------------


def test_7_play_after_a_deadline_fallback_is_refused_as_stale(
    service: GameService, clock: FakeClock
) -> None:
    game = influence(service, seed=1, deadline_seconds=30)
    clock.now += 31
    service.tick()  # White's turn is defaulted; Black's bot moves; White is to act again
    code = game.spectator_code or ""
    before = service.spectate_with_code(code)
    with pytest.raises(GameError) as info:
        service.play(game.game_id, game.credential, Submission(number=1))
    assert info.value.code == "stale_decision"
    assert "deadline" in str(info.value)
    after = service.spectate_with_code(code)
    assert (after.decision, after.observation) == (before.decision, before.observation)


def test_7_the_next_view_names_the_fallback_then_play_works(
    service: GameService, clock: FakeClock
) -> None:
    game = influence(service, seed=1, deadline_seconds=30)
    clock.now += 31
    service.tick()
    view = service.show(game.game_id, game.credential)
    named = " ".join(view.fallbacks)
    assert "deadline" in named or "+9,1" in named, view.fallbacks
    assert service.play(game.game_id, game.credential, Submission(number=1)).accepted
    assert service.show(game.game_id, game.credential).fallbacks == []


# ---- 8. reads write nothing ------------------------------------------------------------------


def test_8_show_and_other_reads_write_nothing(service: GameService, tmp_path: Path) -> None:
    game = influence(service)
    service.show(game.game_id, game.credential)
    path = transcript_of(tmp_path / "t", game.game_id)
    events, size = len(stored_events(service, game.game_id)), path.stat().st_size
    for _ in range(100):
        service.show(game.game_id, game.credential)
    for _ in range(20):
        service.legal_moves(game.game_id, game.credential)
        service.log(game.game_id, game.credential)
        service.poll(game.game_id, game.credential, 0)
        service.spectate_with_code(game.spectator_code or "")
    assert len(stored_events(service, game.game_id)) == events
    assert path.stat().st_size == size


def test_8_show_commits_no_transaction_to_sqlite(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "arena.sqlite3"
    store = SqliteStore(path)
    monitor = sqlite3.connect(path)
    try:
        service = GameService(store, tmp_path / "t", clock=clock)
        game = influence(service)
        service.show(game.game_id, game.credential)
        # data_version changes when another connection commits anything
        version = monitor.execute("PRAGMA data_version").fetchone()[0]
        for _ in range(100):
            service.show(game.game_id, game.credential)
        service.log(game.game_id, game.credential)
        service.poll(game.game_id, game.credential, 0)
        assert monitor.execute("PRAGMA data_version").fetchone()[0] == version
    finally:
        monitor.close()
        store.close()


# ---- 9. bounds -------------------------------------------------------------------------------


def test_9_live_games_are_bounded(tmp_path: Path, clock: FakeClock) -> None:
    from cogs_arena.server.limits import Limits

    limits = Limits(max_live_games=3, games_per_minute=1000)
    service = GameService(MemoryStore(), tmp_path / "t", clock=clock, limits=limits)
    games = [influence(service, seed=i) for i in range(3)]
    with pytest.raises(GameError) as info:
        influence(service, seed=4)
    assert info.value.code == "limit_reached"
    service.settle(games[0].game_id, "deadline")  # a finished game is not live
    influence(service, seed=5)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_9_abandoned_games_stop_counting_as_live(
    tmp_path: Path, clock: FakeClock, kind: str
) -> None:
    from cogs_arena.server.limits import Limits
    from cogs_arena.server.store.sqlite import SqliteStore

    limits = Limits(max_live_games=2, games_per_minute=1000, abandoned_after=600.0)
    store = MemoryStore() if kind == "memory" else SqliteStore(tmp_path / "a.sqlite3")
    service = GameService(store, tmp_path / "t", clock=clock, limits=limits)
    first = influence(service, seed=1)
    influence(service, seed=2)
    with pytest.raises(GameError):
        influence(service, seed=3)
    clock.now += 400.0
    service.show(first.game_id, first.credential)  # a read is no sign of life: nothing changes
    service.play(first.game_id, first.credential, Submission(number=1))
    clock.now += 300.0  # the second game is 700 s untouched, the first 300 s
    influence(service, seed=4)
    with pytest.raises(GameError):
        influence(service, seed=5)
    store.close()


def test_9_games_per_minute_are_bounded(tmp_path: Path, clock: FakeClock) -> None:
    from cogs_arena.server.limits import Limits

    limits = Limits(max_live_games=1000, games_per_minute=2)
    service = GameService(MemoryStore(), tmp_path / "t", clock=clock, limits=limits)
    influence(service, seed=1)
    influence(service, seed=2)
    with pytest.raises(GameError) as info:
        influence(service, seed=3)
    assert info.value.code == "limit_reached"
    clock.now += 61
    influence(service, seed=3)


def test_9_talk_lines_per_decision_are_bounded_by_default(service: GameService) -> None:
    game = influence(service)
    refused: tuple[int, GameError] | None = None
    for n in range(1, 101):
        try:
            service.talk(game.game_id, game.credential, f"line {n}")
        except GameError as exc:
            refused = (n, exc)
            break
    assert refused is not None, "100 talk lines in one decision were all accepted"
    assert refused[1].code == "limit_reached" and refused[0] == 21
    service.play(game.game_id, game.credential, Submission(move="9,1>8,1"))
    service.talk(game.game_id, game.credential, "a new decision, a new allowance")


def test_9_talk_limit_is_configurable(tmp_path: Path, clock: FakeClock) -> None:
    from cogs_arena.server.limits import Limits

    service = GameService(
        MemoryStore(), tmp_path / "t", clock=clock, limits=Limits(talk_per_decision=3)
    )
    game = influence(service)
    for n in range(3):
        service.talk(game.game_id, game.credential, f"line {n}")
    with pytest.raises(GameError) as info:
        service.talk(game.game_id, game.credential, "one too many")
    assert info.value.code == "limit_reached"


def test_9_evicted_sessions_reload_and_keep_their_deadlines(
    tmp_path: Path, clock: FakeClock
) -> None:
    from cogs_arena.server.limits import Limits

    field = next(name for name in inspect.signature(Limits).parameters if "session" in name)
    store = SqliteStore(tmp_path / "arena.sqlite3")
    try:
        service = GameService(store, tmp_path / "t", clock=clock, limits=Limits(**{field: 2}))
        games = [influence(service, seed=i, deadline_seconds=60) for i in range(5)]
        assert len(service.sessions.live_ids()) <= 2  # memory follows the cache, not the games
        for game in games:
            result = service.play(game.game_id, game.credential, Submission(move="end"))
            assert result.view.decision == 1
        clock.now += 61
        service.tick()  # every game's deadline passes, whether its session is in memory or not
        for game in games:
            view = service.show(game.game_id, game.credential)
            assert view.decision > 1 and view.your_turn
    finally:
        store.close()


# ---- 10. the spectator resource needs the spectator code -------------------------------------


@pytest.mark.anyio
async def test_10_spectator_resource_needs_the_code(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="influence", seed=3, seat="White")
        with pytest.raises(MCPError):
            await client.read_resource(f"cogs-arena://games/{game['game_id']}/spectator")
        shown = await client.read_resource(f"cogs-arena://spectate/{game['spectator_code']}")
        assert "Influence" in text_of(shown.contents[0])


# ---- 11. the smaller points -------------------------------------------------------------------


@pytest.mark.anyio
async def test_11_log_after_a_huge_cursor_names_after(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "arena.sqlite3")
    try:
        service = GameService(store, tmp_path / "t")
        async with Client(build_server(service)) as client:
            game = await call(client, "new_game", game="influence", seed=3, seat="White")
            text = await call_error(
                client, "log", game_id=game["game_id"], credential=game["credential"], after=2**63
            )
    finally:
        store.close()
    assert "after" in text, text


@pytest.mark.anyio
async def test_11_unknown_tool_arguments_are_refused_by_name(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="influence", seed=10, seat="White")
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        text = await call_error(client, "play", **ids, move="9,1>8,1", decison=0)
        assert "decison" in text
        assert (await call(client, "show", **ids))["decision"] == 0  # nothing applied


def test_11_a_request_id_is_bound_to_its_move(service: GameService) -> None:
    game = influence(service)
    service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
    with pytest.raises(GameError) as info:
        service.play(game.game_id, game.credential, Submission(move="9,1>9,2"), request_id="r1")
    assert info.value.code == "bad_argument" and "request_id" in str(info.value)
    same = service.play(game.game_id, game.credential, Submission(move="9,1>8,1"), request_id="r1")
    assert same.replayed


def test_11_more_than_16_request_ids_are_kept(service: GameService) -> None:
    game = influence(service)
    first = ""
    for i in range(20):
        move = service.legal_moves(game.game_id, game.credential).moves[0].notation
        first = first or move
        service.play(game.game_id, game.credential, Submission(move=move), request_id=f"r{i}")
    decision = service.show(game.game_id, game.credential).decision
    again = service.play(game.game_id, game.credential, Submission(move=first), request_id="r0")
    assert again.replayed
    assert service.show(game.game_id, game.credential).decision == decision


@pytest.mark.parametrize("token", ["a", " ", "x" * 31])
def test_11_a_short_token_is_refused_beyond_loopback(token: str) -> None:
    with pytest.raises(BindRefused):
        check_bind(HttpOptions(host="0.0.0.0", auth_token=token))
    check_bind(HttpOptions(host="0.0.0.0", auth_token="t" * 32))


@pytest.mark.slow
def test_11_serve_refuses_a_short_token_beyond_loopback() -> None:
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
    command += ["--host", "0.0.0.0", "--port", str(free_port()), "--memory"]
    env = {**os.environ, "COGS_ARENA_AUTH_TOKEN": "a"}
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=15, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("the server started beyond loopback with the token 'a'")
    assert done.returncode == 2 and "32" in done.stderr, done.stderr


@pytest.mark.anyio
async def test_11_new_game_and_join_game_hold_no_server_path(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    direct = influence(service, bots=["open"])
    assert str(tmp_path) not in direct.model_dump_json()
    async with Client(build_server(service)) as client:
        created = await client.call_tool(
            "new_game", {"game": "influence", "seed": 3, "seat": "White", "bots": ["open"]}
        )
        assert created.structured_content is not None
        invitation = created.structured_content["invitations"]["Black"]
        joined = await client.call_tool("join_game", {"invitation": invitation})
    for result in (created, joined):
        blob = json.dumps(result.structured_content) + error_text(result)
        assert str(tmp_path) not in blob and ".jsonl" not in blob


@pytest.mark.anyio
async def test_11_unknown_prompt_is_invalid_params(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        with pytest.raises(MCPError) as info:
            await client.get_prompt("no_such_seat", {})
    assert info.value.code == -32602


def test_11_score_counts_games_not_seats(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = service.new_game(
        "territory", seed=4, seat="Sable", bots=["homesteader"], model="solo", ruleset={"turns": 3}
    )
    view = game.view
    while view.status != "over":
        view = service.play(game.game_id, game.credential, Submission(move="hold")).view
    rows = score_json(capsys, transcript_of(tmp_path / "t", game.game_id))
    bots = next(row for row in rows if "homesteader" in row["label"])
    assert (bots["games"], bots["seats"]) == (1, 8)


def test_11_score_keeps_the_counters_of_unfinished_games(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = influence(service, seed=3, bots=["greedy"], model="unfinished-model")
    with pytest.raises(GameError):
        service.play(game.game_id, game.credential, Submission(move="1,9>1,8"))
    with contextlib.suppress(GameError):  # the second rejection: a fallback
        service.play(game.game_id, game.credential, Submission(move="banana"))
    rows = score_json(capsys, transcript_of(tmp_path / "t", game.game_id))
    row = next(row for row in rows if "unfinished-model" in row["label"])
    # one fallback, though in Influence it plays out the rest of the turn in several steps
    assert (row["finished"], row["illegal"], row["fallbacks"]) == (0, 2, 1)


def test_11_score_prints_long_labels_in_full(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label = "a-model-label-well-beyond-forty-characters-" + "x" * 20 + "-end"
    game = influence(service, model=label)
    service.settle(game.game_id, "deadline")
    capsys.readouterr()
    assert cli_main(["score", str(transcript_of(tmp_path / "t", game.game_id))]) == 0
    assert label in capsys.readouterr().out


def test_11_nothing_is_written_after_the_footer(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = influence(service, seed=3, ruleset={"max_turns": 6})
    play_out(service, game)
    path = transcript_of(tmp_path / "t", game.game_id)
    lines, events = len(transcript_lines(path)), len(stored_events(service, game.game_id))
    service.show(game.game_id, game.credential)
    service.log(game.game_id, game.credential)
    service.poll(game.game_id, game.credential, 0)
    service.spectate_with_code(game.spectator_code or "")
    with pytest.raises(GameError):
        service.play(game.game_id, game.credential, Submission(move="end"))
    with pytest.raises(GameError):
        service.talk(game.game_id, game.credential, "good game")
    with pytest.raises(GameError):
        service.legal_moves(game.game_id, game.credential)
    assert event_type(transcript_lines(path)[-1]) == "footer"
    assert len(transcript_lines(path)) == lines
    assert len(stored_events(service, game.game_id)) == events
    assert all(row["finished"] == 1 for row in score_json(capsys, path))
