"""Blending rules: supply, setup, placement geometry, movement, hands, estates, scoring."""

from __future__ import annotations

from collections import Counter

import pytest

from cogs_arena.engines import IllegalMove, get_engine
from cogs_arena.engines.blending.moves import Move
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.scoring import breakdown
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import FOREST, MOUNTAIN, PLAINS, START, patterns, rotate
from cogs_arena.engines.protocol import Engine

E: Engine[BlendingRules, State, Move] = get_engine("blending")


def play(s: State, text: str, seat: int | None = None) -> State:
    seat = s.seat if seat is None else seat
    return E.apply(s, seat, E.parse_move(s, seat, text))


def menu(s: State) -> list[str]:
    return [m.notation for m in E.legal_moves(s, s.seat).moves]


def tile_of(s: State, seat: int, face: str) -> int:
    for t in s.hands[seat]:
        if "".join("MFP"[c] for c in s.faces[t - 1]) == face:
            return t
    raise AssertionError(f"no {face} in hand")


# ---- supply and setup ------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "split"), [(100, (60, 30, 10)), (200, (120, 60, 20))])
def test_supply_split(total: int, split: tuple[int, int, int]) -> None:
    s = E.new_game(E.ruleset({"supply_total": total}), 3)
    by_pips = Counter(len(set(f)) for f in s.faces)
    assert (by_pips[1], by_pips[2], by_pips[3]) == split
    singles = Counter(f[0] for f in s.faces if len(set(f)) == 1)
    assert set(singles.values()) == {split[0] // 3}
    doubles = Counter(frozenset(f) for f in s.faces if len(set(f)) == 2)
    assert set(doubles.values()) == {split[1] // 3}
    for f in s.faces:
        if len(set(f)) == 2:  # straight: the two halves are side by side
            assert f[0] == f[1] and f[2] == f[3]
        if len(set(f)) == 3:  # the doubled land side by side on top
            assert f[0] == f[1] and f[2] != f[3]
    designs = Counter(f for f in s.faces if len(set(f)) == 3)
    assert len(designs) == 6
    if total == 100:
        assert sorted(designs.values()) == [1, 1, 2, 2, 2, 2]
    everything = sorted(
        [*s.stock, *(t for h in s.hands for t in h), *(t for r in s.reserve for t in r)]
    )
    assert everything == list(range(1, total + 1))


def test_seeded_shuffle_differs_by_seed_and_repeats() -> None:
    r = E.ruleset()
    assert E.new_game(r, 1).stock == E.new_game(r, 1).stock
    assert E.new_game(r, 1).stock != E.new_game(r, 2).stock


def test_setup_deal_and_walks() -> None:
    s = E.new_game(E.ruleset(), 7)
    assert [len(h) for h in s.hands] == [3, 3, 3, 3]
    assert E.to_act(s) == (0,) and menu(s) == ["walk N", "walk E", "walk S", "walk W"]
    s = play(s, "walk N")
    assert [s.squares[(0, -k)] for k in (1, 2, 3)] == [MOUNTAIN] * 3
    assert s.heroes[0] == (0, -3)
    assert "walk N" not in menu(s) and s.seat == 1
    with pytest.raises(IllegalMove):
        play(s, "walk N")
    s = play(play(play(s, "walk E"), "walk S"), "walk W")
    assert (
        s.squares[(1, 0)] == FOREST
        and s.squares[(0, 1)] == PLAINS
        and s.squares[(-1, 0)] == MOUNTAIN
    )
    assert s.phase == "turn" and s.seat == 0 and s.round == 1
    assert len(s.hands[0]) == 6  # 3 dealt + 3 drawn


def test_seats_five_to_eight_walk_diagonally() -> None:
    s = E.new_game(E.ruleset({"players": 8}), 1)
    for d in ("N", "E", "S", "W"):
        s = play(s, f"walk {d}")
    assert menu(s) == ["walk NE", "walk SE", "walk SW", "walk NW"]
    s = play(s, "walk SE")
    assert s.heroes[4] == (3, 3) and s.squares[(2, 2)] == FOREST  # seat 4 is an Amazon


# ---- placement geometry --------------------------------------------------------------------------


def test_edge_rule_and_primers() -> None:
    s = build(
        Scenario(
            squares={(1, 0): "M", (2, 0): "F"},
            blends={},
            hands={0: ["MMMM", "MMMM", "FFFF"]},
            heroes={0: (1, 0)},
        )
    )
    m = tile_of(s, 0, "MMMM")
    # blank square with only a diagonal neighbour
    with pytest.raises(IllegalMove, match="share an edge"):
        play(s, f"place t{m} 3,1")
    # next to the start square counts
    assert E.apply(s, 0, Move("place", m, 0, 1)).squares[(0, 1)] == MOUNTAIN
    # primer on the same land, not on another land, never on the start square
    primed = play(s, f"place t{m} 1,0")
    assert primed.stacks[(1, 0)][-1] == m and primed.squares[(1, 0)] == MOUNTAIN
    with pytest.raises(IllegalMove, match="same land"):
        play(s, f"place t{m} 2,0")
    with pytest.raises(IllegalMove, match="start square"):
        play(s, f"place t{m} 0,0")
    assert f"place t{m} 3,1" not in menu(s) and f"place t{m} 2,1" in menu(s)


def test_nothing_on_top_of_a_blend() -> None:
    sq = {(1, 0): "M", (2, 0): "M", (1, 1): "F", (2, 1): "F"}
    s = build(
        Scenario(
            squares=sq, blends={(1, 0): ("MMFF", 0, 1)}, hands={0: ["MMMM"]}, heroes={0: (1, 0)}
        )
    )
    m = tile_of(s, 0, "MMMM")
    with pytest.raises(IllegalMove, match="top of a double"):
        play(s, f"place t{m} 1,0")


def test_double_matching_under_rotation() -> None:
    assert rotate((0, 0, 1, 1), 270) == (0, 1, 1, 0)
    # left column Mountain, right column Forest: only r270 fits MMFF
    sq = {(1, 0): "M", (2, 0): "F", (1, 1): "M", (2, 1): "F"}
    s = build(Scenario(squares=sq, hands={0: ["MMFF", "MMPP"]}, heroes={0: (1, 0)}))
    d = tile_of(s, 0, "MMFF")
    assert f"place t{d} 1,0 r270" in menu(s)
    for rot in (0, 90, 180):
        with pytest.raises(IllegalMove, match="do not match"):
            play(s, f"place t{d} 1,0 r{rot}")
    done = play(s, f"place t{d} 1,0 r270")
    assert done.blends[(1, 0)] == (d, 270, 0)
    assert done.squares[(1, 0)] == MOUNTAIN  # a blend never changes the land under it
    # the other double does not match at all
    other = tile_of(s, 0, "MMPP")
    assert not [n for n in menu(s) if n.startswith(f"place t{other} ")]
    # the rotation may be left out: the one that fits is filled in
    assert E.move_text(E.parse_move(s, 0, f"place t{d} 1,0")) == f"place t{d} 1,0 r270"


@pytest.mark.parametrize(
    "spot",
    [
        {(1, 0): "M", (2, 0): "F", (1, 1): "F", (2, 1): "M"},  # diagonal 2+2
        {(1, 0): "M", (2, 0): "M", (1, 1): "M", (2, 1): "F"},  # 3+1
        {(1, 0): "M", (2, 0): "M", (1, 1): "M", (2, 1): "M"},  # all one land
        {(1, 0): "M", (2, 0): "F", (1, 1): "P", (2, 1): "M"},  # triple spot, doubled land diagonal
    ],
)
def test_spots_that_accept_no_blend(spot: dict[tuple[int, int], str]) -> None:
    faces = ["MMFF", "MMPP", "FFPP", "MMFP", "MMPF", "FFMP", "FFPM", "PPMF", "PPFM"]
    s = build(Scenario(squares=spot, hands={0: faces}, heroes={0: (1, 0)}))
    assert not [
        n for n in menu(s) if n.startswith("place") and n.endswith(("r0", "r90", "r180", "r270"))
    ]
    for t in s.hands[0]:
        for rot in (0, 90, 180, 270):
            with pytest.raises(IllegalMove):
                play(s, f"place t{t} 1,0 r{rot}")


def test_triple_matches_exactly_not_mirrored() -> None:
    # spot: top row Mountain Mountain, bottom Forest (left) Plains (right) = M M P F clockwise
    sq = {(1, 0): "M", (2, 0): "M", (1, 1): "F", (2, 1): "P"}
    s = build(Scenario(squares=sq, hands={0: ["MMPF", "MMFP"]}, heroes={0: (1, 0)}))
    good = tile_of(s, 0, "MMPF")
    mirror = tile_of(s, 0, "MMFP")
    assert patterns(s.faces[good - 1]).get((0, 0, 2, 1)) == 0
    assert f"place t{good} 1,0 r0" in menu(s)
    assert not [n for n in menu(s) if n.startswith(f"place t{mirror} ")]
    # rotated spot: doubled land on the right column
    sq2 = {(1, 0): "F", (2, 0): "M", (1, 1): "P", (2, 1): "M"}
    s2 = build(Scenario(squares=sq2, hands={0: ["MMPF"]}, heroes={0: (1, 0)}))
    t = s2.hands[0][0]
    rot = patterns(s2.faces[t - 1])[(1, 0, 0, 2)]
    assert rot == 90 and f"place t{t} 1,0 r90" in menu(s2)


def test_one_blend_per_corner() -> None:
    sq = {(x, y): "M" if x < 2 else "F" for x in (1, 2, 3) for y in (0, 1)}
    s = build(Scenario(squares=sq, hands={0: ["MMFF", "MMFF", "FFFF"]}, heroes={0: (2, 0)}))
    a, b = sorted(t for t in s.hands[0] if len(set(s.faces[t - 1])) == 2)
    s1 = play(s, f"place t{a} 1,0 r270")
    assert not [n for n in menu(s1) if n.startswith("place") and " 1,0 r" in n]
    with pytest.raises(IllegalMove, match="one blend per corner"):
        play(s1, f"place t{b} 1,0 r270")


def test_near_versus_anywhere() -> None:
    sq = {(x, 0): "M" for x in range(1, 8)}
    hand = ["MMMM"] * 5
    s = build(Scenario(squares=sq, hands={0: hand}, heroes={0: (1, 0)}))
    t = list(s.hands[0])
    # one tile anywhere: then no more placements this turn
    far = play(s, f"place t{t[0]} 7,1")
    assert far.mode == "far" and not [n for n in menu(far) if n.startswith("place")]
    with pytest.raises(IllegalMove, match="placed all"):
        play(far, f"place t{t[1]} 1,1")
    # near: up to three, each near
    near = play(s, f"place t{t[0]} 2,1")
    assert near.mode == "near"
    with pytest.raises(IllegalMove, match="near your hero"):
        play(near, f"place t{t[1]} 5,1")
    near = play(play(near, f"place t{t[1]} 1,1"), f"place t{t[2]} 0,-1")
    assert near.placed == 3
    with pytest.raises(IllegalMove, match="placed all"):
        play(near, f"place t{t[3]} 1,-1")
    assert all(
        "near your hero" in m.description
        for m in E.legal_moves(play(s, f"place t{t[0]} 2,1"), 0).moves
        if m.kind == "placement"
    )


def test_blend_is_near_only_on_a_corner_of_the_hero_square() -> None:
    sq = {(x, y): ("M" if y == 0 else "F") for x in range(0, 5) for y in (0, 1) if (x, y) != (0, 0)}
    sq.update({(x, 2): "F" for x in range(0, 5)})
    s = build(Scenario(squares=sq, hands={0: ["MMFF", "MMFF", "MMMM"]}, heroes={0: (2, 1)}))
    d = [t for t in s.hands[0] if len(set(s.faces[t - 1])) == 2]
    first = play(s, f"place t{tile_of(s, 0, 'MMMM')} 2,0")  # a near primer: near mode
    assert first.mode == "near"
    moves = menu(first)
    assert f"place t{d[0]} 1,0 r0" in moves and f"place t{d[0]} 2,0 r0" in moves
    assert f"place t{d[0]} 3,0 r0" not in moves  # covers 4,0 and 4,1: outside the 3x3
    with pytest.raises(IllegalMove, match="near"):
        play(first, f"place t{d[0]} 3,0 r0")


# ---- movement ----------------------------------------------------------------------------------


def test_movement_costs_over_home_land() -> None:
    sq = {(1, 0): "M", (2, 0): "M", (3, 0): "M", (4, 0): "M", (1, 1): "F", (2, 1): "F"}
    s = build(
        Scenario(squares=sq, hands={0: ["FFFF"]}, heroes={0: (1, 0)})
    )  # seat 0: Warrior, home M
    assert s.moves_left == 3
    s1 = play(play(play(s, "move 2,0"), "move 3,0"), "move 4,0")
    assert s1.heroes[0] == (4, 0) and s1.moves_left == 0
    with pytest.raises(IllegalMove):
        play(s1, "move 3,0")
    # a step onto another land costs the whole move
    s2 = play(s, "move 2,1")  # diagonal, onto Forest
    assert s2.moves_left == 0
    assert not [n for n in menu(s2) if n.startswith("move ")]
    # one home step, then a non-home step is too dear
    s3 = play(s, "move 2,0")
    with pytest.raises(IllegalMove, match="costs 3/3"):
        play(s3, "move 2,1")
    # the start square is not home land
    s4 = build(Scenario(squares=sq, hands={0: ["FFFF"]}, heroes={0: (1, 0)}))
    assert play(s4, "move 0,0").moves_left == 0
    # blank squares cannot be walked
    with pytest.raises(IllegalMove, match="placed squares"):
        play(s, "move 1,-1")
    # move more: pay a tile for another move
    t = s2.hands[0][0]
    s5 = play(s2, f"more t{t}")
    assert s5.moves_left == 3 and t in s5.discard and s5.main == "more"
    assert "move 1,0" in menu(s5) and not [n for n in menu(s5) if n.startswith("fight")]


# ---- draw and hand limit -----------------------------------------------------------------------


def test_draw_stops_at_nine_and_end_of_turn_discard() -> None:
    faces = ["MMMM"] * 8
    s = build(
        Scenario(squares={(1, 0): "M"}, hands={0: ["FFFF"] * 11, 1: faces}, heroes={0: (1, 0)})
    )
    s = play(s, "end")
    assert s.phase == "discard" and s.seat == 0
    assert {m.kind for m in E.legal_moves(s, 0).moves} == {"discard"}
    first = s.hands[0][0]
    s = play(s, f"discard t{first}")
    assert s.phase == "discard" and first in s.discard
    s = play(s, f"discard t{s.hands[0][0]}")
    assert len(s.hands[0]) == 9
    assert s.seat == 1 and s.phase == "turn"
    assert len(s.hands[1]) == 9  # 8 + 1: the draw stops at 9
    assert s.stats.draws_lost == 2 and s.stats.limit_discards == 2


def test_reshuffle_when_the_stock_runs_out() -> None:
    s = build(Scenario(squares={(1, 0): "M"}, hands={0: ["FFFF"]}, heroes={0: (1, 0)}))
    s = s.clone()
    everything = sorted([*s.stock, *(t for h in s.hands for t in h)])
    s.discard = s.stock[:-1]
    s.stock = s.stock[-1:]
    s = play(s, "end")  # seat 1 draws 3 from a stock of 1
    assert s.stats.reshuffles == 1
    assert len(s.hands[1]) == 3 and s.discard == ()
    after = sorted([*s.stock, *(t for h in s.hands for t in h)])
    assert after == everything
    # the reshuffle is seeded: the same state reshuffles the same way
    again = build(Scenario(squares={(1, 0): "M"}, hands={0: ["FFFF"]}, heroes={0: (1, 0)}))
    again = again.clone()
    again.discard, again.stock = again.stock[:-1], again.stock[-1:]
    assert play(again, "end").stock == s.stock


# ---- main actions: guardians, bolster, swap ---------------------------------------------------


def estate_scene(extra_guardian_at: tuple[int, int] | None = None, land: int = 3) -> State:
    sq = {(1, 0): "M", (1, 1): "M", (2, 1): "F"}
    if land >= 3:
        sq[(2, 0)] = "M"
    guardians = []
    if extra_guardian_at is not None:
        sq.setdefault(extra_guardian_at, "F")
        guardians.append(GuardianSpec(1, extra_guardian_at, ["FFFF", "FFFF", "FFFF"]))
    return build(
        Scenario(
            squares=sq,
            hands={0: ["MMMM", "FFFF", "MMFF", "PPPP"]},
            heroes={0: (1, 0)},
            guardians=guardians,
        )
    )


def test_guardian_placement_minimum_land_and_spacing() -> None:
    s = estate_scene()
    assert "guardian" in menu(s)
    s1 = play(s, "guardian")
    assert s1.phase == "pick" and {m.kind for m in E.legal_moves(s1, 0).moves} == {"pick"}
    t = list(s1.hands[0])
    s1 = play(play(play(s1, f"pick t{t[0]}"), f"pick t{t[1]}"), f"pick t{t[2]}")
    g = s1.guardians[-1]
    assert (g.x, g.y, g.land, g.owner) == (1, 0, MOUNTAIN, 0)
    assert [e[0] for e in g.pile] == t[:3] and all(b for _, b in g.pile)
    assert s1.phase == "turn" and s1.main == "guardian" and len(s1.hands[0]) == 1
    # only 2 squares of the land in the 3x3
    assert "guardian" not in menu(estate_scene(land=2))
    with pytest.raises(IllegalMove, match="2 squares of that land"):
        play(estate_scene(land=2), "guardian")
    # a guardian within 2 squares forbids it; at 3 it is fine
    assert "guardian" not in menu(estate_scene((3, 2)))
    assert "guardian" in menu(estate_scene((4, 0)))
    # the start square is not land
    s2 = build(
        Scenario(
            squares={(1, 0): "M", (1, 1): "M", (0, 1): "M"},
            hands={0: ["MMMM"] * 3},
            heroes={0: (0, 0)},
        )
    )
    assert "guardian" not in menu(s2)


def test_guardian_needs_three_tiles_and_a_free_token() -> None:
    s = estate_scene()
    s = s.clone()
    s.hands = ((s.hands[0][0], s.hands[0][1]), *s.hands[1:])
    with pytest.raises(IllegalMove, match="3 tiles"):
        play(s, "guardian")
    far = [GuardianSpec(0, (10 * i, 10), ["MMMM"] * 3) for i in range(1, 4)]
    sq = {(1, 0): "M", (2, 0): "M", (1, 1): "M", **{(10 * i, 10): "M" for i in range(1, 4)}}
    s2 = build(Scenario(squares=sq, hands={0: ["FFFF"] * 3}, heroes={0: (1, 0)}, guardians=far))
    with pytest.raises(IllegalMove, match="all your 3 guardians"):
        play(s2, "guardian")


def test_bolster() -> None:
    sq = {(1, 0): "M", (2, 0): "M", (5, 0): "F"}
    guards = [
        GuardianSpec(1, (2, 0), ["MMMM"] * 3, ["FFFF"] * 2),
        GuardianSpec(1, (5, 0), ["FFFF"] * 3, ["MMMM"] * 3),
    ]
    s = build(
        Scenario(squares=sq, hands={0: ["PPPP", "MMFF"]}, heroes={0: (1, 0)}, guardians=guards)
    )
    t = s.hands[0][0]
    b = play(s, f"bolster t{t} G1")
    assert b.guardians[0].pile[-1] == (t, False) and len(b.guardians[0].pile) == 6
    assert b.stats.bolsters == 1 and b.main == "bolster"
    with pytest.raises(IllegalMove, match="not within 1"):
        play(s, f"bolster t{t} G2")
    s2 = s.clone()
    s2.heroes = ((5, 0), *s.heroes[1:])
    with pytest.raises(IllegalMove, match="already holds 6"):
        play(s2, f"bolster t{t} G2")
    with pytest.raises(IllegalMove, match="already took"):
        play(b, f"bolster t{b.hands[0][0]} G1")


def test_swap() -> None:
    s = build(
        Scenario(squares={(1, 0): "M"}, hands={0: ["PPPP", "MMFF", "FFFF"]}, heroes={0: (1, 0)})
    )
    a, b, c = s.hands[0]
    s1 = play(play(play(s, "swap"), f"pick t{a}"), f"pick t{b}")
    assert "done" in menu(s1)
    s2 = play(s1, "done")
    assert len(s2.hands[0]) == 3 and c in s2.hands[0]
    assert s2.discard[-2:] == (a, b) and s2.main == "swap"


# ---- rounds and scoring ------------------------------------------------------------------------


def test_ten_rounds_every_player_the_same_turns() -> None:
    s = E.new_game(E.ruleset({"players": 3}), 4)
    turns: Counter[int] = Counter()
    while E.to_act(s):
        move = E.default_move(s, s.seat)
        if move.verb == "end":
            turns[s.seat] += 1
        s = E.apply(s, s.seat, move)
    assert dict(turns) == {0: 10, 1: 10, 2: 10}
    outcome = E.outcome(s)
    assert outcome is not None and outcome.reason == "rounds"
    assert len(s.stats.round_scores) == 10


def test_scoring_shared_blends_count_for_each_player_once() -> None:
    sq = {(x, y): "M" if x <= 2 else "F" for x in range(6) for y in range(6) if (x, y) != (0, 0)}
    guards = [
        GuardianSpec(0, (1, 1), ["PPPP"] * 3),  # 8 Mountain squares: the start square is in it
        GuardianSpec(1, (4, 1), ["PPPP"] * 3),  # 9 Forest squares
        GuardianSpec(0, (1, 4), ["PPPP"] * 3),  # 9 Mountain squares
    ]
    blends = {
        (2, 0): ("MMFF", 270, 2),  # touches seat 0's 1,1 estate and seat 1's estate
        (2, 2): ("MMFF", 270, 2),  # touches both of seat 0's estates and seat 1's
        (10, 10): ("MMFF", 0, 0),  # touches no estate
    }
    s = build(
        Scenario(squares=sq, blends=blends, guardians=guards),
        BlendingRules(supply_total=200),
    )
    parts = breakdown(s)
    assert parts[0] == {"land": 8 + 9, "blends": 2 + 2, "total": 21}
    assert parts[1] == {"land": 9, "blends": 2 + 2, "total": 13}
    assert parts[2]["total"] == 0 and parts[3]["total"] == 0  # laying a blend scores nothing
    # a triple pays 3
    s2 = s.clone()
    tri = next(t for t in s.stock if len(set(s.faces[t - 1])) == 3)
    s2.blends = {**s.blends, (2, 0): (tri, 0, 2)}
    assert breakdown(s2)[1]["blends"] == 3 + 2
    # 'personal': a blend pays only the player who laid it
    personal = BlendingRules(supply_total=200, estate_blends="personal")
    s3 = build(Scenario(squares=sq, blends=blends, guardians=guards), personal)
    assert [p["blends"] for p in breakdown(s3)] == [0, 0, 0, 0]


def test_primers_score_nothing_and_dead_estates_nothing() -> None:
    sq = {(x, y): "M" for x in range(1, 4) for y in range(1, 4)}
    s = build(
        Scenario(
            squares=sq,
            guardians=[GuardianSpec(0, (2, 2), ["FFFF"] * 3)],
            hands={0: ["MMMM"]},
            heroes={0: (2, 2)},
        )
    )
    assert breakdown(s)[0]["land"] == 9
    primed = play(s, f"place t{s.hands[0][0]} 2,2")
    assert breakdown(primed)[0]["land"] == 9
    s2 = s.clone()
    s2.guardians = ()
    assert breakdown(s2)[0]["total"] == 0
    assert START not in [s.squares[p] for p in sq]


def test_outcome_ties_share_the_win() -> None:
    s = E.settle(E.new_game(E.ruleset(), 1), "deadline")
    out = E.outcome(s)
    assert out is not None and out.winners == (0, 1, 2, 3) and set(out.ranks) == {1}


def test_incremental_spots_agree_with_a_full_scan() -> None:
    from cogs_arena.engines.blending.spots import full_scan, spots_for
    from cogs_arena.engines.runner import bot_stream

    bots = E.bots()
    incremental = blends_laid = 0
    for seed, names in ((4, ["random"] * 4), (5, ["builder", "random"] * 2)):
        s = E.new_game(E.ruleset(), seed)
        step = 0
        while E.to_act(s):
            before = spots_for(s.squares, s.blends)
            seat = s.seat
            text = bots[names[seat]](
                E.observe(s, seat), E.legal_moves(s, seat), bot_stream(seed, seat, step)
            )
            s = E.apply(s, seat, E.parse_move(s, seat, text))
            got = spots_for(s.squares, s.blends)
            incremental += got is not before
            want = full_scan(s.squares, s.blends)
            assert got.singles == want.singles and got.blend_spots == want.blend_spots
            step += 1
        blends_laid += len(s.blends)
    assert incremental > 30 and blends_laid > 0


def test_ruleset_fields_are_checked_and_seats_named_by_class() -> None:
    from cogs_arena.engines import InvalidRuleset

    for bad in ({"players": 9}, {"players": 1}, {"supply_total": 105}, {"end_rounds": 0}):
        with pytest.raises(InvalidRuleset):
            E.ruleset(bad)
    assert E.seat_names(E.ruleset({"players": 5})) == (
        "Warrior 0",
        "Amazon 1",
        "Mage 2",
        "Warrior 3",
        "Amazon 4",
    )
    short = E.ruleset({"end_rounds": 6})
    s = E.new_game(short, 1)
    while E.to_act(s):
        s = E.apply(s, s.seat, E.default_move(s, s.seat))
    assert len(s.stats.round_scores) == 6
