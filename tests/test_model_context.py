"""What a model reads of this server before and while it plays (issue 24): the tools as a model
is shown them fit a bound, every tool and parameter still described; `bots` says it is a list;
`wait` without a cursor reports only what the seat has not seen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio
TOOLS_BOUND = 10_000


def model_visible(tool: Any) -> str:
    """What a model is shown of one tool: name, title, description, input schema (output
    schemas and annotations stay with the client), as compact JSON."""
    shown = {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": tool.input_schema,
    }
    return json.dumps(shown, separators=(",", ":"))


async def test_what_a_model_is_shown_of_the_tools_fits_the_bound(tmp_path: Path) -> None:
    """The model-visible tools/list (was 18,917 characters) is at most 10,000, and still
    describes every tool and every parameter."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        tools = (await client.list_tools()).tools
    size = sum(len(model_visible(tool)) for tool in tools)
    assert size <= TOOLS_BOUND, size
    assert len(tools) == 11
    for tool in tools:
        assert tool.description and tool.title, tool.name
        for name, prop in tool.input_schema["properties"].items():
            assert prop.get("description", "").strip(), (tool.name, name)
            assert "title" not in prop and prop.get("default", 0) is not None, (tool.name, name)


async def test_bots_is_described_as_the_list_it_is(tmp_path: Path) -> None:
    """`bots` takes a list, so its description says so and shows one (it read as one name)."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    bots = tools["new_game"].input_schema["properties"]["bots"]
    assert "array" in bots["type"]
    assert bots["description"].startswith("A list of bot names")
    assert '["greedy"]' in bots["description"]


async def test_wait_without_a_cursor_starts_after_the_seats_last_view(tmp_path: Path) -> None:
    """Without `after`, wait reports only events after the seat's last recorded view (it
    replayed the whole game from 0); `after=0` still asks for everything."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        started = await call(client, "new_game", game="influence", seed=4, seat=0)
        ids = {"game_id": started["game_id"], "credential": started["credential"]}
        menu = await call(client, "legal_moves", **ids)
        await call(client, "play", number=menu["moves"][0]["number"], **ids)
        view = await call(client, "show", **ids)
        everything = await call(client, "wait", after=0, timeout=1, **ids)
        unseen = await call(client, "wait", timeout=1, **ids)
    seen = [e for e in everything["events"] if e["seq"] <= view["log_cursor"]]
    assert seen and seen[0]["type"] == "move", everything["events"]
    assert all(e["seq"] > view["log_cursor"] for e in unseen["events"]), unseen["events"]
    assert unseen["reason"] == "your_turn" and unseen["cursor"] >= view["log_cursor"]


async def test_menu_instructions_are_said_once(tmp_path: Path) -> None:
    """A menu's instructions (Blending's: about 700 characters) are in the seat's first menu
    text; a later menu with the same instructions points to them instead (the structured
    `instructions` keeps them in full)."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        started = await call(client, "new_game", game="blending", seed=7, seat=0, bots=["builder"])
        ids = {"game_id": started["game_id"], "credential": started["credential"]}
        first = await client.call_tool("legal_moves", ids)
        await call(client, "play", number=1, **ids)
        later = await client.call_tool("legal_moves", ids)
    first_text = "".join(getattr(b, "text", "") for b in first.content)
    later_text = "".join(getattr(b, "text", "") for b in later.content)
    instructions = (first.structured_content or {})["instructions"]
    assert instructions and instructions in first_text
    assert (later.structured_content or {})["instructions"] == instructions
    assert instructions not in later_text and "as your earlier menu said" in later_text
    assert (later.structured_content or {})["instructions_told"] is True


def test_one_tile_on_many_squares_shares_a_menu_line() -> None:
    """Entries that share a description and differ only in their notation's last word
    (Blending's single tile on each free square) share one line, each with its number, where
    the first of them stands; every notation can still be read back whole; a group smaller
    than four keeps a line each."""
    from cogs_arena.server.adapter.texts import menu_text
    from cogs_arena.server.models import Menu, MenuEntry

    def entry(number: int, notation: str, description: str) -> MenuEntry:
        return MenuEntry(number=number, notation=notation, description=description, kind="k")

    entries = [
        entry(1, "move 2,0", "step to 2,0"),
        entry(2, "place t9 -3,0", "single"),
        entry(3, "place t9 -2,0", "single"),
        entry(4, "place t9 -1,0", "single, near"),
        entry(5, "place t9 0,0", "single"),
        entry(6, "place t9 1,0", "single"),
        entry(7, "place t31 1,1", "single"),
        entry(8, "end", "end your turn"),
    ]
    menu = Menu(
        game_id="g",
        seat=0,
        decision=4,
        complete=True,
        total=8,
        matching=8,
        page=1,
        pages=1,
        kinds=["k"],
        moves=entries,
        hints={},
        instructions="",
    )
    lines = menu_text(menu, 50).splitlines()[1:]
    assert lines == [
        "   1. move 2,0  - step to 2,0",
        "      place t9  - single: 2) -3,0  3) -2,0  5) 0,0  6) 1,0",
        "   4. place t9 -1,0  - single, near",
        "   7. place t31 1,1  - single",
        "   8. end  - end your turn",
    ]


WHOLE_GAME_BOUNDS = {
    "influence": 40_000,
    "territory": 80_000,
    "chemistry": 40_000,
    "blending": 70_000,
}
"""Issue 24: the model-style client's whole game (tools/list + prompt + rules + every answer)."""


@pytest.mark.slow
def test_a_whole_game_as_a_model_reads_it_fits_its_bound() -> None:
    """`scripts/tokens.py --model` (seat 0, seed 7, the pinned opponents, one show and one play
    a turn, legal_moves at each Blending turn) plays every game to its end within the bound."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "scripts" / "tokens.py"
    done = subprocess.run(
        [sys.executable, str(script), "--model"],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.split()}
    for game, bound in WHOLE_GAME_BOUNDS.items():
        row = rows[game]
        assert "not over" not in row, row
        whole = int(row.split()[6])
        assert whole <= bound, (game, whole, bound)
