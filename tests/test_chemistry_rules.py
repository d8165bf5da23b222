"""Chemistry tick rules (DECISIONS §2): vents, take/drop, moves, eating, reactions, decay, rot,
shift boundaries and famine. States are built from the opening with a few fields replaced."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pytest

from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.moves import Order
from cogs_arena.engines.chemistry.room import (
    DROP,
    MOVE_E,
    MOVE_W,
    PADS,
    RINGS,
    TAKE,
    WAIT,
    WALL,
    cell,
)
from cogs_arena.engines.chemistry.rules import Room
from cogs_arena.engines.chemistry.ruleset import ChemistryRuleset
from cogs_arena.engines.chemistry.state import ChemState, Cog, Vat
from cogs_arena.engines.protocol import JSON

ENGINE = ChemistryEngine()


def chem_rules(overrides: Mapping[str, JSON] | None = None) -> ChemistryRuleset:
    """The engine's ruleset for `overrides`, typed as Chemistry's own."""
    rs = ENGINE.ruleset(overrides)
    assert isinstance(rs, ChemistryRuleset)
    return rs


IDLE = [Order("idle")] * 8


def opening(**overrides: JSON) -> ChemState:
    return ENGINE.new_game(ENGINE.ruleset(overrides), 1)


def run(state: ChemState, ticks: int = 1, orders: list[Order] | None = None) -> ChemState:
    """Runs ticks through the working room (no shift boundary checks)."""
    room = Room(state)
    for _ in range(ticks):
        room.run_tick(orders or IDLE, None)
    return room.freeze(state)


def raw(state: ChemState, actions: dict[int, int]) -> ChemState:
    room = Room(state)
    room.run_tick(None, [actions.get(i, WAIT) for i in range(8)])
    return room.freeze(state)


def with_vat(state: ChemState, vat: int, **fields: object) -> ChemState:
    vats = tuple(replace(v, **fields) if v.vat == vat else v for v in state.vats)  # type: ignore[arg-type]
    return replace(state, vats=vats)


def vat(state: ChemState, v: int) -> Vat:
    return next(x for x in state.vats if x.vat == v)


def park(
    state: ChemState, cells: dict[int, int], hands: dict[int, tuple[int, ...]] | None = None
) -> ChemState:
    cogs = list(state.cogs)
    for seat, c in cells.items():
        cogs[seat] = Cog(c, (hands or {}).get(seat, ()), 0)
    for seat, h in (hands or {}).items():
        if seat not in cells:
            cogs[seat] = replace(cogs[seat], hand=h)
    return replace(state, cogs=tuple(cogs))


# ---- the room ---------------------------------------------------------------------------------


def test_room_geometry_and_opening() -> None:
    assert sum(WALL) == 2 * 32 + 2 * 16 + 8
    for x, y in ((13, 8), (14, 9), (18, 8), (19, 9)):
        assert WALL[cell(x, y)]
    assert all(len(r) == 12 for r in RINGS)
    assert cell(16, 2) in RINGS[0] and cell(14, 2) not in RINGS[0]
    assert cell(16, 4) in PADS[0] and cell(15, 3) in PADS[0] and len(PADS[0]) == 9
    s = opening()
    assert ENGINE.seat_names(s.ruleset) == (
        "Argon",
        "Borax",
        "Cinder",
        "Dram",
        "Ember",
        "Flint",
        "Gilt",
        "Hob",
    )
    assert [g.cell for g in s.cogs] == [
        cell(x, y) for x, y in ((2, 2), (2, 4), (2, 6), (2, 8), (29, 2), (29, 4), (29, 6), (29, 8))
    ]
    assert [(v.vat, v.charge, v.stock, v.cooldown) for v in s.vats] == [
        (0, 3, (0, 0), 0),
        (1, 3, (0, 0), 0),
        (2, 3, (0, 0), 0),
    ]
    assert s.molecules == () and s.food == ()
    assert [v.vat for v in opening(variant="two-cycles").vats] == [0, 1]


def test_ruleset_defaults_and_ranges() -> None:
    rs = chem_rules()
    assert (rs.shifts, rs.ticks_per_shift, rs.charge_max, rs.charge0) == (12, 60, 12, 3)
    assert (rs.charge_decay_period, rs.reaction_cooldown, rs.cold_start_cost) == (60, 6, 3)
    assert (rs.food_lifetime, rs.vent_period, rs.vent_ground_cap) == (240, 8, 6)
    assert (rs.move_cooldown, rs.carry_cap) == (2, 1)
    assert rs.distractors == (2, 24)
    assert chem_rules({"variant": "two-cycles-distractors"}).distractors == (6, 12)
    assert chem_rules({"variant": "three-cycles"}).species == (0, 1, 2)
    from cogs_arena.engines import InvalidRuleset

    for bad in ({"charge_max": 25}, {"charge_max": 0}, {"charge0": 13}, {"control": "x"}):
        with pytest.raises(InvalidRuleset):
            ENGINE.ruleset(bad)


# ---- vents ------------------------------------------------------------------------------------


def test_vent_emits_on_its_period_in_nesw_order() -> None:
    s = opening(variant="three-cycles")
    s7 = run(s, 7)
    assert s7.molecules == ()
    s8 = run(s, 8)
    assert (cell(4, 2), 0) in s8.molecules  # resin: north first
    assert (cell(28, 2), 1) in s8.molecules
    assert (cell(16, 14), 2) in s8.molecules
    s16 = run(s, 16)
    assert (cell(5, 3), 0) in s16.molecules  # north taken: east next
    blocked = replace(s, molecules=((cell(4, 2), 2), (cell(5, 3), 2), (cell(4, 4), 2)))
    assert (cell(3, 3), 0) in run(blocked, 8).molecules  # then south, then west
    full = replace(blocked, molecules=tuple(sorted((*blocked.molecules, (cell(3, 3), 2)))))
    assert not any(sp == 0 for _, sp in run(full, 8).molecules)


def test_cogs_and_food_do_not_block_emission() -> None:
    s = park(opening(variant="three-cycles"), {0: cell(4, 2)})
    s = replace(s, food=((cell(4, 2), 0),))
    assert (cell(4, 2), 0) in run(s, 8).molecules


def test_ground_cap_counts_the_whole_floor() -> None:
    rs_cap: dict[str, JSON] = {"variant": "three-cycles", "vent_ground_cap": 2}
    far = ((cell(10, 15), 0), (cell(11, 15), 0))
    s = replace(opening(**rs_cap), molecules=far)
    assert sum(1 for _, sp in run(s, 8).molecules if sp == 0) == 2
    one = replace(opening(**rs_cap), molecules=far[:1])
    assert sum(1 for _, sp in run(one, 8).molecules if sp == 0) == 2
    # Carried units do not count.
    carried = park(opening(**rs_cap), {}, {0: (0,), 1: (0,)})
    assert sum(1 for _, sp in run(carried, 8).molecules if sp == 0) == 1


def test_distractor_vents_exist_only_with_a_period() -> None:
    plain = run(opening(variant="three-cycles"), 8)
    assert not any(sp >= 3 for _, sp in plain.molecules)
    plenty = run(opening(), 2)
    assert (cell(9, 2), 3) in plenty.molecules and (cell(23, 2), 4) in plenty.molecules


# ---- take, drop, misdrop, hoard -----------------------------------------------------------------


def test_take_and_drop_into_stock() -> None:
    s = park(opening(), {0: cell(6, 6)})
    s = replace(s, molecules=((cell(6, 6), 0),))
    s = raw(s, {0: TAKE})
    assert s.cogs[0].hand == (0,) and s.molecules == ()
    s = park(s, {0: cell(15, 3)}, {0: (0,)})
    s = raw(s, {0: DROP})
    assert s.cogs[0].hand == () and vat(s, 0).stock == (1, 0)
    assert vat(s, 0).last_deliverer == 0 and s.counters.delivered[0] == 1


def test_misdrop_destroys_the_unit() -> None:
    s = park(opening(), {2: cell(17, 5)}, {2: (2,)})  # brine on the amber pad
    s = run(s, orders=[*IDLE[:2], Order("supply", 2, 0), *IDLE[3:]])
    assert s.cogs[2].hand == ()
    assert vat(s, 0).stock == (0, 0) and s.counters.misdrops[2] == 1
    assert s.molecules == () and s.report is not None
    assert s.report.misdrops == ((2, 0, 2, 1),)


def test_drop_off_pad_needs_a_free_cell_and_home_counts_as_hoard() -> None:
    s = park(opening(), {0: cell(6, 6)}, {0: (1,)})
    s = replace(s, molecules=((cell(6, 6), 0),))
    after = raw(s, {0: DROP})
    assert after.cogs[0].hand == (1,)  # a molecule is there: the drop fails
    home = park(opening(), {}, {1: (1,)})
    home = raw(home, {1: DROP})
    assert (cell(2, 4), 1) in home.molecules and home.counters.hoarded[1] == 1


# ---- moves ------------------------------------------------------------------------------------


def test_move_conflicts_resolve_by_slot() -> None:
    a, mid, b = cell(5, 14), cell(6, 14), cell(7, 14)
    s = raw(park(opening(), {0: a, 1: b}), {0: MOVE_E, 1: MOVE_W})
    assert (s.cogs[0].cell, s.cogs[1].cell) == (mid, b)
    s = raw(park(opening(), {1: a, 0: b}), {1: MOVE_E, 0: MOVE_W})
    assert (s.cogs[0].cell, s.cogs[1].cell) == (mid, a)


def test_a_cog_about_to_leave_still_blocks_a_lower_slot() -> None:
    s = raw(park(opening(), {0: cell(5, 14), 1: cell(6, 14)}), {0: MOVE_E, 1: MOVE_E})
    assert (s.cogs[0].cell, s.cogs[1].cell) == (cell(5, 14), cell(7, 14))
    s = raw(park(opening(), {1: cell(5, 14), 0: cell(6, 14)}), {1: MOVE_E, 0: MOVE_E})
    assert (s.cogs[1].cell, s.cogs[0].cell) == (cell(6, 14), cell(7, 14))
    swap = raw(park(opening(), {0: cell(5, 14), 1: cell(6, 14)}), {0: MOVE_E, 1: MOVE_W})
    assert (swap.cogs[0].cell, swap.cogs[1].cell) == (cell(5, 14), cell(6, 14))


def test_walls_block_and_move_cooldown_gates_moves() -> None:
    s = raw(park(opening(), {0: cell(1, 14)}), {0: MOVE_W})
    assert s.cogs[0].cell == cell(1, 14)
    s = raw(park(opening(), {0: cell(5, 14)}), {0: MOVE_E})
    assert s.cogs[0].cell == cell(6, 14) and s.cogs[0].timer == 1
    s = raw(s, {0: MOVE_E})
    assert s.cogs[0].cell == cell(6, 14) and s.cogs[0].timer == 0
    s = raw(s, {0: MOVE_E})
    assert s.cogs[0].cell == cell(7, 14)


def test_auto_eat_scores() -> None:
    s = replace(park(opening(), {3: cell(5, 14)}), food=((cell(6, 14), 5),))
    s = raw(s, {3: MOVE_E})
    assert s.food == () and s.counters.eaten[3] == 1
    assert s.report is not None and s.report.eaten[3] == 1


# ---- reactions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("charge", [1, 2, 3, 5, 8, 11])
def test_reaction_yield_by_charge(charge: int) -> None:
    s = with_vat(opening(), 0, charge=charge, stock=(1, 1))
    s = run(s)
    assert vat(s, 0).charge == charge + 1
    assert vat(s, 0).stock == (0, 0) and vat(s, 0).cooldown == 6
    assert len(s.food) == 1 + (charge + 1) // 3
    assert all(c in RINGS[0] for c, _ in s.food)


def test_charge_caps_at_charge_max() -> None:
    s = run(with_vat(opening(), 0, charge=12, stock=(1, 1)))
    assert vat(s, 0).charge == 12 and len(s.food) == 5
    low = opening(charge_max=4, charge0=4)
    s = run(with_vat(low, 0, stock=(1, 1)))
    assert vat(s, 0).charge == 4 and len(s.food) == 2


def test_reaction_cooldown_cadence() -> None:
    s = with_vat(opening(variant="three-cycles"), 0, stock=(30, 30))
    s = run(s, 25)
    ticks = [
        t + 1 for t, line in enumerate(s.frames) if any(x.startswith("r0:") for x in line.split())
    ]
    assert ticks == [1, 7, 13, 19, 25]


def test_cold_start_consumes_cost_and_makes_no_food() -> None:
    s = run(with_vat(opening(), 0, charge=0, stock=(3, 4)))
    v = vat(s, 0)
    assert (v.charge, v.stock, v.cooldown) == (1, (0, 1), 0)
    assert s.food == () and s.counters.cold_starts == 1 and s.counters.reactions == 0
    short = run(with_vat(opening(), 0, charge=0, stock=(2, 9)))
    assert vat(short, 0).charge == 0 and vat(short, 0).stock == (2, 9)
    # No cooldown after a cold start: a reaction may follow on the next tick.
    s = run(with_vat(opening(), 0, charge=0, stock=(4, 4)), 2)
    assert vat(s, 0).charge == 2 and len(s.food) == 1 and s.counters.reactions == 1


def test_cold_start_cost_is_a_setting() -> None:
    s = run(with_vat(opening(cold_start_cost=1), 0, charge=0, stock=(1, 1)))
    assert vat(s, 0).charge == 1 and vat(s, 0).stock == (0, 0)


def test_food_lands_nearest_the_deliverer_ties_by_row_then_column() -> None:
    # No deliverer: anchor is the centre (16,4); four ring cells at distance 2.
    s = run(with_vat(opening(), 0, charge=2, stock=(1, 1)))
    assert [c for c, _ in s.food] == sorted([cell(16, 2), cell(14, 4)])
    # The deliverer's cell at reaction time anchors, even after walking away.
    s = park(opening(), {4: cell(19, 4)})
    s = with_vat(s, 0, charge=5, stock=(1, 1), last_deliverer=4)
    s = run(s)
    assert {c for c, _ in s.food} == {cell(18, 4), cell(18, 3), cell(18, 5)}
    s2 = park(opening(), {4: cell(19, 4)})
    s2 = with_vat(s2, 0, charge=2, stock=(1, 1), last_deliverer=4)
    assert {c for c, _ in run(s2).food} == {cell(18, 4), cell(18, 3)}  # (18,3) before (18,5)


def test_food_that_does_not_fit_spoils() -> None:
    ring = sorted(RINGS[0])
    s = replace(opening(), food=tuple((c, 0) for c in ring[1:]))
    s = run(with_vat(s, 0, charge=8, stock=(1, 1)))  # yield 1 + 9 div 3 = 4
    assert len(s.food) == 12
    assert s.counters.food_made == 1 and s.counters.food_spoiled == 3
    assert s.report is not None and s.report.reactions == ((0, 1, 1, 3),)


# ---- decay, rot -------------------------------------------------------------------------------


def test_decay_once_per_period_to_cold_with_a_cold_event() -> None:
    s = replace(with_vat(opening(), 0, charge=1), tick=58)
    s = run(s)
    assert vat(s, 0).charge == 1
    s = run(s)
    assert s.tick == 60 and vat(s, 0).charge == 0 and vat(s, 1).charge == 2
    assert s.counters.cold_events == 1 and s.report is not None
    assert s.report.cold_events[-1] == (0, 60)
    assert "k0" in s.frames[-1].split()
    s = run(s, 60)
    assert vat(s, 0).charge == 0 and s.counters.cold_events == 1  # no decay below zero


def test_restart_at_119_drops_back_at_120_unless_it_reacts() -> None:
    s = replace(with_vat(opening(), 0, charge=0, stock=(3, 3)), tick=118)
    s = run(s)
    assert vat(s, 0).charge == 1
    assert vat(run(s), 0).charge == 0
    fed = with_vat(s, 0, stock=(1, 1))
    assert vat(run(fed), 0).charge == 1  # reacted to 2 at step 6, decayed to 1 at step 7


def test_rot_at_exactly_food_lifetime() -> None:
    s = replace(opening(), food=((cell(6, 14), 0),))
    s239 = run(s, 239)
    assert s239.food == ((cell(6, 14), 239),)
    s240 = run(s239)
    assert s240.food == () and s240.counters.food_rotted == 1
    # C24's range starts at 24 (this test used 3 before): the shortest life rots at 24 too.
    short = replace(opening(food_lifetime=24), food=((cell(6, 14), 0),))
    assert run(short, 23).food and not run(short, 24).food


# ---- shifts and famine ----------------------------------------------------------------------


def test_all_idle_room_ends_in_famine_at_tick_300() -> None:
    s = opening()
    while ENGINE.to_act(s):
        s = ENGINE.apply_batch(s, dict.fromkeys(range(8), Order("idle")))
    out = ENGINE.outcome(s)
    assert out is not None and out.reason == "complete"
    assert out.details["ending"] == "famine" and s.tick == 300 and s.shifts_done == 5
    assert out.details["cold_events"] == 3 and out.winners == tuple(range(8))


def test_food_on_the_floor_delays_famine() -> None:
    s = replace(opening(food_lifetime=400), food=((cell(6, 14), 0),))
    while ENGINE.to_act(s):
        s = ENGINE.apply_batch(s, dict.fromkeys(range(8), Order("idle")))
    assert s.ending == "famine" and s.tick == 420


def test_shift_limit_comes_first() -> None:
    s = opening(shifts=3)
    while ENGINE.to_act(s):
        s = ENGINE.apply_batch(s, dict.fromkeys(range(8), Order("idle")))
    assert s.ending == "shift_limit" and s.tick == 180


def test_a_warm_vat_resets_the_cold_streak() -> None:
    s = replace(with_vat(opening(variant="two-cycles"), 0, charge=0), tick=0)
    s = with_vat(s, 1, charge=1)
    s = ENGINE.apply_batch(s, dict.fromkeys(range(8), Order("idle")))
    assert s.cold_streak == 1  # beryl decayed to 0 at tick 60
    assert (
        ENGINE.apply_batch(
            with_vat(s, 1, charge=5), dict.fromkeys(range(8), Order("idle"))
        ).cold_streak
        == 0
    )


def test_settle_and_forfeit() -> None:
    s = replace(opening(), counters=replace(opening().counters, eaten=(3, 0, 1, 0, 0, 0, 0, 0)))
    out = ENGINE.outcome(ENGINE.settle(s, "deadline"))
    assert out is not None and out.reason == "deadline" and out.scores[0] == 3.0
    assert out.winners == (0,)
    gone = ENGINE.outcome(ENGINE.settle(s, "forfeit"))
    assert gone is not None and gone.scores == (0.0,) * 8
