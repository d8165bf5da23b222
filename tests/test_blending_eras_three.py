"""Three Strikes (blending.md §4.1, `combat: "three"`; rules.md BE3-BE7): 3 strikes against the
next 3 tiles of a face-up pile, pips plus the edge, strips, sweeps, kills and being sent home."""

from __future__ import annotations

import pytest
from blending_era_helpers import E, fight_scene, menu, pile_faces, play, tile, with_kinds
from jsonpath import at

from cogs_arena.engines import IllegalMove
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.state import State

SQUARES = {(1, 0): "M", (2, 0): "F", (2, 1): "F", (3, 0): "F", (5, 5): "P", (5, 6): "P"}


def scene(
    base: list[str],
    bolsters: list[str] | None = None,
    hand: list[str] | None = None,
    kinds: str = "",
    own: bool = False,
    **rules: object,
) -> State:
    held = hand or ["FFFF", "FFFF", "FFFF", "MMMM"]
    s = fight_scene("three", SQUARES, base, bolsters, held, own, rules)
    return with_kinds(s, 1, kinds) if kinds else s


def strike(s: State, lays: list[tuple[str, str]]) -> State:
    s = play(s, "fight G1")
    for i, (face, kind) in enumerate(lays, start=1):
        s = play(s, f"lay t{tile(s, 0, face)}@{i} {kind}")
    return s


def test_a_fight_needs_three_tiles_and_shows_the_next_three() -> None:
    s = scene(["MMMM"] * 3, hand=["FFFF", "FFFF"])
    assert not [n for n in menu(s) if n.startswith("fight")]
    with pytest.raises(IllegalMove, match="needs 3 tiles"):
        play(s, "fight G1")
    s = scene(["MMMM", "PPPP", "MMFF"], kinds="MPF")
    entry = next(m for m in E.legal_moves(s, 0).moves if m.kind == "fight")
    assert ">slice" in entry.description and ">cast" in entry.description
    assert ">shoot" in entry.description  # the double shows the kind it was turned to (BE4)


def test_a_sweep_kills_a_bare_guardian_and_pays_pile_and_three() -> None:
    s = scene(["MMMM"] * 3)  # Forest (shoot) beats Mountain (slice): 1+1 against 1-1
    before = len(s.hands[0])
    s = strike(s, [("FFFF", "shoot")] * 3)
    assert not s.guardians and s.stats.kills == 1
    assert len(s.hands[0]) == before - 3 + 3 + 3  # spent 3; the pile of 3 and 3 drawn
    assert "3-0" in s.last_fight[0] and "killed G1" in s.last_fight[-1]
    assert s.phase == "pick" and s.pick_for == "rebuild"
    assert "skip" not in menu(s)  # BE6: the killer keeps 3 on a new guardian
    with pytest.raises(IllegalMove, match="BE6"):
        play(s, "skip")


def test_the_rebuild_picks_name_the_kind_each_tile_shows() -> None:
    s = scene(["MMMM"] * 3, hand=["FFFF"] * 3 + ["MMFF"] + ["PPPP"])
    s = strike(s, [("FFFF", "shoot")] * 3)
    d = tile(s, 0, "MMFF")
    assert {f"pick t{d} slice", f"pick t{d} shoot"} <= set(menu(s))
    with pytest.raises(IllegalMove, match="Name the kind"):
        play(s, f"pick t{d}")
    s = play(s, f"pick t{d} shoot")
    s = play(s, f"pick t{tile(s, 0, 'PPPP')}")
    s = play(s, f"pick t{tile(s, 0, 'MMMM')}")
    g = s.guardians[0]
    assert g.owner == 0 and (g.x, g.y) == (2, 0)
    assert dict(g.kinds) == {d: 1, **{t: s.faces[t - 1][0] for t, _ in g.pile if t != d}}
    assert at(E.observe(s, 1), "guardians", 0, "kinds") == ["shoot", "cast", "slice"]


def test_a_win_strips_three_bolsters_first_to_the_discard_pile() -> None:
    s = scene(["MMMM"] * 3, bolsters=["MMMM", "PPPP", "FFFF"])
    s = strike(s, [("FFFF", "shoot")] * 3)
    assert s.guardians[0].pile and pile_faces(s, 1) == ["MMMM"] * 3  # a win strips, never kills
    assert s.stats.kills == 0 and len(s.discard) == 6  # 3 spent + 3 bolsters stripped
    assert "stripped of 3" in s.last_fight[-1]


