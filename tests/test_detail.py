"""How much a view costs, and hidden seeds, through the MCP client: `detail` on show and play,
structured content without a second copy of the text, the seed hidden until the end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import error_text

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio
GAMES = ("influence", "territory", "chemistry", "blending")
BIG_SEED = 2**127 + 123_456_789


@pytest.fixture
async def arena(tmp_path: Path) -> AsyncIterator[tuple[Client, GameService]]:
    service = GameService(MemoryStore(), tmp_path)
    async with Client(build_server(service)) as client:
        yield client, service


async def _call(client: Client, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
    result = await client.call_tool(tool, arguments)
    text = error_text(result)
    assert not result.is_error, text
    return text, dict(result.structured_content or {})


@pytest.mark.parametrize("game", GAMES)
async def test_detail_sizes_are_ordered(arena: tuple[Client, GameService], game: str) -> None:
    client, _ = arena
    _, started = await _call(client, "new_game", game=game, seed=11)
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    sizes = {}
    for detail in ("none", "data", "brief", "full"):
        text, view = await _call(client, "show", detail=detail, **ids)
        sizes[detail] = len(text)
        assert view["detail"] == detail
        # The board travels once: as text (brief), as data (data), or both when asked (full).
        assert bool(view["observation"]) == (detail in ("full", "data")), detail
    assert sizes["none"] == sizes["data"] < sizes["brief"] <= sizes["full"], sizes
    full, _ = await _call(client, "show", **ids)
    assert len(full) == sizes["full"], "show defaults to full"


async def test_play_defaults_to_brief_and_none_is_one_status(
    arena: tuple[Client, GameService],
) -> None:
    client, _ = arena
    _, started = await _call(client, "new_game", game="influence", seed=4)
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    text, result = await _call(client, "play", number=1, **ids)
    assert result["view"]["detail"] == "brief"
    assert "Legend:" not in text and text.startswith("Accepted: ")
    text, result = await _call(client, "play", number=1, detail="none", **ids)
    assert result["view"]["observation"] == {} and result["view"]["decision"] > 0
    assert len(text.strip().splitlines()) <= 4, text
    full, _ = await _call(client, "play", number=1, detail="full", **ids)
    assert "Legend:" in full


@pytest.mark.parametrize("game", GAMES)
async def test_structured_content_carries_no_copy_of_the_text(
    arena: tuple[Client, GameService], game: str
) -> None:
    client, _ = arena
    text, started = await _call(client, "new_game", game=game, seed=2)
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    assert "text" not in started["view"] and started["view"]["observation"]
    text, view = await _call(client, "show", **ids)
    assert "text" not in view and text.strip()
    board_line = next(line for line in text.splitlines()[3:] if len(line) > 20)
    assert board_line not in str(view)
    text, result = await _call(client, "play", number=1, **ids)
    assert "text" not in result["view"] and not result["view"]["observation"], "brief: text only"
    _, result = await _call(client, "play", number=1, detail="data", **ids)
    assert result["view"]["observation"]


@pytest.mark.parametrize("game", GAMES)
async def test_seed_hidden_during_play_and_shown_after_the_end(
    arena: tuple[Client, GameService], game: str
) -> None:
    client, service = arena
    text, started = await _call(client, "new_game", game=game, seed=8_675_309)
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    assert started["seed"] is None and started["view"]["seed"] is None
    assert "8675309" not in text
    text, result = await _call(client, "play", number=1, **ids)
    assert result["view"]["seed"] is None and "8675309" not in text
    text, view = await _call(client, "show", **ids)
    assert view["seed"] is None and "8675309" not in text
    service.settle(ids["game_id"], "host_ended")
    text, view = await _call(client, "show", **ids)
    assert view["status"] == "over"
    assert view["seed"] == 8_675_309 and "Seed: 8675309" in text


@pytest.mark.parametrize("game", GAMES)
async def test_a_128_bit_seed_plays_and_repeats(
    arena: tuple[Client, GameService], game: str
) -> None:
    client, service = arena
    firsts = []
    for seed in (BIG_SEED, str(BIG_SEED)):
        _, started = await _call(client, "new_game", game=game, seed=seed)
        ids = {"game_id": started["game_id"], "credential": started["credential"]}
        views = [started["view"]["observation"]]
        for _ in range(4):
            _, result = await _call(client, "play", number=1, detail="data", **ids)
            views.append(result["view"]["observation"])
            if result["view"]["status"] == "over":
                break
        firsts.append(views)
        record = service.store.get(ids["game_id"])
        assert record is not None and record.seed == BIG_SEED
        service.settle(ids["game_id"], "host_ended")
        _, view = await _call(client, "show", **ids)
        # Beyond 2^53 the seed is shown as its decimal text, which new_game reads back.
        assert view["seed"] == str(BIG_SEED)
    assert firsts[0] == firsts[1], "same seed (as a number or as its text), same game"


async def test_a_game_without_a_seed_gets_a_128_bit_one(
    arena: tuple[Client, GameService],
) -> None:
    client, service = arena
    seeds = set()
    for _ in range(3):
        _, started = await _call(client, "new_game", game="territory")
        record = service.store.get(started["game_id"])
        assert record is not None and isinstance(record.seed, int)
        assert 0 <= record.seed < 2**128
        seeds.add(record.seed)
    assert max(seed.bit_length() for seed in seeds) > 64
    assert len(seeds) == 3
