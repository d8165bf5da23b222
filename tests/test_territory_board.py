"""Territory board generation: mulberry32 yields, seeds, hearths and map variants."""

from __future__ import annotations

import statistics

import pytest
from jsonpath import obj

from cogs_arena.engines import InvalidRuleset
from cogs_arena.engines.territory.board import (
    COORDS,
    DIST,
    HEARTH_COORDS,
    HEARTHS,
    INDEX,
    ORIGIN,
    RUBBLE,
    WALL,
    draw_yields,
    hex_distance,
    make_board,
    seed_u32,
)
from cogs_arena.engines.territory.engine import TerritoryEngine

E = TerritoryEngine()
THRESHOLDS = (0.45, 0.75, 0.92)
SEED7 = (
    "0031101011002100010302000012021113132000000200131100002001001312120112321331201011231201110000"
    "321011130312120311000221131131012201110001000002300011002121201012002220030"
)


def test_lattice_is_radius_seven_in_q_then_r_order() -> None:
    assert len(COORDS) == 169
    assert tuple(sorted(COORDS)) == COORDS
    assert all(max(abs(q), abs(r), abs(q + r)) <= 7 for q, r in COORDS)


def test_seed_7_matches_the_reference_board() -> None:
    yields = draw_yields(7, THRESHOLDS)
    assert "".join(map(str, yields)) == SEED7
    assert sum(yields) == 166
    state = E.new_game(E.ruleset(), 7)
    assert state.pool_start == 166
    assert "".join(map(str, state.board.yields)) == SEED7


def test_mean_pool_over_a_thousand_seeds() -> None:
    pools = [sum(draw_yields(seed, THRESHOLDS)) for seed in range(1000)]
    assert abs(statistics.mean(pools) - 148.7) <= 1.0


def test_string_seeds_follow_the_reference_rule() -> None:
    assert seed_u32("7") == 7 and seed_u32(" 7 ") == 7
    assert seed_u32("7.9") == 7
    assert seed_u32("-1") == 2**32 - 1
    assert seed_u32(-1) == 2**32 - 1
    assert seed_u32(2**32 + 5) == 5
    # Java's "hello".hashCode() is 99162322.
    assert seed_u32("hello") == 99162322
    # A code point outside the BMP hashes as its two UTF-16 code units.
    assert seed_u32("\U0001f600") == (31 * 0xD83D + 0xDE00) & 0xFFFFFFFF
    # A negative Java hash becomes its unsigned 32-bit value.
    h = 0
    for ch in "territory game seed":
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    assert seed_u32("territory game seed") == h
    assert E.new_game(E.ruleset(), "7").board == E.new_game(E.ruleset(), 7).board


def test_hearths_follow_the_ring_walk() -> None:
    assert HEARTH_COORDS == (
        (5, 0),
        (5, -3),
        (4, -5),
        (0, -5),
        (-3, -2),
        (-5, 1),
        (-5, 5),
        (-2, 5),
        (1, 4),
    )
    pairs = [
        hex_distance(a, b) for i, a in enumerate(HEARTH_COORDS) for b in HEARTH_COORDS[i + 1 :]
    ]
    assert min(pairs) == 3
    around = [hex_distance(HEARTH_COORDS[i], HEARTH_COORDS[(i + 1) % 9]) for i in range(9)]
    assert around == [3, 3, 4, 3, 3, 4, 3, 3, 4]


def test_inside_out_variant() -> None:
    board = make_board(7, "inside_out", THRESHOLDS)
    plain = make_board(7, "open", THRESHOLDS)
    for j in range(169):
        d = DIST[ORIGIN][j]
        expected = 3 if d <= 2 else 0 if d >= 6 else plain.yields[j]
        assert board.yields[j] == expected
    assert RUBBLE not in board.states


def test_rooms_variant() -> None:
    board = make_board(7, "rooms", THRESHOLDS)
    for h in HEARTHS:
        for j in range(169):
            if DIST[h][j] == 1:
                assert board.yields[j] == 3
                assert board.states[j] == WALL
        ring2 = [j for j in range(169) if DIST[h][j] == 2]
        open_tiles = [j for j in ring2 if board.states[j] == WALL]
        # T19: equally near gaps go to the key "q,r" that sorts first as a string.
        gap = min(ring2, key=lambda j: (DIST[ORIGIN][j], "{},{}".format(*COORDS[j])))
        assert gap in open_tiles
        assert all(board.states[j] == RUBBLE for j in ring2 if j not in open_tiles)
    state = E.new_game(E.ruleset({"map": "rooms"}), 7)
    assert state.tiles[INDEX[(3, 0)]] == WALL  # Sable's gap toward the centre
    assert state.tiles[INDEX[(3, 1)]] == RUBBLE
    assert "3,1" not in obj(E.legal_moves(state, 0).hints["reach"])


def test_rulesets_are_range_checked() -> None:
    with pytest.raises(InvalidRuleset):
        E.ruleset({"turns": 0})
    with pytest.raises(InvalidRuleset):
        E.ruleset({"map": "maze"})
    with pytest.raises(InvalidRuleset):
        E.ruleset({"yield_thresholds": [0.9, 0.5, 0.95]})
    r = E.ruleset({"raze_order": "seat", "claim_owned_target": "reject"})
    assert r.model_dump()["raze_order"] == "seat"
