"""Territory, exact to the rules text (issue 10): the `rooms` gap (DECISIONS T19), a claim at
distance 0 from the hearth of a seat that owns nothing (T4, cost 2 + 2d) and the raider bot
(DECISIONS 1(a), corrected: effYield ≥ 3, ties by tile key in string order)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonpath import at, num, obj
from territory_helpers import arrange

from cogs_arena.engines import IllegalMove
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.territory.board import (
    ALIASES,
    CRACKED,
    DIST,
    HEARTH_COORDS,
    HEARTHS,
    KEY_INDEX,
    KEYS,
    N_TILES,
    ORIGIN,
    RUBBLE,
    WALL,
    make_board,
)
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.state import TerritoryState

E = TerritoryEngine()
THRESHOLDS = (0.45, 0.75, 0.92)
SABLE, OCHRE, VERDANT = 0, 1, 2


def game(seed: int | str = 7, **rules: Any) -> TerritoryState:
    return E.new_game(E.ruleset(rules), seed)


def play(state: TerritoryState, orders: dict[int, str]) -> TerritoryState:
    moves = {s: E.parse_move(state, s, orders.get(s, "hold")) for s in E.to_act(state)}
    return E.apply_batch(state, moves)


# ---- T19: the `rooms` gap ---------------------------------------------------------------------

# The distance-2 ring tile of each hearth nearest the centre (0,0); among those equally near, the
# key "q,r" that sorts first as a string. Ochre, Amber and Rose have three-way ties where string
# order and board order (q, then r, ascending) disagree: "3,-1" < "3,-2" < "3,-3",
# "-1,-2" < "-2,-1" < "-3,0" and "-1,3" < "-2,3" < "0,3".
ROOMS_GAP: dict[str, str] = {
    "Sable": "3,0",
    "Ochre": "3,-1",
    "Verdant": "2,-3",
    "Cobalt": "0,-3",
    "Amber": "-1,-2",
    "Violet": "-3,0",
    "Teal": "-3,3",
    "Rose": "-1,3",
    "Ash": "0,3",
}


def _key(q: int, r: int) -> str:
    return f"{q},{r}"


def _hex(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _ring2(hearth: tuple[int, int]) -> list[tuple[int, int]]:
    return [
        (q, r)
        for q in range(-7, 8)
        for r in range(-7, 8)
        if max(abs(q), abs(r), abs(q + r)) <= 7 and _hex((q, r), hearth) == 2
    ]


def test_the_gap_table_follows_the_t19_text() -> None:
    """The table above is what T19 says, worked out from the hex metric alone."""
    for seat, hearth in enumerate(HEARTH_COORDS):
        ring = _ring2(hearth)
        nearest = min(_hex(t, (0, 0)) for t in ring)
        tied = sorted(_key(*t) for t in ring if _hex(t, (0, 0)) == nearest)
        assert ROOMS_GAP[ALIASES[seat]] == tied[0]


@pytest.mark.parametrize("alias", ALIASES)
@pytest.mark.parametrize("seed", [7, 1, "rooms"])
def test_rooms_opens_the_string_first_gap_for_each_hearth(alias: str, seed: int | str) -> None:
    seat = ALIASES.index(alias)
    hearth = HEARTHS[seat]
    gap = ROOMS_GAP[alias]
    board = make_board(seed, "rooms", THRESHOLDS)
    j = KEY_INDEX[gap]
    assert DIST[hearth][j] == 2
    assert board.states[j] == WALL
    ring = [t for t in range(N_TILES) if DIST[hearth][t] == 2]
    nearest = min(DIST[ORIGIN][t] for t in ring)
    assert DIST[ORIGIN][j] == nearest
    doors = {KEY_INDEX[k] for k in ROOMS_GAP.values()}
    in_a_home_ring = {t for h in HEARTHS for t in range(N_TILES) if DIST[h][t] <= 1}
    for t in ring:
        if t in doors or t in in_a_home_ring:
            assert board.states[t] == WALL, KEYS[t]
        else:
            # Every other ring tile is rubble, including those tied with the gap.
            assert board.states[t] == RUBBLE, KEYS[t]
    # In play: the gap is open and in the seat's reach at distance 2 (cost 6) from its hearth.
    state = game(seed, map="rooms")
    assert state.tiles[j] == WALL
    assert at(E.legal_moves(state, seat).hints, "reach", gap) == 6
    assert f"claim {gap}" in [m.notation for m in E.legal_moves(state, seat).moves]


def test_rooms_boards_differ_from_board_order_gaps_on_five_tiles() -> None:
    for seed in (7, 1, "rooms"):
        board = make_board(seed, "rooms", THRESHOLDS)
        # Board order would open 3,-3 (Ochre) and -2,3 (Rose), and -3,0 for Amber, which stays
        # open as Violet's gap anyway.
        for key in ("3,-3", "-2,3"):
            assert board.states[KEY_INDEX[key]] == RUBBLE
        for key in ("3,-1", "-1,-2", "-1,3", "-3,0"):
            assert board.states[KEY_INDEX[key]] == WALL


# ---- T4 + claim cost 2 + 2d: a claim at distance 0 --------------------------------------------

MODES = [
    {"claim_owned_target": c, "raze_order": o, "map": m}
    for c in ("void", "reject")
    for o in ("simultaneous", "seat")
    for m in ("open", "rooms", "inside_out")
]


def _homeless(**rules: Any) -> TerritoryState:
    """Sable owns nothing: its hearth 5,0 is a free wall (e.g. after an elimination elsewhere
    or a raze and re-claim), so it projects from its hearth coordinate (T4)."""
    return arrange(game(**rules), owner={"5,0": -1})


@pytest.mark.parametrize("rules", MODES, ids=lambda m: "-".join(m.values()))
def test_reclaiming_a_freed_hearth_costs_two_in_every_mode(rules: dict[str, str]) -> None:
    s = _homeless(**rules)
    hints = E.legal_moves(s, SABLE).hints
    assert at(hints, "reach", "5,0") == 2
    assert at(E.observe(s, SABLE), "reach", "5,0") == 2
    entries = [m for m in E.legal_moves(s, SABLE).moves if m.notation == "claim 5,0"]
    assert len(entries) == 1 and entries[0].kind == "claim"
    assert "distance 0, cost 2" in entries[0].description
    E.validate(s, SABLE, E.parse_move(s, SABLE, "claim 5,0"))
    after = play(s, {SABLE: "claim 5,0"})
    assert after.owner[KEY_INDEX["5,0"]] == SABLE
    # Charged 2; the tile is wet this turn, so no income (Sable owned nothing dry).
    assert after.seats[SABLE].paint == 12 - 2
    assert after.reports[SABLE].spent == 2


def test_every_reach_entry_costs_what_validate_and_apply_charge() -> None:
    s = _homeless()
    reach = {k: num(v) for k, v in obj(E.legal_moves(s, SABLE).hints["reach"]).items()}
    assert reach["5,0"] == 2 and reach["4,0"] == 4 and reach["3,0"] == 6
    for key, cost in reach.items():
        after = play(s, {SABLE: f"claim {key}"})
        assert after.reports[SABLE].rejected is None
        assert after.seats[SABLE].paint == 12 - cost, key


def test_distance_zero_with_other_claims_is_priced_from_the_hearth() -> None:
    s = _homeless()
    # T5: 2 (d=0) + 4 (d=1) + 6 (d=2), all from the hearth coordinate.
    after = play(s, {SABLE: "claim 5,0; claim 4,0; claim 3,0"})
    assert after.seats[SABLE].paint == 0
    assert [after.owner[KEY_INDEX[k]] for k in ("5,0", "4,0", "3,0")] == [SABLE] * 3


def test_a_cracked_freed_hearth_is_claimable_at_two_and_rubble_is_not() -> None:
    cracked = arrange(_homeless(), tiles={"5,0": CRACKED})
    assert at(E.legal_moves(cracked, SABLE).hints, "reach", "5,0") == 2
    assert play(cracked, {SABLE: "claim 5,0"}).seats[SABLE].paint == 10
    rubble = arrange(_homeless(), tiles={"5,0": RUBBLE})
    assert "5,0" not in obj(E.legal_moves(rubble, SABLE).hints["reach"])
    with pytest.raises(IllegalMove):
        E.validate(rubble, SABLE, E.parse_move(rubble, SABLE, "claim 5,0"))


def test_the_hearth_claim_leaves_the_menu_when_unaffordable() -> None:
    s = arrange(_homeless(), paint={SABLE: 1})
    assert "claim 5,0" not in [m.notation for m in E.legal_moves(s, SABLE).moves]
    with pytest.raises(IllegalMove) as info:
        E.validate(s, SABLE, E.parse_move(s, SABLE, "claim 5,0"))
    assert "costs 2" in str(info.value)
    s2 = arrange(_homeless(), paint={SABLE: 2})
    assert "claim 5,0" in [m.notation for m in E.legal_moves(s2, SABLE).moves]


def test_a_seat_that_owns_tiles_has_no_distance_zero_claims() -> None:
    s = game()
    reach = obj(E.legal_moves(s, SABLE).hints["reach"])
    assert "5,0" not in reach and min(map(num, reach.values())) == 4


def test_t6_raze_and_reclaim_of_a_hearth_held_by_another_seat() -> None:
    """Ochre holds Sable's hearth and Sable owns nothing: Sable razes it (d = 0, its own ring is
    not surcharged: 5) and claims it back in the same turn (d = 0: 2), void mode."""
    s = arrange(_homeless(), owner={"5,0": OCHRE}, turn=4)
    after = play(s, {SABLE: "raze 5,0; claim 5,0"})
    assert after.reports[SABLE].rejected is None
    assert after.owner[KEY_INDEX["5,0"]] == SABLE
    assert after.tiles[KEY_INDEX["5,0"]] == CRACKED
    assert after.seats[SABLE].paint == 12 - 5 - 2


# ---- the raider (DECISIONS 1(a), corrected) ---------------------------------------------------
# Seed 7, open map: base yield 3 at -1,5 (next to Rose's hearth, so razing costs 10), -4,3 and
# -1,1 (plain, 5); 0,-1 also has base yield 3 and 0,-2 has 2.


def _raider(state: TerritoryState, seat: int = SABLE) -> list[str]:
    text = E.bots()["raider"](E.observe(state, seat), E.legal_moves(state, seat), Stream(0, "t"))
    move = E.parse_move(state, seat, text)
    E.validate(state, seat, move)  # legal by construction
    return [f"{o.kind} {o.key}" for o in move.orders]


def _razes(orders: list[str]) -> list[str]:
    return [o for o in orders if o.startswith("raze")]


def _leader_position(paint: int = 30, turn: int = 5) -> TerritoryState:
    """Ochre leads; it owns two effYield-3 walls in Sable's razeReach: -1,5 (raze cost 10) and
    -4,3 (cost 5). "-1,5" sorts first as a string; -4,3 is cheaper and first in board order."""
    s = game()
    assert [s.board.yields[KEY_INDEX[k]] for k in ("-1,5", "-4,3")] == [3, 3]
    return arrange(
        s,
        owner={"-1,5": OCHRE, "-4,3": OCHRE, "-1,3": SABLE, "-3,3": SABLE},
        paint={SABLE: paint},
        score={OCHRE: 50, VERDANT: 20},
        turn=turn,
    )


def test_raider_breaks_ties_by_tile_key_not_cost_or_board_order() -> None:
    s = _leader_position()
    raze = obj(E.legal_moves(s, SABLE).hints["razeReach"])
    assert raze["-1,5"] == 10 and raze["-4,3"] == 5
    orders = _raider(s)
    assert _razes(orders) == ["raze -1,5"]
    claims = [o for o in orders if o.startswith("claim")]
    assert len(claims) <= 4


def test_raider_razes_the_key_first_tile_only_if_affordable() -> None:
    # The target is the key-first tile; at 9 paint it is unaffordable, so no raze (the cheaper
    # -4,3 is not a fallback: ties are broken by key, not by cost).
    assert _razes(_raider(_leader_position(paint=9))) == []
    assert _razes(_raider(_leader_position(paint=10))) == ["raze -1,5"]


def test_raider_ignores_tiles_below_effective_yield_three() -> None:
    s = game()
    assert s.board.yields[KEY_INDEX["0,-1"]] == 3 and s.board.yields[KEY_INDEX["0,-2"]] == 2
    s = arrange(
        s,
        # 0,-1 is cracked (effYield 1), 0,-2 a wall of yield 2: neither is a raider target.
        owner={"0,-1": OCHRE, "0,-2": OCHRE, "0,0": SABLE},
        tiles={"0,-1": CRACKED},
        paint={SABLE: 30},
        score={OCHRE: 50},
        turn=5,
    )
    raze = obj(E.legal_moves(s, SABLE).hints["razeReach"])
    assert "0,-1" in raze and "0,-2" in raze
    assert _razes(_raider(s)) == []
    # Make 0,-1 a wall again (effYield 3) and it becomes the target.
    s = arrange(s, tiles={"0,-1": WALL})
    assert _razes(_raider(s)) == ["raze 0,-1"]


def test_raider_targets_the_leader_ties_to_the_lower_seat() -> None:
    s = arrange(
        game(),
        # Verdant's -1,1 sorts before Ochre's -4,3, but Ochre (seat 1) is the leader on the tie.
        owner={"-4,3": OCHRE, "-1,1": VERDANT, "-3,3": SABLE, "-1,2": SABLE},
        paint={SABLE: 30},
        score={OCHRE: 40, VERDANT: 40},
        turn=5,
    )
    raze = obj(E.legal_moves(s, SABLE).hints["razeReach"])
    assert "-4,3" in raze and "-1,1" in raze
    assert _razes(_raider(s)) == ["raze -4,3"]
    # The leader has nothing worth razing in reach: no raze against anyone else either.
    s = arrange(s, score={OCHRE: 40, VERDANT: 41}, owner={"-1,1": -1})
    assert _razes(_raider(s)) == []


def test_raider_homesteads_before_the_raze_turn() -> None:
    s = _leader_position(turn=3)
    bots = E.bots()
    obs, menu = E.observe(s, SABLE), E.legal_moves(s, SABLE)
    assert bots["raider"](obs, menu, Stream(0, "t")) == bots["homesteader"](
        obs, menu, Stream(0, "t")
    )
    assert _razes(_raider(s)) == []
