"""Legacy combat (blending.md §4.2, `combat: "legacy"`; rules.md BE8-BE13): face-down piles,
round by round strikes with announced kinds, damage, escapes, kills, wear-down, hero fights."""

from __future__ import annotations

import pytest
from blending_era_helpers import E, fight_scene, menu, pile_faces, play, tile
from jsonpath import arr, at, obj

from cogs_arena.engines import IllegalMove, InvalidRuleset
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import Scenario, build
from cogs_arena.engines.blending.state import State

SQUARES = {(1, 0): "M", (2, 0): "F", (2, 1): "F", (3, 0): "F", (1, 1): "M", (5, 5): "P"}


def scene(
    base: list[str],
    bolsters: list[str] | None = None,
    hand: list[str] | None = None,
    own: bool = False,
    **rules: object,
) -> State:
    return fight_scene("legacy", SQUARES, base, bolsters, hand or ["FFFF"] * 4, own, rules)


def round_(s: State, face: str, kind: str, verb: str = "strike") -> State:
    s = play(s, f"{verb} t{tile(s, 0, face)}")
    assert s.phase == "announce"
    return play(s, f"announce {kind}")


def test_piles_are_face_down_to_rivals_only() -> None:
    s = scene(["MMMM", "FFPP", "MMFP"])
    rival = obj(at(E.observe(s, 0), "guardians", 0))
    assert rival["hidden"] and rival["pips"] == [1, 2, 3]
    assert {t for t, _, _ in map(arr, arr(rival["pile"]))} == {"?"} and "MMFP" not in str(rival)
    assert "face down, pips 1 2 3" in E.render(E.observe(s, 0))
    assert at(E.observe(s, 1), "guardians", 0, "pile", 2, 1) == "MMFP"  # the owner knows
    assert at(E.spectate(s, False), "guardians", 0, "hidden")
    assert "hidden" not in obj(at(E.spectate(s, True), "guardians", 0))


def test_a_raised_guardian_logs_only_pips() -> None:
    squares = {**SQUARES, (0, 1): "M"}
    spec = Scenario(squares=squares, hands={0: ["MMMM", "MMMM", "MMFF"]}, heroes={0: (1, 0)})
    s = play(build(spec, BlendingRules(combat="legacy")), "guardian")
    for t in list(s.hands[0]):
        assert "pick " + f"t{t}" in menu(s)
        s = play(s, f"pick t{t}")
    assert "face down (pips 1, 1, 2)" in s.log[-1] and "MMFF" not in s.log[-1]


def test_the_guardian_answers_in_pile_order_and_names_its_best_kind() -> None:
    s = play(scene(["FFPP", "MMMM", "MMMM"], hand=["MMMM"] * 4), "fight G1")
    assert set(menu(s)) >= {f"strike t{tile(s, 0, 'MMMM')}", f"escape t{tile(s, 0, 'MMMM')}"}
    s = play(s, f"strike t{tile(s, 0, 'MMMM')}")
    view = E.observe(s, 0)["duel"]
    assert at(view, "answer", 1) == "FFPP" and menu(s) == ["announce slice"]
    with pytest.raises(IllegalMove, match="no cast land"):
        play(s, "announce cast")
    s = play(s, "announce slice")
    assert s.duel is not None
    # slice (1) against FFPP: the owner names shoot (beats slice): 2+1 against 1-1
    assert "shoot (3)" in s.duel.results[-1] and "1 damage to seat 0" in s.duel.results[-1]
    assert s.phase == "loss" and len(s.hands[0]) == 3
    s = play(s, f"discard t{s.hands[0][0]}")
    assert s.duel is not None
    assert s.phase == "fight" and len(s.hands[0]) == 2 and s.duel.taken == 1
    assert len(s.discard) == 2  # the played tile and the damage


@pytest.mark.parametrize(("damage", "dealt"), [("one", 1), ("difference", 3)])
def test_damage_one_or_the_difference(damage: str, dealt: int) -> None:
    s = play(scene(["MMMM"] * 6, hand=["FFPP"] * 3, damage=damage), "fight G1")
    s = round_(s, "FFPP", "shoot")  # 2+1 against 1-1: difference 3
    assert s.duel is not None and s.duel.damage == dealt


def test_damage_to_the_pile_size_kills_and_pays_the_pile_and_three() -> None:
    s = play(scene(["MMMM"] * 3, hand=["FFFF"] * 4), "fight G1")
    for _ in range(3):
        s = round_(s, "FFFF", "shoot")
    assert not s.guardians and s.stats.kills == 1
    assert len(s.hands[0]) == 1 + 3 + 3
    assert s.phase == "pick" and "skip" not in menu(s) and "killed G1" in s.last_fight[-1]


