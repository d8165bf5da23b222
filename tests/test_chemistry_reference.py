"""Chemistry as settled against the reference engine (rules.md C24): the supplier's walk with no
loose unit, the hoarder's loop at home, the pad stall, the ranges and the cold-vat courier target.
Order intake (dropped fields, cut text) is in test_chemistry_intake.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pytest

from cogs_arena.engines import InvalidRuleset
from cogs_arena.engines.chemistry.bots import courier_order, lane_table
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.moves import Order, parse_order
from cogs_arena.engines.chemistry.room import (
    DROP,
    HOMES,
    MOVE_N,
    MOVE_S,
    MOVE_W,
    WAIT,
    cell,
)
from cogs_arena.engines.chemistry.rules import Room, kernel
from cogs_arena.engines.chemistry.ruleset import RANGES, ChemistryRuleset
from cogs_arena.engines.chemistry.state import ChemState, Cog
from cogs_arena.engines.protocol import JSON

ENGINE = ChemistryEngine()


def chem_rules(overrides: Mapping[str, JSON] | None = None) -> ChemistryRuleset:
    """The engine's ruleset for `overrides`, typed as Chemistry's own."""
    rs = ENGINE.ruleset(overrides)
    assert isinstance(rs, ChemistryRuleset)
    return rs


VARIANTS = (
    "two-cycles",
    "two-cycles-distractors",
    "three-cycles",
    "three-cycles-plentiful-distractors",
)
IDLE = Order("idle")


def placed(
    cogs: dict[int, tuple[int, tuple[int, ...]]],
    molecules: tuple[tuple[int, int], ...] = (),
    variant: str = "three-cycles",
) -> ChemState:
    s = ENGINE.new_game(ENGINE.ruleset({"variant": variant}), 1)
    all_cogs = list(s.cogs)
    for seat, (c, hand) in cogs.items():
        all_cogs[seat] = Cog(c, hand, 0)
    return replace(s, cogs=tuple(all_cogs), molecules=tuple(sorted(molecules)))


def ticks(state: ChemState, orders: dict[int, Order], n: int) -> ChemState:
    room = Room(state)
    for _ in range(n):
        room.run_tick([orders.get(i, IDLE) for i in range(8)], None)
    return room.freeze(state)


# ---- supply with no loose unit ----------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_suppliers_first_step_heads_for_the_nearest_approach_cell(variant: str) -> None:
    """C24: with no loose resin, Ember (home (29,2)), the courier that supplies resin, walks to
    the nearest of the resin vent's free approach cells by the multi-source walk. (5,3) and (4,2)
    are both 25 away; S improves toward (5,3) and comes before W, so the first step is S. Before
    C24 the kernel aimed at the first of N, E, S, W no cog stood on, (4,2), and stepped W."""
    s = ENGINE.new_game(ENGINE.ruleset({"variant": variant}), 1)
    orders = {i: parse_order(courier_order(ENGINE.observe(s, i), i)) for i in range(8)}
    assert orders[4].head.startswith("supply resin")
    after = ticks(s, orders, 1)
    assert after.cogs[4].cell == cell(29, 3)
    # The same step through the engine under `control: ticks`: the courier's one action.
    raw = ENGINE.new_game(ENGINE.ruleset({"variant": variant, "control": "ticks"}), 1)
    assert ENGINE.move_text(ENGINE.default_move(raw, 4)) == "S"


def test_another_cog_does_not_choose_the_approach_cell() -> None:
    """C24: a cog already on an approach cell waits there even when another cog holds the north
    one (before, (4,2) being held sent it to (5,3), east of the vent)."""
    room = Room(placed({0: (cell(4, 2), ()), 1: (cell(4, 4), ())}))
    assert kernel(room, 1, Order("supply", 0, 0), True) == WAIT


def test_an_approach_cell_holding_a_molecule_is_no_destination() -> None:
    """C24: the approach cells are the vent's neighbours that hold no molecule. With spark
    lying on (4,2), a resin supplier at (5,2) goes S to (5,3), not W onto (4,2)."""
    room = Room(placed({1: (cell(5, 2), ())}, molecules=((cell(4, 2), 1),)))
    assert kernel(room, 1, Order("supply", 0, 0), True) == MOVE_S
    clear = Room(placed({1: (cell(5, 2), ())}))
    assert kernel(clear, 1, Order("supply", 0, 0), True) in (MOVE_S, MOVE_W)


# ---- hoard --------------------------------------------------------------------------------------


def test_a_hoarder_takes_up_its_home_unit_and_drops_it_again_all_shift() -> None:
    """C24: a unit on the hoarder's own home is loose. Borax (home (2,4)) hoards resin for one
    shift: after its first drop at home it takes the unit up and drops it again, one each tick,
    every drop counted in `hoard`; it never walks out for a second unit."""
    s = ENGINE.new_game(ENGINE.ruleset({"variant": "three-cycles"}), 1)
    moves: dict[int, Order] = dict.fromkeys(range(8), IDLE)
    moves[1] = Order("hoard", 0)
    s = ENGINE.apply_batch(s, moves)
    frames = [f.split() for f in s.frames]
    first = next(t for t, f in enumerate(frames) if "d1h" in f)
    for t in range(first, 60):
        assert ("d1h" if (t - first) % 2 == 0 else "t1") in frames[t], t + 1
    last = 59 - first  # offset of tick 60 from the first drop
    drops, takes = last // 2 + 1, (last + 1) // 2
    assert s.counters.hoarded[1] == drops and drops > 1
    assert s.cogs[1].cell == HOMES[1]
    assert s.report is not None and s.report.trips[1].taken[0] == 1 + takes  # one from the vent
    # Tick 60 was a take when `last` is odd: then the unit is in hand and none lies at home.
    at_home = HOMES[1] in {c for c, _ in s.molecules}
    assert (s.cogs[1].hand, at_home) == (((0,), False) if last % 2 else ((), True))
    # It goes on next shift, still counting.
    s = ENGINE.apply_batch(s, moves)
    assert {"d1h", "t1"} & set(s.frames[60].split())
    assert s.counters.hoarded[1] > drops


# ---- a wrong molecule in hand on a pad ------------------------------------------------------


def test_a_wrong_molecule_at_a_pad_centre_waits_and_is_kept() -> None:
    """C24: on the amber pad's centre (16,4) every neighbour is pad, so a cog holding spark for
    `supply brine beryl` waits, for as long as that holds: no walk along the pad, no drop."""
    order = Order("supply", 2, 1)
    room = Room(placed({0: (cell(16, 4), (1,))}))
    assert kernel(room, 0, order, True) == WAIT
    after = ticks(placed({0: (cell(16, 4), (1,))}), {0: order}, 20)
    assert after.cogs[0] == Cog(cell(16, 4), (1,), 0)
    assert after.counters.misdrops[0] == 0 and after.counters.delivered[0] == 0


def test_a_wrong_molecule_on_a_pad_edge_steps_off_only_when_the_cell_is_free() -> None:
    """C24: at (15,4), the amber pad's west edge, the one off-pad neighbour is W (14,4). A cog
    or a molecule there makes the holder wait (before, it walked N along the pad); free, it
    steps W and then drops off the pad."""
    order = Order("supply", 2, 1)
    held: dict[int, tuple[int, tuple[int, ...]]] = {0: (cell(15, 4), (1,))}
    blocked = Room(placed({**held, 1: (cell(14, 4), ())}))
    assert kernel(blocked, 0, order, True) == WAIT
    covered = Room(placed(held, molecules=((cell(14, 4), 0),)))
    assert kernel(covered, 0, order, True) == WAIT
    free = placed(held)
    assert kernel(Room(free), 0, order, True) == MOVE_W
    stepped = ticks(free, {0: order}, 1)
    assert stepped.cogs[0].cell == cell(14, 4)
    assert kernel(Room(stepped), 0, order, False) == DROP
    # A corner has two off-pad neighbours; N comes first.
    assert kernel(Room(placed({0: (cell(15, 3), (1,))})), 0, order, True) == MOVE_N


# ---- ranges -----------------------------------------------------------------------------------

C24_RANGES = {
    "shifts": (1, 24),
    "ticks_per_shift": (10, 120),
    "move_cooldown": (1, 8),
    "carry_cap": (1, 2),
    "vent_period": (1, 48),
    "vent_ground_cap": (1, 24),
    "distractor_period": (0, 64),
    "distractor_ground_cap": (0, 64),
    "charge_decay_period": (1, 240),
    "reaction_cooldown": (0, 48),
    "cold_start_cost": (1, 8),
    "food_lifetime": (24, 960),
    "charge_max": (1, 24),
}


@pytest.mark.parametrize("name", sorted(C24_RANGES))
def test_every_setting_takes_both_ends_of_its_range_and_refuses_past_them(name: str) -> None:
    """C24's ranges, each end allowed; one past either end is refused naming the range."""
    lo, hi = C24_RANGES[name]
    assert RANGES[name] == (lo, hi)
    extra = {"charge0": 0} if name == "charge_max" else {}
    for good in (lo, hi):
        assert getattr(ENGINE.ruleset({name: good, **extra}), name) == good
    for bad in (lo - 1, hi + 1):
        with pytest.raises(InvalidRuleset) as info:
            ENGINE.ruleset({name: bad, **extra})
        assert f"{name}: Value error, must be in {lo}..{hi}, got {bad}" in str(info.value)


