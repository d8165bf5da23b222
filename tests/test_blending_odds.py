"""Issue 10, Blending: each lay shows its exact win / tie / loss odds (from the corners of the row
tile it faces, DECISIONS B27, and nothing hidden), the fight's pass (`stop`) is labelled, and the
view keeps the last fight's flips and kill."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from jsonpath import at, obj, texts
from mcp import Client
from mcp_helpers import call, fight_or_builder

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.moves import Move
from cogs_arena.engines.blending.odds import PASS_TEXT, lay_odds, odds_text
from cogs_arena.engines.blending.rules import new_game
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.state import State, from_json, to_json
from cogs_arena.engines.blending.tiles import FOREST, MOUNTAIN, PLAINS, face_from_text, face_text
from cogs_arena.engines.protocol import Engine
from cogs_arena.engines.rng import Stream
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

E: Engine[BlendingRules, State, Move] = get_engine("blending")
SLICE, SHOOT, CAST = MOUNTAIN, FOREST, PLAINS
Q = Fraction(1, 4)


def play(s: State, text: str) -> State:
    return E.apply(s, s.seat, E.parse_move(s, s.seat, text))


def scene(base: list[str], hand: list[str], bolsters: list[str] | None = None) -> State:
    sq = {(1, 0): "M", (2, 0): "F", (2, 1): "F", (3, 0): "F"}
    spec = Scenario(
        squares=sq,
        hands={0: hand},
        heroes={0: (1, 0)},
        guardians=[GuardianSpec(1, (2, 0), base, bolsters or [])],
    )
    return play(build(spec), "fight G1")


def pos_of(s: State, face: str) -> int:
    assert s.fight is not None
    return next(i for i, t in enumerate(s.fight.row, 1) if face_text(s.faces[t - 1]) == face)


def hand_tile(s: State, face: str) -> int:
    return next(t for t in s.hands[0] if face_text(s.faces[t - 1]) == face)


def entry(s: State, notation: str) -> str:
    return next(m.description for m in E.legal_moves(s, s.seat).moves if m.notation == notation)


@pytest.mark.parametrize(
    ("target", "kind", "odds"),
    [
        ("MMMM", SHOOT, (1, 0, 0)),  # a single is fixed: shoot beats slice
        ("MMMM", SLICE, (0, 1, 0)),
        ("MMMM", CAST, (0, 0, 1)),
        ("FFPP", CAST, (Fraction(1, 2), Fraction(1, 2), 0)),  # B32: cast never loses here
        ("FFPP", SHOOT, (0, Fraction(1, 2), Fraction(1, 2))),
        ("FFPP", SLICE, (Fraction(1, 2), 0, Fraction(1, 2))),
        ("MMFP", SLICE, (Q, 2 * Q, Q)),  # a triple: 2 of 4 corners Mountain
        ("MMFP", SHOOT, (2 * Q, Q, Q)),
        ("MMFP", CAST, (Q, Q, 2 * Q)),
    ],
)
def test_lay_odds_are_exact_corner_counts(
    target: str, kind: int, odds: tuple[Fraction, ...]
) -> None:
    got = lay_odds(face_from_text(target), kind)
    assert got == tuple(Fraction(x) for x in odds) and sum(got) == 1


def test_odds_text_is_whole_percents() -> None:
    assert odds_text(lay_odds(face_from_text("MMFP"), SHOOT)) == "win 50% / tie 25% / loss 25%"
    assert odds_text((Fraction(1, 2), Fraction(1, 6), Fraction(1, 3))) == (
        "win 50% / tie 17% / loss 33%"
    )


def test_each_lay_entry_and_hint_shows_its_odds() -> None:
    s = scene(["MMMM", "FFPP", "MMFP"], ["FFFF", "MMMM", "FFPP"])
    menu = E.legal_moves(s, 0)
    lays = [m for m in menu.moves if m.kind == "lay"]
    assert lays and all(" / tie " in m.description for m in lays)
    f, m = hand_tile(s, "FFFF"), hand_tile(s, "MMMM")
    single, double, triple = pos_of(s, "MMMM"), pos_of(s, "FFPP"), pos_of(s, "MMFP")
    assert entry(s, f"lay t{f}@{single} shoot").endswith("win 100% / tie 0% / loss 0%")
    assert entry(s, f"lay t{m}@{double} slice").endswith("win 50% / tie 0% / loss 50%")
    assert entry(s, f"lay t{f}@{triple} shoot").endswith("win 50% / tie 25% / loss 25%")
    # a double in hand offers both its kinds, each with its own odds
    d = hand_tile(s, "FFPP")
    assert entry(s, f"lay t{d}@{double} cast").endswith("win 50% / tie 50% / loss 0%")
    assert entry(s, f"lay t{d}@{double} shoot").endswith("win 0% / tie 50% / loss 50%")
    table = obj(menu.hints["lay_odds"])
    assert at(table, str(triple), "slice") == {"win": "1/4", "tie": "1/2", "loss": "1/4"}
    assert at(table, str(single), "cast") == {"win": "0", "tie": "0", "loss": "1"}
    # a position already laid leaves the table; once the flips begin there is nothing to lay
    s1 = play(s, f"lay t{f}@{single} shoot")
    assert str(single) not in obj(E.legal_moves(s1, 0).hints["lay_odds"])
    s2 = play(play(s1, f"lay t{d}@{double} cast"), "flip")  # neither pair can lose
    assert E.legal_moves(s2, 0).hints == {}
    s3 = play(s2, "flip")  # the pass is over: a new one washes the live tiles, with new odds
    assert s3.fight is not None and s3.fight.passes == 2 and E.legal_moves(s3, 0).hints
    assert not E.legal_moves(play(s, "stop"), 0).hints


def test_odds_use_no_hidden_information() -> None:
    """The stock order, the flip stream and the other hands change nothing in the fight menu."""
    s = scene(["MMMM", "FFPP", "MMFP"], ["FFFF", "MMMM"])
    other = s.clone()
    other.stock = tuple(reversed(s.stock))
    other.flip_counter = s.flip_counter + 7
    other.hands = (s.hands[0], s.hands[0][:1], (), s.hands[0])
    assert E.legal_moves(s, 0) == E.legal_moves(other, 0)


def test_flip_and_stop_say_what_they_do() -> None:
    s = scene(["MMMM", "PPPP", "FFFF"], ["FFFF", "MMMM"])
    stop = entry(s, "stop")
    assert stop.startswith(PASS_TEXT) and "G1 survives" in stop
    f, m = hand_tile(s, "FFFF"), hand_tile(s, "MMMM")
    s1 = play(play(s, f"lay t{f}@{pos_of(s, 'MMMM')} shoot"), f"lay t{m}@{pos_of(s, 'PPPP')} slice")
    flip = entry(s1, "flip")
    assert "win 100% / tie 0% / loss 0%" in flip and "1 more laid pair to flip in pass 1" in flip
    assert "unflipped tiles return to your hand" in entry(s1, "stop")
    s2 = play(s1, "flip")
    assert "the last flip of pass 1" in entry(s2, "flip")
    assert "stop is a " + PASS_TEXT in E.render(E.observe(s2, 0))
    assert PASS_TEXT in E.legal_moves(s2, 0).instructions


def test_the_view_keeps_the_flips_and_the_kill() -> None:
    s = scene(["MMMM", "PPPP", "FFFF"], ["FFFF", "MMMM", "PPPP"])
    for face, kind, row in (("FFFF", "shoot", "MMMM"), ("MMMM", "slice", "PPPP")):
        s = play(s, f"lay t{hand_tile(s, face)}@{pos_of(s, row)} {kind}")
    s = play(s, f"lay t{hand_tile(s, 'PPPP')}@{pos_of(s, 'FFFF')} cast")
    for _ in range(3):
        s = play(s, "flip")
    assert s.fight is None and s.stats.kills == 1
    for seat in (0, 1, 2):  # the killer, the victim and a bystander read the same summary
        last = texts(E.observe(s, seat)["last_fight"])
        assert last[0].startswith("round 1: seat 0 fought G1 (seat 1), 1 pass, 3 flips: 3 won")
        assert sum(": win" in line for line in last) == 3
        assert last[-1].startswith("seat 0 killed G1 (seat 1)")
        text = E.render(E.observe(s, seat))
        assert "Last fight:" in text and "seat 0 killed G1" in text
    assert from_json(to_json(s)).last_fight == s.last_fight


def test_a_survived_fight_records_its_loss_and_discard() -> None:
    s = scene(["MMMM", "PPPP", "FFFF"], ["FFFF", "MMMM"])
    f = hand_tile(s, "FFFF")
    s = play(play(s, f"lay t{f}@{pos_of(s, 'PPPP')} shoot"), "flip")  # cast beats shoot
    s = play(play(s, f"discard t{f}"), "stop")
    last = texts(E.observe(s, 1)["last_fight"])
    assert "1 flips: 0 won, 0 tied, 1 lost" in last[0]
    assert any("turned cast: loss" in line for line in last)
    assert any(f"seat 0 lost t{f} (Forest single)" in line for line in last)
    assert last[-1] == "seat 0: stopped; G1 survives"


def test_the_summary_leaves_the_view_with_its_events() -> None:
    s = scene(["MMMM", "PPPP", "FFFF"], ["FFFF"])
    s = play(s, "stop")
    assert "last_fight" in E.observe(s, 0)
    s.log = s.log[-1:]  # still among the recent events
    assert "last_fight" in E.observe(s, 0)
    s.log = ("round 2: seat 1 drew 3",)
    assert "last_fight" not in E.observe(s, 0)
    assert "last_fight" not in E.observe(new_game(BlendingRules(), 3), 0)


SEED = 6
"""A seed whose seat 0 meets a fight within a few turns."""


@pytest.mark.anyio
async def test_a_fight_menu_through_mcp_shows_the_odds(tmp_path: Path) -> None:
    """Seat 0 plays by menu numbers, takes the first fight the menu offers and reads its lays."""
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(
            client, "new_game", game="blending", seed=SEED, seat=0, bots=["builder"] * 3
        )
        gid, cred = game["game_id"], game["credential"]
        view = game["view"]
        for calls in range(400):
            assert view["status"] != "over", "no fight came up"
            menu = await call(client, "legal_moves", game_id=gid, credential=cred, page_size=500)
            entries = menu["moves"]
            lays = [e for e in entries if e["kind"] == "lay"]
            if lays:
                break
            number = fight_or_builder(entries, view["observation"], Stream(SEED, f"llm/{calls}"))
            played = await call(
                client, "play", game_id=gid, credential=cred, number=number, detail="data"
            )
            view = played["view"]
        assert all("win " in e["description"] and "% / loss " in e["description"] for e in lays)
        odds = menu["hints"]["lay_odds"]
        assert set(odds) == {e["notation"].split("@")[1].split()[0] for e in lays}
        stop = next(e for e in entries if e["kind"] == "stop")
        assert stop["description"].startswith(PASS_TEXT)
