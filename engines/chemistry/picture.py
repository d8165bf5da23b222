"""The picture of a Chemistry view: the 32x18 room with its walls, the three vats' pads and spill
rings, the vents, loose molecules, food and the eight cogs with what they hold; beside it the
vats' charges and stocks and each cog's order and food eaten (the score).

The room's walls and rings are the fixed layout of `room.py` (the text map draws the same); all
that changes comes from the view. Private notes are never drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..svg import INK, MUTED, PANEL_LINE, Canvas, fit, ink_on, seat_colour
from .room import HEIGHT, RINGS, VATS, WALL, WIDTH, cell

CELL = 22.0
MARGIN = 16
HEAD = 64
AXIS = 18
PANEL = 380
FLOOR = "#f4f2ec"
WALL_FILL = "#4d4a45"
FOOD = "#2e9d4f"
SPECIES_COLOUR = {
    "resin": "#b5452b",
    "spark": "#f2c12e",
    "brine": "#2f7fc1",
    "glitter": "#b9c0c7",
    "quartz": "#c9a7de",
}
VAT_COLOUR = {"amber": "#f0a830", "beryl": "#59b99a", "cobalt": "#4a67c9"}
VAT_TINT = {"amber": "#fbe3b8", "beryl": "#cdeee2", "cobalt": "#d3dbf5"}
RING_TINT = {"amber": "#fdf1dc", "beryl": "#e6f6f0", "cobalt": "#e9edfa"}


def picture(view: Mapping[str, Any]) -> str:
    room_w = AXIS + WIDTH * CELL
    room_h = AXIS + HEIGHT * CELL
    width = MARGIN + room_w + MARGIN + PANEL
    height = HEAD + room_h + 130 + MARGIN
    canvas = Canvas(width, height, f"Chemistry, tick {view['tick']}")
    _header(canvas, view, width)
    left, top = MARGIN + AXIS, HEAD + AXIS
    _room(canvas, view, left, top)
    _under(canvas, view, MARGIN, top + HEIGHT * CELL + 14, room_w)
    _panel(canvas, view, MARGIN + room_w + MARGIN + 10, HEAD)
    return canvas.svg()


def _header(canvas: Canvas, view: Mapping[str, Any], width: float) -> None:
    title = (
        f"Chemistry: tick {view['tick']} of {view['ticks_total']}, "
        f"shift {view['shift']} of {view['shifts']}"
    )
    canvas.text(MARGIN, 26, title + (" (game over)" if view["over"] else ""), size=18, bold=True)
    who = f"You are seat {view['seat']} ({view['alias']})." if "seat" in view else "Spectator view."
    line = f"{view['variant']}, {view['ticks_per_shift']} ticks a shift. {who}"
    if view.get("cold_streak"):
        line += f" All vats cold for {view['cold_streak']} boundaries."
    canvas.text(MARGIN, 48, fit(line, width - 2 * MARGIN, 13), size=13)


def _room(canvas: Canvas, view: Mapping[str, Any], left: float, top: float) -> None:
    def at(x: int, y: int) -> tuple[float, float]:
        return left + x * CELL, top + y * CELL

    for y in range(HEIGHT):
        for x in range(WIDTH):
            px, py = at(x, y)
            wall = WALL[cell(x, y)]
            canvas.rect(
                px,
                py,
                CELL,
                CELL,
                fill=WALL_FILL if wall else FLOOR,
                stroke=WALL_FILL if wall else "#e2ded3",
                stroke_width=0.5,
            )
    for x in range(WIDTH):
        canvas.text(left + (x + 0.5) * CELL, top - 5, x, size=8, fill=MUTED, anchor="middle")
    for y in range(HEIGHT):
        canvas.text(left - 4, top + (y + 0.5) * CELL + 3, y, size=8, fill=MUTED, anchor="end")
    for vat in view["vats"]:
        name = vat["name"]
        for c in RINGS[VATS.index(name)]:
            px, py = at(c % WIDTH, c // WIDTH)
            canvas.rect(
                px, py, CELL, CELL, fill=RING_TINT[name], stroke="#e2ded3", stroke_width=0.5
            )
        cx, cy = vat["centre"]
        px, py = at(cx - 1, cy - 1)
        canvas.rect(
            px, py, 3 * CELL, 3 * CELL, fill=VAT_TINT[name], stroke=VAT_COLOUR[name], stroke_width=2
        )
        canvas.text(px + 1.5 * CELL, py + 1.5 * CELL + 4, name, size=11, anchor="middle", bold=True)
        _vat_label(canvas, vat, left, top)
    for cog in view["cogs"]:
        px, py = at(*cog["home"])
        canvas.rect(
            px + 2,
            py + 2,
            CELL - 4,
            CELL - 4,
            stroke=seat_colour(int(cog["seat"])),
            stroke_width=2,
            stroke_dasharray="3,2",
        )
    for vent in view["vents"]:
        px, py = at(*vent["cell"])
        colour = SPECIES_COLOUR.get(vent["molecule"], MUTED)
        canvas.polygon(
            [(px + CELL / 2, py + 2), (px + CELL - 2, py + CELL - 3), (px + 2, py + CELL - 3)],
            fill=colour,
            stroke=INK,
            stroke_width=1,
        )
        canvas.text(
            px + CELL / 2,
            py + CELL - 5,
            "V",
            size=9,
            fill=ink_on(colour),
            anchor="middle",
            bold=True,
        )
    for x, y, species in view["molecules"]:
        px, py = at(x, y)
        _molecule(canvas, px + CELL / 2, py + CELL / 2, 7, species)
    for x, y, _age in view["food"]:
        px, py = at(x, y)
        mx, my = px + CELL / 2, py + CELL / 2
        canvas.polygon(
            [(mx, my - 7), (mx + 7, my), (mx, my + 7), (mx - 7, my)],
            fill=FOOD,
            stroke="#1c5e30",
            stroke_width=1,
        )
    for cog in view["cogs"]:
        px, py = at(*cog["cell"])
        colour = seat_colour(int(cog["seat"]))
        canvas.circle(px + CELL / 2, py + CELL / 2, 9, fill=colour, stroke=INK, stroke_width=1.2)
        canvas.text(
            px + CELL / 2,
            py + CELL / 2 + 4,
            cog["seat"],
            size=11,
            fill=ink_on(colour),
            anchor="middle",
            bold=True,
        )
        for k, species in enumerate(cog["hand"]):
            _molecule(canvas, px + CELL - 3 - 6 * k, py + 3, 4, species, letter=False)


def _vat_label(canvas: Canvas, vat: Mapping[str, Any], left: float, top: float) -> None:
    """The vat's charge and stock, written on the wall nearest its pad: no cog can stand there,
    so none covers them (a cog delivering stands on the pad)."""
    cx, cy = vat["centre"]
    row = 0 if cy < HEIGHT / 2 else HEIGHT - 1
    stock = " ".join(f"{t[0]}{n}" for t, n in zip(vat["takes"], vat["stock"], strict=False))
    label = f"{vat['name']}: charge {vat['charge']}, {stock}"
    if vat["cooldown"]:
        label += f", cool {vat['cooldown']}"
    canvas.text(
        left + (cx + 0.5) * CELL,
        top + (row + 0.5) * CELL + 4,
        label,
        size=11,
        fill=VAT_TINT[vat["name"]],
        anchor="middle",
        bold=True,
    )


def _molecule(
    canvas: Canvas, x: float, y: float, r: float, species: str, *, letter: bool = True
) -> None:
    colour = SPECIES_COLOUR.get(species, MUTED)
    canvas.circle(x, y, r, fill=colour, stroke=INK, stroke_width=0.8)
    if letter:
        canvas.text(
            x,
            y + r * 0.45,
            species[:1],
            size=r * 1.3,
            fill=ink_on(colour),
            anchor="middle",
            bold=True,
        )


def _under(canvas: Canvas, view: Mapping[str, Any], x: float, y: float, width: float) -> None:
    """The legend, under the room."""
    y = canvas.heading(x, y, "Legend", width=width)
    column = width / 3
    items: list[tuple[str, str]] = [(s, f"{s} molecule") for s in SPECIES_COLOUR]
    for k, (species, label) in enumerate(items):
        cx, cy = x + (k % 3) * column, y + (k // 3) * 18
        _molecule(canvas, cx + 7, cy + 7, 7, species)
        canvas.text(cx + 20, cy + 11, label, size=11.5)
    y += 2 * 18
    cx = x + 2 * column
    canvas.polygon([(cx + 7, y - 15), (cx + 14, y - 4), (cx, y - 4)], fill="#999999", stroke=INK)
    canvas.text(cx + 20, y - 7, "vent (its molecule's colour)", size=11.5)
    canvas.polygon([(x + 7, y), (x + 14, y + 7), (x + 7, y + 14), (x, y + 7)], fill=FOOD)
    canvas.text(x + 20, y + 11, "food (eating it scores 1)", size=11.5)
    canvas.circle(x + column + 7, y + 7, 8, fill=seat_colour(0), stroke=INK)
    canvas.text(x + column + 20, y + 11, "cog with seat; dots = hand", size=11.5)
    canvas.rect(
        x + 2 * column, y, 14, 14, stroke=seat_colour(0), stroke_width=2, stroke_dasharray="3,2"
    )
    canvas.text(x + 2 * column + 20, y + 11, "a cog's home", size=11.5)
    y += 18
    canvas.rect(x, y, 14, 14, fill=VAT_TINT["amber"], stroke=VAT_COLOUR["amber"], stroke_width=2)
    canvas.text(x + 20, y + 11, "vat; charge, stock on the wall", size=11.5)
    canvas.rect(x + column, y, 14, 14, fill=RING_TINT["amber"], stroke="#e2ded3")
    canvas.text(x + column + 20, y + 11, "spill ring (food lands)", size=11.5)
    canvas.rect(x + 2 * column, y, 14, 14, fill=WALL_FILL)
    canvas.text(x + 2 * column + 20, y + 11, "wall; x east, y south", size=11.5)


def _panel(canvas: Canvas, view: Mapping[str, Any], x: float, y: float) -> None:
    canvas.line(x - 12, y, x - 12, canvas.height - MARGIN, stroke=PANEL_LINE)
    width = PANEL - 10
    y = canvas.heading(x, y, "Vats", width=width)
    rows = []
    for v in view["vats"]:
        stock = ", ".join(f"{t} {n}" for t, n in zip(v["takes"], v["stock"], strict=False))
        last = v["last_deliverer"]
        rows.append(
            (
                VAT_COLOUR.get(v["name"], MUTED),
                f"{v['name']}: charge {v['charge']}; {stock}"
                + (f"; cooldown {v['cooldown']}" if v["cooldown"] else "")
                + ("" if last is None else f"; last by {last}"),
            )
        )
    y = canvas.swatch_rows(x, y, rows, width=width, size=11.5) + 6
    y = canvas.heading(x, y, "Cogs: eaten (score), hand, order", width=width)
    orders = {int(o["seat"]): o for o in view["orders"]}
    you = view.get("seat")
    for g in view["cogs"]:
        seat = int(g["seat"])
        colour = seat_colour(seat)
        canvas.circle(x + 7, y + 8, 7, fill=colour, stroke=INK, stroke_width=1)
        canvas.text(x + 7, y + 12, seat, size=9.5, fill=ink_on(colour), anchor="middle", bold=True)
        hand = "+".join(g["hand"]) or "empty hand"
        where = f"({g['cell'][0]},{g['cell'][1]})"
        label = f"{g['alias']}{' (you)' if seat == you else ''} {where}: ate {g['eaten']}, {hand}"
        canvas.text(x + 20, y + 12, fit(label, width - 20, 11.5), size=11.5, bold=seat == you)
        order = (orders.get(seat) or {}).get("order") or "-"
        canvas.text(x + 20, y + 26, fit(order, width - 20, 10.5), size=10.5, fill=MUTED)
        y += 33
    food = view["food"]
    loose = ", ".join(f"{v['molecule']} {v['loose']}" for v in view["vents"])
    y += 4
    canvas.lines(x, y, [f"Food on the floor: {len(food)}", f"Loose: {loose}"], width=width, size=11)