def test_strips_never_go_below_heal_to() -> None:
    s = scene(["MMMM"] * 3, bolsters=["MMMM"])
    s = strike(s, [("FFFF", "shoot")] * 3)
    assert len(s.guardians[0].pile) == 3 and "stripped of 1" in s.last_fight[-1]
    hand = ["FFFF", "FFFF", "PPPP", "MMMM"]
    s = scene(["MMMM"] * 3, bolsters=["MMMM"], hand=hand, heal_to=4)
    s = strike(s, [("FFFF", "shoot"), ("FFFF", "shoot"), ("PPPP", "cast")])
    assert len(s.guardians[0].pile) == 4 and "survives bare" in s.last_fight[-1]


@pytest.mark.parametrize(("kill_on", "dies"), [("sweep", False), ("win", True)])
def test_a_two_one_win_kills_only_under_kill_on_win(kill_on: str, dies: bool) -> None:
    s = scene(["MMMM"] * 3, hand=["FFFF", "FFFF", "PPPP", "MMMM"], kill_on=kill_on)
    s = strike(s, [("FFFF", "shoot"), ("FFFF", "shoot"), ("PPPP", "cast")])
    assert "2-1" in s.last_fight[0]
    assert (not s.guardians) == dies


def test_pips_and_the_edge_decide_a_strike() -> None:
    # single shoot (1+1) vs triple slice (3-1): even; double shoot (2+1) vs single slice (1-1): win
    s = scene(["MMFP", "MMMM", "MMMM"], hand=["FFFF", "FFPP", "FFFF", "PPPP"], kinds="MMM")
    s = strike(s, [("FFFF", "shoot"), ("FFPP", "shoot"), ("FFFF", "shoot")])
    assert "(2) vs" in s.last_fight[1] and "(2): even" in s.last_fight[1]
    assert "(3) vs" in s.last_fight[2] and ": won" in s.last_fight[2]
    assert "2-0" in s.last_fight[0]


def test_a_loss_sends_the_hero_home_and_spends_the_tiles() -> None:
    s = scene(["FFFF"] * 3, hand=["MMMM"] * 3 + ["PPPP"], own=True)
    s = strike(s, [("MMMM", "slice")] * 3)
    assert "0-3" in s.last_fight[0] and s.heroes[0] == (5, 5)  # to its own guardian (B38)
    assert len(s.hands[0]) == 1 and len(s.discard) == 3
    assert len(s.guardians) == 2 and s.phase == "turn"
    s = strike(scene(["FFFF"] * 3, hand=["MMMM"] * 3), [("MMMM", "slice")] * 3)
    assert s.heroes[0] == (0, 0)  # no guardian of its own: the start square


def test_a_draw_does_nothing_but_the_pile_turns_over_by_three() -> None:
    s = scene(["MMMM", "PPPP", "FFFF"], bolsters=["MMMM"], kinds="MPFM")
    s = strike(s, [("FFFF", "shoot")] * 3)
    # shoot vs slice won, vs cast lost, vs shoot even: 1-1, a draw
    assert "1-1" in s.last_fight[0] and len(s.guardians[0].pile) == 4
    assert s.guardians[0].cursor == 3 and at(E.observe(s, 0), "guardians", 0, "next") == 4
    assert len(s.discard) == 3


def test_stop_before_the_third_strike_takes_the_tiles_back() -> None:
    s = play(scene(["MMMM"] * 3), "fight G1")
    s = play(s, f"lay t{tile(s, 0, 'FFFF')}@2 shoot")
    assert E.observe(s, 1)["strike"] == {"guardian": "G1", "laid_count": 1, "laid": []}
    assert at(E.observe(s, 0), "strike", "laid", 0, 0) == 2
    assert "1 of 3 strikes laid" in E.render(E.observe(s, 1))
    with pytest.raises(IllegalMove, match="already laid"):
        play(s, f"lay t{tile(s, 0, 'FFFF')}@2 shoot")
    s = play(s, "stop")
    assert len(s.hands[0]) == 4 and s.main == "fight" and s.phase == "turn"


def test_bolster_names_the_kind_a_blend_shows() -> None:
    s = build(
        Scenario(
            squares=SQUARES,
            hands={0: ["MMFF"]},
            heroes={0: (2, 1)},
            guardians=[GuardianSpec(0, (2, 0), ["FFFF"] * 3)],
        ),
        BlendingRules(combat="three"),
    )
    t = tile(s, 0, "MMFF")
    assert f"bolster t{t} G1 shoot" in menu(s) and f"bolster t{t} G1" not in menu(s)
    with pytest.raises(IllegalMove, match="Name the kind"):
        play(s, f"bolster t{t} G1")
    s = play(s, f"bolster t{t} G1 shoot")
    assert dict(s.guardians[0].kinds)[t] == 1
