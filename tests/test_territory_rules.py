"""Territory rules: orders, costs, resolution, life, transfers and the T6/T7/T8 switches."""

from __future__ import annotations

from typing import Any

import pytest
from jsonpath import at, obj
from territory_helpers import arrange

from cogs_arena.engines import GameOver, IllegalMove, NotYourTurn
from cogs_arena.engines.territory.board import HEARTHS, KEY_INDEX, KEYS
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.state import ELIMINATED, STAGGERED, STEADY, TerritoryState

E = TerritoryEngine()
SABLE, OCHRE, VERDANT, COBALT, AMBER = 0, 1, 2, 3, 4
ASH = 8


def game(seed: int = 7, **rules: Any) -> TerritoryState:
    return E.new_game(E.ruleset(rules), seed)


def play(state: TerritoryState, orders: dict[int, str] | None = None) -> TerritoryState:
    orders = orders or {}
    moves = {s: E.parse_move(state, s, orders.get(s, "hold")) for s in E.to_act(state)}
    return E.apply_batch(state, moves)


def yield_of(state: TerritoryState, key: str) -> int:
    return state.board.yields[KEY_INDEX[key]]


def owner_of(state: TerritoryState, key: str) -> int:
    return state.owner[KEY_INDEX[key]]


def tile_state(state: TerritoryState, key: str) -> int:
    return state.tiles[KEY_INDEX[key]]


