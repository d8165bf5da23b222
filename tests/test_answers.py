"""Answers that must be true (issue 20), read through the MCP adapter as a client reads them:
rejections in one shape, a game won inside a batch, Influence's news of `end`, Territory talk
reaching its readers at resolve (and not before), talk counters, an eliminated seat, one move
read alike in both forms, and the empty move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call, call_error, error_text

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import bot_stream
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript
from cogs_arena.transcripts.evaluation.score import seat_tallies

pytestmark = pytest.mark.anyio

TERRITORY = get_engine("territory")


async def answer(client: Client, tool: str, **arguments: Any) -> tuple[bool, str, dict[str, Any]]:
    """(is_error, text, structured content) of one call."""
    result = await client.call_tool(tool, arguments)
    assert result.structured_content is not None, error_text(result)
    return bool(result.is_error), error_text(result), dict(result.structured_content)


# ---- a rejection inside a batch reads like one ---------------------------------------------


async def test_first_and_second_rejections_single_or_batched_answer_in_one_shape(
    tmp_path: Path,
) -> None:
    """A batch whose second move is refused was answered without the error flag and without
    the tries left; a second rejection (the fallback) without the error flag. Now each is a
    tool error with the reason, what was applied, the tries left and the structured fields."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="influence", seed=4, seat="White")
        gid, cred = game["game_id"], game["credential"]
        failed, text, first = await answer(
            client, "play", game_id=gid, credential=cred, moves=["9,1>8,1", "8,1>8,1"]
        )
        assert failed and text.startswith("[illegal_move] Move 2 ('8,1>8,1') rejected:")
        assert "Applied before it: 9,1>8,1." in text and "try once more" in text
        assert first["accepted"] == ["9,1>8,1"] and first["rejected"]["index"] == 1
        assert first["fallback"] is None and first["tries_left"] == 1
        assert first["error"] == text.split("\n")[0]
        failed, text, second = await answer(
            client, "play", game_id=gid, credential=cred, move="8,1>8,1", request_id="r2"
        )
        assert failed and text.startswith("[illegal_move] ")
        assert "Nothing you sent was applied." in text and "no tries are left" in text
        assert second["rejected"]["code"] == "illegal_move" and second["tries_left"] == 0
        assert second["fallback"] is not None and second["fallback"] in text
        # The request id's answer is the same, in the same shape.
        failed, again_text, again = await answer(
            client, "play", game_id=gid, credential=cred, move="8,1>8,1", request_id="r2"
        )
        assert failed and again["replayed"] and again["error"] == second["error"]
        assert again_text.startswith(second["error"])
        # A first single rejection in another game: the same shape as the batched one.
        other = await call(client, "new_game", game="influence", seed=4, seat="White")
        failed, text, single = await answer(
            client,
            "play",
            game_id=other["game_id"],
            credential=other["credential"],
            move="8,1>8,1",
        )
        assert failed and "Nothing you sent was applied." in text and "try once more" in text
        assert single["rejected"]["index"] == 0 and single["tries_left"] == 1
        assert single["fallback"] is None and single["accepted"] == []


# ---- a game won inside a batch ---------------------------------------------------------------

TINY = {"cells": [[0, 0], [0, 1], [0, 2]], "init": {"0,0": 5, "0,1": -1}}


