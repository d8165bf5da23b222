"""Text of an observation or spectator view: a character map of the room and short lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .room import HEIGHT, RINGS, VATS, WALL, WIDTH, cell
from .trip import own_cog_text

MOLECULE_CHAR = {"resin": "r", "spark": "s", "brine": "b", "glitter": "g", "quartz": "q"}
LEGEND = (
    "Legend: # wall, . floor, 0-7 cog (seat slot), * food, r/s/b/g/q a loose molecule "
    "(resin/spark/brine/glitter/quartz), V vent, A/B/C pad of vat amber/beryl/cobalt, "
    ", spill-ring cell. x grows east, y grows south."
)


def _cell(xy: Any) -> str:
    return f"({xy[0]},{xy[1]})"


def _grid(view: Mapping[str, Any]) -> list[str]:
    rows = [["#" if WALL[cell(x, y)] else "." for x in range(WIDTH)] for y in range(HEIGHT)]
    for vat in view["vats"]:
        v = VATS.index(vat["name"])
        for c in RINGS[v]:
            rows[c // WIDTH][c % WIDTH] = ","
        cx, cy = vat["centre"]
        for y in range(cy - 1, cy + 2):
            for x in range(cx - 1, cx + 2):
                rows[y][x] = "ABC"[v]
    for vent in view["vents"]:
        x, y = vent["cell"]
        rows[y][x] = "V"
    for x, y, sp in view["molecules"]:
        rows[y][x] = MOLECULE_CHAR[sp]
    for x, y, _ in view["food"]:
        rows[y][x] = "*"
    for cog in view["cogs"]:
        x, y = cog["cell"]
        rows[y][x] = str(cog["seat"])
    head = "   " + "".join(str(x // 10) if x % 10 == 0 else " " for x in range(WIDTH))
    head2 = "   " + "".join(str(x % 10) for x in range(WIDTH))
    return [head, head2] + [f"{y:2d} " + "".join(row) for y, row in enumerate(rows)]


def _report(rep: Mapping[str, Any]) -> list[str]:
    first, last = rep["ticks"]
    span = f"tick {last}" if first == last else f"ticks {first}-{last}"
    eaten = ", ".join(f"{k} {v}" for k, v in rep["eaten"].items()) or "nobody"
    deliveries = (
        ", ".join(f"{d['seat']} {d['units']} {d['molecule']}>{d['vat']}" for d in rep["deliveries"])
        or "none"
    )
    misdrops = (
        ", ".join(f"{d['seat']} {d['units']} {d['molecule']}>{d['vat']}" for d in rep["misdrops"])
        or "none"
    )
    reactions = (
        ", ".join(
            f"{r['vat']} x{r['reactions']} (food {r['food']}, spoiled {r['spoiled']})"
            for r in rep["reactions"]
        )
        or "none"
    )
    charges = ", ".join(f"{k} {a}->{b}" for k, (a, b) in rep["charges"].items())
    cold = ", ".join(f"{c['vat']} went cold at tick {c['tick']}" for c in rep["cold_events"])
    starts = ", ".join(f"{c['vat']} cold-started at tick {c['tick']}" for c in rep["cold_starts"])
    hoarded = ", ".join(f"{k} {v}" for k, v in rep["hoarded"].items())
    lines = [
        f"Last report ({span}): food eaten: {eaten}.",
        f"  Deliveries: {deliveries}. Misdrops: {misdrops}.",
        f"  Reactions: {reactions}. Charges: {charges}. Food rotted: {rep['rotted']}.",
    ]
    if cold or starts:
        lines.append("  " + "; ".join(x for x in (cold, starts) if x) + ".")
    if hoarded:
        lines.append(f"  Hoard drops: {hoarded}.")
    if rep.get("own_cog"):
        lines.append(own_cog_text(rep["own_cog"]))
    return lines


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ranking_lines(view: Mapping[str, Any]) -> list[str]:
    """The final ranking by food eaten, and for a seat where it finished ("2nd of 8"): a seat
    with as much as another shares its rank (every seat with the most wins)."""
    cogs = sorted(view["cogs"], key=lambda g: (-g["eaten"], g["seat"]))

    def rank(eaten: int) -> int:
        return 1 + sum(1 for g in cogs if g["eaten"] > eaten)

    lines = [
        "Final ranking by food eaten (every seat with the most wins): "
        + ", ".join(f"{rank(g['eaten'])}. {g['alias']} {g['eaten']}" for g in cogs)
    ]
    if "seat" in view:
        me = next(g for g in cogs if g["seat"] == view["seat"])
        tied = [g["alias"] for g in cogs if g["eaten"] == me["eaten"] and g is not me]
        lines.append(
            f"You ({me['alias']}) finished {_ordinal(rank(me['eaten']))} of {len(cogs)} with "
            f"{me['eaten']} food eaten" + (f", tied with {', '.join(tied)}" if tied else "") + "."
        )
    return lines


def render(view: Mapping[str, Any]) -> str:
    lines = [
        f"Chemistry ({view['variant']}), tick {view['tick']}/{view['ticks_total']}, "
        f"shifts played {view['shift']}/{view['shifts']} ({view['ticks_per_shift']} ticks each)"
        + (", GAME OVER" if view["over"] else "")
        + (f", all vats cold for {view['cold_streak']} boundaries" if view["cold_streak"] else "")
        + ".",
    ]
    if "seat" in view:
        lines.append(f"You are seat {view['seat']} ({view['alias']}).")
    lines += _grid(view)
    lines.append(LEGEND)
    lines.append("Vats:")
    for v in view["vats"]:
        last = v["last_deliverer"]
        lines.append(
            f"  {v['name']} {_cell(v['centre'])} takes {'+'.join(v['takes'])}: charge "
            f"{v['charge']}, stock {v['takes'][0]} {v['stock'][0]} {v['takes'][1]} "
            f"{v['stock'][1]}, cooldown {v['cooldown']}"
            + ("" if last is None else f", last deliverer seat {last}")
        )
    lines.append(
        "Vents: "
        + "; ".join(
            f"{v['molecule']} {_cell(v['cell'])} every {v['period']} ticks, cap {v['cap']}, "
            f"{v['loose']} loose"
            for v in view["vents"]
        )
    )
    lines.append("Cogs (seat alias cell hand eaten | order in force | say):")
    if view.get("orders_note"):
        lines.append(f"  ({view['orders_note']})")
    orders = {o["seat"]: o for o in view["orders"]}
    for g in view["cogs"]:
        o = orders.get(g["seat"], {})
        say = f' | says "{o["say"]}"' if o.get("say") else ""
        hand = "+".join(g["hand"]) or "empty"
        lines.append(
            f"  {g['seat']} {g['alias']} {_cell(g['cell'])} hand {hand} eaten {g['eaten']}"
            f" | {o.get('order') or '-'}{say}"
        )
    food = " ".join(f"{_cell((x, y))}:{age}" for x, y, age in view["food"])
    lines.append(f"Food (cell:age, rots at {view['ruleset']['food_lifetime']}): {food or 'none'}")
    if view.get("report"):
        lines += _report(view["report"])
    if "notes" in view:
        lines.append(f"Your notes: {view['notes'] or '(none)'}")
    if view.get("all_notes"):
        for alias, text in view["all_notes"].items():
            if text:
                lines.append(f"Notes of {alias}: {text}")
    if view["over"]:
        lines += ranking_lines(view)
    return "\n".join(lines)
