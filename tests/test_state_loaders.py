"""Territory's, Chemistry's and Blending's `state_from_json`: a stored state loads back to the same
state, and a value of another type where the loader expects an integer, a flag or a text (`true`,
`1.0`, `"3"` for an integer: a bool is an int in Python and `int()` took the others; Blending's
loader took every value as it was) is refused with a TypeError naming where it is, instead of
becoming part of a game."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from cogs_arena.engines.blending.engine import BlendingEngine
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.runner import play_bots
from cogs_arena.engines.territory.engine import TerritoryEngine

TERRITORY = TerritoryEngine()
CHEMISTRY = ChemistryEngine()
ENGINES = {"territory": TERRITORY, "chemistry": CHEMISTRY}


def _stored(game: str) -> dict[str, Any]:
    """A mid-game state (half a bot game's batches played) as the store holds it: JSON text."""
    engine: Any = ENGINES[game]
    if game == "territory":
        bots = ["homesteader", "raider", "diplomat", "random"] * 2 + ["raider"]
    else:
        bots = ["courier"] * 8
    batches = play_bots(engine, engine.ruleset(), 11, bots).batches
    state = engine.new_game(engine.ruleset(), 11)
    for batch in batches[: len(batches) // 2]:
        state = engine.apply_batch(
            state, {seat: engine.parse_move(state, seat, text) for seat, text in batch.items()}
        )
    data: dict[str, Any] = json.loads(json.dumps(engine.state_to_json(state)))
    assert data["ended"] is None, "the fixture is a game still running"
    return data


STORED = {game: _stored(game) for game in ENGINES}


def _replaced(
    stored: dict[str, Any], name: str, path: tuple[str | int, ...], value: object
) -> dict[str, Any]:
    """A copy of the stored state `name` with the value at `path` replaced (the path must be
    there)."""
    data = copy.deepcopy(stored)
    inner: Any = data
    for step in path[:-1]:
        inner = inner[step]
    last = path[-1]
    there = last in inner if isinstance(last, str) else last < len(inner)
    assert there, f"no {path} in the {name} fixture"
    inner[last] = value
    return data


def _with(game: str, path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    return _replaced(STORED[game], game, path, value)


@pytest.mark.parametrize("game", ENGINES)
def test_a_stored_state_loads_back_to_the_same_state(game: str) -> None:
    """The loader reads every table it checks (razes and reports, trips and vats are there) and
    gives back the state whose JSON and digest are the stored ones."""
    engine: Any = ENGINES[game]
    data = STORED[game]
    state = engine.state_from_json(data)
    assert json.loads(json.dumps(engine.state_to_json(state))) == data
    again = engine.state_from_json(engine.state_to_json(state))
    assert engine.digest(again) == engine.digest(state)


INTEGER_PLACES: list[tuple[str, tuple[str | int, ...], str]] = [
    ("territory", ("turn",), "turn"),
    ("territory", ("pool_start",), "pool_start"),
    ("territory", ("tiles", 5), "tiles"),
    ("territory", ("owner", 0), "owner"),
    ("territory", ("claimed_turn", 7), "claimed_turn"),
    ("territory", ("seats", 2, 1), "seats"),
    ("territory", ("razes", 0, 2), "razes"),
    ("territory", ("talk_log", 0, 0), "talk_log"),
    ("territory", ("reports", 0, "salvage"), "reports: salvage"),
    ("territory", ("reports", 0, "razed_against"), "reports: razed_against"),
    ("chemistry", ("tick",), "tick"),
    ("chemistry", ("cogs", 1, 0), "cogs"),
    ("chemistry", ("cogs", 1, 1), "cogs"),
    ("chemistry", ("molecules", 0, 1), "molecules"),
    ("chemistry", ("food", 0, 0), "food"),
    ("chemistry", ("vats", 0, 1), "vats"),
    ("chemistry", ("vats", 0, 2, 1), "vats"),
    ("chemistry", ("counters", "eaten", 3), "counters: eaten"),
    ("chemistry", ("counters", "reactions"), "counters: reactions"),
    ("chemistry", ("report", "rotted"), "report: rotted"),
    ("chemistry", ("report", "charges", 0, 2), "report: charges"),
    ("chemistry", ("report", "trips", 3, 1), "report: trips"),
]


@pytest.mark.parametrize(
    ("bad", "found"),
    [(True, "boolean True"), (1.0, "number 1.0"), ("3", "string")],
    ids=["true", "1.0", "string"],
)
@pytest.mark.parametrize(("game", "path", "where"), INTEGER_PLACES)
def test_an_integer_field_refuses_true_a_float_and_a_string(
    game: str, path: tuple[str | int, ...], where: str, bad: object, found: str
) -> None:
    """`int()` took `true` as 1, `1.0` as 1 and `"3"` as 3; the loader now refuses each, the
    message naming the game, the field and what it found (in place of a whole array too)."""
    engine: Any = ENGINES[game]
    data = _with(game, path, bad)
    with pytest.raises(TypeError, match=rf"^{game} state: {where}: expected .*, found {found}$"):
        engine.state_from_json(data)


@pytest.mark.parametrize(
    ("game", "path", "bad", "where"),
    [
        ("territory", ("wet", 0), 1, "wet: expected true or false, found number 1"),
        ("territory", ("seats", 0, 3), 0, "seats: expected true or false, found number 0"),
        ("territory", ("events", 0), 3, "events: expected a string, found number 3"),
        ("territory", ("talk_log", 0, 3), None, "talk_log: expected a string, found null"),
        ("territory", ("ended",), 1, "ended: expected a string, found number 1"),
        ("chemistry", ("seed",), True, "seed: expected an integer, found boolean True"),
        ("chemistry", ("frames", 0), None, "frames: expected a string, found null"),
        ("chemistry", ("notes", 0), False, "notes: expected a string, found boolean False"),
        ("chemistry", ("ending",), 0, "ending: expected a string, found number 0"),
        ("chemistry", ("molecules", 0), [1, 2, 3], "molecules: expected an array of 2 values"),
        ("chemistry", ("counters",), [], "counters: expected a JSON object, found array"),
    ],
)
def test_a_flag_a_text_or_a_row_of_another_shape_is_refused(
    game: str, path: tuple[str | int, ...], bad: object, where: str
) -> None:
    """`bool(1)`, `str(3)` and a row of three for a pair were taken before; not now."""
    engine: Any = ENGINES[game]
    with pytest.raises(TypeError) as caught:
        engine.state_from_json(_with(game, path, bad))
    assert str(caught.value).startswith(f"{game} state: {where}")


@pytest.mark.parametrize("game", ENGINES)
def test_a_missing_field_is_named(game: str) -> None:
    """A state without a field it needs says which (it was a bare KeyError)."""
    engine: Any = ENGINES[game]
    data = copy.deepcopy(STORED[game])
    del data["frames" if game == "chemistry" else "owner"]
    with pytest.raises(TypeError, match=rf"^{game} state: (frames|owner): missing$"):
        engine.state_from_json(data)


def test_a_territory_tile_array_of_another_length_is_refused() -> None:
    """One owner per tile: a shorter array loaded and failed later, far from the cause."""
    data = STORED["territory"]
    short = {**data, "owner": data["owner"][:-1]}
    with pytest.raises(ValueError, match=r"owner must hold one entry per tile \(169\)"):
        TERRITORY.state_from_json(short)


# ---- Blending --------------------------------------------------------------------------------

BLENDING = BlendingEngine()


def _blending(rules: BlendingRules, mid: Callable[[State], bool]) -> dict[str, Any]:
    """A state of a builders' game as the store holds it: the first past half-way where `mid`
    holds (a fight with tiles laid, a Three Strikes commitment, a legacy duel)."""
    moves = play_bots(BLENDING, rules, 11, ["builder"] * 4).moves
    state = BLENDING.new_game(rules, 11)
    for i, (seat, move) in enumerate(moves):
        state = BLENDING.apply(state, seat, BLENDING.parse_move(state, seat, move))
        if i >= len(moves) // 2 and mid(state):
            data: dict[str, Any] = json.loads(json.dumps(BLENDING.state_to_json(state)))
            return data
    raise AssertionError("the builders' game never reached the state the fixture needs")


BLENDED = {
    "match": _blending(BLENDING.ruleset(), lambda s: s.fight is not None and bool(s.fight.laid)),
    "three": _blending(
        BlendingRules(combat="three"), lambda s: s.strike is not None and bool(s.strike.laid)
    ),
    "legacy": _blending(BlendingRules(combat="legacy"), lambda s: s.duel is not None),
}


def _blended_with(era: str, path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    return _replaced(BLENDED[era], era, path, value)


def _blended_plus(era: str, path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    """As `_blended_with`, but a top-level key the fixture leaves out (an era's) may be added."""
    if len(path) == 1 and path[0] not in BLENDED[era]:
        return {**copy.deepcopy(BLENDED[era]), str(path[0]): value}
    return _blended_with(era, path, value)


@pytest.mark.parametrize("era", BLENDED)
def test_a_stored_blending_state_loads_back_to_the_same_state(era: str) -> None:
    """Mid-game Blending states (a fight with tiles laid, a Three Strikes commitment with each
    guardian's kinds, a legacy duel) load back to the state whose JSON and digest are stored."""
    data = BLENDED[era]
    assert data["ended"] == "", "the fixture is a game still running"
    state = BLENDING.state_from_json(data)
    assert json.loads(json.dumps(BLENDING.state_to_json(state))) == data
    again = BLENDING.state_from_json(BLENDING.state_to_json(state))
    assert BLENDING.digest(again) == BLENDING.digest(state)


def _a_square(era: str, table: str) -> str:
    return str(next(iter(BLENDED[era][table])))


BLENDING_INTEGER_PLACES: list[tuple[str, tuple[str | int, ...], str]] = [
    ("match", ("seat",), "seat"),
    ("match", ("round",), "round"),
    ("match", ("next_gid",), "next_gid"),
    ("match", ("moves_left",), "moves_left"),
    ("match", ("flip_counter",), "flip_counter"),
    ("match", ("stock", 0), "stock"),
    ("match", ("hands", 1, 0), "hands"),
    ("match", ("reserve", 0, 0), "reserve"),
    ("match", ("squares", _a_square("match", "squares")), "squares"),
    ("match", ("stacks", _a_square("match", "stacks"), 0), "stacks"),
    ("match", ("blends", _a_square("match", "blends"), 1), "blends"),
    ("match", ("heroes", 2, 1), "heroes"),
    ("match", ("pick_at", 0), "pick_at"),
    ("match", ("guardians", 0, "gid"), "guardians: gid"),
    ("match", ("guardians", 0, "at", 1), "guardians: at"),
    ("match", ("guardians", 0, "pile", 0, 0), "guardians: pile"),
    ("match", ("fight", "gid"), "fight: gid"),
    ("match", ("fight", "row", 0), "fight: row"),
    ("match", ("fight", "laid", 0, 2), "fight: laid"),
    ("match", ("fight", "passes"), "fight: passes"),
    ("match", ("stats", "kills"), "stats: kills"),
    ("match", ("stats", "round_scores", 0, 1), "stats: round_scores"),
    ("three", ("strike", "gid"), "strike: gid"),
    ("three", ("strike", "laid", 0, 1), "strike: laid"),
    ("three", ("guardians", 0, "kinds", 0, 1), "guardians: kinds"),
    ("legacy", ("duel", "damage"), "duel: damage"),
    ("legacy", ("duel", "next"), "duel: next"),
]


@pytest.mark.parametrize(
    ("bad", "found"),
    [(True, "boolean True"), (1.0, "number 1.0"), ("3", "string")],
    ids=["true", "1.0", "string"],
)
@pytest.mark.parametrize(("era", "path", "where"), BLENDING_INTEGER_PLACES)
def test_a_blending_integer_field_refuses_true_a_float_and_a_string(
    era: str, path: tuple[str | int, ...], where: str, bad: object, found: str
) -> None:
    """The loader passed these values through unchecked (`true` for a count loaded as-is); now
    each is refused, the message naming the field, nested records by their path."""
    data = _blended_with(era, path, bad)
    with pytest.raises(TypeError, match=rf"^blending state: {where}: expected .*, found {found}$"):
        BLENDING.state_from_json(data)


@pytest.mark.parametrize(
    ("era", "path", "bad", "where"),
    [
        ("match", ("seed",), True, "seed: expected an integer, found boolean True"),
        ("match", ("phase",), 1, "phase: expected a string, found number 1"),
        ("match", ("mode",), None, "mode: expected a string, found null"),
        ("match", ("walks", 0), 2, "walks: expected a string, found number 2"),
        ("match", ("log", 0), False, "log: expected a string, found boolean False"),
        ("match", ("faces", 3), "MFX", "faces: expected four of the letters MFP, found 'MFX'"),
        ("match", ("guardians", 0, "pile", 0, 1), 1, "guardians: pile: expected true or false"),
        ("match", ("fight", "pending_loss"), 0, "fight: pending_loss: expected true or false"),
        ("match", ("fight", "results"), "x", "fight: results: expected a JSON array"),
        ("match", ("heroes", 0), [1, 2, 3], "heroes: expected an array of 2 values, found 3"),
        ("match", ("stats",), [], "stats: expected a JSON object, found array"),
        ("match", ("last_round",), 1, "last_round: expected true or false, found number 1"),
        ("legacy", ("duel", "escape"), 0, "duel: escape: expected true or false, found number 0"),
        ("legacy", ("duel", "results", 0), 5, "duel: results: expected a string, found number 5"),
    ],
)
def test_a_blending_flag_a_text_or_a_row_of_another_shape_is_refused(
    era: str, path: tuple[str | int, ...], bad: object, where: str
) -> None:
    """A number for a flag, a number or null for a text, a face that is not one, a row of
    three for a pair: each loaded as-is before (or failed far from its cause)."""
    with pytest.raises(TypeError) as caught:
        BLENDING.state_from_json(_blended_plus(era, path, bad))
    assert str(caught.value).startswith(f"blending state: {where}")


def test_a_blending_square_key_that_is_not_one_is_named() -> None:
    """A square key other than `x,y` was a bare ValueError from `int()`."""
    data = copy.deepcopy(BLENDED["match"])
    data["squares"]["a,b"] = 0
    with pytest.raises(TypeError, match=r"^blending state: squares: expected a square 'x,y'"):
        BLENDING.state_from_json(data)


def test_a_missing_blending_field_is_named() -> None:
    """A state without a field it needs says which (it was a bare KeyError)."""
    data = copy.deepcopy(BLENDED["match"])
    del data["fight"]["passes"]
    with pytest.raises(TypeError, match=r"^blending state: fight: passes: missing$"):
        BLENDING.state_from_json(data)
