"""One suite over every registered engine (after OpenSpiel's random-simulation test): seeded
random playouts to the end, checking the protocol's promises at every step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogs_arena.engines import Engine, GameError, get_engine
from cogs_arena.engines.registry import _ENGINES
from cogs_arena.engines.rng import Stream

ENGINE_DIR = Path(__file__).resolve().parent.parent / "engines"
LANDED = sorted(name for name in _ENGINES if (ENGINE_DIR / name / "engine.py").exists())
SEEDS = [1, 2, 3]
MAX_STEPS = 20_000
DEFAULT_SHARE = 4
"""One step in DEFAULT_SHARE plays the seat's default move instead of a menu entry: it exercises
fallbacks and keeps point-by-point phases (Influence reinforcement) from dragging playouts out."""


def test_every_engine_folder_is_registered() -> None:
    assert "influence" in LANDED
    for name in LANDED:
        assert get_engine(name).name == name


def _check_views(engine: Engine[Any, Any], state: Any) -> None:
    for seat in range(len(engine.seat_names(state_ruleset(engine, state)))):
        view = engine.observe(state, seat)
        json.dumps(view)
        assert engine.render(view).strip()
    spectator = engine.spectate(state, full=False)
    json.dumps(spectator)
    assert engine.render(spectator).strip()


def state_ruleset(engine: Engine[Any, Any], state: Any) -> Any:
    return engine.ruleset_of(state)


ERAS: dict[str, list[dict[str, Any]]] = {
    "blending": [
        {"endgame": "last_tile", "last_tile_reshuffle": "never"},
        {"combat": "three"},
        {"combat": "three", "kill_on": "win", "heal_to": 4},
        {"combat": "legacy"},
        {"combat": "legacy", "combat_pvp": True, "damage": "difference", "escape_rule": "win"},
        {"land": "territories"},
        {"land": "territories", "guardians_tie": "full", "guarded_per_tile": 1, "merge_tax": 1},
        {"land": "territories", "combat": "three", "endgame": "last_tile"},
    ],
}
"""Rule eras a game keeps behind ruleset switches: each is played out like the defaults, with the
builder bot choosing half the moves so that its fights (rare in random play) happen too."""


def _pick(
    engine: Engine[Any, Any], state: Any, seat: int, rng: Stream, check_all: bool, bot: str = ""
) -> Any:
    menu = engine.legal_moves(state, seat)
    assert menu.moves, f"{engine.name}: seat {seat} must act but has an empty menu"
    entries = menu.moves if check_all else [rng.choice(menu.moves)]
    for entry in entries:
        move = engine.parse_move(state, seat, entry.notation)
        assert engine.move_text(move) == entry.notation, "notation must be canonical"
        again = engine.move_from_json(state, seat, json.loads(json.dumps(engine.move_json(move))))
        assert engine.move_text(again) == entry.notation, "structured form must round-trip"
    if rng.below(DEFAULT_SHARE) == 0:
        return engine.default_move(state, seat)
    if bot and rng.below(2):
        return engine.parse_move(
            state, seat, engine.bots()[bot](engine.observe(state, seat), menu, rng)
        )
    chosen = rng.choice(menu.moves)
    return engine.parse_move(state, seat, chosen.notation)


def _playout(
    name: str, seed: int, overrides: dict[str, Any] | None = None, bot: str = ""
) -> list[str]:
    engine = get_engine(name)
    ruleset = engine.ruleset(overrides)
    state = engine.new_game(ruleset, seed)
    rng = Stream(seed, "conformance")
    digests = [engine.digest(state)]
    for step in range(MAX_STEPS):
        seats = engine.to_act(state)
        if not seats:
            break
        assert engine.outcome(state) is None
        check_all = step < 3 or step % 25 == 0
        if check_all:
            _check_views(engine, state)
            restored = engine.state_from_json(json.loads(json.dumps(engine.state_to_json(state))))
            assert engine.digest(restored) == engine.digest(state)
            assert engine.to_act(restored) == seats
        before = engine.digest(state)
        if engine.simultaneous:
            moves = {seat: _pick(engine, state, seat, rng, check_all, bot) for seat in seats}
            for seat, move in moves.items():
                engine.validate(state, seat, move)
            if check_all:
                fallback = {seat: engine.default_move(state, seat) for seat in seats}
                engine.apply_batch(state, fallback)
            state_next = engine.apply_batch(state, moves)
        else:
            seat = seats[0]
            others = [s for s in range(len(engine.seat_names(ruleset))) if s != seat]
            if others and check_all:
                with pytest.raises(GameError):
                    engine.apply(state, others[0], engine.default_move(state, seat))
            move = _pick(engine, state, seat, rng, check_all, bot)
            if check_all:
                engine.apply(state, seat, engine.default_move(state, seat))
            state_next = engine.apply(state, seat, move)
        assert engine.digest(state) == before, "applying a move must not mutate the old state"
        state = state_next
        digests.append(engine.digest(state))
    else:
        pytest.fail(f"{name} seed {seed}: no end within {MAX_STEPS} steps")
    outcome = engine.outcome(state)
    assert outcome is not None
    n = len(engine.seat_names(ruleset))
    assert len(outcome.scores) == n and len(outcome.ranks) == n
    assert outcome.winners and all(outcome.ranks[w] == 1 for w in outcome.winners)
    assert outcome.reason
    json.dumps(outcome.to_json())
    _check_views(engine, state)
    json.dumps(engine.spectate(state, full=True))
    return digests


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", LANDED)
def test_random_playout(name: str, seed: int) -> None:
    first = _playout(name, seed)
    assert _playout(name, seed) == first, "the same seed and moves must give the same digests"


@pytest.mark.parametrize("seed", [2, 3])
@pytest.mark.parametrize(
    ("name", "overrides"),
    [(name, era) for name, eras in sorted(ERAS.items()) for era in eras],
    ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={w}" for k, w in v.items()),
)
def test_era_playout(name: str, overrides: dict[str, Any], seed: int) -> None:
    first = _playout(name, seed, overrides, bot="builder")
    assert _playout(name, seed, overrides, bot="builder") == first


@pytest.mark.parametrize("name", LANDED)
def test_settle_ends_the_game(name: str) -> None:
    engine = get_engine(name)
    state = engine.new_game(engine.ruleset(), 5)
    settled = engine.settle(state, "deadline")
    assert engine.to_act(settled) == ()
    outcome = engine.outcome(settled)
    assert outcome is not None and outcome.reason == "deadline"
    assert engine.to_act(state), "settle must not mutate the old state"


@pytest.mark.parametrize("name", LANDED)
def test_bots_finish_games(name: str) -> None:
    from cogs_arena.engines.runner import play_bots

    engine = get_engine(name)
    ruleset = engine.ruleset()
    seats = len(engine.seat_names(ruleset))
    assert "random" in engine.bots()
    for bot in engine.bots():
        game = play_bots(engine, ruleset, 11, [bot] * seats)
        assert game.outcome.reason
        replay = play_bots(engine, ruleset, 11, [bot] * seats)
        assert engine.digest(replay.state) == engine.digest(game.state)


@pytest.mark.parametrize("name", LANDED)
def test_bad_ruleset_key_is_rejected(name: str) -> None:
    from cogs_arena.engines import InvalidRuleset

    engine = get_engine(name)
    with pytest.raises(InvalidRuleset) as info:
        engine.ruleset({"no_such_setting": 1})
    assert "no_such_setting" in str(info.value)
