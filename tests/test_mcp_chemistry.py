"""Chemistry through MCP: one LLM seat and seven bots play all 12 shifts; an invalid order gets
one retry, then the courier order is played for the seat and recorded as a fallback."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_helpers import call, call_error

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Batch, Fallback, Footer

pytestmark = pytest.mark.anyio


async def test_one_llm_seat_plays_twelve_shifts(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="chemistry", seed=3, seat="Argon")
        gid, cred = game["game_id"], game["credential"]
        menu = await call(client, "legal_moves", game_id=gid, credential=cred)
        assert menu["complete"] and menu["total"] == len(menu["moves"])
        first = await call_error(client, "play", game_id=gid, credential=cred, move="fly to mars")
        assert "try once more" in first
        second = await call(client, "play", game_id=gid, credential=cred, move="teleport")
        assert second["fallback"] is not None and second["rejected"] is not None
        assert second["view"]["decision"] == 1, "the shift ran once every seat had an order"
        shifts = 1
        view = second["view"]
        while view["status"] != "over":
            menu = await call(client, "legal_moves", game_id=gid, credential=cred, kind="supply")
            played = await call(
                client,
                "play",
                game_id=gid,
                credential=cred,
                move=menu["moves"][shifts % len(menu["moves"])]["notation"] + "\nsay: on my way",
                detail="data",
            )
            view = played["view"]
            shifts += 1
        assert shifts == 12
        assert view["outcome"]["reason"]
        report = view["observation"].get("report")
        assert report is not None
    path = tmp_path / "t" / f"chemistry-{game['game_id']}.jsonl"
    events = read_transcript(path)
    fallbacks = [e for e in events if isinstance(e, Fallback)]
    assert len(fallbacks) == 1 and fallbacks[0].reason == "second_rejection"
    footer = events[-1]
    assert isinstance(footer, Footer) and footer.counters["0"]["fallbacks"] == 1
    assert sum(1 for e in events if isinstance(e, Batch)) == 12
    assert replay(path).ok