def reject_reason(state: TerritoryState, seat: int, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        E.validate(state, seat, E.parse_move(state, seat, text))
    return str(info.value)


# ---- setup ------------------------------------------------------------------------------------


def test_start_position() -> None:
    s = game()
    assert E.to_act(s) == tuple(range(9))
    for seat, h in enumerate(HEARTHS):
        assert s.owner[h] == seat and not s.wet[h]
        assert s.seats[seat].paint == 12 and s.seats[seat].banked == 0
    assert sum(1 for o in s.owner if o >= 0) == 9


# ---- claims -----------------------------------------------------------------------------------


def test_claim_cost_is_two_plus_two_d_and_reach_is_two() -> None:
    s = game()
    menu = E.legal_moves(s, SABLE)
    assert at(menu.hints, "reach", "4,0") == 4
    assert at(menu.hints, "reach", "3,0") == 6
    assert "2,0" not in obj(menu.hints["reach"])
    assert "is 3 from your nearest owned tile" in reject_reason(s, SABLE, "claim 2,0")
    after = play(s, {SABLE: "claim 4,0; claim 3,0"})
    hearth_income = yield_of(s, "5,0")
    # T5: both are priced from the pre-turn frontier, so 3,0 costs 6 although 4,0 is claimed too.
    assert after.seats[SABLE].paint == 12 - 4 - 6 + hearth_income
    assert owner_of(after, "4,0") == SABLE and owner_of(after, "3,0") == SABLE


def test_same_turn_claims_do_not_extend_reach() -> None:
    s = game()
    assert "order 3" in reject_reason(s, SABLE, "claim 4,0\nclaim 3,0\nclaim 2,0")


def test_a_seat_owning_nothing_projects_from_its_hearth_coordinate() -> None:
    s = arrange(game(), owner={"5,0": -1}, tiles={"5,0": 2})
    assert at(E.legal_moves(s, SABLE).hints, "reach", "4,0") == 4
    after = play(s, {SABLE: "claim 4,0"})
    assert owner_of(after, "4,0") == SABLE


def test_claim_rules_reject_rubble_owned_and_off_board_tiles() -> None:
    s = arrange(game(), tiles={"4,0": 2}, owner={"4,1": OCHRE})
    assert "rubble" in reject_reason(s, SABLE, "claim 4,0")
    assert "already own" in reject_reason(s, SABLE, "claim 5,0")
    assert "not on the board" in reject_reason(s, SABLE, "claim 8,0")
    rejecting = arrange(game(claim_owned_target="reject"), owner={"4,1": OCHRE})
    assert "owned by Ochre" in reject_reason(rejecting, SABLE, "claim 4,1")


def test_wet_tiles_pay_from_the_next_turn() -> None:
    s = arrange(game(seed=3, map="inside_out"), owner={"1,0": SABLE})
    # 0,0 is in the inside_out core (yield 3) and within 1 of Sable's 1,0.
    assert yield_of(s, "0,0") == 3
    t1 = play(s, {SABLE: "claim 0,0"})
    base = yield_of(s, "5,0") + 3
    assert t1.seats[SABLE].last_income == base
    assert t1.seats[SABLE].banked == base
    assert not any(t1.wet)
    t2 = play(t1)
    assert t2.seats[SABLE].last_income == base + 3
    assert t2.seats[SABLE].banked == base + base + 3


def test_smear_both_pay_and_nobody_holds_it() -> None:
    s = arrange(game(), owner={"5,-1": SABLE, "5,-2": OCHRE})
    # 4,-1 is within 1 of both seats' tiles.
    after = play(s, {SABLE: "claim 4,-1", OCHRE: "claim 4,-1"})
    assert owner_of(after, "4,-1") == -1
    assert after.reports[SABLE].smeared == (KEY_INDEX["4,-1"],)
    assert after.reports[OCHRE].smeared == (KEY_INDEX["4,-1"],)
    assert after.reports[SABLE].spent == 4 and after.reports[OCHRE].spent == 4
    assert any("smeared" in e for e in after.events)


def test_whole_set_rejection_names_the_order_and_applies_nothing() -> None:
    s = game()
    text = "claim 4,0\nclaim 0,0\nsay: hello all"
    reason = reject_reason(s, SABLE, text)
    assert "Whole set rejected" in reason and "order 2 (claim 0,0)" in reason
    after = E.apply_batch(
        s, {seat: E.parse_move(s, seat, text if seat == SABLE else "hold") for seat in range(9)}
    )
    assert owner_of(after, "4,0") == -1
    assert after.seats[SABLE].paint == 12 + yield_of(s, "5,0")
    rejected = after.reports[SABLE].rejected
    assert rejected and "order 2" in rejected
    # The talk of a rejected attempt still posts.
    assert [t.text for t in after.talk_log] == ["hello all"]


def test_budget_is_checked_against_the_whole_set() -> None:
    s = arrange(game(), paint={SABLE: 9})
    reason = reject_reason(s, SABLE, "claim 4,0; claim 3,0")
    assert "costs 10" in reason and "9 stored" in reason
    E.validate(s, SABLE, E.parse_move(s, SABLE, "claim 3,0"))


def test_order_cap_is_eight() -> None:
    s = arrange(game(), paint={SABLE: 100}, owner={"3,0": SABLE, "3,2": SABLE, "5,-2": SABLE})
    menu = E.legal_moves(s, SABLE)
    claims = [m.notation for m in menu.moves if m.kind == "claim"]
    assert len(claims) >= 9
    E.validate(s, SABLE, E.parse_move(s, SABLE, "\n".join(claims[:8])))
    assert "at most 8" in reject_reason(s, SABLE, "\n".join(claims[:9]))


def test_t7_a_seat_cannot_claim_the_same_tile_twice() -> None:
    s = game()
    assert "cannot smear itself" in reject_reason(s, SABLE, "claim 4,0; claim 4,0")


# ---- razes ------------------------------------------------------------------------------------


def test_razing_before_turn_four_is_illegal() -> None:
    s = arrange(game(), owner={"4,0": OCHRE})
    for turn in (1, 2, 3):
        assert "from turn 4" in reject_reason(arrange(s, turn=turn), SABLE, "raze 4,0")
        assert E.legal_moves(arrange(s, turn=turn), SABLE).hints["razeReach"] == {}
    s4 = arrange(s, turn=4)
    E.validate(s4, SABLE, E.parse_move(s4, SABLE, "raze 4,0"))
    after = play(s4, {SABLE: "raze 4,0"})
    assert tile_state(after, "4,0") == 1 and owner_of(after, "4,0") == -1


def _rich_tile(state: TerritoryState, near: str) -> str:
    """A tile with yield ≥ 1 within 2 of `near`, not a hearth."""
    from cogs_arena.engines.territory.board import DIST

    origin = KEY_INDEX[near]
    for j, d in enumerate(DIST[origin]):
        if 1 <= d <= 2 and state.board.yields[j] >= 1 and j not in HEARTHS:
            return KEYS[j]
    raise AssertionError("no rich tile")


def test_salvage_on_the_first_raze_of_your_own_wall_only() -> None:
    s0 = game()
    key = _rich_tile(s0, "5,0")
    y = yield_of(s0, key)
    s = arrange(s0, owner={key: SABLE}, turn=4)
    after = play(s, {SABLE: f"raze {key}"})
    assert after.reports[SABLE].salvage == 4 * y
    assert after.seats[SABLE].salvage == 4 * y
    income = after.seats[SABLE].last_income
    assert after.seats[SABLE].banked == income + 4 * y
    assert after.seats[SABLE].paint == 12 - 5 + income + 4 * y
    # Re-claim the cracked tile and raze it again: no salvage (it is no longer a wall).
    again = play(after, {SABLE: f"claim {key}"})
    assert owner_of(again, key) == SABLE
    third = play(again, {SABLE: f"raze {key}"})
    assert third.reports[SABLE].salvage == 0
    assert tile_state(third, key) == 2


def test_razing_a_rivals_wall_pays_no_salvage() -> None:
    s0 = game()
    key = _rich_tile(s0, "5,0")
    s = arrange(s0, owner={key: OCHRE}, turn=4)
    after = play(s, {SABLE: f"raze {key}"})
    assert after.reports[SABLE].salvage == 0 and after.reports[OCHRE].salvage == 0
    assert after.reports[OCHRE].razed_against == ((KEY_INDEX[key], SABLE),)


def test_two_razes_make_rubble_and_rubble_is_dead() -> None:
    s = arrange(game(), owner={"5,-1": OCHRE, "4,-1": SABLE, "4,-2": OCHRE}, turn=4)
    # 4,0 is unowned and within reach of both.
    after = play(s, {SABLE: "raze 4,0", OCHRE: "raze 4,0"})
    assert tile_state(after, "4,0") == 2
    assert "rubble" in reject_reason(after, SABLE, "claim 4,0")
    assert "4,0" not in obj(E.legal_moves(after, SABLE).hints["razeReach"])
    # T7: one seat's two razes on one tile also make rubble.
    solo = play(s, {SABLE: "raze 3,0; raze 3,0"})
    assert tile_state(solo, "3,0") == 2
    assert solo.reports[SABLE].spent == 10


def test_raze_surcharge_near_a_living_hearth() -> None:
    s = arrange(game(), owner={"5,-1": SABLE}, turn=4, paint={SABLE: 30})
    reach = obj(E.legal_moves(s, SABLE).hints["razeReach"])
    assert reach["5,-2"] == 10  # next to Ochre's hearth 5,-3
    assert reach["5,-3"] == 10  # Ochre's hearth itself
    assert reach["4,0"] == 5  # Sable's own ring is not surcharged
    assert reach["4,-1"] == 5
    dead = arrange(s, life={OCHRE: ELIMINATED})
    assert at(E.legal_moves(dead, SABLE).hints, "razeReach", "5,-2") == 5
    after = play(s, {SABLE: "raze 5,-2"})
    assert after.reports[SABLE].spent == 10


# ---- life -------------------------------------------------------------------------------------


def _siege() -> TerritoryState:
    """Ochre owns its whole home ring; Sable owns 5,-1 (within 2 of it) and has paint to spare."""
    ring = ["5,-2", "4,-2", "4,-3", "5,-4", "6,-4", "6,-3"]
    return arrange(
        game(),
        owner={**dict.fromkeys(ring, OCHRE), "5,-1": SABLE},
        paint={SABLE: 60},
        turn=4,
    )


def test_steady_staggered_eliminated() -> None:
    s = _siege()
    t4 = play(s, {SABLE: "raze 5,-2"})
    assert t4.seats[OCHRE].life == STAGGERED and t4.seats[OCHRE].struck
    assert t4.reports[OCHRE].struck_by == (SABLE,)
    score_before = t4.seats[OCHRE].banked
    t5 = play(t4, {SABLE: "raze 4,-2"})
    assert t5.seats[OCHRE].life == ELIMINATED
    assert t5.seats[OCHRE].paint == 0
    assert OCHRE not in E.to_act(t5)
    assert all(o != OCHRE for o in t5.owner)
    # It banks that turn's income before freezing.
    assert t5.seats[OCHRE].banked == score_before + t5.seats[OCHRE].last_income
    t6 = play(t5)
    assert t6.seats[OCHRE].banked == t5.seats[OCHRE].banked
    with pytest.raises(NotYourTurn):
        E.legal_moves(t6, OCHRE)


def test_a_quiet_turn_restores_steady() -> None:
    s = _siege()
    t4 = play(s, {SABLE: "raze 5,-2"})
    t5 = play(t4)
    assert t5.seats[OCHRE].life == STEADY
    t6 = play(t5, {SABLE: "raze 4,-2"})
    assert t6.seats[OCHRE].life == STAGGERED


def test_what_is_not_a_strike() -> None:
    s = _siege()
    # Razing an unowned tile in the ring, or your own ring, is no strike.
    s = arrange(s, owner={"5,-2": -1})
    t = play(s, {SABLE: "raze 5,-2", OCHRE: "raze 4,-3"})
    assert t.seats[OCHRE].life == STEADY


def test_elimination_ends_the_game_when_one_seat_is_left() -> None:
    s = _siege()
    others = {seat: ELIMINATED for seat in range(2, 9)}
    s = arrange(s, life={**others, OCHRE: STAGGERED})
    assert E.to_act(s) == (SABLE, OCHRE)
    after = play(s, {SABLE: "raze 5,-2"})
    outcome = E.outcome(after)
    assert outcome is not None and outcome.reason == "elimination"
    assert E.to_act(after) == ()
    with pytest.raises(GameOver):
        E.legal_moves(after, SABLE)


def test_complete_after_eighteen_turns_and_scores_are_income_plus_salvage() -> None:
    s = game()
    for _ in range(18):
        assert E.outcome(s) is None
        s = play(s)
    outcome = E.outcome(s)
    assert outcome is not None and outcome.reason == "complete"
    hearth = [s.board.yields[h] for h in HEARTHS]
    assert list(outcome.scores) == [18.0 * y for y in hearth]


# ---- transfers ----------------------------------------------------------------------------------


def test_transfers_land_next_turn_and_are_not_score() -> None:
    s = game()
    after = play(s, {SABLE: "transfer Ochre 5"})
    ochre_income = yield_of(s, "5,-3")
    assert after.seats[SABLE].paint == 12 - 6 + yield_of(s, "5,0")
    assert after.seats[OCHRE].paint == 12 + 5 + ochre_income
    assert after.seats[OCHRE].banked == ochre_income
    assert after.reports[OCHRE].transfers_in == ((SABLE, 5),)


def test_affordability_ignores_incoming_money() -> None:
    s = arrange(game(), paint={OCHRE: 3})
    moves = {seat: E.parse_move(s, seat, "hold") for seat in range(9)}
    moves[SABLE] = E.parse_move(s, SABLE, "transfer Ochre 10")
    moves[OCHRE] = E.parse_move(s, OCHRE, "claim 4,-3")
    assert "3 stored" in reject_reason(s, OCHRE, "claim 4,-3")
    after = E.apply_batch(s, moves)
    assert after.reports[OCHRE].rejected is not None
    assert owner_of(after, "4,-3") == -1
    assert after.seats[OCHRE].paint == 3 + 10 + yield_of(s, "5,-3")


def test_transfer_legality() -> None:
    s = arrange(game(), life={ASH: ELIMINATED})
    assert "yourself" in reject_reason(s, SABLE, "transfer Sable 1")
    assert "eliminated" in reject_reason(s, SABLE, "transfer Ash 1")
    assert "≥ 1" in reject_reason(s, SABLE, "transfer Ochre 0")
    assert "13" in reject_reason(s, SABLE, "transfer Ochre 12")


# ---- T6 and T8 switches -------------------------------------------------------------------------


def _t6_position(mode: str) -> TerritoryState:
    return arrange(
        game(claim_owned_target=mode),
        owner={"4,0": OCHRE, "4,-1": OCHRE},
        turn=4,
    )


def test_t6_void_claim_on_a_tile_freed_by_a_same_turn_raze() -> None:
    s = _t6_position("void")
    # Ochre razes its own 4,0; Sable claims it in the same turn and gets it (cracked).
    after = play(s, {OCHRE: "raze 4,0", SABLE: "claim 4,0"})
    assert owner_of(after, "4,0") == SABLE and tile_state(after, "4,0") == 1
    # A claim on a tile that is still owned after the razes is void, and paid.
    still = play(s, {SABLE: "claim 4,-1"})
    assert owner_of(still, "4,-1") == OCHRE
    assert still.reports[SABLE].voided == (KEY_INDEX["4,-1"],)
    assert still.reports[SABLE].spent == 6  # distance 2 from 5,0
    # One seat may raze and claim the same tile in one set.
    own = play(s, {SABLE: "raze 4,-1; claim 4,-1"})
    assert owner_of(own, "4,-1") == SABLE


def test_t6_reject_switch_follows_the_reference() -> None:
    s = _t6_position("reject")
    assert "owned by Ochre" in reject_reason(s, SABLE, "claim 4,0")
    after = play(s, {OCHRE: "raze 4,0", SABLE: "claim 4,0"})
    assert owner_of(after, "4,0") == -1
    assert after.reports[SABLE].rejected is not None


def _t8_salvage(mode: str) -> TerritoryState:
    s0 = game(raze_order=mode)
    key = _rich_tile(s0, "5,-1")
    s = arrange(s0, owner={key: OCHRE, "5,-1": SABLE, "5,-2": OCHRE}, turn=4)
    return play(s, {SABLE: f"raze {key}", OCHRE: f"raze {key}"})


def test_t8_simultaneous_gives_salvage_to_the_razing_owner() -> None:
    after = _t8_salvage("simultaneous")
    assert after.reports[OCHRE].salvage > 0
    assert after.reports[SABLE].salvage == 0


def test_t8_seat_order_lets_the_lower_seat_crack_it_first() -> None:
    after = _t8_salvage("seat")
    assert after.reports[OCHRE].salvage == 0


def _t8_strikes(mode: str) -> TerritoryState:
    s = arrange(
        game(raze_order=mode),
        owner={"5,-2": OCHRE, "5,-1": SABLE, "4,-3": VERDANT},
        tiles={"5,-2": 1},
        paint={SABLE: 30, VERDANT: 30},
        turn=4,
    )
    return play(s, {SABLE: "raze 5,-2", VERDANT: "raze 5,-2"})


def test_t8_simultaneous_counts_every_razer_as_a_striker() -> None:
    after = _t8_strikes("simultaneous")
    assert after.reports[OCHRE].struck_by == (SABLE, VERDANT)
    assert tile_state(after, "5,-2") == 2


def test_t8_seat_order_counts_only_razes_that_land() -> None:
    after = _t8_strikes("seat")
    assert after.reports[OCHRE].struck_by == (SABLE,)
    assert tile_state(after, "5,-2") == 2
    # Both are charged either way.
    assert after.reports[VERDANT].spent == 10


# ---- host-facing behaviour ----------------------------------------------------------------------


def test_apply_batch_needs_every_living_seat() -> None:
    s = game()
    with pytest.raises(IllegalMove):
        E.apply_batch(s, {SABLE: E.parse_move(s, SABLE, "hold")})


def test_settle_scores_as_it_stands() -> None:
    s = play(game())
    settled = E.settle(s, "deadline")
    outcome = E.outcome(settled)
    assert outcome is not None and outcome.reason == "deadline"
    assert list(outcome.scores) == [float(x.banked) for x in s.seats]


def test_state_json_round_trip_mid_game() -> None:
    s = _siege()
    s = play(s, {SABLE: "raze 5,-2\nsay Ash: psst\nnote: plan", OCHRE: "claim 4,-1"})
    back = E.state_from_json(E.state_to_json(s))
    assert back == s and E.digest(back) == E.digest(s)
