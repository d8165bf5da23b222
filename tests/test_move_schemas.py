"""`play`'s `structured` argument has one JSON Schema form per game (a resource), titled by the
game, and every move a game's menu offers, in its structured form, fits its game's form and plays
through MCP."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from mcp import Client
from mcp_helpers import call

from cogs_arena.engines import get_engine
from cogs_arena.engines.registry import available
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio
GAMES = ("influence", "territory", "chemistry", "blending")


async def test_the_structured_argument_has_a_form_per_game(tmp_path: Path) -> None:
    """Each game's form is the resource cogs-arena://moves/<game> (moved out of play's input
    schema, which names the resource), titled by its game and a valid JSON Schema."""
    async with Client(build_server(GameService(MemoryStore(), tmp_path))) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        structured = tools["play"].input_schema["properties"]["structured"]
        assert "cogs-arena://moves/<game>" in structured["description"]
        titled = {}
        for game in available():
            read = await client.read_resource(f"cogs-arena://moves/{game}")
            form = json.loads(getattr(read.contents[0], "text", ""))
            titled[form.get("title")] = form
    assert set(titled) == set(available()) >= set(GAMES)
    for game, form in titled.items():
        jsonschema.Draft202012Validator.check_schema(form)
        assert form["description"] and form["properties"], game


@pytest.mark.parametrize("game", GAMES)
def test_every_menu_move_fits_its_game_form(game: str) -> None:
    engine = get_engine(game)
    validator = jsonschema.Draft202012Validator(engine.move_schema())
    state = engine.new_game(engine.ruleset(), 4)
    checked = 0
    for _ in range(12):
        if engine.outcome(state) is not None:
            break
        seats = engine.to_act(state)
        moves = {}
        for seat in seats:
            menu = engine.legal_moves(state, seat).moves
            for entry in menu[:40]:
                move = engine.parse_move(state, seat, entry.notation)
                data = engine.move_json(move)
                errors = [e.message for e in validator.iter_errors(data)]
                assert not errors, (entry.notation, data, errors)
                # The form reads back to the same move.
                again = engine.move_from_json(state, seat, data)
                assert engine.move_text(again) == engine.move_text(move)
                checked += 1
            moves[seat] = engine.parse_move(state, seat, menu[0].notation)
        if engine.simultaneous:
            state = engine.apply_batch(state, moves)
        else:
            state = engine.apply(state, seats[0], moves[seats[0]])
    assert checked > 20
    # A form the schema refuses is one the game refuses too.
    assert list(validator.iter_errors({"kind": 5, "verb": 7, "job": "dance"}))


@pytest.mark.parametrize("game", GAMES)
async def test_a_structured_move_plays_through_mcp(tmp_path: Path, game: str) -> None:
    service = GameService(MemoryStore(), tmp_path)
    async with Client(build_server(service)) as client:
        started = await call(client, "new_game", game=game, seed=4)
        ids = {"game_id": started["game_id"], "credential": started["credential"]}
        menu = await call(client, "legal_moves", **ids)
        engine = get_engine(game)
        # Seed 4 gives seat 0 the first move in every game: the game's state is its start.
        session_state = engine.new_game(engine.ruleset(), 4)
        seat = started["seat"]
        assert seat == 0
        move = engine.parse_move(session_state, seat, menu["moves"][0]["notation"])
        played = await call(client, "play", structured=engine.move_json(move), **ids)
        assert played["accepted"] == [engine.move_text(move)]
