"""How Chemistry reads an order (rules.md C24): a field the job does not use is dropped, not
refused; a `say` over 80 or notes over 320 characters is cut, not refused; each says so in the
answer. And the `talk` tool is refused in Chemistry: its one talk channel is the `say:` line."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_helpers import call, call_error, text_of

from cogs_arena.engines import IllegalMove
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.moves import Move, Order
from cogs_arena.engines.chemistry.state import ChemState
from cogs_arena.engines.protocol import JSON
from cogs_arena.prompts import seat_prompt
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript
from cogs_arena.transcripts.events import Attempt

ENGINE = ChemistryEngine()


def as_order(move: Move) -> Order:
    """A move the test knows is an order (not a raw action), typed as one."""
    assert isinstance(move, Order)
    return move


anyio = pytest.mark.anyio


def game(**overrides: JSON) -> ChemState:
    return ENGINE.new_game(ENGINE.ruleset(overrides), 1)


# ---- fields a job does not use --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "read", "ignored"),
    [
        ("idle resin", Order("idle"), ["molecule resin"]),
        ("idle amber", Order("idle"), ["vat amber"]),
        ("idle resin amber", Order("idle"), ["molecule resin", "vat amber"]),
        ("forage resin", Order("forage"), ["molecule resin"]),
        ("forage spark beryl", Order("forage", None, 1), ["molecule spark"]),
        ("hoard resin amber", Order("hoard", 0), ["vat amber"]),
    ],
)
def test_an_unused_field_is_dropped_and_named(text: str, read: Order, ignored: list[str]) -> None:
    """C24: idle ignores a molecule and a vat, forage a molecule, hoard a vat. The order is
    accepted as the job alone (before: refused), in text and JSON alike, and its notice names
    each ignored field and what the order was read as."""
    s = game()
    move = ENGINE.parse_move(s, 0, text)
    assert move == read
    (notice,) = ENGINE.move_notices(move)
    for field in ignored:
        assert f"{field}" in notice, notice
    assert "ignored" in notice and f"`{read.head}`" in notice
    words = text.split()
    data: dict[str, str] = {"job": words[0]}
    for word in words[1:]:
        data["reactor" if word in ("amber", "beryl", "cobalt") else "molecule"] = word
    from_json = ENGINE.move_from_json(s, 0, data)
    assert from_json == read and ENGINE.move_notices(from_json) == (notice,)
    # Nothing of the notice stays in the order's text or JSON.
    assert ENGINE.move_text(move) == read.head
    assert as_order(ENGINE.parse_move(s, 0, ENGINE.move_text(move))).notices == ()


def test_an_ignored_molecule_need_not_be_in_the_variant() -> None:
    """Dropped first, then checked: `forage glitter` in three-cycles (no glitter vent) is
    `forage`; a field a job uses is still checked."""
    plain = game(variant="three-cycles")
    assert ENGINE.parse_move(plain, 0, "forage glitter") == Order("forage")
    with pytest.raises(IllegalMove, match="not in this variant"):
        ENGINE.parse_move(plain, 0, "hoard glitter amber")
    with pytest.raises(IllegalMove, match="supply needs a molecule and a vat"):
        ENGINE.parse_move(plain, 0, "supply resin")


def test_the_state_keeps_the_order_alone() -> None:
    """The notice is for the answer: the order a shift ran with carries none, so a state is
    the same however its orders were written."""
    s = game()
    moves: dict[int, Move] = {i: Order("idle") for i in range(8)}
    moves[0] = ENGINE.parse_move(s, 0, "hoard resin amber\nsay: " + "y" * 90)
    after = ENGINE.apply_batch(s, moves)
    assert after.last[0] == Order("hoard", 0, None, "y" * 79 + "…")
    assert isinstance(after.last[0], Order) and after.last[0].notices == ()


# ---- long text ----------------------------------------------------------------------------------


def test_a_long_say_is_cut_to_79_plus_an_ellipsis() -> None:
    """C24: a `say` over 80 characters keeps its first 79 and ends in "…" (before: refused);
    the order stands and the notice says the line was cut."""
    s = game()
    move = ENGINE.parse_move(s, 0, "supply resin amber\nsay: " + "x" * 81)
    assert isinstance(move, Order) and move.head == "supply resin amber"
    assert move.say == "x" * 79 + "…" and len(move.say) == 80
    (notice,) = ENGINE.move_notices(move)
    assert "`say` was 81 characters" in notice and "cut to 80" in notice
    exact = as_order(ENGINE.parse_move(s, 0, "idle\nsay: " + "x" * 80))
    assert exact.say == "x" * 80 and ENGINE.move_notices(exact) == ()


def test_say_is_cut_on_a_character_boundary_after_stripping_and_joining_lines() -> None:
    """Characters, not bytes: 100 emoji keep 79 whole ones. Surrounding whitespace is stripped
    first (so 80 characters with spaces round them are not cut), and newlines become spaces."""
    s = game()
    emoji = as_order(ENGINE.move_from_json(s, 0, {"job": "idle", "say": "🙂" * 100}))
    assert emoji.say == "🙂" * 79 + "…"
    padded = as_order(
        ENGINE.move_from_json(s, 0, {"job": "idle", "say": "   " + "z" * 80 + "\n  "})
    )
    assert padded.say == "z" * 80 and ENGINE.move_notices(padded) == ()
    lines = as_order(ENGINE.move_from_json(s, 0, {"job": "idle", "say": "meet\nat amber"}))
    assert lines.say == "meet at amber"


def test_long_notes_are_cut_to_319_plus_an_ellipsis() -> None:
    """C24: notes over 320 characters keep their first 319 and end in "…" (before: refused);
    the notes keep their newlines and the order stands."""
    s = game()
    notes = "plan:\n" + "n" * 400
    move = ENGINE.parse_move(s, 0, "forage\nnotes: " + notes)
    assert isinstance(move, Order) and move.head == "forage"
    assert move.notes == notes[:319] + "…" and len(move.notes) == 320
    (notice,) = ENGINE.move_notices(move)
    assert "`notes` was 406 characters" in notice and "cut to 320" in notice
    both = ENGINE.parse_move(s, 0, "idle amber\nsay: " + "s" * 85 + "\nnotes: " + "n" * 321)
    assert len(ENGINE.move_notices(both)) == 3


# ---- through MCP ------------------------------------------------------------------------------


@anyio
async def test_the_play_answer_says_what_was_ignored_and_cut(tmp_path: Path) -> None:
    """Through MCP, `hoard resin amber` with a 100-character say is accepted as `hoard resin`
    with the say cut; the structured answer's read_notes and its text both say so, and the
    transcript's attempt records it."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="chemistry", seed=3, seat="Argon")
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        move = "hoard resin amber\nsay: " + "w" * 100
        played = await client.call_tool("play", {"move": move, **ids})
        assert not played.is_error
        data = played.structured_content
        assert data is not None
        assert data["accepted"] == ["hoard resin\nsay: " + "w" * 79 + "…"]
        notes = data["read_notes"]
        assert len(notes) == 2
        assert "vat amber ignored" in notes[0] and "`say` was 100 characters" in notes[1]
        text = "".join(getattr(block, "text", "") for block in played.content)
        assert "Note: `hoard` uses no vat" in text and "Note: `say` was 100" in text
        assert data["rejected"] is None and data["fallback"] is None
    events = read_transcript(tmp_path / "t" / f"chemistry-{game['game_id']}.jsonl")
    attempt = next(e for e in events if isinstance(e, Attempt))
    assert attempt.ok and attempt.reason is not None and "vat amber ignored" in attempt.reason


