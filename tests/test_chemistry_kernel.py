"""The Chemistry courier kernel: each job's choice, the N/E/S/W step rule, and the bots."""

from __future__ import annotations

from dataclasses import replace

from jsonpath import JSON, arr, at, edit, text

from cogs_arena.engines.chemistry.bots import courier_order, freeloader_order
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.moves import Order
from cogs_arena.engines.chemistry.room import (
    DROP,
    MOVE_E,
    MOVE_N,
    MOVE_S,
    MOVE_W,
    TAKE,
    WAIT,
    cell,
)
from cogs_arena.engines.chemistry.rules import Room, kernel
from cogs_arena.engines.chemistry.state import ChemState, Cog

ENGINE = ChemistryEngine()


def room_with(
    cogs: dict[int, tuple[int, tuple[int, ...]]],
    molecules: tuple[tuple[int, int], ...] = (),
    food: tuple[tuple[int, int], ...] = (),
    variant: str = "three-cycles",
    charges: tuple[int, ...] | None = None,
) -> Room:
    s = ENGINE.new_game(ENGINE.ruleset({"variant": variant}), 1)
    all_cogs = list(s.cogs)
    for seat, (c, hand) in cogs.items():
        all_cogs[seat] = Cog(c, hand, 0)
    vats = s.vats
    if charges is not None:
        vats = tuple(replace(v, charge=ch) for v, ch in zip(vats, charges, strict=True))
    state: ChemState = replace(
        s, cogs=tuple(all_cogs), molecules=tuple(sorted(molecules)), food=food, vats=vats
    )
    return Room(state)


def act(room: Room, seat: int, order: Order, can_move: bool = True) -> int:
    return kernel(room, seat, order, can_move)


SUPPLY_RESIN_AMBER = Order("supply", 0, 0)


def test_supply_walks_to_the_nearest_unit_preferring_north() -> None:
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(7, 13), 0),))
    assert act(room, 0, SUPPLY_RESIN_AMBER) == MOVE_N  # N and E both improve: N first
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(5, 15), 0), (cell(9, 14), 0)))
    assert act(room, 0, SUPPLY_RESIN_AMBER) == MOVE_S  # nearest unit wins: S before W
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(6, 14), 0),))
    assert act(room, 0, SUPPLY_RESIN_AMBER) == TAKE


def test_supply_ignores_other_species() -> None:
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(6, 14), 1), (cell(6, 12), 0)))
    assert act(room, 0, SUPPLY_RESIN_AMBER) == MOVE_N


def test_supply_carries_to_the_pad_and_drops() -> None:
    room = room_with({0: (cell(16, 8), (0,))})
    assert act(room, 0, SUPPLY_RESIN_AMBER) == MOVE_N
    room = room_with({0: (cell(17, 5), (0,))})
    assert act(room, 0, SUPPLY_RESIN_AMBER) == DROP
    room = room_with({0: (cell(17, 5), (0,))})
    assert act(room, 0, Order("supply", 0, 2)) != DROP  # on amber's pad but aimed at cobalt


def test_supply_holding_something_else_steps_off_the_pad_then_drops() -> None:
    room = room_with({0: (cell(16, 3), (1,))})
    assert act(room, 0, Order("supply", 2, 1)) == MOVE_N  # off the pad first, never a misdrop
    room = room_with({0: (cell(6, 14), (1,))})
    assert act(room, 0, Order("supply", 2, 1)) == DROP
    room = room_with({0: (cell(6, 14), (1,))}, molecules=((cell(6, 14), 0),))
    assert act(room, 0, Order("supply", 2, 1)) == MOVE_N  # cell taken: the next free one


def test_no_loose_unit_waits_at_the_vents_first_free_approach_cell() -> None:
    room = room_with({0: (cell(4, 6), ())})
    assert act(room, 0, SUPPLY_RESIN_AMBER) == MOVE_N  # toward (4,4), south of the vent
    room = room_with({0: (cell(4, 2), ())})
    assert act(room, 0, SUPPLY_RESIN_AMBER) == WAIT
    room = room_with({0: (cell(4, 2), ()), 1: (cell(6, 3), ())})
    assert act(room, 1, SUPPLY_RESIN_AMBER) == MOVE_W  # (4,2) is held: east cell (5,3)
    room = room_with({1: (cell(5, 3), ()), 0: (cell(4, 2), ())})
    assert act(room, 1, SUPPLY_RESIN_AMBER) == WAIT


def test_step_rule_equal_distance_then_wait() -> None:
    food = ((cell(4, 10), 0), (cell(5, 10), 0))
    free = room_with({0: (cell(4, 15), ())}, food=food)
    assert act(free, 0, Order("forage")) == MOVE_N
    blocked = room_with({0: (cell(4, 15), ()), 1: (cell(4, 14), ())}, food=food)
    assert act(blocked, 0, Order("forage")) == MOVE_E  # (5,15) is as far from (5,10)
    stuck = room_with({0: (cell(4, 15), ()), 1: (cell(4, 14), ()), 2: (cell(5, 15), ())}, food=food)
    assert act(stuck, 0, Order("forage")) == WAIT


