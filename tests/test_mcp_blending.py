"""Blending through MCP: one LLM seat and three bots play a whole game by menu numbers, with a
fight. The seat is driven by the builder bot, but it reads only what the tools return and
answers with a number, as a model would; it takes any fight the menu offers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call, fight_or_builder

from cogs_arena.engines.rng import Stream
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Attempt, Footer

pytestmark = pytest.mark.anyio


async def _play_game(client: Client, seed: int) -> tuple[dict[str, Any], int, set[str]]:
    game = await call(
        client,
        "new_game",
        game="blending",
        seed=seed,
        seat=0,
        bots=["builder", "random", "builder"],
    )
    gid, cred = game["game_id"], game["credential"]
    view, calls, kinds = game["view"], 0, set()
    while view["status"] != "over":
        menu = await call(client, "legal_moves", game_id=gid, credential=cred, page_size=500)
        entries = menu["moves"]
        while menu["page"] < menu["pages"]:
            menu = await call(
                client,
                "legal_moves",
                game_id=gid,
                credential=cred,
                page_size=500,
                page=menu["page"] + 1,
            )
            entries += menu["moves"]
        assert len(entries) == menu["total"]
        number = fight_or_builder(entries, view["observation"], Stream(seed, f"llm/{calls}"))
        kinds.add(next(e["kind"] for e in entries if e["number"] == number))
        played = await call(
            client, "play", game_id=gid, credential=cred, number=number, detail="data"
        )
        view = played["view"]
        calls += 1
    return game, calls, kinds


@pytest.mark.slow
async def test_one_llm_seat_plays_a_whole_game_with_a_fight(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        for seed in range(1, 30):
            game, calls, kinds = await _play_game(client, seed)
            if "fight" in kinds:
                break
        else:
            raise AssertionError("no fight in 29 games")
        assert {"placement", "end", "fight"} <= kinds
        assert calls > 20
        final = await call(client, "show", game_id=game["game_id"], credential=game["credential"])
        assert final["outcome"]["reason"]
        assert "hand" not in str(final["observation"].get("rivals", ""))
    path = tmp_path / "t" / f"blending-{game['game_id']}.jsonl"
    events = read_transcript(path)
    assert isinstance(events[-1], Footer)
    plays = [e for e in events if isinstance(e, Attempt) and e.seat == 0]
    assert len(plays) == calls and all("number" in e.args for e in plays)
    assert replay(path).ok