def test_wear_down_bolsters_first_never_below_heal_to() -> None:
    s = play(scene(["MMMM"] * 3, bolsters=["PPPP", "FFFF", "MMMM"], hand=["FFFF"] * 3), "fight G1")
    s = round_(s, "FFFF", "shoot")  # tile 1 MMMM: 1 damage
    s = round_(s, "FFFF", "shoot")  # tile 2 MMMM: 2 damage
    s = round_(s, "FFFF", "shoot", verb="escape")  # tile 3: shoot beats slice: escapes
    assert s.phase == "turn" and "escaped" in s.last_fight[-1]
    assert pile_faces(s, 1) == ["MMMM"] * 3 + ["PPPP"]  # the last 2 added went first
    assert "worn down by 2" in s.last_fight[-1]
    s = play(scene(["MMMM"] * 3, bolsters=["PPPP"], hand=["FFFF"] * 3), "fight G1")
    for verb in ("strike", "strike", "escape"):
        s = round_(s, "FFFF", "shoot", verb=verb)
    assert len(s.guardians[0].pile) == 3  # 4 - 2 damage would be 2: heal_to keeps 3


@pytest.mark.parametrize(
    ("rule", "faces", "escapes"),
    [
        ("matchup", ["MMMM"] * 3, True),  # shoot beats slice
        ("matchup", ["FFFF"] * 3, True),  # same kind: still gets away
        ("matchup", ["PPPP"] * 3, False),  # cast beats shoot
        ("win", ["FFFF"] * 3, False),  # a tie does not win the round
    ],
)
def test_escape_rules(rule: str, faces: list[str], escapes: bool) -> None:
    s = play(scene(faces, hand=["FFFF"] * 3, escape_rule=rule), "fight G1")
    s = round_(s, "FFFF", "shoot", verb="escape")
    assert (s.phase == "turn" and s.duel is None) == escapes
    if not escapes and faces[0] == "PPPP":
        assert s.phase == "loss"  # a failed escape is an ordinary round: out-matched, damage


def test_running_out_of_tiles_sends_the_hero_home() -> None:
    s = play(scene(["PPPP"] * 3, hand=["FFFF"], own=True), "fight G1")
    s = round_(s, "FFFF", "shoot")  # cast beats shoot; the last tile is played
    assert s.phase == "turn" and s.heroes[0] == (5, 5) and "ran out" in s.last_fight[-1]


def test_hero_fights_are_off_unless_enabled() -> None:
    with pytest.raises(InvalidRuleset, match="only described"):
        E.ruleset({"combat_pvp": True})
    spec = Scenario(
        squares=SQUARES, hands={0: ["FFFF"] * 2, 1: ["MMMM", "MMFF"]}, heroes={0: (1, 0), 1: (1, 1)}
    )
    off = build(spec, BlendingRules(combat="legacy"))
    assert not [n for n in menu(off) if n.startswith("duel")]
    with pytest.raises(IllegalMove, match="off"):
        play(off, "duel 1")
    on = build(spec, BlendingRules(combat="legacy", combat_pvp=True))
    assert "duel 1" in menu(on)
    s = play(on, "duel 1")
    s = play(s, f"strike t{tile(s, 0, 'FFFF')}")
    assert s.duel is not None and s.faces[s.duel.answer - 1] == (0, 0, 0, 0)  # cheapest, 1 pip
    s = play(s, "announce shoot")  # shoot beats slice: seat 1 pays 1 tile, automatically
    assert s.hands[1] == () and s.heroes[1] == (0, 0)  # out of tiles: defeated, sent home
    assert "defeated" in s.last_fight[-1] and s.stats.kills == 0 and len(s.hands[0]) == 1


def test_a_hero_on_the_start_square_or_diagonal_cannot_be_fought() -> None:
    rules = BlendingRules(combat="legacy", combat_pvp=True)
    spec = Scenario(
        squares=SQUARES, hands={0: ["FFFF"], 1: ["MMMM"]}, heroes={0: (1, 1), 1: (2, 0)}
    )
    with pytest.raises(IllegalMove, match="up, down, left or right"):
        play(build(spec, rules), "duel 1")
    spec = Scenario(
        squares=SQUARES, hands={0: ["FFFF"], 1: ["MMMM"]}, heroes={0: (1, 0), 1: (0, 0)}
    )
    with pytest.raises(IllegalMove, match="start square"):
        play(build(spec, rules), "duel 1")
