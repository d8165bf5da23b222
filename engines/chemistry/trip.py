"""The seat's own line of the shift report, and what an order does with a molecule in hand.

Everything here is derived from the state: the batch's report (with each cog's trip), the
seat's order of that batch and the room after it. Food on the floor at the start of the batch
is not stored: it is what was eaten, rotted or is still lying there, less what reactions made.
"""

from __future__ import annotations

from typing import Any

from ..protocol import JSON
from .moves import Order, move_text
from .room import SPECIES, VAT_TAKES, VATS, xy
from .state import ChemState

BOTS_CHOOSE = (
    "Orders shown are each seat's order of the last shift: every seat picks its own order "
    "each shift, and the bots choose their lanes anew each shift from the room they see."
)
BOTS_CHOOSE_TICKS = (
    "Actions shown are each seat's action of the last tick: every seat picks its own each "
    "tick, and the bots choose their lanes anew each shift from the room they see."
)


def _names(species: tuple[int, ...]) -> list[str]:
    return [SPECIES[s] for s in species]


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _hand(species: tuple[int, ...] | list[str]) -> str:
    names = [s if isinstance(s, str) else SPECIES[s] for s in species]
    return "+".join(names) or "nothing"


def hold_note(order: Order, held: tuple[int, ...]) -> str | None:
    """What `order` does with the molecule the cog holds, or None with an empty hand."""
    if not held:
        return None
    sp = held[-1]
    name = SPECIES[sp]
    if order.job in ("forage", "idle"):
        return f"you hold {name}: {order.job} never drops it, so it stays in your hand"
    if order.molecule != sp:
        return f"you hold {name}: the cog first sets it down on a free floor cell off the pads"
    if order.job == "hoard":
        return f"you hold {name}: it goes to your home cell first"
    assert order.reactor is not None
    if sp in VAT_TAKES[order.reactor]:
        return f"you hold {name}: it goes to the {VATS[order.reactor]} pad first"
    return f"you hold {name}: it is destroyed on the {VATS[order.reactor]} pad (misdrop)"


def _left_in_hand(order: Any, held: tuple[int, ...]) -> str | None:
    """Why the cog still holds a molecule at the end of the batch."""
    if not held:
        return None
    name = SPECIES[held[-1]]
    if isinstance(order, Order):
        if order.job in ("forage", "idle"):
            why = f"{order.job} never drops a molecule; it stays in hand until a supply or hoard"
            return f"still holding {name}: {why} order carries it"
        if order.molecule == held[-1]:
            where = "home" if order.job == "hoard" else f"the {VATS[order.reactor or 0]} pad"
            return f"still holding {name}: it had not reached {where} when the shift ended"
        return f"still holding {name}: it had not found a free cell to set it down"
    return f"still holding {name}: it was not dropped"


def _why_no_food(s: ChemState, seat: int, order: Any, blocked: int) -> str:
    r = s.report
    assert r is not None
    made = sum(food for _, _, food, _ in r.reactions)
    others = sum(r.eaten) - r.eaten[seat]
    left = len(s.food)
    there = others + r.rotted + left
    if there == 0:
        cold = all(v.charge == 0 for v in s.vats)
        why = "no food was on the floor at any time this shift"
        if made == 0 and cold:
            why += " (every vat is cold and no reaction made any)"
        elif made == 0:
            why += " (no reaction made any)"
        if s.ending == "famine":
            why += "; the game ended in famine"
        return why
    fate = f"others ate {others}, {r.rotted} rotted, {left} still on the floor"
    if isinstance(order, Order) and order.job == "idle":
        return f"its order was idle, so it stood still ({there} food on the floor: {fate})"
    if isinstance(order, Order) and order.job in ("supply", "hoard"):
        where = "your home" if order.job == "hoard" else "the pad"
        return (
            f"its order ({order.head}) walks between molecules and {where}, never to food, and "
            f"a cog eats only food it stands on ({there} food on the floor: {fate})"
        )
    why = f"it reached none of the {there} food on the floor ({fate})"
    if blocked:
        why += f"; other cogs or walls blocked its moves {_times(blocked)}"
    return why


def own_cog(s: ChemState, seat: int) -> dict[str, JSON] | None:
    """The seat's own cog over the last batch: where it went, what it carried, delivered and
    ate, why it ate nothing, and what it still holds. None before the first batch."""
    r = s.report
    if r is None or not r.trips:
        return None
    t = r.trips[seat]
    g = s.cogs[seat]
    order = s.last[seat]
    ate = r.eaten[seat]
    sx, sy = xy(t.start)
    ex, ey = xy(g.cell)
    return {
        "seat": seat,
        "order": None
        if order is None
        else (order.head if isinstance(order, Order) else move_text(order)),
        "from": [sx, sy],
        "to": [ex, ey],
        "steps": t.steps,
        "blocked": t.blocked,
        "hand_at_start": _names(t.hand_start),
        "took": {SPECIES[sp]: n for sp, n in enumerate(t.taken) if n},
        "delivered": [
            {"vat": VATS[v], "molecule": SPECIES[sp], "units": n}
            for who, v, sp, n in r.deliveries
            if who == seat
        ],
        "misdropped": [
            {"vat": VATS[v], "molecule": SPECIES[sp], "units": n}
            for who, v, sp, n in r.misdrops
            if who == seat
        ],
        "set_down": t.floor_drops,
        "hoarded": r.hoarded[seat],
        "ate": ate,
        "ate_nothing_because": None if ate else _why_no_food(s, seat, order, t.blocked),
        "holding": _names(g.hand),
        "holding_because": _left_in_hand(order, g.hand),
    }


def own_cog_text(c: dict[str, Any]) -> str:
    """One line for the text view."""
    steps = "1 step" if c["steps"] == 1 else f"{c['steps']} steps"
    went = f"went ({c['from'][0]},{c['from'][1]}) -> ({c['to'][0]},{c['to'][1]}) in {steps}"
    if c["blocked"]:
        went += f", blocked {_times(c['blocked'])}"
    parts = [went]
    took = ", ".join(f"{n} {sp}" for sp, n in c["took"].items())
    carried = f"started holding {_hand(c['hand_at_start'])}, took {took or 'nothing'}"
    parts.append(carried)
    moved = [f"{d['units']} {d['molecule']}>{d['vat']}" for d in c["delivered"]]
    parts.append("delivered " + (", ".join(moved) or "nothing"))
    if c["misdropped"]:
        lost = ", ".join(f"{d['units']} {d['molecule']}>{d['vat']}" for d in c["misdropped"])
        parts.append(f"misdropped {lost}")
    if c["set_down"]:
        parts.append(f"set down {c['set_down']} on the floor")
    if c["hoarded"]:
        parts.append(f"dropped {c['hoarded']} at home")
    if c["ate"]:
        parts.append(f"ate {c['ate']}")
    else:
        parts.append(f"ate nothing: {c['ate_nothing_because']}")
    if c["holding_because"]:
        parts.append(c["holding_because"])
    order = f" (order {c['order']})" if c["order"] else ""
    return f"  Your cog{order}: " + "; ".join(parts) + "."
