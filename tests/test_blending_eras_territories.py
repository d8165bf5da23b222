"""Territories (blending.md §3.3 #5, §3.4b, §7; `land: "territories"`; rules.md BE14-BE18):
claims, growth, merges, majority holders, ties, the guarded bonus, the merge tax, and several
guardians on one merged territory."""

from __future__ import annotations

import pytest
from blending_era_helpers import E, menu, play, tile
from jsonpath import arr, at, objs

from cogs_arena.engines import IllegalMove
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.scoring import breakdown, totals
from cogs_arena.engines.blending.state import State

Sq = dict[tuple[int, int], str]


def scene(
    squares: Sq,
    guards: list[GuardianSpec] | None = None,
    hand: list[str] | None = None,
    hero: tuple[int, int] = (1, 0),
    blends: dict[tuple[int, int], tuple[str, int, int]] | None = None,
    **rules: object,
) -> State:
    spec = Scenario(
        squares=squares,
        hands={0: hand or ["MMMM"] * 4},
        heroes={0: hero},
        guardians=guards or [],
        blends=blends or {},
    )
    return build(spec, BlendingRules(land="territories", **rules))


ROW: Sq = {(1, 0): "M", (2, 0): "M", (3, 0): "M"}


def test_a_claim_needs_an_unclaimed_patch_connected_edge_to_edge() -> None:
    diagonal = scene({(1, 0): "M", (2, 1): "M", (3, 2): "M"})
    assert "guardian" not in menu(diagonal)  # corners do not connect (BE14)
    with pytest.raises(IllegalMove, match="holds 1 squares, 3 needed"):
        play(diagonal, "guardian")
    s = scene(ROW)
    assert "guardian" in menu(s)
    held = scene({**ROW, (4, 0): "M"}, [GuardianSpec(1, (4, 0), ["FFFF"] * 3)])
    with pytest.raises(IllegalMove, match="already has a guardian"):
        play(held, "guardian")
    # no estate spacing: a guardian 1 square away on another patch does not block the claim
    near = scene(
        {**ROW, (1, 1): "F", (2, 1): "F", (3, 1): "F"}, [GuardianSpec(1, (2, 1), ["FFFF"] * 3)]
    )
    assert "guardian" in menu(near)


def test_painting_grows_a_territory_and_primers_count() -> None:
    s = scene(ROW, [GuardianSpec(0, (1, 0), ["FFFF"] * 3)], hero=(3, 0))
    assert totals(s)[0] == 3
    s = play(s, f"place t{tile(s, 0, 'MMMM')} 4,0")  # joins the patch (§3.4b growing)
    assert totals(s)[0] == 4 and at(E.observe(s, 0), "players", 0, "score_now") == 4
    s = play(s, f"place t{tile(s, 0, 'MMMM')} 4,0")  # a primer: 1 more (§7 each primer)
    assert totals(s)[0] == 5 and at(E.observe(s, 0), "players", 0, "score_now") == 5
    view = E.observe(s, 1)
    assert view["territories"] == [
        {"land": "M", "squares": 4, "points": 5, "guardians": ["G1"], "holders": [0]}
    ]
    assert "territory tiles + blends" in E.render(view)


def test_blends_count_in_full_for_each_territory_they_lie_on() -> None:
    sq: Sq = {(1, 0): "M", (2, 0): "M", (3, 0): "M", (1, 1): "F", (2, 1): "F", (3, 1): "F"}
    guards = [GuardianSpec(0, (1, 0), ["PPPP"] * 3), GuardianSpec(1, (1, 1), ["PPPP"] * 3)]
    s = scene(sq, guards, blends={(1, 0): ("MMFF", 0, 0)})
    parts = breakdown(s)
    assert parts[0] == {"land": 3, "blends": 2, "total": 5}
    assert parts[1] == {"land": 3, "blends": 2, "total": 5}
    bonus = scene(sq, guards, blends={(1, 0): ("MMFF", 0, 0)}, guarded_per_tile=1)
    assert totals(bonus)[:2] == (9, 9)  # 3 singles + 1 blend = 4 tiles: +4


def test_unguarded_patches_and_tiles_outside_score_nobody() -> None:
    s = scene(
        {**ROW, (5, 5): "P", (5, 6): "P", (5, 7): "P"}, [GuardianSpec(0, (1, 0), ["FFFF"] * 3)]
    )
    assert totals(s) == (3, 0, 0, 0)


def merged(**rules: object) -> State:
    """Two claimed Mountain patches, 1,0..2,0 (seat 0) and 4,0..5,0 (seats 1 and 2), one blank
    square between them; seat 0's hero next to it."""
    sq: Sq = {(1, 0): "M", (2, 0): "M", (2, 1): "M", (4, 0): "M", (5, 0): "M", (4, 1): "M"}
    guards = [
        GuardianSpec(0, (1, 0), ["FFFF"] * 3),
        GuardianSpec(1, (4, 0), ["PPPP"] * 3),
        GuardianSpec(2, (5, 0), ["PPPP"] * 3),
    ]
    return scene(sq, guards, None, (2, 0), None, **rules)


