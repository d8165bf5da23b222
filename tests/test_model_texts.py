"""What a player reads (issue 24): the rules resources a player reads once within their bounds,
the whole text at `…/full`, only tool names that exist, one truth about who sees notes, the
salvage break-even as the decisions compute it; and small view truths (Chemistry's ranking,
Influence's neighbours, list_games' default rulesets, the menu hint said once, Territory's own
razes counted apart)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from jsonpath import objs
from mcp import Client
from mcp_helpers import call, text_of
from territory_helpers import arrange

from cogs_arena.engines import get_engine
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.runner import play_bots
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.prompts import seat_prompt
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

GAMES = ("influence", "territory", "chemistry", "blending")
BOUNDS = {"influence": 8000, "territory": 8000, "chemistry": 6000}
BLENDING_BOUND = 12_000
"""Blending's text stays within its size before issue 24 (11,640; its eras rewrite it, see
prompts), plus the Opponents paragraph naming the bots (issue 23)."""
OPPONENTS_ROOM = 500
"""Left for the short paragraph naming the bots that another change adds to each text."""


async def _read(client: Client, uri: str) -> str:
    read = await client.read_resource(uri)
    return "".join(text_of(c) for c in read.contents)


@pytest.mark.anyio
async def test_the_player_rules_fit_their_bounds_and_the_full_text_is_served(
    tmp_path: Path,
) -> None:
    """Each game's rules resource is within its bound with room to spare (Territory was 23,407
    characters, Chemistry 18,252, Influence 13,012); `…/full` is the whole rules.md, with every
    decision, and the player text names it."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        for game in GAMES:
            play = await _read(client, f"cogs-arena://rules/{game}")
            full = await _read(client, f"cogs-arena://rules/{game}/full")
            bound = BOUNDS[game] - OPPONENTS_ROOM if game in BOUNDS else BLENDING_BOUND
            assert len(play) <= bound, (game, len(play))
            assert full == get_engine(game).rules_text() and len(full) > len(play)
            assert "Decisions that settle gaps" in full or game == "blending"
            assert f"cogs-arena://rules/{game}/full" in play, game


def _identifiers(text: str) -> set[str]:
    """Names a text uses as tools or fields: `snake_case` in backticks, and `name(` calls."""
    ticked = re.findall(r"`([a-z]+(?:_[a-z]+)+)[`(]", text)
    called = re.findall(r"\b([a-z]+(?:_[a-z]+)*)\(", text)
    return set(ticked) | {name for name in called if "_" in name or name in TOOL_WORDS}


TOOL_WORDS = {"show", "play", "talk", "log", "wait", "spectate", "ping"}


