"""Territory views a seat can act on (issue 10): the reach list with yield and cost, contested
tiles, the salvage of razing your own wall, one yield per cracked tile, talk cut at the limit,
the final ranking after the game, and the diplomat in the rules. Engine level, plus one game
through MCP."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonpath import at, obj, objs, text
from mcp import Client
from territory_helpers import arrange

from cogs_arena.engines.territory.board import CRACKED, KEY_INDEX
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.state import ELIMINATED, TerritoryState
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

E = TerritoryEngine()
SABLE, OCHRE, ASH = 0, 1, 8
RULES = Path(__file__).resolve().parent.parent / "engines" / "territory" / "rules.md"

# Seed 7, open map. Sable's hearth is 5,0 and Ochre's 5,-3 (distance 3 apart): 5,-1 (yield 0)
# and 5,-2 (yield 1) are in both seats' claim reach; 5,1 (yield 2, distance 1) and 7,-1
# (yield 3, distance 2) only in Sable's.


def game(**overrides: Any) -> TerritoryState:
    return E.new_game(E.ruleset(overrides), 7)


def play(state: TerritoryState, texts: dict[int, str] | None = None) -> TerritoryState:
    texts = texts or {}
    moves = {s: E.parse_move(state, s, texts.get(s, "hold")) for s in E.to_act(state)}
    return E.apply_batch(state, moves)


def row(view: dict[str, Any], key: str) -> dict[str, Any]:
    return dict(zip(view["tileFields"], view["tiles"][KEY_INDEX[key]], strict=True))


def detail(view: dict[str, Any], key: str) -> dict[str, Any]:
    return dict(zip(view["reachFields"], view["reachDetail"][key], strict=True))


def entry(state: TerritoryState, seat: int, notation: str) -> str:
    found = [m.description for m in E.legal_moves(state, seat).moves if m.notation == notation]
    assert found, notation
    return found[0]


# ---- the reach list: yield and cost --------------------------------------------------------


def test_reach_detail_gives_cost_yield_and_distance_of_every_claim_target() -> None:
    s = game()
    view = E.observe(s, SABLE)
    assert view["reachFields"] == ["cost", "yield", "distance", "contested"]
    assert set(obj(view["reachDetail"])) == set(obj(view["reach"]))
    for key in obj(view["reachDetail"]):
        x = detail(view, key)
        assert x["cost"] == at(view, "reach", key) == 2 + 2 * x["distance"]
        assert x["yield"] == row(view, key)["yield"]
    assert detail(view, "5,1") == {"cost": 4, "yield": 2, "distance": 1, "contested": ()}
    assert detail(view, "7,-1")["yield"] == 3 and detail(view, "7,-1")["cost"] == 6
    # Richest first, then nearest, then tile key.
    assert list(obj(view["reachDetail"]))[:3] == ["7,-1", "5,1", "6,0"]
    assert json.loads(json.dumps(view))["reachDetail"]["5,-1"] == [4, 0, 1, ["Ochre"]]
    text = E.render(view)
    assert "5,1 c4 y2" in text and "7,-1 c6 y3" in text
    assert "Your claim reach, richest first" in text


# ---- contested tiles -----------------------------------------------------------------------


def test_tiles_another_seat_reaches_are_marked_contested() -> None:
    s = game()
    view = E.observe(s, SABLE)
    assert detail(view, "5,-1")["contested"] == ("Ochre",)
    assert detail(view, "5,-2")["contested"] == ("Ochre",)
    assert detail(view, "3,2")["contested"] == ("Ash",)
    assert detail(view, "7,-1")["contested"] == ()
    # Symmetric: Ochre sees Sable on the same tiles.
    assert detail(E.observe(s, OCHRE), "5,-1")["contested"] == ("Sable",)
    text = E.render(view)
    assert "5,-1 c4 y0 vs Oc" in text and "3,2 c6 y0 vs As" in text
    assert "smears" in text
    menu = E.legal_moves(s, SABLE)
    assert at(menu.hints, "contested", "5,-1") == ["Ochre"]
    assert "7,-1" not in obj(menu.hints["contested"])
    assert "contested: Ochre" in entry(s, SABLE, "claim 5,-1") and "smear" in entry(
        s, SABLE, "claim 5,-1"
    )
    assert "contested" not in entry(s, SABLE, "claim 7,-1")


def test_an_eliminated_seat_contests_nothing() -> None:
    s = arrange(game(), life={OCHRE: ELIMINATED}, owner={"5,-3": -1})
    assert detail(E.observe(s, SABLE), "5,-1")["contested"] == ()
    assert "contested" not in entry(s, SABLE, "claim 5,-1")


def test_contested_marks_do_not_reveal_other_seats_paint() -> None:
    s = game()
    poor = arrange(s, paint={OCHRE: 0, ASH: 0})
    assert E.observe(poor, SABLE) == E.observe(s, SABLE)
    assert E.render(E.observe(poor, SABLE)) == E.render(E.observe(s, SABLE))
    assert E.legal_moves(poor, SABLE).hints == E.legal_moves(s, SABLE).hints


def test_the_sable_view_tracks_contests_as_ownership_changes() -> None:
    s = play(game(), {SABLE: "claim 5,1", OCHRE: "claim 5,-2"})
    view = E.observe(s, SABLE)
    assert "5,-2" not in obj(view["reachDetail"])  # Ochre owns it now
    # Ochre's reach grew from 5,-2: 4,0 is within 2 of it now.
    assert detail(view, "4,0")["contested"] == ("Ochre",)


# ---- raze entries: salvage on your own walls -----------------------------------------------


def test_razing_your_own_wall_shows_its_salvage() -> None:
    s = arrange(game(), owner={"5,1": SABLE, "7,-1": SABLE, "6,-2": OCHRE}, turn=4)
    s = arrange(s, tiles={"7,-1": CRACKED})
    view = E.observe(s, SABLE)
    # Every own tile in raze reach, with what razing it pays: a cracked tile pays nothing (only
    # the first raze of a wall does), nor does a yield-0 wall (the hearth 5,0).
    assert view["razeSalvage"] == {"5,0": 0, "5,1": 8, "7,-1": 0}
    assert set(obj(view["razeSalvage"])) <= set(obj(view["razeReach"]))
    assert "salvage 8" in entry(s, SABLE, "raze 5,1")
    assert "no salvage" in entry(s, SABLE, "raze 7,-1")
    assert "salvage" not in entry(s, SABLE, "raze 6,-2")
    text = E.render(view)
    assert "5,1 c5 y2>1 salvage 8" in text
    assert "7,-1 c5 y1>0 salvage 0" in text
    assert "Ochre: 6,-2 c5 y0>0;" in text


def test_the_salvage_shown_is_the_salvage_paid() -> None:
    s = arrange(game(), owner={"5,1": SABLE}, turn=4)
    shown = at(E.observe(s, SABLE), "razeSalvage", "5,1")
    after = play(s, {SABLE: "raze 5,1"})
    assert after.reports[SABLE].salvage == shown == 8


# ---- one yield per cracked tile ------------------------------------------------------------


def test_a_cracked_tile_shows_one_yield_everywhere() -> None:
    base = game()
    assert base.board.yields[KEY_INDEX["7,-1"]] == 3
    s = arrange(base, tiles={"7,-1": CRACKED}, turn=4)
    view = E.observe(s, SABLE)
    assert view["tileFields"] == ["q", "r", "state", "yield", "owner", "wet", "hearth"]
    assert row(view, "7,-1")["yield"] == 1 and row(view, "7,-1")["state"] == "cracked"
    assert detail(view, "7,-1")["yield"] == 1
    text = E.render(view)
    assert " 7:..1'" in text
    claim = entry(s, SABLE, "claim 7,-1")
    assert "yield 1/turn" in claim and "3" not in claim.replace("cost 6", "")
    raze = entry(s, SABLE, "raze 7,-1")
    assert "cracked, yield 1 → rubble, yield 0" in raze and "yield 3" not in raze
    wall = entry(arrange(base, turn=4), SABLE, "raze 7,-1")
    assert "wall, yield 3 → cracked, yield 1" in wall


def test_bots_still_read_the_effective_yield() -> None:
    """The raider razes only effYield-3 tiles: a cracked yield-3 wall is no target."""
    s = arrange(game(), owner={"5,1": OCHRE}, turn=4)
    s = replace(
        s, seats=tuple(replace(x, banked=10 if i == OCHRE else 0) for i, x in enumerate(s.seats))
    )
    obs = E.observe(s, SABLE)
    move = E.bots()["raider"](obs, E.legal_moves(s, SABLE), _stream())
    assert "raze" not in move  # 5,1 has yield 2
    richer = arrange(s, owner={"7,-1": OCHRE})
    move = E.bots()["raider"](E.observe(richer, SABLE), E.legal_moves(richer, SABLE), _stream())
    assert "raze 7,-1" in move
    cracked = arrange(richer, tiles={"7,-1": CRACKED})
    move = E.bots()["raider"](E.observe(cracked, SABLE), E.legal_moves(cracked, SABLE), _stream())
    assert "raze" not in move
    # The homesteader claims the richest first.
    move = E.bots()["homesteader"](
        E.observe(game(), SABLE), E.legal_moves(game(), SABLE), _stream()
    )
    assert move.splitlines()[0] == "claim 7,-1"


def _stream() -> Any:
    from cogs_arena.engines.rng import Stream

    return Stream(1, "test")


# ---- talk cut at the limit -----------------------------------------------------------------


def test_a_talk_line_cut_at_the_limit_says_so() -> None:
    s = game()
    long = "word " * 60  # 300 characters
    queued = E.talk(s, SABLE, long, None)
    line = obj(at(E.observe(queued, SABLE), "queuedTalk", 0))
    said = text(line["text"])
    assert line["cut"] is True and len(said) == 200 and said.endswith("…")
    assert "(cut at 200 characters)" in E.render(E.observe(queued, SABLE))
    short = obj(at(E.observe(E.talk(s, SABLE, "hello", None), SABLE), "queuedTalk", 0))
    assert "cut" not in short
    # A submitted line: cut in the move, still cut after the text form round trip that the
    # host makes, and marked in every reader's inbox the next turn.
    move = E.parse_move(s, SABLE, f"hold\nsay Ash: {long}")
    again = E.parse_move(s, SABLE, E.move_text(move))
    assert again == move
    assert E.move_from_json(s, SABLE, json.loads(json.dumps(E.move_json(move)))) == move
    after = E.apply_batch(
        s, {seat: again if seat == SABLE else E.parse_move(s, seat, "hold") for seat in E.to_act(s)}
    )
    inbox = objs(E.observe(after, ASH)["inbox"])
    assert inbox[0]["cut"] is True
    assert "(cut at 200 characters)" in E.render(E.observe(after, ASH))
    assert E.observe(after, OCHRE)["inbox"] == [], "a private line stays private"
    assert at(E.spectate(after, full=True), "talk", 0, "cut") is True


def test_the_cut_follows_the_ruleset_limit() -> None:
    s = game(talk_chars=10)
    line = at(E.observe(E.talk(s, SABLE, "abcdefghijklmnop", None), SABLE), "queuedTalk", 0)
    assert line == {"turn": 1, "from": "Sable", "to": None, "text": "abcdefghi…", "cut": True}
    exact = obj(at(E.observe(E.talk(s, SABLE, "abcdefghij", None), SABLE), "queuedTalk", 0))
    assert exact["text"] == "abcdefghij" and "cut" not in exact
    assert "(cut at 10 characters)" in E.render(
        E.observe(E.talk(s, SABLE, "abcdefghijklmnop", None), SABLE)
    )


# ---- the final ranking ---------------------------------------------------------------------


def finished() -> TerritoryState:
    s = game(turns=2)
    s = play(s, {SABLE: "claim 5,1; claim 6,0", OCHRE: "claim 5,-2"})
    s = play(s)
    assert s.ended == "complete"
    return s


def test_after_the_game_the_view_is_the_final_ranking() -> None:
    s = finished()
    view = E.observe(s, SABLE)
    for gone in ("reach", "razeReach", "reachDetail", "razeSalvage", "talkLinesLeft", "queuedTalk"):
        assert gone not in view, gone
    assert view["toAct"] is False and view["over"] is True
    assert view["reason"] == "complete"
    ranking = objs(view["ranking"])
    assert [x["alias"] for x in ranking] == at(view, "result", "details", "displayOrder")
    # Ash's hearth pays 3 a turn; Sable's 5,1 and 6,0 pay 2 each in turn 2; Ochre's hearth 1
    # a turn plus 5,-2's 1 in turn 2; Rose's hearth 1 a turn; the rest earn nothing.
    assert [(x["alias"], x["score"], x["rank"]) for x in ranking[:5]] == [
        ("Ash", 6, 1),
        ("Sable", 4, 2),
        ("Ochre", 3, 3),
        ("Rose", 2, 4),
        ("Verdant", 0, 5),
    ]
    assert {x["rank"] for x in ranking[4:]} == {5}, "ties share a rank"
    assert [x["winner"] for x in ranking] == [True] + [False] * 8
    assert view["winners"] == ["Ash"] and view["rank"] == 2
    assert E.observe(s, ASH)["rank"] == 1
    text = E.render(view)
    assert "Final ranking (complete; winner: Ash)" in text
    assert "1. Ash 6" in text and "2. Sable 4" in text
    assert "You (Sable) finished 2nd of 9 with score 4" in text
    assert "Your claim reach" not in text and "Talk lines left" not in text
    json.dumps(view)


def test_the_spectator_sees_the_final_ranking_too() -> None:
    s = finished()
    view = E.spectate(s, full=False)
    assert at(view, "ranking", 0, "alias") == "Ash"
    assert "Final ranking" in E.render(view)
    # While the game runs there is no ranking.
    assert "ranking" not in E.observe(game(), SABLE)
    assert "Final ranking" not in E.render(E.spectate(game(), full=False))


def test_an_eliminated_seat_is_ranked_with_its_frozen_score() -> None:
    s = game(turns=3)
    s = arrange(s, life={ASH: ELIMINATED}, owner={"1,4": -1})
    s = play(play(play(s)))
    view = E.observe(s, ASH)
    ash = next(x for x in objs(view["ranking"]) if x["alias"] == "Ash")
    assert ash["life"] == "eliminated" and view["rank"] == ash["rank"]


# ---- the rules describe every bot ----------------------------------------------------------


def test_the_rules_describe_the_diplomat_and_every_bot() -> None:
    text = RULES.read_text(encoding="utf-8")
    for name in E.bots():
        assert f"**{name}**" in text, name
    assert "tit-for-tat" in text and "never razes first" in text.lower().replace(
        "It never", "never"
    )


def test_bots_play_whole_games_on_the_new_views() -> None:
    from cogs_arena.engines.rng import Stream

    for name in E.bots():
        s = game(turns=8)
        rng = Stream(3, name)
        while s.ended is None:
            moves = {}
            for seat in E.to_act(s):
                text = E.bots()[name](E.observe(s, seat), E.legal_moves(s, seat), rng)
                move = E.parse_move(s, seat, text)
                E.validate(s, seat, move)
                moves[seat] = move
            s = E.apply_batch(s, moves)
        assert s.ended in ("complete", "elimination")


# ---- through MCP ---------------------------------------------------------------------------


async def _call(client: Client, tool: str, **arguments: Any) -> tuple[dict[str, Any], str]:
    result = await client.call_tool(tool, arguments)
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert not result.is_error, text
    assert result.structured_content is not None
    return dict(result.structured_content), text


@pytest.mark.anyio
async def test_mcp_view_shows_cost_yield_contest_and_the_final_ranking(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game_, _ = await _call(
            client,
            "new_game",
            game="territory",
            seed=7,
            seat="Sable",
            bots=["homesteader"],
            ruleset={"turns": 2},
        )
        gid, cred = game_["game_id"], game_["credential"]
        shown, text = await _call(client, "show", game_id=gid, credential=cred)
        obs = shown["observation"]
        assert obs["reachFields"] == ["cost", "yield", "distance", "contested"]
        assert obs["reachDetail"]["5,1"] == [4, 2, 1, []]
        assert obs["reachDetail"]["5,-1"] == [4, 0, 1, ["Ochre"]]
        assert "5,1 c4 y2" in text and "5,-1 c4 y0 vs Oc" in text
        menu, menu_text = await _call(
            client, "legal_moves", game_id=gid, credential=cred, kind="claim"
        )
        contested = [m for m in menu["moves"] if m["notation"] == "claim 5,-1"]
        assert contested and "contested: Ochre" in str(contested[0])
        assert "contested: Ochre can claim it too" in menu_text
        view: dict[str, Any] = {"status": "playing"}
        for move in ("claim 5,1", "hold"):
            played, _ = await _call(client, "play", game_id=gid, credential=cred, move=move)
            view = played["view"]
        assert view["status"] == "over"
        final, final_text = await _call(client, "show", game_id=gid, credential=cred)
        obs = final["observation"]
        assert "reach" not in obs and "talkLinesLeft" not in obs
        assert obs["ranking"][0]["rank"] == 1 and obs["reason"] == "complete"
        assert obs["winners"] == [x["alias"] for x in obs["ranking"] if x["winner"]]
        assert "Final ranking (complete; winner:" in final_text
        assert "You (Sable) finished" in final_text
        assert "Your claim reach" not in final_text
