"""Chemistry's `search` bots: legal orders, from the observation only, repeatable, within
their budget, and the head-to-head target beside a freeloader and six couriers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.engines.chemistry import search
from cogs_arena.engines.chemistry.bots import courier_order
from cogs_arena.engines.chemistry.seeded import courier_seeded_order
from cogs_arena.engines.chemistry.state import ChemState
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots, seat_bots

E = get_engine("chemistry")
LEVELS = sorted(search.LEVELS)


def _positions(variant: str | None = None) -> list[ChemState]:
    """The state at each shift boundary of a courier-seeded game with a freeloader."""
    ruleset = E.ruleset({"variant": variant} if variant else {})
    state = E.new_game(ruleset, 3)
    bots = E.bots()
    names = ["freeloader", *["courier-seeded"] * 7]
    out = []
    shift = 0
    while E.to_act(state):
        out.append(state)
        moves = {}
        for seat in range(8):
            view = E.observe(state, seat)
            text = bots[names[seat]](view, E.legal_moves(state, seat), Stream(3, f"{seat}/{shift}"))
            moves[seat] = E.parse_move(state, seat, text)
        state = E.apply_batch(state, moves)
        shift += 1
    return out


def test_orders_are_legal_and_within_the_budget() -> None:
    """Every level's order at every shift (two variants, two seats) is accepted by the engine,
    and its rollouts are one per candidate and sample, at most the level's budget."""
    for variant in (None, "two-cycles"):
        for state in _positions(variant)[::3]:
            for seat in (0, 5):
                view = E.observe(state, seat)
                for level in LEVELS:
                    work = search.Work()
                    text = search.decide(view, level, Stream(1, "t"), work)
                    E.validate(state, seat, E.parse_move(state, seat, text))
                    assert text in work.candidates
                    lv = search.LEVELS[level]
                    assert work.rollouts == lv.samples * len(work.candidates)
                    assert work.rollouts <= lv.budget(search.MAX_CANDIDATES)
                    assert work.rollouts <= work.shifts <= work.rollouts * lv.horizon


def test_other_seats_notes_do_not_change_the_decision() -> None:
    """The other seats' private notes are in the state but not in the seat's view: changing
    them leaves the order as it was, for one seed."""
    for state in _positions()[1:12:4]:
        other = replace(state, notes=tuple("" if s == 2 else f"plan {s}" for s in range(8)))
        assert other.notes != state.notes
        for level in (1, 3):
            a = search.decide(E.observe(state, 2), level, Stream(7, "n"))
            b = search.decide(E.observe(other, 2), level, Stream(7, "n"))
            assert a == b


def test_same_seed_same_order() -> None:
    """Two streams of one seed give one order (nothing global is drawn)."""
    for state in _positions()[2:12:5]:
        view = E.observe(state, 4)
        assert search.decide(view, 2, Stream(5, "s")) == search.decide(view, 2, Stream(5, "s"))


def test_search_is_registered_and_answers_an_action_under_tick_control() -> None:
    """`search` and `search:1..4` are bots; under `control: ticks` each answers a menu action."""
    bots = E.bots()
    assert {"search", *(f"search:{k}" for k in LEVELS)} <= set(bots)
    state = E.new_game(E.ruleset({"control": "ticks"}), 0)
    menu = E.legal_moves(state, 1)
    assert bots["search:4"](E.observe(state, 1), menu, Stream(0, "t")) in {
        m.notation for m in menu.moves
    }


@pytest.mark.slow
def test_top_level_out_eats_the_freeloader_beside_six_couriers() -> None:
    """search:4 beside a freeloader and six couriers, seats rotated over 16 games, eats more
    than the freeloader in more games than the freeloader eats more than it, and more food in
    all. (The issue's 70% target is measured over 40 games by
    benchmarks/h2h_search_chemistry.py and among seeded couriers by the ladder.)"""
    base = ["search:4", "freeloader", *["courier"] * 6]
    more = less = 0
    mine = theirs = 0.0
    for game in range(16):
        bots = seat_bots(base, game, True)
        scores = play_bots(E, E.ruleset(), game, bots).outcome.scores
        a, b = scores[bots.index("search:4")], scores[bots.index("freeloader")]
        more += a > b
        less += a < b
        mine += a
        theirs += b
    assert more > less and mine > theirs, (more, less, mine, theirs)


def test_a_seat_only_a_seeded_courier_explains_is_played_as_one() -> None:
    """A seat whose last order the plain bots would not give but a seeded courier could (a lane
    of tied need drawn out of lane order) is played in the samples as a seeded courier: its
    orders spread over the tied lanes instead of repeating the plain courier's one."""
    state = E.new_game(E.ruleset(), 1)
    view: dict[str, Any] = dict(E.observe(state, 0))
    plain = courier_order(view, 6)
    drawn = {courier_seeded_order(view, 6, Stream(k, "probe")) for k in range(40)}
    other = sorted(drawn - {plain})[0]
    view["orders"] = [
        {**entry, "order": other if entry["seat"] == 6 else None} for entry in view["orders"]
    ]
    rng = Stream(2, "samples")
    orders = set()
    for _ in range(40):
        rule = search._sample_rules(view, 0, rng)[6]
        assert rule is not None
        orders.add(rule(view, 6))
    assert len(orders) > 1 and orders <= drawn, (plain, orders, drawn)
