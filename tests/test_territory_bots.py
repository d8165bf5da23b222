"""Territory bots: strength against random, the diplomat's tit-for-tat, and replayable games."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots
from cogs_arena.engines.territory.board import KEY_INDEX
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.state import TerritoryState

E = TerritoryEngine()
SABLE, OCHRE = 0, 1
GAMES = 100


def _mixed(bot: str, game: int) -> list[str]:
    """Seats alternate between `bot` and random, starting with the bot on even games."""
    return [bot if (seat + game) % 2 == 0 else "random" for seat in range(9)]


def _wins(bot: str) -> int:
    ruleset = E.ruleset()
    wins = 0
    for game in range(GAMES):
        seats = _mixed(bot, game)
        result = play_bots(E, ruleset, game, seats)
        mine = [s for i, s in enumerate(result.outcome.scores) if seats[i] == bot]
        theirs = [s for i, s in enumerate(result.outcome.scores) if seats[i] == "random"]
        if sum(mine) / len(mine) > sum(theirs) / len(theirs):
            wins += 1
    return wins


@pytest.mark.slow
def test_homesteader_beats_random_by_mean_score() -> None:
    assert _wins("homesteader") >= 90


@pytest.mark.slow
def test_raider_beats_random_by_mean_score() -> None:
    assert _wins("raider") >= 90


def _bot_move(state: TerritoryState, seat: int, bot: str) -> str:
    return E.bots()[bot](E.observe(state, seat), E.legal_moves(state, seat), Stream(0, "t"))


def _resolve(state: TerritoryState, texts: dict[int, str]) -> TerritoryState:
    moves = {s: E.parse_move(state, s, texts.get(s, "hold")) for s in E.to_act(state)}
    return E.apply_batch(state, moves)


def test_diplomat_proposes_non_aggression_in_public() -> None:
    s = E.new_game(E.ruleset(), 7)
    move = E.parse_move(s, SABLE, _bot_move(s, SABLE, "diplomat"))
    assert move.talk and move.talk[0].to is None
    assert "non-aggression" in move.talk[0].text
    assert all(o.kind == "claim" for o in move.orders)


def test_diplomats_keep_the_peace_with_each_other() -> None:
    game = play_bots(E, E.ruleset(), 5, ["diplomat"] * 9)
    assert all(seat.razes == 0 for seat in game.state.seats)
    assert game.outcome.reason == "complete"
    # Among homesteaders, who never raze, a diplomat never razes first either.
    mixed = play_bots(E, E.ruleset(), 6, ["diplomat"] + ["homesteader"] * 8)
    assert mixed.state.seats[SABLE].razes == 0


def _razed_by_ochre() -> TerritoryState:
    """Turn 5: Ochre razed one of Sable's walls on turn 4; Sable can reach Ochre's 5,-2."""
    s = E.new_game(E.ruleset(), 7)
    owner = list(s.owner)
    for key, seat in {"5,-1": SABLE, "4,-1": OCHRE, "5,-2": OCHRE, "4,0": SABLE}.items():
        owner[KEY_INDEX[key]] = seat
    seats = list(s.seats)
    seats[SABLE] = replace(seats[SABLE], paint=30)
    s = replace(s, owner=tuple(owner), seats=tuple(seats), turn=4)
    return _resolve(s, {OCHRE: "raze 4,0"})


def test_diplomat_retaliates_against_a_seat_that_razed_it() -> None:
    s = _razed_by_ochre()
    assert E.observe(s, SABLE)["razedYou"] == [{"turn": 4, "by": "Ochre", "tile": "4,0"}]
    move = E.parse_move(s, SABLE, _bot_move(s, SABLE, "diplomat"))
    razes = [o for o in move.orders if o.kind == "raze"]
    assert len(razes) == 1 and s.owner[KEY_INDEX[razes[0].key]] == OCHRE
    assert any(t.to is None and "Ochre razed" in t.text for t in move.talk)
    assert any(t.to == OCHRE for t in move.talk)
    # One raze answers one raze: once even, the diplomat is back at peace with Ochre.
    after = E.apply_batch(
        s, {seat: move if seat == SABLE else E.parse_move(s, seat, "hold") for seat in E.to_act(s)}
    )
    calm = E.parse_move(after, SABLE, _bot_move(after, SABLE, "diplomat"))
    assert not any(o.kind == "raze" for o in calm.orders)


def test_diplomat_leaves_other_seats_alone_while_retaliating() -> None:
    s = _razed_by_ochre()
    move = E.parse_move(s, SABLE, _bot_move(s, SABLE, "diplomat"))
    for o in move.orders:
        if o.kind == "raze":
            assert s.owner[KEY_INDEX[o.key]] == OCHRE


def test_nine_bot_game_replays_from_its_transcript() -> None:
    bots = ["homesteader", "raider", "diplomat", "random"] * 2 + ["raider"]
    game = play_bots(E, E.ruleset(), 11, bots)
    transcript = json.loads(json.dumps({"seed": 11, "batches": game.batches}))
    state = E.new_game(E.ruleset(), transcript["seed"])
    digests = [E.digest(state)]
    for batch in transcript["batches"]:
        moves = {int(seat): E.parse_move(state, int(seat), text) for seat, text in batch.items()}
        state = E.apply_batch(state, moves)
        digests.append(E.digest(state))
        restored = E.state_from_json(json.loads(json.dumps(E.state_to_json(state))))
        assert E.digest(restored) == digests[-1]
    assert digests[-1] == E.digest(game.state)
    assert len(game.batches) == 18
    again = play_bots(E, E.ruleset(), 11, bots)
    assert [E.digest(again.state)] == [digests[-1]]
    assert any(seat.razes for seat in game.state.seats)


def test_bots_only_send_legal_sets() -> None:
    # The search levels play whole games too slowly for this loop; test_search_territory.py
    # checks their sets over positions instead.
    for bot in (b for b in E.bots() if not b.startswith("search")):
        state = E.new_game(E.ruleset(), 3)
        decision = 0
        while E.to_act(state):
            moves = {}
            for seat in E.to_act(state):
                text = E.bots()[bot](
                    E.observe(state, seat),
                    E.legal_moves(state, seat),
                    Stream(3, f"bot/{seat}/{decision}"),
                )
                moves[seat] = E.parse_move(state, seat, text)
                E.validate(state, seat, moves[seat])
                assert E.move_text(moves[seat]) == text
            state = E.apply_batch(state, moves)
            decision += 1
