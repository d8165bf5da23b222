"""Observations and spectator views (JSON-compatible dicts), and the room rebuilt from a view.

Every seat sees the whole room; only the seats' private notes are hidden (C20). Cells appear as
[x, y] pairs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..protocol import JSON
from .moves import Order, move_text, parse_action, parse_order
from .room import ALIASES, CENTRES, HOMES, SPECIES, VAT_TAKES, VATS, VENTS, cell, xy
from .ruleset import ChemistryRuleset
from .state import ChemState, Cog, Counters, Report, Vat
from .trip import BOTS_CHOOSE, BOTS_CHOOSE_TICKS


def _xy(c: int) -> list[int]:
    x, y = xy(c)
    return [x, y]


def report_view(r: Report) -> dict[str, JSON]:
    """The last batch's report with names instead of indices, for LLM readers."""
    return {
        "ticks": [r.first_tick, r.last_tick],
        "eaten": {ALIASES[i]: n for i, n in enumerate(r.eaten) if n},
        "deliveries": [
            {"seat": ALIASES[s], "vat": VATS[v], "molecule": SPECIES[sp], "units": n}
            for s, v, sp, n in r.deliveries
        ],
        "misdrops": [
            {"seat": ALIASES[s], "vat": VATS[v], "molecule": SPECIES[sp], "units": n}
            for s, v, sp, n in r.misdrops
        ],
        "hoarded": {ALIASES[i]: n for i, n in enumerate(r.hoarded) if n},
        "reactions": [
            {"vat": VATS[v], "reactions": n, "food": food, "spoiled": spoiled}
            for v, n, food, spoiled in r.reactions
        ],
        "cold_starts": [
            {"vat": VATS[v], "tick": t, "by": None if by < 0 else ALIASES[by]}
            for v, t, by in r.cold_starts
        ],
        "cold_events": [{"vat": VATS[v], "tick": t} for v, t in r.cold_events],
        "charges": {VATS[v]: [a, b] for v, a, b in r.charges},
        "rotted": r.rotted,
    }


def room_view(s: ChemState) -> dict[str, JSON]:
    rs = s.ruleset
    dperiod, dcap = rs.distractors
    loose = [0] * len(SPECIES)
    for _, sp in s.molecules:
        loose[sp] += 1
    return {
        "game": "chemistry",
        "variant": rs.variant,
        "control": rs.control,
        "ruleset": rs.model_dump(mode="json"),
        "tick": s.tick,
        "ticks_total": rs.total_ticks,
        "shift": s.shifts_done,
        "shifts": rs.shifts,
        "ticks_per_shift": rs.ticks_per_shift,
        "over": s.ended is not None,
        "cold_streak": s.cold_streak,
        "vats": [
            {
                "name": VATS[v.vat],
                "centre": _xy(CENTRES[v.vat]),
                "takes": [SPECIES[t] for t in VAT_TAKES[v.vat]],
                "charge": v.charge,
                "stock": list(v.stock),
                "cooldown": v.cooldown,
                "last_deliverer": v.last_deliverer,
            }
            for v in s.vats
        ],
        "vents": [
            {
                "molecule": SPECIES[sp],
                "cell": _xy(VENTS[sp]),
                "period": rs.vent_period if sp < 3 else dperiod,
                "cap": rs.vent_ground_cap if sp < 3 else dcap,
                "loose": loose[sp],
            }
            for sp in rs.species
        ],
        "cogs": [
            {
                "seat": i,
                "alias": ALIASES[i],
                "cell": _xy(g.cell),
                "home": _xy(HOMES[i]),
                "hand": [SPECIES[h] for h in g.hand],
                "timer": g.timer,
                "eaten": s.counters.eaten[i],
            }
            for i, g in enumerate(s.cogs)
        ],
        "molecules": [[*_xy(c), SPECIES[sp]] for c, sp in s.molecules],
        "food": [[*_xy(c), age] for c, age in s.food],
        "orders": [
            {
                "seat": i,
                "alias": ALIASES[i],
                "order": None if m is None else move_text(m, with_notes=False).split("\n")[0],
                "say": m.say if isinstance(m, Order) else "",
            }
            for i, m in enumerate(s.last)
        ],
        "orders_note": BOTS_CHOOSE_TICKS if rs.control == "ticks" else BOTS_CHOOSE,
        "report": None if s.report is None else report_view(s.report),
        "scores": list(s.counters.eaten),
    }


def state_from_view(view: Mapping[str, Any]) -> ChemState:
    """Rebuilds a state carrying the room of a view, so a bot can run the kernel on what it
    sees. Counters, notes and frames are not in a view and come back empty."""
    rs = ChemistryRuleset.model_validate(view["ruleset"])
    vats = tuple(
        Vat(
            VATS.index(v["name"]),
            v["charge"],
            (v["stock"][0], v["stock"][1]),
            v["cooldown"],
            v["last_deliverer"],
        )
        for v in view["vats"]
    )
    cogs = tuple(
        Cog(cell(*g["cell"]), tuple(SPECIES.index(h) for h in g["hand"]), g["timer"])
        for g in view["cogs"]
    )
    n = len(cogs)
    last = tuple(
        None
        if o["order"] is None
        else (parse_action(o["order"]) if rs.control == "ticks" else parse_order(o["order"]))
        for o in view["orders"]
    )
    return ChemState(
        ruleset=rs,
        seed=0,
        tick=view["tick"],
        shifts_done=view["shift"],
        cogs=cogs,
        molecules=tuple(sorted((cell(x, y), SPECIES.index(sp)) for x, y, sp in view["molecules"])),
        food=tuple(sorted((cell(x, y), age) for x, y, age in view["food"])),
        vats=vats,
        last=last,
        notes=("",) * n,
        counters=Counters((0,) * n, (0,) * n, (0,) * n, (0,) * n),
    )
