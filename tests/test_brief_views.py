"""The brief views of Territory, Chemistry and Blending: a third of the full view or less at
every decision of a bot game, carrying what the seat decides with (its own data, the reach,
the vats, the hand and the hero's surroundings) and not the whole board; Blending's estates."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from brief_helpers import seat_states, seat_views, texts
from mcp import Client
from mcp_helpers import call, error_text

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.board import ORTHO, cheb
from cogs_arena.engines.blending.eras.views import era_lines
from cogs_arena.engines.chemistry.trip import own_cog_text
from cogs_arena.engines.territory.board import ALIASES, SHORT
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

BRIEF_GAMES = ("influence", "territory", "chemistry", "blending")


@pytest.mark.parametrize("game", BRIEF_GAMES)
def test_brief_is_at_most_a_third_of_full_at_every_decision(game: str) -> None:
    """At every decision of seat 0 in a pinned bot game (and at the end) the brief board text
    is at most a third of the full one (before: Territory 1.05x, Chemistry 1.07x, Blending
    1.1x)."""
    engine, views = seat_views(game)
    assert len(views) > 10
    for i, view in enumerate(views):
        brief, full = texts(engine, view)
        assert 3 * len(brief) <= len(full), (game, i, len(brief), len(full), brief)


def _territory_view() -> dict[str, Any]:
    _, views = seat_views("territory")
    view = next(v for v in views if v["turn"] >= 8 and v.get("toAct"))
    return copy.deepcopy(view)


def test_territory_brief_carries_the_seat_its_reach_and_talk_not_the_board() -> None:
    """The brief names the seat's paint, life, walls, income and score, every other seat's
    score, the ten richest claim targets with cost, yield and rivals, the rival walls and
    own salvage in raze reach, the talk left and the talk received; not the board."""
    engine, _ = seat_views("territory", seed=7)
    view = _territory_view()
    view["inbox"] = [{"turn": view["turn"] - 1, "from": "Ochre", "to": None, "text": "truce?"}]
    brief, full = texts(engine, view)
    me = view["seats"][view["seat"]]
    head = f"You: {view['alias']} (hearth {me['hearth']}), {view['life']}, {view['paint']} paint"
    assert head in brief and f"score {me['score']}" in brief
    assert f"{me['walls']} walls, last income {me['lastIncome']}" in brief
    for s in view["seats"]:
        if s["seat"] != view["seat"]:
            assert f"{s['alias']} {s['score']}/{s['lastIncome']}/{s['walls']}" in brief
    fields = view["reachFields"]
    cost, gain, rivals = (fields.index(n) for n in ("cost", "yield", "contested"))
    detail = list(view["reachDetail"].items())
    assert len(detail) > 10, "a mid-game reach longer than the brief's list"
    for key, row in detail[:10]:
        item = f"{key} c{row[cost]} y{row[gain]}"
        if row[rivals]:
            item += " vs " + "+".join(SHORT[ALIASES.index(a)] for a in row[rivals])
        assert item in brief, item
    assert f"{len(detail) - 10} more" in brief
    assert f"{detail[10][0]} c" not in brief
    paying = [k for k, pay in view["razeSalvage"].items() if pay > 0]
    assert paying and any(f"{k} c{view['razeReach'][k]} salvage" in brief for k in paying)
    assert f"Talk lines left this turn: {view['talkLinesLeft']}." in brief
    assert "  Ochre: truce?" in brief
    assert "r=-7" in full and "r=-7" not in brief and "Board:" not in brief
    assert "Recent events" not in brief


def test_chemistry_brief_carries_the_own_cog_the_vats_and_the_report_not_the_map() -> None:
    """The brief names the seat's cog (cell, hand, eaten, order), its part of the shift
    report, every vat's charge, stock and cooldown, what lies at each vent and what every
    seat has eaten; not the room's map or its legend."""
    engine, views = seat_views("chemistry")
    view = views[len(views) // 2]
    brief, full = texts(engine, view)
    me = next(g for g in view["cogs"] if g["seat"] == view["seat"])
    hand = "+".join(me["hand"]) or "empty"
    assert f"at ({me['cell'][0]},{me['cell'][1]}), hand {hand}, eaten {me['eaten']}" in brief
    assert view["report"]["own_cog"] and own_cog_text(view["report"]["own_cog"]) in brief
    for vat in view["vats"]:
        assert (
            f"{vat['name']} ({vat['centre'][0]},{vat['centre'][1]}) {'+'.join(vat['takes'])}: "
            f"charge {vat['charge']}, stock {vat['stock'][0]}+{vat['stock'][1]}, "
            f"cooldown {vat['cooldown']}"
        ) in brief
    for vent in view["vents"]:
        assert f"{vent['molecule']} {vent['loose']}" in brief
    for cog in view["cogs"]:
        assert f"{cog['alias']} {cog['eaten']}" in brief
    assert " 0 ####" in full and "####" not in brief and "Legend:" not in brief


def _blending_turn_view() -> dict[str, Any]:
    _, views = seat_views("blending")
    for view in views:
        hero = view["players"][view["seat"]]["hero"]
        near = [g for g in view["guardians"] if cheb(tuple(g["at"]), tuple(hero)) <= 2]
        far = [g for g in view["guardians"] if cheb(tuple(g["at"]), tuple(hero)) > 2]
        if view["phase"] == "turn" and view["to_act"] == view["seat"] and near and far:
            return view
    raise AssertionError("no turn with guardians both near and far")


def test_blending_brief_carries_the_step_situation() -> None:
    """The brief names the whole hand, the hero's square, the turn so far, the hero's 3x3,
    where a single can go near the hero, the guardians within 2 squares with their piles and
    estates (not those further away), and each rival's hero, hand size and score."""
    engine, _ = seat_views("blending")
    view = _blending_turn_view()
    brief, full = texts(engine, view)
    for tile, face in view["hand"]:
        assert f"{tile}:{face}" in brief
    me = view["players"][view["seat"]]
    hx, hy = me["hero"]
    assert f"at {hx},{hy}, score {me['score_now']}" in brief
    assert f"moves left {view['turn']['moves_left']}/" in brief
    squares = {(x, y) for x, y, _ in view["squares"]}
    singles = [
        f"{x},{y}"
        for y in (hy - 1, hy, hy + 1)
        for x in (hx - 1, hx, hx + 1)
        if (x, y) not in squares and any((x + a, y + b) in squares for a, b in ORTHO)
    ]
    assert "Near: singles on " + (" ".join(singles) or "none") + ";" in brief
    for g in view["guardians"]:
        near = cheb(tuple(g["at"]), (hx, hy)) <= 2
        assert (f"  {g['id']} " in brief) == near, g["id"]
        if near:
            rows = " ".join(g["estate"]["rows"])
            assert f"[{rows}] {g['estate']['land_squares']}" in brief
            if g["owner"] != view["seat"]:
                assert all(f"{t}:{face}" in brief for t, face, _base in g["pile"])
    for p in view["players"]:
        if p["seat"] != view["seat"]:
            hero = f"{p['hero'][0]},{p['hero'][1]}"
            assert f"{p['seat']} {hero} {p['hand_size']} {p['score_now']}" in brief
    assert "Recent events" in full and "Recent events" not in brief
    assert "Map: x grows east" not in brief


def test_every_guardian_lists_its_estate_and_the_estates_add_up_to_the_scores() -> None:
    """Each guardian of a view carries its estate: the 3x3 around it, row by row as the map
    letters them, and its count of the guardian's land; per owner those counts are the land
    part of the score (estates never overlap). Full text lists every estate."""
    engine, views = seat_views("blending")
    seen = 0
    for view in views:
        if not view["guardians"]:
            continue
        letters = {(x, y): "#" if land == 3 else "MFP"[land] for x, y, land in view["squares"]}
        land_of = [0] * len(view["players"])
        full = engine.render(view)
        for g in view["guardians"]:
            x, y = g["at"]
            e = g["estate"]
            assert e["from"] == [x - 1, y - 1] and e["to"] == [x + 1, y + 1]
            rows = [
                "".join(letters.get((x + dx, y + dy), ".") for dx in (-1, 0, 1))
                for dy in (-1, 0, 1)
            ]
            assert e["rows"] == rows
            assert e["land_squares"] == "".join(rows).count(g["land"])
            land_of[g["owner"]] += e["land_squares"]
            assert f"estate {x - 1}..{x + 1},{y - 1}..{y + 1} [{' '.join(rows)}]" in full
            seen += 1
        assert land_of == [p["score_parts"][0] for p in view["players"]]
    assert seen > 20


def test_a_hero_on_a_guardian_shows_both_on_the_text_maps() -> None:
    """Where a hero stands on a guardian's square, the full map and the brief map both show
    the guardian (gN) and the hero (@N) in that cell."""
    engine, views = seat_views("blending")
    found = 0
    for view in views:
        me = view["players"][view["seat"]]
        for g in view["guardians"]:
            if g["at"] == me["hero"] and view["phase"] == "turn":
                brief, full = texts(engine, view)
                heroes = [p for p in view["players"] if p["hero"] == me["hero"]]
                mark = f"g{g['owner']}@{view['seat'] if len(heroes) == 1 else '*'}"
                assert mark in full and mark in brief, (full, brief)
                found += 1
    assert found


@pytest.mark.anyio
async def test_blending_news_reaches_a_brief_view_once(tmp_path: Path) -> None:
    """A play's brief answer tells what the other seats did once: in its "since your last
    look" lines, not again as the view's recent events."""
    service = GameService(MemoryStore(), tmp_path)
    async with Client(build_server(service)) as client:
        started = await call(client, "new_game", game="blending", seed=7, bots=["builder"])
        ids = {"game_id": started["game_id"], "credential": started["credential"]}
        for _ in range(200):
            result = await client.call_tool("play", {"number": 1, **ids})
            text = error_text(result)
            assert not result.is_error, text
            if "Since your last look:" in text:
                break
        else:
            raise AssertionError("the others never moved between two plays")
        news = text.split("Since your last look:\n", 1)[1].split("\n\n", 1)[0]
        lines = [line.strip() for line in news.splitlines() if line.startswith("  ")]
        assert lines
        for line in lines:
            assert text.count(line) == 1, (line, text)
        assert "Recent events" not in text


@pytest.mark.parametrize(
    ("game", "says"),
    [
        ("territory", ("Final ranking", "finished")),
        ("chemistry", ("GAME OVER", "Eaten so far")),
        ("blending", ("game over", "(you): score")),
    ],
)
def test_the_last_brief_view_gives_the_result(game: str, says: tuple[str, ...]) -> None:
    """The brief view of a finished game says it is over and gives the scores."""
    engine, views = seat_views(game)
    brief, _ = texts(engine, views[-1])
    for words in says:
        assert words in brief, (words, brief)


def test_an_eliminated_territory_seat_is_told_so_and_shown_no_reach() -> None:
    """An eliminated seat's brief view says it is out, and lists no reach and no talk left."""
    engine, _ = seat_views("territory")
    view = _territory_view()
    for key in ("reach", "razeReach", "reachDetail", "razeSalvage", "talkLinesLeft"):
        del view[key]
    view["eliminatedTurn"] = view["turn"] - 1
    view["life"] = "eliminated"
    brief, _ = texts(engine, view)
    assert f"You were eliminated on turn {view['turn'] - 1}" in brief
    assert "Claim reach" not in brief and "Talk lines left" not in brief


def test_blending_brief_near_blends_are_the_menus_near_blends() -> None:
    """The blends the brief says fit near the hero (block, tile, rotation) are the menu's
    near-hero blend placements, at every decision of seat 0 in four bot games (seeds where
    the builders leave blocks to blend near seat 0's hero)."""
    checked = 0
    for seed in (7, 2, 4, 8):
        engine, states = seat_states("blending", seed)
        for state in states[:-1]:
            view = engine.observe(state, 0)
            if view["phase"] != "turn":
                continue
            brief, _ = texts(engine, view)
            line = next(x for x in brief.splitlines() if x.startswith(("Near:", "Placements:")))
            said = set(re.findall(r"(-?\d+,-?\d+) \([MFP]{4}\): ([^,.]+)", line))
            listed: set[tuple[str, str]] = set()
            for block, items in said:
                for item in re.findall(r"t\d+(?: r\d+)?", items):
                    listed.add((block, item))
            menu = set()
            for m in engine.legal_moves(state, 0).moves:
                parts = m.notation.split()
                blend = "double" in m.description or "triple" in m.description
                if blend and "near" in m.description:
                    menu.add((parts[2], " ".join([parts[1], *parts[3:]])))
            assert listed == menu, (line, menu)
            checked += bool(listed)
    assert checked


@pytest.mark.parametrize(
    "rules", [{"combat": "legacy"}, {"combat": "three"}, {"land": "territories"}]
)
def test_blending_brief_of_an_older_era_keeps_its_lines_once(rules: dict[str, Any]) -> None:
    """In an older rule era the brief view keeps the era's own lines (its fights, territories
    and endgame) as the full view writes them, and a fight's heading once."""
    engine, views = seat_views("blending", rules=rules)
    checked = 0
    for view in views[:-1]:
        brief, _ = texts(engine, view)
        lines = brief.splitlines()
        for line in filter(None, era_lines(view)):
            assert line in lines, (line, brief)
            checked += 1
        headings = [x for x in lines if x.startswith("Fight against")]
        assert len(headings) == len(set(headings)), brief
    assert checked


@pytest.mark.anyio
@pytest.mark.parametrize("game", BRIEF_GAMES)
async def test_the_host_sends_the_engines_brief_text(tmp_path: Path, game: str) -> None:
    """A brief view through the host carries every line of the engine's brief text: the engine
    alone decides what a brief shows (the host used to drop Influence's neighbours line, which
    the engine wrote on purpose)."""
    service = GameService(MemoryStore(), tmp_path)
    async with Client(build_server(service)) as client:
        started = await call(client, "new_game", game=game, seed=4)
        ids = {"game_id": started["game_id"], "credential": started["credential"]}
        result = await client.call_tool("show", {"detail": "brief", **ids})
        text = error_text(result)
        assert not result.is_error, text
        data = await call(client, "show", detail="data", **ids)
    brief = get_engine(game).render_brief(data["observation"])
    lines = [line for line in brief.splitlines() if line.strip()]
    assert lines and all(line in text for line in lines), (brief, text)
