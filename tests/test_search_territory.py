"""Territory's search bot: legal sets only, its observation only, repeatable for a seed, and
within its work budget (rollouts) at every level."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from jsonpath import num, obj

from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots
from cogs_arena.engines.territory import search
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.state import SeatReport, TalkLine, TerritoryState

E = TerritoryEngine()
LEVELS = ["search", "search:1", "search:2", "search:3", "search:4"]


@cache
def _positions() -> tuple[tuple[TerritoryState, int], ...]:
    """Mid-game states of a mixed bot game at several turns, each with a seat to decide."""
    out = []
    for seed, turns in ((2, (1, 5, 11)), (9, (4, 17))):
        bots = ["homesteader", "raider", "diplomat", "settler", "random"] * 2
        game = play_bots(E, E.ruleset(), seed, bots[:9])
        state = E.new_game(E.ruleset(), seed)
        for t, batch in enumerate(game.batches, 1):
            if t in turns:
                out.append((state, (seed + t) % 9))
            state = E.apply_batch(state, {s: E.parse_move(state, s, x) for s, x in batch.items()})
    return tuple(out)


def _decide(bot: str, state: TerritoryState, seat: int, seed: int = 1) -> str:
    obs = E.observe(state, seat)
    return E.bots()[bot](obs, E.legal_moves(state, seat), Stream(seed, "search-test"))


def test_every_level_sends_legal_sets() -> None:
    """Each level's answer parses and validates against the real state (no set rejected)."""
    for state, seat in _positions():
        for bot in ("search:1", "search:2"):
            move = E.parse_move(state, seat, _decide(bot, state, seat))
            E.validate(state, seat, move)
    state, seat = _positions()[3]
    E.validate(state, seat, E.parse_move(state, seat, _decide("search:4", state, seat)))


def _hidden_changed(state: TerritoryState, seat: int) -> TerritoryState:
    """The same state but for what `seat` cannot see: the others' paint, their reports, a
    private line between two other seats, and another seat's queued talk."""
    others = [s for s in range(9) if s != seat]
    seats = list(state.seats)
    for s in others:
        seats[s] = replace(seats[s], paint=seats[s].paint + 17 * (s % 3) + 3)
    reports = tuple(
        p if i == seat else SeatReport(p.turn, income=p.income + 1, smeared=(5,))
        for i, p in enumerate(state.reports)
    )
    a, b = others[0], others[1]
    line = TalkLine(state.turn - 1, a, b, "a secret between two others")
    return replace(
        state,
        seats=tuple(seats),
        reports=reports,
        talk_log=(*state.talk_log, line) if state.turn > 1 else state.talk_log,
        pending_talk=(TalkLine(state.turn, b, None, "queued, not posted yet"),),
    )


def test_same_decision_from_states_differing_only_in_what_the_seat_cannot_see() -> None:
    """The seat's observation of both states is the same, and so is each level's decision."""
    for state, seat in _positions()[1:4]:
        other = _hidden_changed(state, seat)
        assert E.observe(other, seat) == E.observe(state, seat)
        assert [s.paint for s in other.seats] != [s.paint for s in state.seats]
        for bot in ("search:1", "search:3"):
            assert _decide(bot, other, seat) == _decide(bot, state, seat)


def test_one_seed_repeats_the_decision() -> None:
    """Same observation and seed → same text; the stream is the only source of chance."""
    state, seat = _positions()[2]
    assert _decide("search:2", state, seat, 5) == _decide("search:2", state, seat, 5)


def test_work_stays_within_each_levels_budget() -> None:
    """plan() counts its rollouts: never more than the level's budget, and it does use them."""
    state, seat = _positions()[1]
    obs = E.observe(state, seat)
    for n, level in search.LEVELS.items():
        result = search.plan(obs, Stream(3, "budget"), level)
        assert 0 < result.rollouts <= level.rollouts, n
        assert result.text in result.values
    assert search.LEVELS[1].rollouts < search.LEVELS[4].rollouts
    assert set(LEVELS) <= set(E.bots())


def test_razes_its_own_walls_for_salvage_on_the_last_turn() -> None:
    """On the last turn a wall pays one more income but razing it pays four times its yield as
    salvage, so with paint to spare the search razes its own richest wall."""
    state, seat = _positions()[4]
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], paint=40)
    last = replace(state, turn=state.ruleset.turns, seats=tuple(seats))
    obs = E.observe(last, seat)
    salvage = {key: num(value) for key, value in obj(obs["razeSalvage"]).items()}
    assert any(v > 0 for v in salvage.values())
    move = E.parse_move(last, seat, _decide("search:1", last, seat))
    razed = {o.key for o in move.orders if o.kind == "raze"}
    assert razed and all(salvage.get(k, 0) > 0 for k in razed)