def test_a_merge_joins_territories_and_the_majority_takes_all() -> None:
    s = merged()
    assert totals(s)[:3] == (3, 1, 1)  # seats 1 and 2 tie on theirs: 3 split, rounded down
    s = play(s, f"place t{tile(s, 0, 'MMMM')} 3,0")
    ts = objs(E.observe(s, 0)["territories"])
    assert len(ts) == 1 and ts[0]["guardians"] == ["G1", "G2", "G3"] and ts[0]["squares"] == 7
    assert totals(s)[:3] == (2, 2, 2)  # one guardian each: 7 split three ways
    full = play(merged(guardians_tie="full"), f"place t{tile(merged(), 0, 'MMMM')} 3,0")
    assert totals(full)[:3] == (7, 7, 7)
    # a different land on the square between heads the merge off (§7)
    off = build(
        Scenario(
            squares={**{p: "M" for p in [(1, 0), (2, 0), (2, 1), (4, 0), (5, 0), (4, 1)]}},
            hands={0: ["FFFF"]},
            heroes={0: (2, 0)},
            guardians=[
                GuardianSpec(0, (1, 0), ["FFFF"] * 3),
                GuardianSpec(1, (4, 0), ["PPPP"] * 3),
            ],
        ),
        BlendingRules(land="territories"),
    )
    off = play(off, f"place t{tile(off, 0, 'FFFF')} 3,0")
    assert len(arr(E.observe(off, 0)["territories"])) == 2


def test_the_merge_tax_is_picked_from_hand_and_needs_the_tiles() -> None:
    s = merged(merge_tax=2)
    t = tile(s, 0, "MMMM")
    entry = next(m for m in E.legal_moves(s, 0).moves if m.notation == f"place t{t} 3,0")
    assert "merges territories" in entry.description
    s = play(s, f"place t{t} 3,0")
    assert s.phase == "pick" and s.pick_for == "tax"
    assert {m.kind for m in E.legal_moves(s, 0).moves} == {"pick"}
    s = play(s, f"pick t{s.hands[0][0]}")
    s = play(s, f"pick t{s.hands[0][0]}")
    assert s.phase == "turn" and len(s.hands[0]) == 1 and len(s.discard) == 2
    poor = merged(merge_tax=2)
    poor = poor.clone()
    poor.hands = (poor.hands[0][:2], *poor.hands[1:])
    assert f"place t{poor.hands[0][0]} 3,0" not in menu(poor)
    with pytest.raises(IllegalMove, match="costs 2 more tiles"):
        play(poor, f"place t{poor.hands[0][0]} 3,0")
    free = merged(merge_tax=2)
    s = play(free, f"place t{tile(free, 0, 'MMMM')} 2,-1")  # growth, no merge: no tax
    assert s.phase == "turn"


def test_several_guardians_on_one_territory_are_fought_one_by_one() -> None:
    """BE18: a kill removes only the guardian fought; the killer's rebuild stands on its square
    and counts for the killer in that territory's majority."""
    s = play(merged(), f"place t{tile(merged(), 0, 'MMMM')} 3,0")
    s = s.clone()
    s.heroes = ((4, 1), *s.heroes[1:])
    s = play(s, "fight G2")  # three PPPP: slice (Mountain) beats cast every time
    for pos, t in enumerate(list(s.hands[0]), start=1):
        s = play(s, f"lay t{t}@{pos} slice")
    while s.phase == "fight":
        s = play(s, "flip")
    assert [g.gid for g in s.guardians] == [1, 3] and s.phase == "pick"
    for _ in range(3):
        s = play(s, f"pick t{s.hands[0][0]}")
    ts = objs(E.observe(s, 0)["territories"])
    assert len(ts) == 1 and ts[0]["holders"] == [0]  # seat 0 now has 2 guardians of 3
    assert ts[0]["guardians"] == ["G1", "G3", "G4"] and totals(s)[:3] == (7, 0, 0)


def test_sent_home_goes_to_the_biggest_territory() -> None:
    sq: Sq = {**ROW, (4, 0): "M", (1, 2): "F", (2, 2): "F", (3, 2): "F", (6, 0): "P"}
    sq.update({(6, 1): "P", (6, 2): "P", (7, 0): "F"})
    guards = [
        GuardianSpec(0, (1, 0), ["PPPP"] * 3),
        GuardianSpec(0, (1, 2), ["PPPP"] * 3),
        GuardianSpec(1, (6, 0), ["FFFF"] * 3),
    ]
    spec = Scenario(squares=sq, hands={0: ["MMMM"] * 3}, heroes={0: (7, 0)}, guardians=guards)
    s = build(spec, BlendingRules(land="territories", combat="three"))
    s = play(s, "fight G3")
    for pos in (1, 2, 3):
        s = play(s, f"lay t{s.hands[0][0]}@{pos} slice")  # slice loses to shoot: 0-3
    assert s.heroes[0] == (1, 0)  # the 4-square Mountain territory, not the 3-square Forest


def test_default_views_have_no_territories() -> None:
    s = E.new_game(E.ruleset(), 1)
    assert "territories" not in E.observe(s, 0)
