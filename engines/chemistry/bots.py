"""The scripted seats: courier, freeloader and random. Each reads only its observation.

Under `control: ticks` the courier and freeloader pick their standing order the same way and
then return the one action the courier kernel takes for it this tick.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .moves import ACTION_TEXT, parse_order
from .room import SPECIES, VAT_TAKES, VATS
from .rules import Room, kernel
from .views import state_from_view

Lane = tuple[int, int]
"""(vat, feedstock)"""


def _vats(view: Mapping[str, Any]) -> list[tuple[int, int, list[int]]]:
    """(vat, charge, stock) for each present vat, in vat order."""
    return [(VATS.index(v["name"]), v["charge"], list(v["stock"])) for v in view["vats"]]


def _best_vat(view: Mapping[str, Any]) -> int:
    best = -1
    best_charge = -1
    for v, charge, _ in _vats(view):
        if charge > best_charge:
            best, best_charge = v, charge
    return best


def lane_table(view: Mapping[str, Any]) -> list[tuple[Lane, int, int]]:
    """Every (vat, feedstock) lane with its need (target − stock; target `cold_start_cost` when
    the vat is cold (rules.md C24), else 2) and the vat's charge, in lane order."""
    cold_target = int(view["ruleset"]["cold_start_cost"])
    out = []
    for v, charge, stock in _vats(view):
        target = cold_target if charge == 0 else 2
        for k, sp in enumerate(VAT_TAKES[v]):
            out.append(((v, sp), target - stock[k], charge))
    return out


def _priority(table: list[tuple[Lane, int, int]]) -> list[Lane]:
    order = sorted(range(len(table)), key=lambda k: (-table[k][1], table[k][2], k))
    return [table[k][0] for k in order]


def _supply(lane: Lane) -> str:
    v, sp = lane
    return f"supply {SPECIES[sp]} {VATS[v]}"


def courier_order(view: Mapping[str, Any], seat: int) -> str:
    """Slot s < lanes keeps fixed lane s; higher slots take the neediest lanes; with every need
    met, everyone forages at the highest-charge vat."""
    table = lane_table(view)
    if all(need <= 0 for _, need, _ in table):
        return f"forage {VATS[_best_vat(view)]}"
    if seat < len(table):
        return _supply(table[seat][0])
    return _supply(_priority(table)[(seat - len(table)) % len(table)])


def freeloader_order(view: Mapping[str, Any], seat: int) -> str:
    if all(charge == 0 for _, charge, _ in _vats(view)):
        return _supply(_priority(lane_table(view))[0])
    return f"forage {VATS[_best_vat(view)]}"


def _as_action(view: Mapping[str, Any], seat: int, order_text: str) -> str:
    room = Room(state_from_view(view))
    return ACTION_TEXT[kernel(room, seat, parse_order(order_text), room.timer[seat] == 0)]


def courier(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    seat = int(view["seat"])
    order = courier_order(view, seat)
    return _as_action(view, seat, order) if view["control"] == "ticks" else order


def freeloader(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    seat = int(view["seat"])
    order = freeloader_order(view, seat)
    return _as_action(view, seat, order) if view["control"] == "ticks" else order


def random_bot(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    return stream.choice(menu.moves).notation


BOTS: dict[str, Bot] = {"courier": courier, "freeloader": freeloader, "random": random_bot}
