"""The per-tick frame record for replays, and a decoder that rebuilds every tick's room.

Each tick is one line of space-separated events, so a frame is a delta from the tick before:
  v{species}@{cell}   a vent emitted onto cell        t{seat}      the cog took the unit under it
  d{seat}{s|x|f|h}    dropped: into stock, misdrop, on the floor, on its own home
  m{seat}@{cell}      the cog moved to cell            e{seat}      the cog ate the food under it
  c{vat}              cold start                       k{vat}       the vat went cold by decay
  r{vat}:{cells}/{n}  reaction: food placed on cells, n spoiled
  o{cells}            food rotted on cells             q{charges}   the charge row, when it changed
Cells are flat indices y*32+x; species, seats and vats are indices.
"""

from __future__ import annotations

from typing import Any

from .room import HOMES, SPECIES, VAT_TAKES, VATS, WIDTH, pad_map
from .state import ChemState


def frame_record(state: ChemState) -> dict[str, Any]:
    rs = state.ruleset
    return {
        "format": "chemistry-frames/1",
        "ruleset": rs.model_dump(mode="json"),
        "width": WIDTH,
        "species": list(SPECIES),
        "vats": [VATS[v] for v in rs.vats],
        "homes": list(HOMES),
        "ticks": list(state.frames),
    }


def decode(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tick's room from the opening: cogs (cell, hand), molecules, food (cell: age),
    charges, stocks and eaten counts. Used by tests and replay viewers."""
    rs = record["ruleset"]
    vats = [VATS.index(v) for v in record["vats"]]
    pads = pad_map(tuple(vats))
    cogs: list[tuple[list[int], list[int]]] = [([h], []) for h in record["homes"]]
    molecules: dict[int, int] = {}
    food: dict[int, int] = {}
    charge: dict[int, int] = {v: int(rs["charge0"]) for v in vats}
    stock: dict[int, list[int]] = {v: [0, 0] for v in vats}
    eaten = [0] * len(cogs)
    out: list[dict[str, Any]] = []
    for line in record["ticks"]:
        for tok in line.split():
            kind, rest = tok[0], tok[1:]
            if kind == "v":
                sp, c = rest.split("@")
                molecules[int(c)] = int(sp)
            elif kind == "t":
                seat = int(rest)
                cogs[seat][1].append(molecules.pop(cogs[seat][0][0]))
            elif kind == "d":
                seat, how = int(rest[:-1]), rest[-1]
                sp = cogs[seat][1].pop()
                if how == "s":
                    v = pads[cogs[seat][0][0]]
                    stock[v][VAT_TAKES[v].index(sp)] += 1
                elif how in "fh":
                    molecules[cogs[seat][0][0]] = sp
            elif kind == "m":
                seat, c = rest.split("@")
                cogs[int(seat)][0][0] = int(c)
            elif kind == "e":
                seat = int(rest)
                del food[cogs[seat][0][0]]
                eaten[seat] += 1
            elif kind == "c":
                v = int(rest)
                cost = rs["cold_start_cost"]
                stock[v] = [stock[v][0] - cost, stock[v][1] - cost]
            elif kind == "r":
                v_text, rest2 = rest.split(":")
                v = int(v_text)
                cells = rest2.split("/")[0]
                stock[v] = [stock[v][0] - 1, stock[v][1] - 1]
                for c in cells.split(","):
                    if c:
                        food[int(c)] = 0
            elif kind == "o":
                for c in rest.split(","):
                    food.pop(int(c), None)
            elif kind == "q":
                for v, value in zip(vats, rest.split(","), strict=True):
                    charge[v] = int(value)
        # Step 8 ages every token, new ones included; rotten ones were removed above.
        for c in food:
            food[c] += 1
        out.append(
            {
                "cogs": [(c[0], tuple(h)) for c, h in cogs],
                "molecules": dict(molecules),
                "food": dict(food),
                "charges": dict(charge),
                "stocks": {v: tuple(s) for v, s in stock.items()},
                "eaten": list(eaten),
            }
        )
    return out
