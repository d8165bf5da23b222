"""What one batch did, in lines every seat may read: the public part of the shift report
(deliveries, misdrops, reactions, cold starts, what the cogs ate)."""

from __future__ import annotations

from .room import ALIASES, SPECIES, VATS
from .state import ChemState


def news(before: ChemState, after: ChemState) -> tuple[str, ...]:
    r = after.report
    if r is None or r is before.report:
        return ()
    span = f"ticks {r.first_tick}-{r.last_tick}"
    lines: list[str] = []
    if r.deliveries:
        lines.append(
            f"{span}: delivered "
            + ", ".join(
                f"{ALIASES[s]} {n} {SPECIES[sp]} to {VATS[v]}" for s, v, sp, n in r.deliveries
            )
        )
    else:
        lines.append(f"{span}: no deliveries")
    if r.misdrops:
        lines.append(
            "misdropped "
            + ", ".join(
                f"{ALIASES[s]} {n} {SPECIES[sp]} into {VATS[v]}" for s, v, sp, n in r.misdrops
            )
        )
    reacted = [f"{VATS[v]} {n}× (food {food})" for v, n, food, _ in r.reactions if n]
    if reacted:
        lines.append("reactions: " + ", ".join(reacted))
    for v, tick in r.cold_events:
        lines.append(f"{VATS[v]} went cold at tick {tick}")
    for v, tick, by in r.cold_starts:
        who = "" if by < 0 else f" by {ALIASES[by]}"
        lines.append(f"{VATS[v]} cold-started at tick {tick}{who}")
    eaten = [f"{ALIASES[i]} {n}" for i, n in enumerate(r.eaten) if n]
    if eaten:
        lines.append("ate: " + ", ".join(eaten))
    return tuple(lines)
