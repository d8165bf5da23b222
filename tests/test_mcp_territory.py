"""Territory through MCP: one LLM seat and eight bots play all 18 turns; a rejected order set
gets the reason and one more try; a second rejection holds and counts as a fallback; a private
line reaches only its recipient (checked in all nine seats' views and logs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_helpers import call, call_error, error_text

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Attempt, Fallback, Footer

pytestmark = pytest.mark.anyio

SECRET = "meet me at the river, Ochre"


async def test_one_llm_seat_plays_eighteen_turns(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(
            client,
            "new_game",
            game="territory",
            seed=7,
            seat="Sable",
            bots=["homesteader", "raider", "diplomat", "random"] * 2,
        )
        gid, cred = game["game_id"], game["credential"]
        # razing before turn 4 is illegal: the whole set is rejected with the reason
        first = await call_error(
            client, "play", game_id=gid, credential=cred, move="claim 4,0\nraze 0,0"
        )
        assert "try once more" in first and "raze" in first.lower()
        second = await call(client, "play", game_id=gid, credential=cred, move="raze 0,0")
        assert second["fallback"] is not None and second["fallback"].startswith("hold")
        assert second["view"]["decision"] == 1, "the turn resolved with Sable holding"
        turns = 1
        view = second["view"]
        while view["status"] != "over":
            menu = await call(client, "legal_moves", game_id=gid, credential=cred, kind="claim")
            move = menu["moves"][0]["notation"] if menu["moves"] else "hold"
            played = await call(
                client,
                "play",
                game_id=gid,
                credential=cred,
                move=f"{move}\nsay: turn {turns}",
            )
            assert played["accepted"], played
            view = played["view"]
            turns += 1
        assert turns == 18
        assert view["outcome"]["reason"] == "complete"
    path = tmp_path / "t" / f"territory-{game['game_id']}.jsonl"
    events = read_transcript(path)
    fallbacks = [e for e in events if isinstance(e, Fallback)]
    assert [f.reason for f in fallbacks] == ["second_rejection"]
    assert fallbacks[0].audience == [0], "only the seat sees its fallback"
    footer = events[-1]
    assert isinstance(footer, Footer)
    assert footer.counters["0"]["fallbacks"] == 1
    assert footer.counters["0"]["rejected"] == 2
    attempts = [e for e in events if isinstance(e, Attempt)]
    assert len(attempts) == 19 and all(a.seat == 0 for a in attempts)
    assert [a.ok for a in attempts[:2]] == [False, False] and all(a.ok for a in attempts[2:])
    assert replay(path).ok


async def test_private_line_reaches_only_its_recipient(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(
            client, "new_game", game="territory", seed=3, seat="Sable", bots=["open"] * 8
        )
        gid = game["game_id"]
        creds = {"Sable": game["credential"]}
        for name, code in game["invitations"].items():
            creds[name] = (await call(client, "join_game", invitation=code))["credential"]
        assert len(creds) == 9
        await call(
            client, "talk", game_id=gid, credential=creds["Sable"], text=SECRET, to=["Ochre"]
        )
        await call(
            client, "play", game_id=gid, credential=creds["Sable"], move="hold\nsay: hello all"
        )
        for name, cred in creds.items():
            if name != "Sable":
                await call(client, "play", game_id=gid, credential=cred, move="hold")
        for name, cred in creds.items():
            shown = await client.call_tool("show", {"game_id": gid, "credential": cred})
            view = dict(shown.structured_content or {})
            log = await call(client, "log", game_id=gid, credential=cred, limit=1000)
            # The view's text travels only in the text block.
            seen = error_text(shown) + str(view["observation"]) + str(log)
            assert "hello all" in seen, name
            if name in ("Sable", "Ochre"):
                assert SECRET in seen, name
            else:
                assert SECRET not in seen, name
        spectator = await call(client, "spectate", spectator_code=game["spectator_code"])
        assert SECRET not in str(spectator)
