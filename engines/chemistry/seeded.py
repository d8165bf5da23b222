"""The seeded Chemistry bots: `courier-seeded` and `freeloader-seeded` pick their standing order
as their namesakes do, but break its ties from the decision's seeded stream: lanes of equal need
and charge are ranked in a drawn order (not lane order), and foraging goes to a vat drawn among
those of the highest charge (not the first). The namesakes stay the reference's bots, decision
for decision.

A courier's fixed lane (slot s keeps lane s) is not redrawn: each seat draws from its own
stream, so redrawn fixed lanes would leave lanes without a courier. Under `control: ticks` the
ties are drawn again every tick, as the order is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .bots import Lane, _as_action, _supply, _vats, lane_table
from .room import VATS


def _drawn_priority(table: list[tuple[Lane, int, int]], rng: Stream) -> list[Lane]:
    """The neediest lanes first, then the coldest, ties in an order drawn from the stream."""
    ties = [rng.next_u64() for _ in table]
    order = sorted(range(len(table)), key=lambda k: (-table[k][1], table[k][2], ties[k]))
    return [table[k][0] for k in order]


def _drawn_best_vat(view: Mapping[str, Any], rng: Stream) -> int:
    vats = _vats(view)
    top = max(charge for _, charge, _ in vats)
    return rng.choice([v for v, charge, _ in vats if charge == top])


def courier_seeded_order(view: Mapping[str, Any], seat: int, rng: Stream) -> str:
    table = lane_table(view)
    if all(need <= 0 for _, need, _ in table):
        return f"forage {VATS[_drawn_best_vat(view, rng)]}"
    if seat < len(table):
        return _supply(table[seat][0])
    return _supply(_drawn_priority(table, rng)[(seat - len(table)) % len(table)])


def freeloader_seeded_order(view: Mapping[str, Any], seat: int, rng: Stream) -> str:
    if all(charge == 0 for _, charge, _ in _vats(view)):
        return _supply(_drawn_priority(lane_table(view), rng)[0])
    return f"forage {VATS[_drawn_best_vat(view, rng)]}"


def courier_seeded(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    seat = int(view["seat"])
    order = courier_seeded_order(view, seat, stream)
    return _as_action(view, seat, order) if view["control"] == "ticks" else order


def freeloader_seeded(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    seat = int(view["seat"])
    order = freeloader_seeded_order(view, seat, stream)
    return _as_action(view, seat, order) if view["control"] == "ticks" else order


SEEDED_BOTS: dict[str, Bot] = {
    "courier-seeded": courier_seeded,
    "freeloader-seeded": freeloader_seeded,
}
