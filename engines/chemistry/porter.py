"""`porter`: the courier mended (issue 23). The courier keeps lane s at slot s whoever holds the
other slots, so a seat that does not supply (a model, a freeloader) leaves its lane dead, and it
feeds a cold vat one feedstock while nobody brings the other. The porter reads every seat's last
order (C20) instead:

- it keeps the lane it supplied last shift while no lower seat supplied the same lane, unless
  that lane's need is met while a lane nobody supplied is short;
- otherwise it takes a lane nobody else supplied last shift, the neediest first (need, then the
  coldest vat, then lane order), the k-th such lane for the k-th seat that is free to move (so
  porters that move together spread out); with every lane covered it helps the neediest lane,
  and with every need met it forages at the highest-charge vat, as the courier does;
- it never feeds a cold vat a feedstock the vat already holds enough of to restart while the
  other is short: it brings the other instead (and with both short and nobody else on the
  other, the lower of the two first).

Under `control: ticks` the last orders are actions, which name no lane, so every seat counts
as free and the porter takes lanes as the courier's fixed slots do."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .bots import Lane, _as_action, _best_vat, _priority, _supply, lane_table
from .room import SPECIES, VAT_TAKES, VATS
from .seeded import _drawn_best_vat, _drawn_priority


def last_lanes(view: Mapping[str, Any]) -> list[Lane | None]:
    """The (vat, feedstock) lane each seat supplied last shift, None for any other order."""
    out: list[Lane | None] = []
    for entry in view["orders"]:
        words = (entry["order"] or "").split()
        lane: Lane | None = None
        if len(words) == 3 and words[0] == "supply" and words[1] in SPECIES and words[2] in VATS:
            lane = (VATS.index(words[2]), SPECIES.index(words[1]))
        out.append(lane)
    return out


def _keeps(
    lanes: Sequence[Lane | None], seat: int, need: Mapping[Lane, int], starving: bool
) -> bool:
    """Whether the seat stays on its last lane: a lane of the room that no lower seat also
    supplied, unless its need is met while a lane nobody supplies goes short."""
    lane = lanes[seat]
    if lane is None or lane not in need or lane in lanes[:seat]:
        return False
    return not (starving and need[lane] <= 0)


def _restartable(view: Mapping[str, Any], lane: Lane, covered: set[Lane]) -> Lane:
    """The lane to feed instead of `lane` when its vat is cold: the vat's other feedstock when
    that one is short of the restart cost and `lane`'s feedstock is not (more of it only lies
    in the stock), or when both are short, the other is lower and nobody else brings it."""
    v, sp = lane
    cost = int(view["ruleset"]["cold_start_cost"])
    entry = next(e for e in view["vats"] if VATS.index(e["name"]) == v)
    if entry["charge"] != 0:
        return lane
    k = VAT_TAKES[v].index(sp)
    mine, theirs = entry["stock"][k], entry["stock"][1 - k]
    other = (v, VAT_TAKES[v][1 - k])
    if theirs < cost <= mine:
        return other
    if theirs < mine < cost and other not in covered:
        return other
    return lane


def porter_order(view: Mapping[str, Any], seat: int, rng: Stream | None = None) -> str:
    """The porter's order; with `rng` (porter-seeded), ties among lanes of equal need and
    charge and among vats of the highest charge are broken from it instead of by order."""
    table = lane_table(view)
    if all(need <= 0 for _, need, _ in table):
        vat = _best_vat(view) if rng is None else _drawn_best_vat(view, rng)
        return f"forage {VATS[vat]}"
    need = {lane: n for lane, n, _ in table}
    lanes = last_lanes(view)
    starving = any(n > 0 for lane, n in need.items() if lane not in lanes)
    others = {lane for s, lane in enumerate(lanes) if s != seat and lane is not None}
    mine = lanes[seat]
    if mine is not None and _keeps(lanes, seat, need, starving):
        return _supply(_restartable(view, mine, others))
    ranked = _priority(table) if rng is None else _drawn_priority(table, rng)
    open_lanes = [lane for lane in ranked if lane not in others]
    if not open_lanes:
        return _supply(_restartable(view, ranked[0], others))
    rank = sum(1 for s in range(seat) if not _keeps(lanes, s, need, starving))
    return _supply(_restartable(view, open_lanes[rank % len(open_lanes)], others))


def porter(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    seat = int(view["seat"])
    order = porter_order(view, seat)
    return _as_action(view, seat, order) if view["control"] == "ticks" else order


def porter_seeded(view: Mapping[str, Any], menu: LegalMoves, stream: Stream) -> str:
    seat = int(view["seat"])
    order = porter_order(view, seat, stream)
    return _as_action(view, seat, order) if view["control"] == "ticks" else order


PORTER_BOTS: dict[str, Bot] = {"porter": porter}
SEEDED_PORTER_BOTS: dict[str, Bot] = {"porter-seeded": porter_seeded}