@anyio
async def test_talk_is_refused_in_chemistry_and_changes_nothing(tmp_path: Path) -> None:
    """The rules' one talk channel in Chemistry is the order's `say:` line, so the talk tool is
    refused with a `[code]` error naming it and its 80-character limit (before: a line of up to
    1,000 characters was posted at once). The game, its log and transcript are unchanged."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="chemistry", seed=3, seat="Argon")
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        path = tmp_path / "t" / f"chemistry-{game['game_id']}.jsonl"
        before_log = await call(client, "log", **ids)
        before_view = await call(client, "show", detail="data", **ids)
        before_file = path.read_bytes() if path.exists() else b""
        for extra in ({}, {"to": ["Borax"]}):
            text = await call_error(client, "talk", text="x" * 300, **extra, **ids)
            assert text.startswith("[illegal_move] "), text
            assert "`say:`" in text and "80 characters" in text and "Nothing was sent" in text
        after_log = await call(client, "log", **ids, after=before_log["cursor"])
        assert after_log["events"] == []
        assert await call(client, "show", detail="data", **ids) == before_view
        assert (path.read_bytes() if path.exists() else b"") == before_file
        # The say line still carries talk.
        played = await call(client, "play", move="idle\nsay: hello all", **ids)
        assert played["accepted"] == ["idle\nsay: hello all"]


@anyio
async def test_the_prompt_and_the_rules_resource_say_how_orders_are_read(tmp_path: Path) -> None:
    """The seat prompt, the menu's instructions and the rules resource (short and full) each
    say that unused fields are ignored, long text is cut and talk goes by `say:` only; the
    rules carry C24."""
    prompt = seat_prompt("chemistry")
    for words in ("is ignored, not refused", "cut to 79 characters", "`talk` tool is refused"):
        assert words in prompt, words
    instructions = ENGINE.legal_moves(game(), 0).instructions or ""
    assert "only way to talk" in instructions and "cut" in instructions
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        full = text_of(
            (await client.read_resource("cogs-arena://rules/chemistry/full")).contents[0]
        )
        assert "## How orders are read" in full and "**C24." in full
        assert "The host's `talk` tool is" in full and "refused in Chemistry" in full
        # Issue 24: the player's text says the same in its own words (C24 is in the full text).
        play = text_of((await client.read_resource("cogs-arena://rules/chemistry")).contents[0])
        for words in ("is ignored, not refused", "cut to 79", "the `talk` tool is refused"):
            assert words in play, words


def test_a_clamped_vat_is_told_too() -> None:
    """Not silent: a vat absent from the variant is clamped to the coldest present vat (C7),
    and the notice names both."""
    s = game(variant="two-cycles")
    move = ENGINE.parse_move(s, 0, "supply resin cobalt")
    assert move == Order("supply", 0, 0)
    (notice,) = ENGINE.move_notices(move)
    assert "cobalt is not in this variant" in notice and "amber" in notice
