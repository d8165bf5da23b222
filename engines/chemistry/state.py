"""The frozen game state, the shift report and their JSON forms."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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


def trip_from_json(d: Any) -> Trip:
    start, steps, blocked, hand, taken, floor = d
    return Trip(
        int(start), int(steps), int(blocked), tuple(hand), tuple(int(n) for n in taken), int(floor)
    )


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


def _t4(rows: Any) -> tuple[tuple[int, int, int, int], ...]:
    return tuple((int(a), int(b), int(c), int(d)) for a, b, c, d in rows)


def _t3(rows: Any) -> tuple[tuple[int, int, int], ...]:
    return tuple((int(a), int(b), int(c)) for a, b, c in rows)


def report_from_json(d: Mapping[str, Any]) -> Report:
    return Report(
        first_tick=d["first_tick"],
        last_tick=d["last_tick"],
        eaten=tuple(d["eaten"]),
        deliveries=_t4(d["deliveries"]),
        misdrops=_t4(d["misdrops"]),
        hoarded=tuple(d["hoarded"]),
        reactions=_t4(d["reactions"]),
        cold_starts=_t3(d["cold_starts"]),
        cold_events=tuple((int(a), int(b)) for a, b in d["cold_events"]),
        charges=_t3(d["charges"]),
        rotted=d["rotted"],
        trips=tuple(trip_from_json(t) for t in d.get("trips", ())),
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


def state_from_json(d: Mapping[str, Any]) -> ChemState:
    c = d["counters"]
    return ChemState(
        ruleset=ChemistryRuleset.model_validate(d["ruleset"]),
        seed=d["seed"],
        tick=d["tick"],
        shifts_done=d["shifts_done"],
        cogs=tuple(Cog(cell, tuple(hand), timer) for cell, hand, timer in d["cogs"]),
        molecules=tuple((int(a), int(b)) for a, b in d["molecules"]),
        food=tuple((int(a), int(b)) for a, b in d["food"]),
        vats=tuple(
            Vat(v, charge, (int(stock[0]), int(stock[1])), cooldown, last)
            for v, charge, stock, cooldown, last in d["vats"]
        ),
        last=tuple(_move_from_json(m) for m in d["last"]),
        notes=tuple(d["notes"]),
        counters=Counters(
            eaten=tuple(c["eaten"]),
            delivered=tuple(c["delivered"]),
            misdrops=tuple(c["misdrops"]),
            hoarded=tuple(c["hoarded"]),
            reactions=c["reactions"],
            food_made=c["food_made"],
            food_rotted=c["food_rotted"],
            food_spoiled=c["food_spoiled"],
            cold_starts=c["cold_starts"],
            cold_events=c["cold_events"],
        ),
        cold_streak=d["cold_streak"],
        ended=d["ended"],
        ending=d["ending"],
        report=None if d["report"] is None else report_from_json(d["report"]),
        frames=tuple(d["frames"]),
    )


__all__ = ["Action", "ChemState", "Cog", "Counters", "Order", "Report", "Trip", "Vat"]