async def test_moves_after_the_winning_one_are_not_applied_and_not_counted(
    tmp_path: Path,
) -> None:
    """The moves after a batch's winning move were refused as an illegal attempt (`score`
    counted `illegal 1` against the winner); now they are "not applied", uncounted."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(
            client, "new_game", game="influence", seed=1, seat="White", ruleset={"map": TINY}
        )
        gid, cred = game["game_id"], game["credential"]
        failed, text, result = await answer(
            client, "play", game_id=gid, credential=cred, moves=["0,0>0,1", "end", "+0,0"]
        )
        assert not failed, text
        assert result["accepted"] == ["0,0>0,1"] and result["rejected"] is None
        assert result["view"]["status"] == "over"
        stop = result["not_applied"]
        assert stop is not None and stop["index"] == 1
        assert "the game ended after move 1, so 2 moves not applied" in stop["reason"]
        assert "the game ended after move 1" in text
    (path,) = (tmp_path / "t").glob("*.jsonl")
    tallies = seat_tallies(read_transcript(path))
    assert tallies[0].illegal == 0
    footer = read_transcript(path)[-1]
    assert footer.type == "footer" and footer.counters["0"]["rejected"] == 0


# ---- Influence news: `end` has no outcome ----------------------------------------------------


async def test_end_after_fewer_attacks_than_last_turn_reports_nothing(tmp_path: Path) -> None:
    """`end` read the previous turn's record and reported its last attack as a capture
    (`end: captured (was empty) at 1`) when that turn had more attacks; in `log` and in the
    other seat's catch-up lines `end` now stands alone."""
    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as white, Client(server) as black:
        game = await call(white, "new_game", game="influence", seed=4, seat="White", bots=["open"])
        gid, wcred = game["game_id"], game["credential"]
        joined = await call(black, "join_game", invitation=game["invitations"]["Black"])
        bcred = joined["credential"]

        async def finish_turn(client: Client, cred: str) -> None:
            await call(client, "play", game_id=gid, credential=cred, move="end")
            while (await call(client, "show", game_id=gid, credential=cred))["your_turn"]:
                await call(client, "play", game_id=gid, credential=cred, number=1)

        for _ in range(2):
            menu = await call(white, "legal_moves", game_id=gid, credential=wcred, kind="attack")
            move = menu["moves"][0]["notation"]
            await call(white, "play", game_id=gid, credential=wcred, move=move)
        await finish_turn(white, wcred)
        await finish_turn(black, bcred)
        cursor = (await call(black, "show", game_id=gid, credential=bcred))["log_cursor"]
        ended = await call(white, "play", game_id=gid, credential=wcred, move="end")
        assert ended["accepted"] == ["end"]
        lines = (await call(white, "log", game_id=gid, credential=wcred, after=0))["events"]
        ends = [e["text"] for e in lines if e["type"] == "move" and e["text"].startswith("end")]
        assert ends == ["end", "end", "end"], ends
        seen = await call(black, "log", game_id=gid, credential=bcred, after=cursor)
        assert [e["text"] for e in seen["events"] if e["type"] == "move"] == ["end"]
        view = await call(black, "show", game_id=gid, credential=bcred)
        catch_up = [n for entry in view["since"] for n in [entry["move"], *entry["news"]]]
        assert "end" in catch_up and not any("captured" in str(n) for n in catch_up), catch_up


# ---- Territory talk reaches the others' log and wait at resolve, not before ----------------


async def test_territory_talk_reaches_log_and_wait_at_resolve_and_not_before(
    tmp_path: Path,
) -> None:
    """A line sent with `talk` showed in the recipients' `show` after the resolve but never in
    their `log` or `wait`. Now it reaches them with the turn; before the resolve nobody but the
    sender reads it anywhere (log, wait, show, the spectator's log)."""
    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as sable, Client(server) as ochre:
        game = await call(
            sable,
            "new_game",
            game="territory",
            seed=7,
            seat="Sable",
            bots=["open"] + ["homesteader"] * 7,
        )
        gid, scred = game["game_id"], game["credential"]
        joined = await call(ochre, "join_game", invitation=game["invitations"]["Ochre"])
        ocred = joined["credential"]
        code = game["spectator_code"]
        cursor = (await call(ochre, "show", game_id=gid, credential=ocred))["log_cursor"]
        await call(
            sable, "talk", game_id=gid, credential=scred, text="mkDm for Ochre", to=["Ochre"]
        )
        await call(sable, "talk", game_id=gid, credential=scred, text="mkPublic hello")
        mine = await call(sable, "log", game_id=gid, credential=scred, after=0)
        assert sum("mkDm" in e["text"] for e in mine["events"]) == 1, "the sender reads it"
        # Before the resolve: a leak anywhere but the sender's own record.
        before = [
            await call(ochre, "log", game_id=gid, credential=ocred, after=cursor),
            await call(ochre, "wait", game_id=gid, credential=ocred, after=cursor, timeout=0.1),
            await call(ochre, "show", game_id=gid, credential=ocred),
            service.spectator_log(code, 0, 500)[0],
        ]
        for read in before:
            assert "mkDm" not in str(read) and "mkPublic" not in str(read)
        await call(ochre, "play", game_id=gid, credential=ocred, move="hold")
        waited = await call(ochre, "wait", game_id=gid, credential=ocred, after=cursor, timeout=0.1)
        assert "mkDm" not in str(waited), "Sable has not submitted: the turn has not resolved"
        await call(sable, "play", game_id=gid, credential=scred, move="hold")
        waited = await call(ochre, "wait", game_id=gid, credential=ocred, after=cursor, timeout=1)
        talk = [(e["seat"], e["text"]) for e in waited["events"] if e["type"] == "talk"]
        assert talk == [("Sable", "to Ochre: mkDm for Ochre"), ("Sable", "to all: mkPublic hello")]
        logged = await call(ochre, "log", game_id=gid, credential=ocred, after=cursor)
        assert [e for e in logged["events"] if e["type"] == "talk"] == [
            e for e in waited["events"] if e["type"] == "talk"
        ]
        spectator = str(service.spectator_log(code, 0, 500)[0])
        assert "mkPublic" in spectator and "mkDm" not in spectator


