"""The frozen game state, the shift report and their JSON forms."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from ..jsonread import (
    arr,
    field,
    fixed,
    int_tuple,
    ints,
    maybe,
    num,
    obj,
    pairs,
    table,
    text,
    texts,
    triples,
)
from ..protocol import JSON
from .moves import Action, Move, Order, move_json, order_from_json
from .ruleset import ChemistryRuleset


@dataclass(frozen=True)
class Cog:
    cell: int
    hand: tuple[int, ...] = ()
    timer: int = 0


@dataclass(frozen=True)
class Vat:
    vat: int
    charge: int
    stock: tuple[int, int] = (0, 0)
    cooldown: int = 0
    last_deliverer: int | None = None


@dataclass(frozen=True)
class Counters:
    eaten: tuple[int, ...]
    delivered: tuple[int, ...]
    misdrops: tuple[int, ...]
    hoarded: tuple[int, ...]
    reactions: int = 0
    food_made: int = 0
    food_rotted: int = 0
    food_spoiled: int = 0
    cold_starts: int = 0
    cold_events: int = 0


@dataclass(frozen=True)
class Trip:
    """What one cog did during a batch, for the seat's own line of the report."""

    start: int
    """cell at the start of the batch (the end cell is the cog's cell in the state)"""
    steps: int
    blocked: int
    """move attempts that failed against a wall or another cog"""
    hand_start: tuple[int, ...]
    taken: tuple[int, ...]
    """units taken, by species index"""
    floor_drops: int
    """drops off every pad and off the seat's home (a wrong molecule set down)"""


def trip_to_json(t: Trip) -> list[Any]:
    return [t.start, t.steps, t.blocked, list(t.hand_start), list(t.taken), t.floor_drops]


def trip_from_json(d: JSON) -> Trip:
    start, steps, blocked, hand, taken, floor = fixed(d, 6)
    return Trip(num(start), num(steps), num(blocked), int_tuple(hand), int_tuple(taken), num(floor))


@dataclass(frozen=True)
class Report:
    """What happened during the last batch (a shift, or one tick under `control: ticks`)."""

    first_tick: int
    last_tick: int
    eaten: tuple[int, ...]
    deliveries: tuple[tuple[int, int, int, int], ...]
    """(seat, vat, species, units)"""
    misdrops: tuple[tuple[int, int, int, int], ...]
    """(seat, vat, species, units)"""
    hoarded: tuple[int, ...]
    reactions: tuple[tuple[int, int, int, int], ...]
    """(vat, reactions, food placed, food spoiled)"""
    cold_starts: tuple[tuple[int, int, int], ...]
    """(vat, tick, last deliverer or -1)"""
    cold_events: tuple[tuple[int, int], ...]
    """(vat, tick)"""
    charges: tuple[tuple[int, int, int], ...]
    """(vat, charge before, charge after)"""
    rotted: int
    trips: tuple[Trip, ...] = ()
    """one per seat, in slot order (empty in reports stored before trips were kept)"""


@dataclass(frozen=True)
class ChemState:
    ruleset: ChemistryRuleset
    seed: int | str
    tick: int
    shifts_done: int
    cogs: tuple[Cog, ...]
    molecules: tuple[tuple[int, int], ...]
    """(cell, species), sorted by cell; at most one per cell."""
    food: tuple[tuple[int, int], ...]
    """(cell, age), sorted by cell; at most one per cell."""
    vats: tuple[Vat, ...]
    last: tuple[Move | None, ...]
    """Each seat's move of the last batch: the order in force, or the last raw action."""
    notes: tuple[str, ...]
    counters: Counters
    cold_streak: int = 0
    ended: str | None = None
    """None while the game runs; else the outcome reason (complete, deadline, forfeit)."""
    ending: str | None = None
    report: Report | None = None
    frames: tuple[str, ...] = ()
    """One delta-encoded record per tick played (see frames.py)."""


def _move_to_json(move: Move | None) -> Any:
    return None if move is None else move_json(move)


def _move_from_json(data: Any) -> Move | None:
    if data is None:
        return None
    if "action" in data:
        from .moves import action_from_json

        return action_from_json(data)
    return order_from_json(data)


def report_to_json(r: Report) -> dict[str, JSON]:
    return {
        "first_tick": r.first_tick,
        "last_tick": r.last_tick,
        "eaten": list(r.eaten),
        "deliveries": [list(x) for x in r.deliveries],
        "misdrops": [list(x) for x in r.misdrops],
        "hoarded": list(r.hoarded),
        "reactions": [list(x) for x in r.reactions],
        "cold_starts": [list(x) for x in r.cold_starts],
        "cold_events": [list(x) for x in r.cold_events],
        "charges": [list(x) for x in r.charges],
        "rotted": r.rotted,
        "trips": [trip_to_json(t) for t in r.trips],
    }


