"""Chemistry whole games: every variant with couriers, replay by digest, the frame record, the
views, and a conformance-style playout of the per-tick (`control: ticks`) mode."""

from __future__ import annotations

import json

import pytest
from jsonpath import arr, num, obj, objs

from cogs_arena.engines import GameError
from cogs_arena.engines.canonical import canonical_json
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.frames import decode
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots

ENGINE = ChemistryEngine()
VARIANTS = [
    "two-cycles",
    "two-cycles-distractors",
    "three-cycles",
    "three-cycles-plentiful-distractors",
]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_to_the_end_with_couriers(variant: str) -> None:
    game = play_bots(ENGINE, ENGINE.ruleset({"variant": variant}), 3, ["courier"] * 8)
    out = game.outcome
    assert out.reason == "complete" and out.details["ending"] == "shift_limit"
    assert game.state.tick == 720 and out.details["shifts"] == 12
    assert num(out.details["food_eaten"]) > 0 and num(out.details["reactions"]) > 0
    assert out.details["food_eaten"] == sum(out.scores)
    assert out.details["misdrops"] == 0
    made = out.details["food_made"]
    eaten, rotted = num(out.details["food_eaten"]), num(out.details["food_rotted"])
    assert made == eaten + rotted + len(game.state.food)


@pytest.mark.parametrize("bot", ["freeloader", "random"])
def test_other_bots_finish(bot: str) -> None:
    game = play_bots(ENGINE, ENGINE.ruleset(), 4, [bot] * 4 + ["courier"] * 4)
    assert game.outcome.reason == "complete"


def test_mixed_room_replays_from_its_transcript() -> None:
    rs = ENGINE.ruleset({"variant": "three-cycles"})
    game = play_bots(ENGINE, rs, 9, ["courier", "random", "freeloader", "courier"] * 2)
    state = ENGINE.new_game(rs, 9)
    digests = [ENGINE.digest(state)]
    for batch in game.batches:
        texts = json.loads(json.dumps({str(k): v for k, v in batch.items()}))
        moves = {int(k): ENGINE.parse_move(state, int(k), t) for k, t in texts.items()}
        state = ENGINE.apply_batch(state, moves)
        digests.append(ENGINE.digest(state))
    assert digests[-1] == ENGINE.digest(game.state)
    assert len(set(digests)) == len(digests)
    restored = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
    assert ENGINE.digest(restored) == digests[-1]


def test_frame_record_is_small_and_rebuilds_the_room() -> None:
    game = play_bots(ENGINE, ENGINE.ruleset(), 1, ["courier"] * 8)
    record = ENGINE.frames(game.state)
    assert len(record["ticks"]) == 720
    assert len(canonical_json(record).encode()) < 100_000
    rooms = decode(json.loads(json.dumps(record)))
    last = rooms[-1]
    s = game.state
    assert [c for c, _ in last["cogs"]] == [g.cell for g in s.cogs]
    assert [h for _, h in last["cogs"]] == [g.hand for g in s.cogs]
    assert sorted(last["molecules"].items()) == list(s.molecules)
    assert sorted(last["food"].items()) == list(s.food)
    assert [last["charges"][v.vat] for v in s.vats] == [v.charge for v in s.vats]
    assert [last["stocks"][v.vat] for v in s.vats] == [v.stock for v in s.vats]
    assert last["eaten"] == list(s.counters.eaten)


def test_views_and_shift_report() -> None:
    rs = ENGINE.ruleset()
    state = ENGINE.new_game(rs, 2)
    bots = ENGINE.bots()
    for decision in range(3):
        moves = {}
        for seat in range(8):
            text = bots["courier"](
                ENGINE.observe(state, seat),
                ENGINE.legal_moves(state, seat),
                Stream(2, f"{decision}"),
            )
            moves[seat] = ENGINE.parse_move(state, seat, text)
        state = ENGINE.apply_batch(state, moves)
    view = ENGINE.observe(state, 4)
    json.dumps(view)
    assert view["tick"] == 180 and view["shift"] == 3 and len(arr(view["menu"])) == 25
    rep = obj(view["report"])
    assert rep["ticks"] == [121, 180]
    assert set(rep) >= {"eaten", "deliveries", "misdrops", "reactions", "charges", "cold_events"}
    assert sum(num(d["units"]) for d in objs(rep["deliveries"])) > 0
    text = ENGINE.render(view)
    assert (
        "You are seat 4 (Ember)" in text
        and "amber" in text
        and "Last report (ticks 121-180)" in text
    )
    grid = [line for line in text.splitlines() if line[:3].strip().isdigit() and line[3] == "#"]
    assert len(grid) == 18 and all(len(line) == 35 for line in grid)
    spectator = ENGINE.render(ENGINE.spectate(state, full=False))
    assert "You are seat" not in spectator and "Cogs" in spectator


def test_game_over_refuses_moves() -> None:
    state = ENGINE.settle(ENGINE.new_game(ENGINE.ruleset(), 1), "deadline")
    assert ENGINE.to_act(state) == ()
    with pytest.raises(GameError):
        ENGINE.legal_moves(state, 0)
    assert ENGINE.observe(state, 0)["menu"] == []


def test_ticks_control_conformance_playout() -> None:
    """The conformance suite's checks, over a whole `control: ticks` game of random actions."""
    rs = ENGINE.ruleset({"control": "ticks", "shifts": 4, "ticks_per_shift": 30})
    state = ENGINE.new_game(rs, 6)
    rng = Stream(6, "conformance")
    steps = 0
    while ENGINE.to_act(state):
        seats = ENGINE.to_act(state)
        assert ENGINE.outcome(state) is None
        check = steps % 10 == 0
        if check:
            for seat in seats:
                json.dumps(ENGINE.observe(state, seat))
                assert ENGINE.render(ENGINE.observe(state, seat)).strip()
            restored = ENGINE.state_from_json(json.loads(json.dumps(ENGINE.state_to_json(state))))
            assert ENGINE.digest(restored) == ENGINE.digest(state)
        moves = {}
        for seat in seats:
            menu = ENGINE.legal_moves(state, seat)
            for entry in menu.moves if check else ():
                move = ENGINE.parse_move(state, seat, entry.notation)
                assert ENGINE.move_text(move) == entry.notation
                again = ENGINE.move_from_json(
                    state, seat, json.loads(json.dumps(ENGINE.move_json(move)))
                )
                assert again == move
            moves[seat] = ENGINE.parse_move(state, seat, rng.choice(menu.moves).notation)
            ENGINE.validate(state, seat, moves[seat])
        before = ENGINE.digest(state)
        if check:
            ENGINE.apply_batch(state, {s: ENGINE.default_move(state, s) for s in seats})
        nxt = ENGINE.apply_batch(state, moves)
        assert ENGINE.digest(state) == before
        state = nxt
        steps += 1
    assert steps == 120
    out = ENGINE.outcome(state)
    assert out is not None and out.reason == "complete" and len(out.scores) == 8
    json.dumps(ENGINE.spectate(state, full=True))


def test_ticks_control_couriers_match_the_orders_mode() -> None:
    """Courier bots stepping every tick walk the same kernel, so they make food too."""
    rs = ENGINE.ruleset({"control": "ticks", "shifts": 2})
    game = play_bots(ENGINE, rs, 1, ["courier"] * 8)
    assert game.state.tick == 120 and num(game.outcome.details["delivered"]) > 0
    assert num(game.outcome.details["reactions"]) > 0
