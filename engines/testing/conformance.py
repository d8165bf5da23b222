"""`check_engine`: OpenSpiel's random-simulation test for this protocol. Every check raises
`ConformanceFailure` (not `assert`, which `python -O` strips) naming the engine, seed and step."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..errors import GameError, InvalidRuleset
from ..protocol import LazyLegalMoves, Ruleset, SequentialEngine, SimultaneousEngine
from ..registry import AnyEngine
from ..rng import Stream

MAX_STEPS = 20_000
DEFAULT_SHARE = 4
"""One step in DEFAULT_SHARE plays the seat's default move instead of a menu entry: it exercises
fallbacks and keeps point-by-point phases (Influence reinforcement) from dragging playouts out."""


class ConformanceFailure(AssertionError):
    """A promise of the protocol an engine broke."""


@dataclass
class ConformanceReport:
    engine: str
    overrides: dict[str, Any]
    seeds: list[int] = field(default_factory=list)
    steps: int = 0
    """Transitions played over all seeds (each playout is played twice; counted once)."""
    bots: list[str] = field(default_factory=list)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceFailure(message)


def check_engine(
    engine: AnyEngine,
    *,
    seeds: Sequence[int] = (1, 2, 3),
    overrides: Mapping[str, Any] | None = None,
    bot: str = "",
    bots: bool | Sequence[str] = True,
) -> ConformanceReport:
    """Checks the engine derives from the base of its kind (`SequentialEngine` or
    `SimultaneousEngine`), then plays each seed out twice with seeded random moves (and `bot`'s
    choices for half of them, where named) and checks: canonical notation, structured and state
    JSON round trips, digests stable and equal for the same seed, old states never mutated,
    moves out of turn refused, views and the spectator's view JSON and rendered, a well-formed
    outcome, `settle`, a bad ruleset key and a foreign ruleset refused, and (with `bots`) every
    bot finishing a game the same way twice from the observation alone."""
    _check_base(engine)
    report = ConformanceReport(engine.name, dict(overrides or {}))
    for seed in seeds:
        first = _playout(engine, seed, overrides, bot)
        _require(
            _playout(engine, seed, overrides, bot) == first,
            f"{engine.name} seed {seed}: the same seed and moves must give the same digests",
        )
        report.seeds.append(seed)
        report.steps += len(first) - 1
    _check_settle(engine, overrides)
    _check_bad_ruleset(engine)
    _check_foreign_ruleset(engine)
    if bots:
        report.bots = _check_bots(engine, overrides, None if bots is True else list(bots))
    return report


def _where(engine: AnyEngine, seed: int, step: int) -> str:
    return f"{engine.name} seed {seed} step {step}"


def _check_views(engine: AnyEngine, state: Any, where: str) -> None:
    for seat in range(len(engine.seat_names(engine.ruleset_of(state)))):
        view = engine.observe(state, seat)
        json.dumps(view)
        _require(bool(engine.render(view).strip()), f"{where}: seat {seat}'s view renders empty")
    spectator = engine.spectate(state, full=False)
    json.dumps(spectator)
    _require(bool(engine.render(spectator).strip()), f"{where}: the spectator's view is empty")


def _pick(
    engine: AnyEngine,
    state: Any,
    seat: int,
    rng: Stream,
    check_all: bool,
    bot: str,
    where: str,
) -> Any:
    menu = engine.legal_moves(state, seat)
    _require(bool(menu.moves), f"{where}: seat {seat} must act but has an empty menu")
    entries = menu.moves if check_all else [rng.choice(menu.moves)]
    for entry in entries:
        move = engine.parse_move(state, seat, entry.notation)
        _require(
            engine.move_text(move) == entry.notation,
            f"{where}: notation {entry.notation!r} is not canonical ({engine.move_text(move)!r})",
        )
        again = engine.move_from_json(state, seat, json.loads(json.dumps(engine.move_json(move))))
        _require(
            engine.move_text(again) == entry.notation,
            f"{where}: the structured form of {entry.notation!r} does not round-trip",
        )
    if rng.below(DEFAULT_SHARE) == 0:
        return engine.default_move(state, seat)
    if bot and rng.below(2):
        return engine.parse_move(
            state, seat, engine.bots()[bot](engine.observe(state, seat), menu, rng)
        )
    return engine.parse_move(state, seat, rng.choice(menu.moves).notation)


def _playout(
    engine: AnyEngine, seed: int, overrides: Mapping[str, Any] | None, bot: str
) -> list[str]:
    ruleset = engine.ruleset(dict(overrides or {}))
    state = engine.new_game(ruleset, seed)
    rng = Stream(seed, "conformance")
    digests = [engine.digest(state)]
    for step in range(MAX_STEPS):
        where = _where(engine, seed, step)
        seats = engine.to_act(state)
        if not seats:
            break
        _require(engine.outcome(state) is None, f"{where}: seats to act, but an outcome")
        check_all = step < 3 or step % 25 == 0
        if check_all:
            _check_views(engine, state, where)
            restored = engine.state_from_json(json.loads(json.dumps(engine.state_to_json(state))))
            _require(
                engine.digest(restored) == engine.digest(state),
                f"{where}: the state's JSON does not round-trip to the same digest",
            )
            _require(engine.to_act(restored) == seats, f"{where}: a restored state's turn differs")
        before = engine.digest(state)
        if engine.simultaneous:
            moves = {seat: _pick(engine, state, seat, rng, check_all, bot, where) for seat in seats}
            for seat, move in moves.items():
                engine.validate(state, seat, move)
            if check_all:
                engine.apply_batch(
                    state, {seat: engine.default_move(state, seat) for seat in seats}
                )
            following = engine.apply_batch(state, moves)
        else:
            seat = seats[0]
            others = [s for s in range(len(engine.seat_names(ruleset))) if s != seat]
            if others and check_all:
                _check_out_of_turn(engine, state, others[0], seat, where)
            move = _pick(engine, state, seat, rng, check_all, bot, where)
            if check_all:
                engine.apply(state, seat, engine.default_move(state, seat))
                _require(engine.digest(state) == before, f"{where}: applying mutated the state")
            following = engine.apply(state, seat, move)
        _require(engine.digest(state) == before, f"{where}: applying mutated the state")
        state = following
        digests.append(engine.digest(state))
    else:
        raise ConformanceFailure(f"{engine.name} seed {seed}: no end within {MAX_STEPS} steps")
    _check_outcome(engine, state, len(engine.seat_names(ruleset)), f"{engine.name} seed {seed}")
    return digests


def _check_out_of_turn(engine: AnyEngine, state: Any, other: int, seat: int, where: str) -> None:
    try:
        engine.apply(state, other, engine.default_move(state, seat))
    except GameError:
        return
    raise ConformanceFailure(f"{where}: seat {other} moved out of turn and it was applied")


def _check_outcome(engine: AnyEngine, state: Any, seats: int, where: str) -> None:
    outcome = engine.outcome(state)
    _require(outcome is not None, f"{where}: nobody to act, but no outcome")
    assert outcome is not None  # for the type checker; _require raised otherwise
    _require(
        len(outcome.scores) == seats and len(outcome.ranks) == seats,
        f"{where}: the outcome needs a score and a rank per seat",
    )
    _require(
        bool(outcome.winners) and all(outcome.ranks[w] == 1 for w in outcome.winners),
        f"{where}: every winner must rank first",
    )
    _require(bool(outcome.reason), f"{where}: the outcome needs a reason")
    json.dumps(outcome.to_json())
    _check_views(engine, state, f"{where} (over)")
    json.dumps(engine.spectate(state, full=True))


def _check_settle(engine: AnyEngine, overrides: Mapping[str, Any] | None) -> None:
    state = engine.new_game(engine.ruleset(dict(overrides or {})), 5)
    settled = engine.settle(state, "deadline")
    _require(engine.to_act(settled) == (), f"{engine.name}: a settled game has seats to act")
    outcome = engine.outcome(settled)
    _require(
        outcome is not None and outcome.reason == "deadline",
        f"{engine.name}: settle must end the game with its reason",
    )
    _require(bool(engine.to_act(state)), f"{engine.name}: settle mutated the old state")


def _check_base(engine: AnyEngine) -> None:
    """The engine derives from the base of its kind, so its required transitions are abstract
    there (a game that forgot one cannot be built) and `simultaneous` says which it is."""
    base = SimultaneousEngine if engine.simultaneous else SequentialEngine
    _require(
        isinstance(engine, base),
        f"{engine.name}: a {'simultaneous' if engine.simultaneous else 'sequential'} game must "
        f"derive from {base.__name__}",
    )


def _check_bad_ruleset(engine: AnyEngine) -> None:
    try:
        engine.ruleset({"no_such_setting": 1})
    except InvalidRuleset as exc:
        _require("no_such_setting" in str(exc), f"{engine.name}: the refusal must name the key")
        return
    raise ConformanceFailure(f"{engine.name}: an unknown ruleset key was accepted")


class _Foreign(Ruleset):
    """A ruleset of no game: what a host would pass by mixing up two games' rulesets."""