def test_charge0_keeps_its_range_and_fits_under_charge_max() -> None:
    """charge0 is 0..24 as before, and never above charge_max."""
    assert chem_rules({"charge0": 0}).charge0 == 0
    assert chem_rules({"charge0": 24, "charge_max": 24}).charge0 == 24
    for bad in ({"charge0": -1}, {"charge0": 25, "charge_max": 24}, {"charge0": 13}):
        with pytest.raises(InvalidRuleset):
            ENGINE.ruleset(bad)


# ---- the courier bot --------------------------------------------------------------------------


def test_the_courier_targets_cold_start_cost_for_a_cold_vat() -> None:
    """C24: with cold_start_cost 5 and every vat cold holding 3 + 3, each lane still needs 2
    (before, the target was 3 and every courier foraged at a vat that could not restart)."""
    s = ENGINE.new_game(ENGINE.ruleset({"variant": "three-cycles", "cold_start_cost": 5}), 1)
    s = replace(s, vats=tuple(replace(v, charge=0, stock=(3, 3)) for v in s.vats))
    view = ENGINE.observe(s, 0)
    assert [need for _, need, _ in lane_table(view)] == [2] * 6
    orders = [courier_order(view, seat) for seat in range(8)]
    assert orders == [
        "supply resin amber",
        "supply spark amber",
        "supply spark beryl",
        "supply brine beryl",
        "supply resin cobalt",
        "supply brine cobalt",
        "supply resin amber",
        "supply spark amber",
    ]
    warm = replace(s, vats=tuple(replace(v, charge=1) for v in s.vats))
    assert {courier_order(ENGINE.observe(warm, 0), seat) for seat in range(8)} == {"forage amber"}
