"""The picture of a Territory view: the radius-7 hex board with each tile's owner, yield, cracks,
rubble, wet paint and hearths; the seat's claim reach when it is a seat's view; the seats' table.

Tile (q, r) is a pointy-top axial hex at x = q + r/2, y = 1.5 r, the layout the text board
indents to. Each seat is drawn in the colour its alias names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..svg import ACCENT, INK, MUTED, PANEL_LINE, Canvas, fit, hexagon, ink_on, wrap
from .board import ALIASES, RADIUS

COLOURS = dict(
    zip(
        ALIASES,
        (
            "#3a3a3a",
            "#b8742a",
            "#3f9a4a",
            "#2f5fb3",
            "#f2c230",
            "#8a4fbf",
            "#1b9e9e",
            "#e77fa0",
            "#b4b4aa",
        ),
        strict=True,
    )
)
UNOWNED = "#efe9dc"
RUBBLE = "#6d6258"
WET = "#1e88e5"
MARGIN = 16
HEAD = 64
SIZE = 24.0
PANEL = 360
SQRT3 = math.sqrt(3)


def picture(view: Mapping[str, Any]) -> str:
    board_w = (2 * RADIUS + 1) * SIZE * SQRT3 + 2 * MARGIN
    board_h = (2 * RADIUS * 1.5 + 2) * SIZE + 2 * MARGIN
    width = MARGIN + board_w + PANEL + MARGIN
    height = HEAD + max(board_h, 640) + MARGIN
    canvas = Canvas(width, height, f"Territory, turn {view['turn']}")
    _header(canvas, view, width)
    cx = MARGIN + board_w / 2
    cy = HEAD + board_h / 2
    _board(canvas, view, cx, cy)
    left = MARGIN + board_w + MARGIN
    bottom = _panel(canvas, view, left, HEAD)
    canvas.height = max(canvas.height, bottom + MARGIN)
    canvas.line(left - 10, HEAD, left - 10, canvas.height - MARGIN, stroke=PANEL_LINE)
    return canvas.svg()


def _header(canvas: Canvas, view: Mapping[str, Any], width: float) -> None:
    title = f"Territory: turn {view['turn']} of {view['turns']}"
    if view.get("over"):
        title += f" (game over: {(view.get('result') or {}).get('reason', 'ended')})"
    canvas.text(MARGIN, 26, title, size=18, bold=True)
    if view.get("view") == "seat":
        who = (
            f"You are {view['alias']} (seat {view['seat']}), {view['life']}, "
            f"paint {view['paint']} stored."
        )
    else:
        who = "Spectator view" + (" (everything shown)." if view.get("full") else ".")
    line = f"Board pool {view['pool']}/turn (started at {view['poolStart']}). {who}"
    canvas.text(MARGIN, 48, fit(line, width - 2 * MARGIN, 13), size=13)


def _centre(q: int, r: int, cx: float, cy: float) -> tuple[float, float]:
    return cx + (q + r / 2) * SIZE * SQRT3, cy + r * SIZE * 1.5


def _board(canvas: Canvas, view: Mapping[str, Any], cx: float, cy: float) -> None:
    reach = set(view.get("reachDetail") or {}) if view.get("view") == "seat" else set()
    for q, r, state, eff, owner, wet, hearth in view["tiles"]:
        x, y = _centre(int(q), int(r), cx, cy)
        fill = RUBBLE if state == "rubble" else COLOURS.get(owner, UNOWNED)
        ink = ink_on(fill)
        canvas.polygon(hexagon(x, y, SIZE * 0.97), fill=fill, stroke="#9a9488", stroke_width=1.0)

        if hearth:
            _ring(canvas, x, y, 0.84, COLOURS[hearth], 3.5)
            _ring(canvas, x, y, 0.97, INK, 1.5)
        if state == "cracked":
            _ring(canvas, x, y, 0.7, ink, 1.2, "3,2")
        if f"{q},{r}" in reach:
            _ring(canvas, x, y, 0.9, ACCENT, 2.0, "2,2")
        canvas.text(x, y - SIZE * 0.38, f"{q},{r}", size=7.5, fill=ink, anchor="middle")
        if state == "rubble":
            canvas.text(x, y + 5, "×", size=15, fill=ink, anchor="middle")
        else:
            canvas.text(x, y + 6, eff, size=14, fill=ink, anchor="middle", bold=True)
        if wet:
            canvas.circle(x, y + SIZE * 0.58, 3.2, fill=WET, stroke="#ffffff", stroke_width=0.8)


def _ring(
    canvas: Canvas,
    x: float,
    y: float,
    scale: float,
    stroke: str,
    width: float,
    dash: str | None = None,
) -> None:
    """An unfilled hexagon inside a tile: hearth rings, cracks, the claim reach."""
    canvas.polygon(
        hexagon(x, y, SIZE * scale),
        fill="none",
        stroke=stroke,
        stroke_width=width,
        stroke_dasharray=dash,
    )


def _panel(canvas: Canvas, view: Mapping[str, Any], x: float, y: float) -> float:
    """Draws the seats and the legend from (x, y) down; returns the y below them."""
    width = PANEL - MARGIN
    you = view.get("alias") if view.get("view") == "seat" else None
    ranking = {int(row["seat"]): row for row in view.get("ranking") or []}
    y = canvas.heading(x, y, "Seats", width=width)
    for s in view["seats"]:
        alias = s["alias"]
        label = f"{alias}{' (you)' if alias == you else ''}: hearth {s['hearth']}, {s['life']}"
        if int(s["seat"]) in ranking:
            row = ranking[int(s["seat"])]
            label += f", rank {row['rank']}" + (" (winner)" if row["winner"] else "")
        canvas.rect(x, y + 1, 12, 12, fill=COLOURS[alias], stroke=INK, stroke_width=1.0)
        numbers = [
            f"score {s['score']}, {s['walls']} walls, +{s['lastIncome']}/turn, {s['razes']} razes"
        ]
        if "paint" in s:
            numbers.append(f"paint {s['paint']}")
        # Wrapped, not cut: the viewer's row ("(you)", a rank) is the longest.
        for row in wrap(label, width - 18, 12):
            canvas.text(x + 18, y + 12, row, size=12, bold=alias == you)
            y += 14
        for row in wrap(", ".join(numbers), width - 18, 11):
            canvas.text(x + 18, y + 12, row, size=11, fill=MUTED)
            y += 13
        y += 4
    y += 8
    y = canvas.heading(x, y, "Legend", width=width)
    rows = [
        (UNOWNED, "unowned tile; big number = yield per turn"),
        (RUBBLE, "rubble (×): pays nothing"),
    ]
    y = canvas.swatch_rows(x, y, rows, width=width, size=11.5)
    y = _legend_hex(canvas, x, y, "small q,r = the tile's key", {})
    y = _legend_hex(
        canvas, x, y, "cracked: pays half", {"stroke": INK, "stroke_dasharray": "3,2"}, 0.55
    )
    y = _legend_hex(canvas, x, y, "hearth, ringed in its seat's colour", {"stroke": INK})
    canvas.circle(x + 6, y + 7, 3.5, fill=WET)
    canvas.text(x + 18, y + 11, "wet paint: pays from next turn", size=11.5)
    y += 17
    if you:
        y = _legend_hex(
            canvas,
            x,
            y,
            "in your claim reach this turn",
            {"stroke": ACCENT, "stroke_dasharray": "2,2"},
        )
    return y


def _legend_hex(
    canvas: Canvas, x: float, y: float, label: str, style: Mapping[str, str], scale: float = 0.9
) -> float:
    canvas.polygon(hexagon(x + 6, y + 7, 7 * scale / 0.9), fill=UNOWNED, stroke_width=1.5, **style)
    canvas.text(x + 18, y + 11, label, size=11.5)
    return y + 17