# ---- talk counters count all talk ------------------------------------------------------------


async def test_say_lines_in_play_count_against_the_talk_cap(tmp_path: Path) -> None:
    """After a `play` carrying three `say:` lines the view still said "Talk lines left this
    turn: 3", and `talk` took three more lines, which pushed the accepted ones out at resolve.
    Now the view says 0 and `talk` is refused until the turn resolves."""
    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as sable, Client(server) as ochre:
        game = await call(
            sable,
            "new_game",
            game="territory",
            seed=7,
            seat="Sable",
            bots=["open"] + ["homesteader"] * 7,
        )
        gid, scred = game["game_id"], game["credential"]
        joined = await call(ochre, "join_game", invitation=game["invitations"]["Ochre"])
        assert "Talk lines left this turn: 3." in (
            await client_text(sable, "show", game_id=gid, credential=scred)
        )
        played = await call(
            sable,
            "play",
            game_id=gid,
            credential=scred,
            move="hold\nsay: one\nsay: two\nsay: three",
            detail="full",
        )
        assert played["submitted_waiting"]
        assert played["view"]["observation"]["talkLinesLeft"] == 0
        shown = await client_text(sable, "show", game_id=gid, credential=scred)
        assert "Talk lines left this turn: 0." in shown
        refused = await call_error(sable, "talk", game_id=gid, credential=scred, text="four")
        assert refused.startswith("[limit_reached]") and "no talk lines left" in refused
        await call(ochre, "play", game_id=gid, credential=joined["credential"], move="hold")
        after = await call(sable, "show", game_id=gid, credential=scred)
        assert after["observation"]["talkLinesLeft"] == 3, "a new turn, a new allowance"
        inbox = [t["text"] for t in after["observation"]["inbox"] if t["from"] == "Sable"]
        assert inbox == ["one", "two", "three"]