def test_a_cog_that_cannot_move_still_takes_and_drops() -> None:
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(6, 14), 0),))
    assert act(room, 0, SUPPLY_RESIN_AMBER, can_move=False) == TAKE
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(6, 12), 0),))
    assert act(room, 0, SUPPLY_RESIN_AMBER, can_move=False) == WAIT


def test_forage_food_then_named_ring_then_hottest_ring() -> None:
    room = room_with({0: (cell(6, 14), ())}, food=((cell(9, 14), 0),))
    assert act(room, 0, Order("forage", None, 0)) == MOVE_E
    room = room_with({0: (cell(16, 8), ())}, charges=(1, 5, 5))
    assert act(room, 0, Order("forage", None, 0)) == MOVE_N  # amber ring (16,6) above
    assert act(room, 0, Order("forage")) == MOVE_E  # beryl: highest charge, ties by vat order
    room = room_with({0: (cell(16, 6), ())})
    assert act(room, 0, Order("forage", None, 0)) == WAIT


def test_hoard_goes_home_and_drops() -> None:
    room = room_with({1: (cell(2, 6), (0,))})
    assert act(room, 1, Order("hoard", 0)) == MOVE_N  # home (2,4)
    room = room_with({1: (cell(2, 4), (0,))})
    assert act(room, 1, Order("hoard", 0)) == DROP
    # C24: a unit already on the home is loose like any other, and the nearest.
    room = room_with({1: (cell(2, 4), ())}, molecules=((cell(2, 4), 0), (cell(4, 2), 0)))
    assert act(room, 1, Order("hoard", 0)) == TAKE


def test_idle_waits() -> None:
    room = room_with({0: (cell(6, 14), ())}, molecules=((cell(6, 14), 0),))
    assert act(room, 0, Order("idle")) == WAIT


# ---- bots -------------------------------------------------------------------------------------


def _view(stocks: dict[str, tuple[int, int]], charges: dict[str, int]) -> dict[str, JSON]:
    s = ENGINE.new_game(ENGINE.ruleset({"variant": "three-cycles"}), 1)
    view = ENGINE.observe(s, 0)
    for v in map(edit, arr(view["vats"])):
        v["stock"] = list(stocks[text(v["name"])])
        v["charge"] = charges[text(v["name"])]
    return view


def test_courier_lanes_fixed_then_by_need() -> None:
    view = _view(
        {"amber": (2, 2), "beryl": (0, 1), "cobalt": (0, 0)}, {"amber": 3, "beryl": 2, "cobalt": 0}
    )
    orders = [courier_order(view, s) for s in range(8)]
    assert orders[:6] == [
        "supply resin amber",
        "supply spark amber",
        "supply spark beryl",
        "supply brine beryl",
        "supply resin cobalt",
        "supply brine cobalt",
    ]
    # Needs: amber 0,0; beryl 2,1; cobalt (cold, target 3) 3,3. Cobalt lanes first.
    assert orders[6:] == ["supply resin cobalt", "supply brine cobalt"]
    met = _view(
        {"amber": (2, 2), "beryl": (2, 3), "cobalt": (2, 2)}, {"amber": 3, "beryl": 7, "cobalt": 1}
    )
    assert {courier_order(met, s) for s in range(8)} == {"forage beryl"}


def test_courier_spares_in_two_cycles_tie_on_charge() -> None:
    s = ENGINE.new_game(ENGINE.ruleset({"variant": "two-cycles"}), 1)
    view = ENGINE.observe(s, 0)
    edit(at(view, "vats", 1))["charge"] = 1
    orders = [courier_order(view, seat) for seat in range(8)]
    assert orders[4:] == [
        "supply spark beryl",
        "supply brine beryl",
        "supply resin amber",
        "supply spark amber",
    ]


def test_freeloader() -> None:
    view = _view(
        {"amber": (0, 0), "beryl": (0, 0), "cobalt": (0, 0)}, {"amber": 3, "beryl": 4, "cobalt": 4}
    )
    assert freeloader_order(view, 3) == "forage beryl"
    cold = _view(
        {"amber": (0, 0), "beryl": (1, 0), "cobalt": (0, 0)}, {"amber": 0, "beryl": 0, "cobalt": 0}
    )
    assert freeloader_order(cold, 3) == "supply resin amber"


def test_default_move_is_the_courier_order() -> None:
    s = ENGINE.new_game(ENGINE.ruleset(), 1)
    for seat in range(8):
        expect = courier_order(ENGINE.observe(s, seat), seat)
        assert ENGINE.move_text(ENGINE.default_move(s, seat)) == expect
    ticks = ENGINE.new_game(ENGINE.ruleset({"control": "ticks"}), 1)
    assert ENGINE.move_text(ENGINE.default_move(ticks, 0)) in {"N", "E", "S", "W", "wait"}
