"""The mended Territory bots: the settler (a homesteader that stops the smear loop) and the
diplomat's answers to talk addressed to it."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from jsonpath import arr, at

from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots
from cogs_arena.engines.territory.board import KEY_INDEX, KEYS
from cogs_arena.engines.territory.bots import ANSWER, ANSWER_OWED
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.state import ELIMINATED, TerritoryState

E = TerritoryEngine()
SABLE, OCHRE = 0, 1


def _claims(state: TerritoryState, seat: int, bot: str) -> set[str]:
    text = E.bots()[bot](E.observe(state, seat), E.legal_moves(state, seat), Stream(0, "t"))
    return {o.key for o in E.parse_move(state, seat, text).orders if o.kind == "claim"}


@cache
def _smear_loop() -> tuple[TerritoryState, int, int, str]:
    """The first turn, among nine homesteaders, after which two of them smeared a tile: the
    state after it, the two seats and the tile."""
    for seed in range(40):
        game = play_bots(E, E.ruleset(), seed, ["homesteader"] * 9)
        state = E.new_game(E.ruleset(), seed)
        for batch in game.batches:
            state = E.apply_batch(state, {s: E.parse_move(state, s, t) for s, t in batch.items()})
            for seat, report in enumerate(state.reports):
                for tile in report.smeared:
                    other = next(
                        s for s, p in enumerate(state.reports) if s != seat and tile in p.smeared
                    )
                    if state.owner[tile] < 0 and KEYS[tile] in _claims(state, seat, "homesteader"):
                        return state, seat, other, KEYS[tile]
    raise AssertionError("no smear among homesteaders in 40 seeds")


def test_settler_leaves_a_tile_smeared_last_turn_while_its_rival_can_claim_it() -> None:
    """The homesteader claims the tile it smeared again (the loop, kept as the reference has
    it); the settler in the same seat does not."""
    state, seat, _, key = _smear_loop()
    assert key in _claims(state, seat, "homesteader")
    settler = _claims(state, seat, "settler")
    assert key not in settler
    assert arr(at(E.observe(state, seat), "reachDetail", key))[3]  # the rival can still claim it


def test_settler_claims_the_tile_again_once_something_changed() -> None:
    """When the seat it smeared with can no longer claim the tile (here: it was eliminated and
    its walls reverted), the settler claims the tile as the homesteader would."""
    state, seat, other, key = _smear_loop()
    seats = list(state.seats)
    seats[other] = replace(seats[other], life=ELIMINATED, paint=0)
    owner = tuple(-1 if o == other else o for o in state.owner)
    changed = replace(state, seats=tuple(seats), owner=owner)
    rivals = arr(arr(at(E.observe(changed, seat), "reachDetail", key))[3])
    assert E.observe(state, other)["alias"] not in rivals
    assert key in _claims(changed, seat, "settler")
    assert key in _claims(changed, seat, "homesteader")


def _after_line_to_sable(state: TerritoryState) -> TerritoryState:
    state = E.talk(state, OCHRE, "Sable, will you leave my east side alone?", (SABLE,))
    moves = {s: E.parse_move(state, s, "hold") for s in E.to_act(state)}
    return E.apply_batch(state, moves)


def _diplomat_talk(state: TerritoryState) -> list[tuple[int | None, str]]:
    text = E.bots()["diplomat"](
        E.observe(state, SABLE), E.legal_moves(state, SABLE), Stream(0, "t")
    )
    return [(t.to, t.text) for t in E.parse_move(state, SABLE, text).talk]


def test_diplomat_answers_a_private_line_with_its_policy() -> None:
    """A seat that wrote to the diplomat privately gets one private answer: its standing policy
    (ANSWER), and no answer goes to a seat that did not write."""
    state = _after_line_to_sable(E.new_game(E.ruleset(), 7))
    talk = _diplomat_talk(state)
    assert (OCHRE, ANSWER) in talk
    assert [to for to, _ in talk if to is not None] == [OCHRE]
    quiet = E.apply_batch(
        E.new_game(E.ruleset(), 7),
        {s: E.parse_move(E.new_game(E.ruleset(), 7), s, "hold") for s in range(9)},
    )
    assert all(to is None for to, _ in _diplomat_talk(quiet))


def test_diplomat_tells_a_seat_that_razed_it_what_it_owes() -> None:
    """A seat that razed the diplomat and then wrote to it gets ANSWER_OWED."""
    s = E.new_game(E.ruleset(), 7)
    owner = list(s.owner)
    for key, seat in {"5,-1": SABLE, "4,-1": OCHRE, "5,-2": OCHRE, "4,0": SABLE}.items():
        owner[KEY_INDEX[key]] = seat
    seats = list(s.seats)
    seats[SABLE] = replace(seats[SABLE], paint=30)
    s = replace(s, owner=tuple(owner), seats=tuple(seats), turn=4)
    s = E.talk(s, OCHRE, "Sorry about that.", (SABLE,))
    moves = {x: E.parse_move(s, x, "raze 4,0" if x == OCHRE else "hold") for x in E.to_act(s)}
    s = E.apply_batch(s, moves)
    assert (OCHRE, ANSWER_OWED) in _diplomat_talk(s)