def _t4(rows: JSON) -> tuple[tuple[int, int, int, int], ...]:
    return cast("tuple[tuple[int, int, int, int], ...]", tuple(table(rows, 4)))


def _trips(v: JSON) -> tuple[Trip, ...]:
    return tuple(trip_from_json(t) for t in arr(v))


def report_from_json(d: JSON) -> Report:
    return Report(
        first_tick=field(d, "first_tick", num),
        last_tick=field(d, "last_tick", num),
        eaten=field(d, "eaten", int_tuple),
        deliveries=field(d, "deliveries", _t4),
        misdrops=field(d, "misdrops", _t4),
        hoarded=field(d, "hoarded", int_tuple),
        reactions=field(d, "reactions", _t4),
        cold_starts=field(d, "cold_starts", triples),
        cold_events=field(d, "cold_events", pairs),
        charges=field(d, "charges", triples),
        rotted=field(d, "rotted", num),
        # A report stored before trips were kept has none.
        trips=field(d, "trips", _trips) if "trips" in obj(d) else (),
    )


def state_to_json(s: ChemState) -> dict[str, JSON]:
    c = s.counters
    return {
        "ruleset": s.ruleset.model_dump(mode="json"),
        "seed": s.seed,
        "tick": s.tick,
        "shifts_done": s.shifts_done,
        "cogs": [[g.cell, list(g.hand), g.timer] for g in s.cogs],
        "molecules": [list(m) for m in s.molecules],
        "food": [list(f) for f in s.food],
        "vats": [[v.vat, v.charge, list(v.stock), v.cooldown, v.last_deliverer] for v in s.vats],
        "last": [_move_to_json(m) for m in s.last],
        "notes": list(s.notes),
        "counters": {
            "eaten": list(c.eaten),
            "delivered": list(c.delivered),
            "misdrops": list(c.misdrops),
            "hoarded": list(c.hoarded),
            "reactions": c.reactions,
            "food_made": c.food_made,
            "food_rotted": c.food_rotted,
            "food_spoiled": c.food_spoiled,
            "cold_starts": c.cold_starts,
            "cold_events": c.cold_events,
        },
        "cold_streak": s.cold_streak,
        "ended": s.ended,
        "ending": s.ending,
        "report": None if s.report is None else report_to_json(s.report),
        "frames": list(s.frames),
    }


def _cog_from(v: JSON) -> Cog:
    cell, hand, timer = fixed(v, 3)
    return Cog(num(cell), int_tuple(hand), num(timer))


def _vat_from(v: JSON) -> Vat:
    vat, charge, stock, cooldown, last = fixed(v, 5)
    a, b = ints(fixed(stock, 2))
    return Vat(num(vat), num(charge), (a, b), num(cooldown), maybe(num)(last))


def _counters_from(c: JSON) -> Counters:
    return Counters(
        eaten=field(c, "eaten", int_tuple),
        delivered=field(c, "delivered", int_tuple),
        misdrops=field(c, "misdrops", int_tuple),
        hoarded=field(c, "hoarded", int_tuple),
        reactions=field(c, "reactions", num),
        food_made=field(c, "food_made", num),
        food_rotted=field(c, "food_rotted", num),
        food_spoiled=field(c, "food_spoiled", num),
        cold_starts=field(c, "cold_starts", num),
        cold_events=field(c, "cold_events", num),
    )


def _seed(v: JSON) -> int | str:
    if isinstance(v, str):
        return v
    return num(v)


def state_from_json(d: Mapping[str, JSON]) -> ChemState:
    """The state `state_to_json` wrote; a value of another type anywhere (`true` or `1.0` for an
    integer, a number for a text) is refused with a TypeError naming where it is."""
    ruleset = ChemistryRuleset.model_validate(d["ruleset"])
    try:
        return ChemState(
            ruleset=ruleset,
            seed=field(d, "seed", _seed),
            tick=field(d, "tick", num),
            shifts_done=field(d, "shifts_done", num),
            cogs=field(d, "cogs", lambda v: tuple(_cog_from(g) for g in arr(v))),
            molecules=field(d, "molecules", pairs),
            food=field(d, "food", pairs),
            vats=field(d, "vats", lambda v: tuple(_vat_from(x) for x in arr(v))),
            last=tuple(_move_from_json(m) for m in field(d, "last", arr)),
            notes=tuple(field(d, "notes", texts)),
            counters=field(d, "counters", _counters_from),
            cold_streak=field(d, "cold_streak", num),
            ended=field(d, "ended", maybe(text)),
            ending=field(d, "ending", maybe(text)),
            report=field(d, "report", maybe(report_from_json)),
            frames=tuple(field(d, "frames", texts)),
        )
    except TypeError as e:
        raise TypeError(f"chemistry state: {e}") from None


__all__ = ["Action", "ChemState", "Cog", "Counters", "Order", "Report", "Trip", "Vat"]
