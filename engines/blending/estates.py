"""Each guardian's estate as a view shows it: the 3x3 it guards, square by square, with what
it is worth now (blending.md Estates, DECISIONS B33-B35).

A player should not have to work out from the map which squares a guardian guards: the view
lists them, and the text shows them beside the guardian's pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import blend_touches
from .state import Guardian, Pos
from .tiles import LAND_LETTER, START

JSON = Any


def square_letter(land: int | None) -> str:
    """A square as the text map writes it: a land letter, `#` the start square, `.` blank."""
    return "." if land is None else "#" if land == START else LAND_LETTER[land]


def estate(
    g: Guardian,
    squares: Mapping[Pos, int],
    blends: Mapping[Pos, tuple[int, int, int]],
    personal: bool,
) -> dict[str, JSON]:
    """The estate of `g`: its corners, its rows north to south (west to east, as the map's
    letters), how many squares of the guardian's land it holds, and the blends touching it
    that pay its owner (`personal`: only the owner's own blends)."""
    rows = [
        "".join(square_letter(squares.get((g.x + dx, g.y + dy))) for dx in (-1, 0, 1))
        for dy in (-1, 0, 1)
    ]
    land = sum(row.count(LAND_LETTER[g.land]) for row in rows)
    touching = [
        f"{tl[0]},{tl[1]}"
        for tl, (_tile, _rot, placer) in sorted(blends.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        if blend_touches(tl, (g.x, g.y)) and (not personal or placer == g.owner)
    ]
    return {
        "from": [g.x - 1, g.y - 1],
        "to": [g.x + 1, g.y + 1],
        "rows": rows,
        "land_squares": land,
        "blends": touching,
    }


ESTATE_FORMAT = "estate x..x,y..y [rows N to S] squares of its land"
"""How `estate_text` writes an estate; a view's guardian heading says it once."""


def estate_text(g: Mapping[str, JSON]) -> str:
    """One guardian's estate (ESTATE_FORMAT), or '' when the view has none (other land rules)."""
    e = g.get("estate")
    if not isinstance(e, Mapping):
        return ""
    (x0, y0), (x1, y1) = e["from"], e["to"]
    blends = f", blends at {' '.join(e['blends'])}" if e["blends"] else ""
    return f"estate {x0}..{x1},{y0}..{y1} [{' '.join(e['rows'])}] {e['land_squares']}{blends}"