async def client_text(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, error_text(result)
    return error_text(result)


# ---- an eliminated seat is told so -----------------------------------------------------------

RAIDER = TERRITORY.bots()["raider"]
TEAL = 6
"""Seed 6 with nine raiders eliminates Teal on turn 5 while the game goes on."""


def play_like_raiders_until_teal_is_out(
    service: GameService, gid: str, creds: dict[int, str]
) -> None:
    """The client seats play the raider's moves, so the game is the nine raiders' game."""
    while True:
        with service.sessions.open(gid) as session:
            state, decision = session.state, session.record.decision
        if state.seats[TEAL].life == 2:
            return
        assert state.ended is None, "Teal was not eliminated"
        for seat, cred in creds.items():
            obs, menu = TERRITORY.observe(state, seat), TERRITORY.legal_moves(state, seat)
            move = RAIDER(obs, menu, bot_stream(6, seat, decision))
            service.play(gid, cred, Submission(move=move))


async def test_an_eliminated_seat_is_told_so_and_errors_list_only_what_it_may_do(
    tmp_path: Path,
) -> None:
    """After elimination the view listed claim and raze options and talk lines left, and
    `legal_moves` was refused naming itself (and `talk`) among the allowed tools. Now the view
    says the seat is out and what it may do, and every refusal lists only that."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(
            client,
            "new_game",
            game="territory",
            seed=6,
            seat="Teal",
            bots=["open"] + ["raider"] * 7,
        )
        gid, cred = game["game_id"], game["credential"]
        sable = await call(client, "join_game", invitation=game["invitations"]["Sable"])
        play_like_raiders_until_teal_is_out(service, gid, {TEAL: cred, 0: sable["credential"]})
        text = await client_text(client, "show", game_id=gid, credential=cred)
        view = await call(client, "show", game_id=gid, credential=cred)
        assert view["status"] == "active" and not view["your_turn"]
        assert "You are out of the game: Teal was eliminated on turn 5" in text
        assert "show, log and wait" in text
        assert "Talk lines left" not in text and "claim reach" not in text
        assert "reach" not in view["observation"] and "talkLinesLeft" not in view["observation"]
        refusals = [
            await call_error(client, "legal_moves", game_id=gid, credential=cred),
            await call_error(client, "play", game_id=gid, credential=cred, move="hold"),
            await call_error(client, "talk", game_id=gid, credential=cred, text="hello?"),
        ]
        for refused in refusals:
            assert refused.startswith("[not_your_turn] Teal was eliminated on turn 5"), refused
            allowed = refused.split("Allowed: ", 1)[1]
            assert allowed == "show, log and wait, to read the game until it ends", refused
        await call(client, "log", game_id=gid, credential=cred, after=0)
        await call(client, "wait", game_id=gid, credential=cred, after=0, timeout=0.1)


async def test_a_seat_waiting_its_turn_is_not_offered_legal_moves(tmp_path: Path) -> None:
    """`not_your_turn` named `legal_moves` among the allowed tools, which refuses the seat."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="influence", seed=6, seat="White", bots=["open"])
        joined = await call(client, "join_game", invitation=game["invitations"]["Black"])
        args = {"game_id": game["game_id"], "credential": joined["credential"]}
        for tool in ("play", "legal_moves"):
            refused = await call_error(
                client, tool, **args, **({"move": "end"} if tool == "play" else {})
            )
            allowed = refused.split("Allowed: ", 1)[1]
            assert "legal_moves once it is your turn" in allowed
            assert allowed.startswith("show, log, wait, talk")


# ---- one move, one meaning, in every form ----------------------------------------------------


async def test_text_and_structured_forms_read_the_same_move(tmp_path: Path) -> None:
    """A 4th talk line refused the set (`validate`: at most 3 lines) although the resolve keeps
    the set and drops the line (T14); the structured form refused " violet " and a blank talk
    line, which the text form reads. Now both forms are accepted as the same move, the 4th line
    dropped and the answer saying so."""
    service = GameService(MemoryStore(), tmp_path / "t")
    text_form = "transfer Violet 1\nsay: one\n\nsay Ash: two\nsay: three\nsay: four"
    structured = {
        "orders": [{"type": "transfer", "to": " violet ", "amount": 1}],
        "talk": [
            "one",
            {"to": None, "text": "   "},
            {"to": " ash ", "text": "two"},
            "three",
            "four",
        ],
    }
    async with Client(build_server(service)) as client:
        read: list[dict[str, Any]] = []
        for form in ({"move": text_form}, {"structured": structured}):
            game = await call(client, "new_game", game="territory", seed=7, seat="Sable")
            failed, text, result = await answer(
                client, "play", game_id=game["game_id"], credential=game["credential"], **form
            )
            assert not failed, text
            assert "Dropped, the rest stands: talk line 4 ('say: four') dropped" in text
            assert "at most 3 talk lines per seat per turn" in text
            read.append(result)
        assert (
            read[0]["accepted"]
            == read[1]["accepted"]
            == ["transfer Violet 1\nsay: one\nsay Ash: two\nsay: three"]
        )
        assert read[0]["dropped"] == read[1]["dropped"] and len(read[0]["dropped"]) == 1


# ---- an empty move is not a move -------------------------------------------------------------


async def test_an_empty_move_is_refused_and_hold_is_the_hold(tmp_path: Path) -> None:
    """`play(move="")` (and `pass`, `none`) was taken as a hold, recording a client that sent
    nothing as having chosen to hold. Now the empty text and the unlisted aliases are refused
    as malformed, changing nothing; `hold` and `moves=[]` are the hold."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="territory", seed=7, seat="Sable")
        gid, cred = game["game_id"], game["credential"]
        before = await call(client, "show", game_id=gid, credential=cred, detail="data")
        for empty in ("", "  ", "pass", "none"):
            refused = await call_error(client, "play", game_id=gid, credential=cred, move=empty)
            assert refused.startswith("[malformed_move]") and "'hold'" in refused, refused
            # Two refusals would bring the fallback: start each from a fresh decision's count.
            after = await call(client, "show", game_id=gid, credential=cred, detail="data")
            assert after["decision"] == before["decision"] and not after["submitted"]
            game = await call(client, "new_game", game="territory", seed=7, seat="Sable")
            gid, cred = game["game_id"], game["credential"]
        refused = await call_error(
            client, "play", game_id=gid, credential=cred, structured={"orders": [{"type": "pass"}]}
        )
        assert refused.startswith("[malformed_move]") and "hold" in refused, refused
        game = await call(client, "new_game", game="territory", seed=7, seat="Sable")
        gid, cred = game["game_id"], game["credential"]
        menu = await call(client, "legal_moves", game_id=gid, credential=cred, kind="hold")
        assert [m["notation"] for m in menu["moves"]] == ["hold"]
        held = await call(client, "play", game_id=gid, credential=cred, moves=[])
        assert held["accepted"] == ["hold"]
        other = await call(client, "new_game", game="territory", seed=7, seat="Sable")
        held = await call(
            client, "play", game_id=other["game_id"], credential=other["credential"], move="hold"
        )
        assert held["accepted"] == ["hold"]