def _fields(schema: Any) -> set[str]:
    if isinstance(schema, dict):
        own = set(schema.get("properties", {}))
        return own.union(*(_fields(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_fields(v) for v in schema))
    return set()


def _words(schema: Any) -> set[str]:
    """Every string a JSON Schema lists as a value (enums and consts)."""
    if isinstance(schema, dict):
        found = {v for v in schema.get("enum", []) if isinstance(v, str)}
        if isinstance(schema.get("const"), str):
            found.add(schema["const"])
        return found.union(*(_words(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_words(v) for v in schema))
    return set()


@pytest.mark.anyio
async def test_every_tool_a_player_text_names_exists(tmp_path: Path) -> None:
    """The rules resources (player and full) and the seat prompts name only tools, arguments
    and result fields that exist (Territory's text named a `submit_turn` tool)."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        tools = (await client.list_tools()).tools
    known = {t.name for t in tools}
    for t in tools:
        known |= _fields(t.input_schema) | _fields(t.output_schema)
    for game in GAMES:
        engine = get_engine(game)
        # Ruleset keys and the values they take (`inside_out`, a map), and move words.
        rules_schema = type(engine.ruleset()).model_json_schema()
        known |= set(engine.ruleset().model_dump()) | _words(rules_schema) | NOTATION_WORDS
        texts = [engine.rules_play_text(), seat_prompt(game)]
        # Blending's full text is its design document: older eras, the reference simulator's
        # own action names. The others' full texts are rules a player may read.
        texts += [] if game == "blending" else [engine.rules_text()]
        for text in texts:
            unknown = {name for name in _identifiers(text) if name not in known}
            assert not unknown, (game, sorted(unknown))
    assert "submit_turn" not in known


NOTATION_WORDS = {"end_attack", "shift_limit"}
"""Words a full text names that are neither tools nor fields: a move word (Influence's parser
takes `end_attack` for `end`) and an ending (Chemistry's outcome details say `shift_limit`)."""


def test_notes_are_described_as_the_code_shows_them() -> None:
    """One statement of who sees notes, in the rules, the seat prompt and the full text, and
    it is the truth: another seat never sees a note, its author and (after the end) a
    spectator do."""
    for game in ("territory", "chemistry"):
        play = get_engine(game).rules_play_text()
        assert "no other seat ever sees" in play.lower() and "once the game is over" in play, game
    assert "no other seat sees it" in seat_prompt("territory")
    full = get_engine("territory").rules_text()
    assert "visible to spectators only" not in full and "No other seat ever sees it" in full
    engine = TerritoryEngine()
    state = engine.new_game(engine.ruleset(), 7)
    move = engine.parse_move(state, 0, "claim 5,1\nnote: my secret plan")
    assert "my secret plan" in (engine.visible_move_text(move, 0, 0) or "")
    assert "my secret plan" not in (engine.visible_move_text(move, 0, 1) or "")
    after = engine.apply_batch(
        state, {s: move if s == 0 else engine.parse_move(state, s, "hold") for s in range(9)}
    )
    assert "my secret plan" not in str(engine.observe(after, 1))
    assert "my secret plan" not in str(engine.spectate(after, full=False))
    assert "my secret plan" in str(engine.spectate(after, full=True))


def test_the_salvage_break_even_is_turn_15() -> None:
    """DECISIONS 1(d): holding a wall of yield y from turn T pays y × (19 − T), salvage 4y, so
    they break even at turn 15 (the player text said 14)."""
    play = get_engine("territory").rules_play_text()
    assert "breaks even at **turn 15**" in play
    assert "turn 14" not in play and "is turn 14" not in play


def test_chemistry_game_over_text_ranks_the_seats() -> None:
    """Chemistry's last view says where the seat finished ("2nd of 8"), as Territory's does,
    with the seats ranked by food eaten and ties sharing a rank."""
    engine = ChemistryEngine()
    game = play_bots(engine, engine.ruleset({"shifts": 2}), 3, ["courier"] * 8)
    eaten = [int(s) for s in game.outcome.scores]
    for seat in (0, 5):
        text = engine.render(engine.observe(game.state, seat))
        rank = 1 + sum(1 for e in eaten if e > eaten[seat])
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank, "th")
        assert f"finished {rank}{suffix} of 8 with {eaten[seat]} food eaten" in text, text
        assert "Final ranking by food eaten" in text
    running = engine.new_game(engine.ruleset(), 3)
    assert "finished" not in engine.render(engine.observe(running, 0))


def test_influence_brief_leaves_the_legend_to_the_full_view() -> None:
    """The brief carries no legend lines: the neighbours of r,c and the marks are spelled out
    in the full view (and the rules), which a brief would otherwise repeat each turn."""
    engine = InfluenceEngine()
    state = engine.new_game(engine.ruleset(), 4)
    view = engine.observe(state, 0)
    brief, full = engine.render_brief(view), engine.render(view)
    neighbours = "Neighbours of r,c: r,c-1  r,c+1  r-1,c-1  r-1,c  r+1,c  r+1,c+1"
    assert neighbours in full
    assert "Neighbours of" not in brief and "Legend:" not in brief


@pytest.mark.anyio
async def test_list_games_text_names_the_default_rulesets(tmp_path: Path) -> None:
    """list_games promises each game's default ruleset; its text now says it, not only the
    structured content."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        result = await client.call_tool("list_games", {})
    text = "".join(getattr(b, "text", "") for b in result.content)
    assert text.count("Default ruleset: ") == len(GAMES)
    assert "size=11" in text and "turns=18" in text and "shifts=12" in text
    assert 'variant="three-cycles-plentiful-distractors"' in text


@pytest.mark.anyio
async def test_the_menu_hint_is_said_once(tmp_path: Path) -> None:
    """ "call legal_moves, then play" is in the seat's first view only, not in every later one
    (a model playing whole turns was sent to the menu every turn)."""
    hint = "call legal_moves, then play"
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        started = await client.call_tool("new_game", {"game": "territory", "seed": 7})
        first = "".join(getattr(b, "text", "") for b in started.content)
        data = started.structured_content or {}
        ids = {"game_id": data["game_id"], "credential": data["credential"]}
        played = await client.call_tool("play", {"moves": ["hold"], "detail": "full", **ids})
        shown = await client.call_tool("show", ids)
        await call(client, "show", **ids)
    assert hint in first
    for later in (played, shown):
        text = "".join(getattr(b, "text", "") for b in later.content)
        assert "It is your turn." in text and hint not in text


def test_territory_counts_razes_of_own_walls_apart() -> None:
    """A seat razing its own wall (salvage) is counted apart from razes of others' or free
    tiles, in the observation and the seats table: the salvager no longer reads as the
    aggressor."""
    engine = TerritoryEngine()
    state = arrange(
        engine.new_game(engine.ruleset(), 7),
        owner={"5,1": 0},
        paint={0: 20, 1: 20},
        turn=4,
    )
    moves = {s: engine.parse_move(state, s, "hold") for s in range(9)}
    moves[0] = engine.parse_move(state, 0, "raze 5,1")
    moves[1] = engine.parse_move(state, 1, "raze 5,-2")
    after = engine.apply_batch(state, moves)
    seats = objs(engine.observe(after, 2)["seats"])
    assert (seats[0]["razes"], seats[0]["ownRazes"]) == (1, 1)
    assert (seats[1]["razes"], seats[1]["ownRazes"]) == (1, 0)
    lines = engine.render(engine.observe(after, 2)).splitlines()
    sable = next(line for line in lines if line.startswith("  Sable (5,0)"))
    ochre = next(line for line in lines if line.startswith("  Ochre (5,-3)"))
    assert sable.endswith("razes 0 + 1 own") and ochre.endswith("razes 1")
