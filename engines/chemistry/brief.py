"""The brief text of a Chemistry seat view: what a seat picks its next order with.

Sent after a move instead of the whole view (`render.py`): the seat's own cog and how its last
shift went, the vats' charges, stocks and cooldowns, what lies loose at the vents, what each seat
has eaten, what was said, and the seat's notes. The room's map, its legend, the other cogs'
cells and the food list are left out: the shift's public report (deliveries, reactions, what the
cogs ate) heads the view as its news, and `show` gives the whole room whenever asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .render import render
from .trip import own_cog_text


def _cell(xy: Any) -> str:
    return f"({xy[0]},{xy[1]})"


def render_brief(view: Mapping[str, Any]) -> str:
    if "seat" not in view:
        return render(view)
    lines = [
        f"Chemistry, tick {view['tick']}/{view['ticks_total']}, shift {view['shift']}/"
        f"{view['shifts']} ({view['ticks_per_shift']} ticks each)"
        + (", GAME OVER" if view["over"] else "")
        + (f", all vats cold for {view['cold_streak']} boundaries" if view["cold_streak"] else "")
        + "."
    ]
    orders = {o["seat"]: o for o in view["orders"]}
    me = next(g for g in view["cogs"] if g["seat"] == view["seat"])
    order = orders.get(me["seat"], {}).get("order") or "-"
    lines.append(
        f"You: seat {me['seat']} {me['alias']} at {_cell(me['cell'])}, hand "
        f"{'+'.join(me['hand']) or 'empty'}, eaten {me['eaten']}; last order: {order}."
    )
    report = view.get("report") or {}
    if report.get("own_cog"):
        lines.append(own_cog_text(report["own_cog"]))
    lines.append(
        "Vats (charge, stock, cooldown): "
        + "; ".join(
            f"{v['name']} {_cell(v['centre'])} {'+'.join(v['takes'])}: charge {v['charge']}, "
            f"stock {v['stock'][0]}+{v['stock'][1]}, cooldown {v['cooldown']}"
            for v in view["vats"]
        )
        + "."
    )
    lines.append(
        "Loose at the vents: "
        + ", ".join(f"{v['molecule']} {v['loose']}" for v in view["vents"])
        + f"; food on the floor: {len(view['food'])}."
    )
    lines.append(
        "Eaten so far: " + ", ".join(f"{g['alias']} {g['eaten']}" for g in view["cogs"]) + "."
    )
    said = [
        f'  {g["alias"]}: "{orders[g["seat"]]["say"]}"'
        for g in view["cogs"]
        if orders.get(g["seat"], {}).get("say")
    ]
    if said:
        lines.append("Said with last shift's orders:")
        lines.extend(said)
    if "notes" in view:
        lines.append(f"Your notes: {view['notes'] or '(none)'}")
    return "\n".join(lines)
