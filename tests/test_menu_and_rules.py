"""The menu's paging header and whole-coordinate `contains`, and the rules resources (a concise
player's text per game, the full document as `/full`), through the in-memory MCP client."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call, text_of

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.presenter import contains_matcher
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

ENGINES = Path(__file__).resolve().parent.parent / "engines"


def server(tmp_path: Path) -> Any:
    return build_server(GameService(MemoryStore(), tmp_path / "t"))


async def menu_call(client: Client, **arguments: Any) -> tuple[dict[str, Any], str]:
    result = await client.call_tool("legal_moves", arguments)
    assert not result.is_error
    assert result.structured_content is not None
    text = "".join(getattr(block, "text", "") for block in result.content)
    return dict(result.structured_content), text


def test_a_coordinate_matches_only_whole_coordinates() -> None:
    matches = contains_matcher("1,1")
    assert matches("1,1>2,1")
    assert matches("from 9,1>1,1")
    assert matches("capture empty 1,1 at 6")
    assert matches("11,1>1,1")  # the second coordinate is whole
    for text in ("11,1>10,1", "1,10>1,9", "-1,1", "2,1,1", "21,12"):
        assert not matches(text), text
    assert contains_matcher("3,-1")("place t17 3,-1")
    assert not contains_matcher("3,-1")("place t17 3,-12")
    assert contains_matcher(" 1,1 ")("1,1>2,1")  # surrounding spaces are not part of it


def test_other_text_is_a_case_insensitive_substring() -> None:
    assert contains_matcher("CAPTURE")("capture empty 0,8")
    assert contains_matcher("t1")("place t17 3,-1")  # a tile id is not a coordinate
    assert contains_matcher("1,")("1,10>1,9")  # not a whole coordinate: a substring
    assert not contains_matcher("claim")("hold")


@pytest.mark.anyio
async def test_contains_on_an_influence_menu(tmp_path: Path) -> None:
    async with Client(server(tmp_path)) as client:
        game = await call(client, "new_game", game="influence", seed=3)
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        whole, _ = await menu_call(client, **ids, page_size=200)
        entries = whole["moves"]
        token = re.compile(r"(?<![\d,\-])1,1(?![\d,])")
        expected = [
            e["number"] for e in entries if token.search(e["notation"] + " " + e["description"])
        ]
        substring = [e["number"] for e in entries if "1,1" in e["notation"] + e["description"]]
        assert set(expected) < set(substring), "the position must show 1,1x or x1,1"
        menu, text = await menu_call(client, **ids, contains="1,1", page_size=200)
        assert [e["number"] for e in menu["moves"]] == expected
        for e in menu["moves"]:
            assert token.search(e["notation"] + " " + e["description"])
        if not expected:
            assert f"no entries match (of {whole['total']} legal)" in text.splitlines()[0]
        # a coordinate that is in the menu still finds its entries, not its longer neighbours
        first = entries[0]["notation"].split(">")[0]
        found, _ = await menu_call(client, **ids, contains=first, page_size=200)
        assert found["moves"]
        assert all(
            re.search(rf"(?<![\d,\-]){re.escape(first)}(?![\d,])", e["notation"] + e["description"])
            for e in found["moves"]
        )


@pytest.mark.anyio
async def test_the_paging_header_says_what_the_page_shows(tmp_path: Path) -> None:
    async with Client(server(tmp_path)) as client:
        game = await call(client, "new_game", game="territory", seed=3)
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        menu, text = await menu_call(client, **ids, page_size=8)
        assert menu["pages"] >= 3
        total = menu["total"]
        header = text.splitlines()[0]
        assert f"entries 1–8 of {total} legal; page 1 of {menu['pages']}." in header
        menu, text = await menu_call(client, **ids, kind="claim", page=2, page_size=5)
        matching, pages = menu["matching"], menu["pages"]
        assert matching < total and pages >= 3 and len(menu["moves"]) == 5
        header = text.splitlines()[0]
        assert (
            f"entries 6–10 of {matching} matching (of {total} legal); page 2 of {pages}." in header
        )
        _, text = await menu_call(client, **ids, kind="claim", page=pages, page_size=5)
        first = (pages - 1) * 5 + 1
        assert f"entries {first}–{matching} of {matching} matching" in text.splitlines()[0]
        _, text = await menu_call(client, **ids, kind="claim", page=pages + 1, page_size=5)
        assert "no entries on this page" in text.splitlines()[0]


@pytest.mark.anyio
async def test_rules_resources(tmp_path: Path) -> None:
    async with Client(server(tmp_path)) as client:
        listed = {str(r.uri) for r in (await client.list_resources()).resources}
        for game in ("blending", "influence", "territory", "chemistry"):
            assert f"cogs-arena://rules/{game}" in listed
            assert f"cogs-arena://rules/{game}/full" in listed

        async def read(uri: str) -> str:
            contents = (await client.read_resource(uri)).contents
            return text_of(contents[0])

        play = await read("cogs-arena://rules/blending")
        full = await read("cogs-arena://rules/blending/full")
        rules_md = (ENGINES / "blending" / "rules.md").read_text(encoding="utf-8")
        play_md = (ENGINES / "blending" / "rules_play.md").read_text(encoding="utf-8")
        assert play == play_md
        assert len(play.encode()) < 15_000
        assert full == rules_md and len(full) > len(play)
        for word in ("Estates", "the match", "lay t5@2 slice", "rules/blending/full"):
            assert word in play
        for era in ("Three Strikes", "Legacy combat", "Simulate"):  # older eras, the sim's UI
            assert era not in play
        influence = (ENGINES / "influence" / "rules.md").read_text(encoding="utf-8")
        # Issue 24: the player's text is its own file now; `…/full` stays the whole rules.md.
        influence_play = (ENGINES / "influence" / "rules_play.md").read_text(encoding="utf-8")
        assert await read("cogs-arena://rules/influence") == influence_play
        assert await read("cogs-arena://rules/influence/full") == influence
