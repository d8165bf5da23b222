"""Influence views show the other seat's last turn, and the reinforce menu offers whole-turn
allocations (issue 10: "the view after your move shows the bot's reply and what it took";
"Influence's reinforcements as one entry")."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonpath import JSON, at, obj
from mcp import Client
from mcp_helpers import call

from cogs_arena.engines import get_engine
from cogs_arena.engines.influence.allocations import MAX_WHOLE
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.history import ATTACK_FIELDS, attack_dicts
from cogs_arena.engines.influence.state import InfluenceState
from cogs_arena.engines.runner import play_bots
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE

Cell = tuple[int, int]


def setup(init: Mapping[Cell, int], cells: str = "rhombus:5") -> InfluenceState:
    spec: JSON = {"cells": cells, "init": {f"{r},{c}": v for (r, c), v in init.items()}}
    return E.new_game(E.ruleset({"map": spec}), 0)


def play(state: InfluenceState, seat: int, *texts: str) -> InfluenceState:
    for text in texts:
        state = E.apply(state, seat, E.parse_move(state, seat, text))
    return state


def round_trip(state: InfluenceState) -> InfluenceState:
    return E.state_from_json(json.loads(json.dumps(E.state_to_json(state))))


# ---- the other seat's last turn ------------------------------------------------------------------


def test_last_turn_lists_captures_repels_and_reinforcements() -> None:
    state = setup({(2, 2): 3, (2, 3): 5, (1, 1): -6, (3, 3): -2, (0, 0): -2, (4, 4): -1})
    state = play(state, 0, "end", "+2,2:2")  # White: 2 cells, 2 points, 2,2 → 5
    assert state.mover == 1
    state = play(state, 1, "1,1>2,2", "3,3>2,3", "0,0>0,1", "end")
    reinforce = E.default_move(state, 1)
    state = E.apply(state, 1, reinforce)
    assert state.mover == 0 and state.phase == "attack"
    view = E.observe(state, 0)
    last = view["last_turn"]
    assert isinstance(last, dict)
    assert last["seat"] == "Black" and last["turn"] == 1
    assert last["attack_fields"] == list(ATTACK_FIELDS)
    attacks = attack_dicts(last)
    results = [(a["from"], a["to"], a["result"]) for a in attacks]
    assert results == [
        ("1,1", "2,2", "captured"),
        ("3,3", "2,3", "repelled"),
        ("0,0", "0,1", "captured"),
    ]
    first = attacks[0]
    assert (first["owner_before"], first["strength_before"]) == ("White", 5)
    assert (first["owner_after"], first["strength_after"]) == ("Black", 1)
    assert last["captured"] == ["0,1", "2,2"]
    assert last["reinforced"] == {
        cell: k for cell, k in json.loads(json.dumps(E.move_json(reinforce)))["cells"].items()
    }
    text = E.render(view)
    assert "Black's last turn (turn 1): 1,1>2,2 captured 2,2 (was yours, 5) at 1; " in text
    assert "3,3>2,3 repelled (2,3 was yours, 5, now 3)" in text
    assert "0,0>0,1 captured 0,1 (was empty) at 1" in text
    assert f"reinforced {E.move_text(reinforce)}" in text
    # Black sees White's turn; White's turn had no attacks.
    black_view = E.observe(state, 1)
    assert at(black_view, "last_turn", "seat") == "White"
    assert "White's last turn (turn 1): no attacks; reinforced +2,2:2" in E.render(black_view)
    assert round_trip(state) == state


def test_emptied_target() -> None:
    state = replace(setup({(2, 2): 4, (4, 0): 1, (1, 1): -4, (4, 4): -3}), mover=1)
    state = play(state, 1, "1,1>2,2", "end")
    state = E.apply(state, 1, E.default_move(state, 1))
    last = obj(E.observe(state, 0)["last_turn"])
    assert attack_dicts(last)[0]["result"] == "emptied"
    assert last["captured"] == []
    assert "1,1>2,2 emptied 2,2 (was yours, 4)" in E.render(E.observe(state, 0))


def test_points_lost_at_the_caps_are_reported() -> None:
    state = setup({(2, 2): 8, (2, 3): 8, (4, 4): -1})
    state = play(state, 0, "end")  # every White cell capped: the phase is skipped, 2 points lost
    assert state.mover == 1
    last = obj(E.observe(state, 1)["last_turn"])
    assert last["points_lost"] == 2 and last["reinforced"] == {}
    assert "2 point(s) lost" in E.render(E.observe(state, 1))


def test_elimination_closes_the_winners_turn() -> None:
    state = setup({(2, 2): 5, (2, 3): -2})
    state = play(state, 0, "2,2>2,3")
    assert state.phase == "over"
    last = obj(E.observe(state, 1)["last_turn"])
    assert attack_dicts(last)[0]["result"] == "captured"
    assert "White's last turn (turn 1): 2,2>2,3 captured 2,3 (was yours, 2) at 3" in E.render(
        E.observe(state, 1)
    )
    assert E.spectate(state, full=True)["last_turn"] == last
    assert round_trip(state) == state


def test_views_are_symmetric_and_spectators_see_the_latest_turn() -> None:
    game = play_bots(E, E.ruleset(), 7, ["greedy", "greedy"])
    state = E.new_game(E.ruleset(), 7)
    for seat, text in game.moves[:90]:
        state = E.apply(state, seat, E.parse_move(state, seat, text))
        restored = round_trip(state)
        assert restored == state and E.digest(restored) == E.digest(state)
    white, black = obj(E.observe(state, 0)["last_turn"]), obj(E.observe(state, 1)["last_turn"])
    assert white["seat"] == "Black" and black["seat"] == "White"
    latest = obj(E.spectate(state, full=False)["last_turn"])
    assert latest in (white, black)
    older = white if latest == black else black
    assert (latest["turn"], latest["seat"] == "Black") >= (
        older["turn"],
        older["seat"] == "Black",
    )


def test_old_states_without_history_still_load() -> None:
    state = play(setup({(2, 2): 3, (4, 4): -1}), 0, "2,2>2,3")
    data = E.state_to_json(state)
    for key in ("turn_attacks", "turn_points", "last_turns"):
        data.pop(key)
    old = E.state_from_json(data)
    assert old == replace(state, turn_attacks=())
    assert E.observe(old, 1)["last_turn"] is None


# ---- whole-allocation menu entries ---------------------------------------------------------------


def reinforcing() -> InfluenceState:
    state = setup({(2, 2): 3, (2, 3): 2, (1, 1): 1, (3, 2): 6, (1, 2): -4, (4, 4): -1})
    state = play(state, 0, "end")
    assert state.phase == "reinforce" and state.points == 4
    return state


def test_whole_entries_come_first_and_each_spends_every_point() -> None:
    state = reinforcing()
    menu = E.legal_moves(state, 0)
    whole = [m for m in menu.moves if m.kind == "reinforce_all"]
    singles = [m for m in menu.moves if m.kind == "reinforce"]
    assert whole and len(whole) <= MAX_WHOLE
    assert menu.moves[: len(whole)] == tuple(whole)
    assert {m.notation for m in singles} == {"+1,1", "+2,2", "+2,3", "+3,2"}
    assert len({m.notation for m in whole}) == len(whole)
    assert whole[0].notation == E.move_text(E.default_move(state, 0))
    assert whole[0].description.startswith("reinforce all 4 points: weakest cells first")
    assert any("all on 2,2 (3 -> 7)" in m.description for m in whole)
    for entry in whole:
        move = E.parse_move(state, 0, entry.notation)
        assert E.move_text(move) == entry.notation
        E.validate(state, 0, move)
        after = E.apply(state, 0, move)
        assert after.mover == 1 and after.phase == "attack"  # the phase ends in one play
        record = after.last_turns[0]
        assert record is not None and sum(k for _, k in record.reinforced) == 4


def test_no_whole_entries_for_a_single_point() -> None:
    state = play(reinforcing(), 0, "+2,2", "+2,2", "+2,2")
    assert state.points == 1
    kinds = {m.kind for m in E.legal_moves(state, 0).moves}
    assert kinds == {"reinforce"}


def test_whole_entries_after_some_single_points_spend_the_rest() -> None:
    state = play(reinforcing(), 0, "+2,2")
    whole = [m for m in E.legal_moves(state, 0).moves if m.kind == "reinforce_all"]
    assert whole and all(m.description.startswith("reinforce all 3 points") for m in whole)
    after = E.apply(state, 0, E.parse_move(state, 0, whole[-1].notation))
    assert after.mover == 1
    record = after.last_turns[0]
    assert record is not None and sum(k for _, k in record.reinforced) == 4


def test_whole_entries_stay_few_on_a_big_position() -> None:
    game = play_bots(E, E.ruleset(), 3, ["greedy", "greedy"])
    state = E.new_game(E.ruleset(), 3)
    for seat, text in game.moves:
        if state.phase == "reinforce" and state.points > 20:
            break
        state = E.apply(state, seat, E.parse_move(state, seat, text))
    assert state.phase == "reinforce"
    whole = [m for m in E.legal_moves(state, state.mover).moves if m.kind == "reinforce_all"]
    assert 2 <= len(whole) <= MAX_WHOLE


# ---- through MCP ---------------------------------------------------------------------------------


def _all_text(result: Any) -> str:
    text = "".join(getattr(block, "text", "") for block in result.content)
    return text + json.dumps(result.structured_content or {})


@pytest.mark.anyio
async def test_play_returns_the_bots_reply(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as client:
        game = await call(
            client, "new_game", game="influence", seed=4, seat="White", bots=["greedy"]
        )
        gid, cred = game["game_id"], game["credential"]
        await call(client, "play", game_id=gid, credential=cred, move="9,1>8,1")
        await call(client, "play", game_id=gid, credential=cred, move="end")
        menu = await call(client, "legal_moves", game_id=gid, credential=cred)
        whole = [m for m in menu["moves"] if m["kind"] == "reinforce_all"]
        assert whole, "the reinforce menu offers whole allocations"
        result = await client.call_tool(
            "play", {"game_id": gid, "credential": cred, "number": whole[0]["number"]}
        )
        assert not result.is_error
        text = _all_text(result)
        # The brief view after a move leads with the bot's reply, each attack with its result.
        assert "Since your last look:\nBlack played:\n  " in text
        assert ": captured (was " in text and "\n  +" in text
        view = await call(client, "log", game_id=gid, credential=cred)
        black = [e["text"] for e in view["events"] if e.get("seat") == "Black"]
        assert any(": captured (was " in line for line in black), black