def _check_foreign_ruleset(engine: AnyEngine) -> None:
    """Every entry point that takes a ruleset refuses another class's with InvalidRuleset."""
    foreign = _Foreign()
    calls: dict[str, Callable[[], object]] = {
        "new_game": lambda: engine.new_game(foreign, 1),
        "seat_names": lambda: engine.seat_names(foreign),
        "default_seat": lambda: engine.default_seat(foreign, 1),
        "era_text": lambda: engine.era_text("text", foreign),
    }
    for entry, call in calls.items():
        try:
            call()
        except InvalidRuleset:
            continue
        raise ConformanceFailure(f"{engine.name}: {entry} accepted a foreign ruleset")


def _check_bots(
    engine: AnyEngine, overrides: Mapping[str, Any] | None, only: list[str] | None = None
) -> list[str]:
    """Every bot (or those named in `only`) plays a whole game from observations and lazy menus
    only, the same way twice."""
    ruleset = engine.ruleset(dict(overrides or {}))
    seats = len(engine.seat_names(ruleset))
    table = engine.bots()
    _require("random" in table, f"{engine.name}: every game has a `random` bot")
    unknown = sorted(set(only or ()) - set(table))
    _require(not unknown, f"{engine.name}: no bots named {unknown}")
    for name in table if only is None else only:
        first = _bot_game(engine, ruleset, [name] * seats)
        _require(
            first == _bot_game(engine, ruleset, [name] * seats),
            f"{engine.name}: bot {name!r} played the same seed two ways",
        )
    return sorted(table if only is None else only)


def _bot_game(engine: AnyEngine, ruleset: Any, bots: Sequence[str]) -> str:
    table = engine.bots()
    state = engine.new_game(ruleset, 11)
    for decision in range(MAX_STEPS):
        seats = engine.to_act(state)
        if not seats:
            return engine.digest(state)
        chosen = {}
        for seat in seats:
            menu = LazyLegalMoves(partial(engine.legal_moves, state, seat))
            rng = Stream(11, f"bot/{seat}/{decision}")
            chosen[seat] = engine.parse_move(
                state, seat, table[bots[seat]](engine.observe(state, seat), menu, rng)
            )
        if engine.simultaneous:
            state = engine.apply_batch(state, chosen)
        else:
            (seat,) = seats
            state = engine.apply(state, seat, chosen[seat])
    raise ConformanceFailure(f"{engine.name}: bots {list(bots)} did not finish")
