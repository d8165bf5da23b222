"""The picture of an Influence view: the hex board with owners and strengths, walls and big
cells, the last turn's attacks as arrows and its reinforcements as +k, the areas and values.

Cell (r, c) sits at x = c − r/2 (influence.md §1.2), so a row is drawn half a cell left of the
one above and the six neighbours of a cell touch it, as on the real board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..svg import MUTED, PANEL_LINE, Canvas, fit, hexagon, ink_on
from .board import BIG_CAP, SMALL_CAP

FILL = {"White": "#2f6fc4", "Black": "#c8372d"}
"""White is drawn blue and Black red, as the rules say (rules.md §2)."""
MARK = "#f2b600"
"""The last turn's reinforcements: a gold that reads on blue, red and empty cells alike."""
ATTACK = "#1a1a1a"
"""The last turn's attacks: the accent red would vanish on Black's cells."""
EMPTY = "#c9d3bf"
WALL = "#7a6a58"
BIG_RING = "#c99a2e"
MARGIN = 16
BOARD_WIDTH = 620
"""The widest a board may be drawn; bigger maps get smaller hexes."""
BOARD_HEIGHT = 560
MAX_SIZE = 22.0
PANEL = 300
HEAD = 64
SQRT3 = math.sqrt(3)

Cell = tuple[int, int]


def _cells(view: Mapping[str, Any]) -> tuple[dict[Cell, int], set[Cell]]:
    r0, c0 = (int(x) for x in view["origin"])
    values: dict[Cell, int] = {}
    walls: set[Cell] = set()
    for k, row in enumerate(view["grid"]):
        for m, v in enumerate(row):
            if v is None:
                walls.add((r0 + k, c0 + m))
            else:
                values[(r0 + k, c0 + m)] = int(v)
    return values, walls


def _label(text: str) -> Cell:
    r, c = text.split(",")
    return int(r), int(c)


class _Board:
    """Where each cell is drawn: hex size and the pixel centre of (r, c)."""

    def __init__(self, cells: list[Cell], left: float, top: float) -> None:
        xs = [c - r / 2 for r, c in cells]
        rows = [r for r, _ in cells]
        span_x = max(xs) - min(xs) + 1
        span_y = max(rows) - min(rows)
        self.size = min(
            MAX_SIZE,
            (BOARD_WIDTH - 40) / (span_x * SQRT3 + 1),
            (BOARD_HEIGHT - 40) / (span_y * 1.5 + 2),
        )
        self.x0 = left + 40 + self.size * SQRT3 / 2 - min(xs) * self.size * SQRT3
        self.y0 = top + 20 + self.size - min(rows) * self.size * 1.5
        self.width = 40 + span_x * self.size * SQRT3 + 20
        self.height = 20 + span_y * self.size * 1.5 + 2 * self.size + 20

    def centre(self, cell: Cell) -> tuple[float, float]:
        r, c = cell
        return self.x0 + (c - r / 2) * self.size * SQRT3, self.y0 + r * self.size * 1.5


def picture(view: Mapping[str, Any]) -> str:
    values, walls = _cells(view)
    every = sorted([*values, *walls])
    board = _Board(every, MARGIN, HEAD)
    width = MARGIN + max(board.width, 360) + PANEL + MARGIN
    height = max(HEAD + board.height, HEAD + 420) + MARGIN
    canvas = Canvas(width, height, f"Influence, turn {view['turn']}")
    _header(canvas, view, width)
    _draw_board(canvas, view, board, values, walls)
    _panel(canvas, view, width - PANEL - MARGIN, HEAD)
    return canvas.svg()


def _header(canvas: Canvas, view: Mapping[str, Any], width: float) -> None:
    canvas.text(
        MARGIN, 26, f"Influence: turn {view['turn']} of {view['max_turns']}", size=18, bold=True
    )
    you = view.get("you")
    if view["phase"] == "over":
        outcome = view.get("outcome") or {}
        winners = outcome.get("winners", [])
        result = "a draw" if len(winners) != 1 else f"{view['seats'][winners[0]]} wins"
        status = f"Game over: {result} ({outcome.get('reason', '?')})."
    elif view["phase"] == "attack":
        status = f"To move: {view['to_move']}, attack phase ({view['attacks_this_phase']} made)."
    else:
        status = (
            f"To move: {view['to_move']}, reinforce phase, "
            f"{view.get('spendable', view['points_left'])} point(s) to spend."
        )
    viewer = f"You are {you}." if you else "Spectator view."
    canvas.text(MARGIN, 48, fit(f"{status} {viewer}", width - 2 * MARGIN, 13), size=13)


def _draw_board(
    canvas: Canvas,
    view: Mapping[str, Any],
    board: _Board,
    values: Mapping[Cell, int],
    walls: set[Cell],
) -> None:
    size = board.size
    font = max(6.0, size * 0.62)
    big = {(int(r), int(c)) for r, c in view["big"]}
    last = view.get("last_turn") or {}
    reinforced = {_label(k): int(v) for k, v in (last.get("reinforced") or {}).items()}
    for cell in sorted([*values, *walls]):
        cx, cy = board.centre(cell)
        corners = hexagon(cx, cy, size * 0.97)
        if cell in walls:
            canvas.polygon(corners, fill=WALL, stroke=WALL, stroke_width=1.0)
            continue
        v = values[cell]
        fill = EMPTY if v == 0 else FILL["White" if v > 0 else "Black"]
        canvas.polygon(corners, fill=fill, stroke="#8c8c8c", stroke_width=1.0)
        if cell in big:
            canvas.polygon(
                hexagon(cx, cy, size * 0.78), fill="none", stroke=BIG_RING, stroke_width=2.5
            )
        if v:
            canvas.text(
                cx,
                cy + font * 0.36,
                abs(v),
                size=font,
                fill=ink_on(fill),
                anchor="middle",
                bold=True,
            )
        if cell in reinforced:
            bx, by = cx + size * 0.55, cy - size * 0.55
            canvas.circle(bx, by, size * 0.3, fill=MARK, stroke=ATTACK, stroke_width=0.8)
            canvas.text(
                bx,
                by + size * 0.13,
                f"+{reinforced[cell]}",
                size=size * 0.36,
                fill=ATTACK,
                anchor="middle",
                bold=True,
            )
    _axes(canvas, board, [*values, *walls], max(6.0, size * 0.5))
    fields = list(last.get("attack_fields") or [])
    if "from" in fields and "to" in fields:
        at_from, at_to = fields.index("from"), fields.index("to")
        for row in last.get("attacks") or []:
            _arrow(canvas, board, _label(row[at_from]), _label(row[at_to]))


def _arrow(canvas: Canvas, board: _Board, source: Cell, target: Cell) -> None:
    (x1, y1), (x2, y2) = board.centre(source), board.centre(target)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    cut = board.size * 0.3
    canvas.arrow(
        x1 + dx / length * cut,
        y1 + dy / length * cut,
        x2 - dx / length * cut,
        y2 - dy / length * cut,
        max(1.5, board.size * 0.18),
        ATTACK,
    )


def _axes(canvas: Canvas, board: _Board, cells: list[Cell], font: float) -> None:
    rows = sorted({r for r, _ in cells})
    for r in rows:
        first = min(c for rr, c in cells if rr == r)
        x, y = board.centre((r, first))
        canvas.text(
            x - board.size * 1.1, y + font * 0.35, f"row {r}", size=font, fill=MUTED, anchor="end"
        )
    for r, dy in ((rows[0], -1.25), (rows[-1], 1.25)):
        for c in sorted({c for rr, c in cells if rr == r}):
            x, y = board.centre((r, c))
            canvas.text(
                x, y + dy * board.size + font * 0.35, c, size=font, fill=MUTED, anchor="middle"
            )
    x, y = board.centre((rows[0], min(c for rr, c in cells if rr == rows[0])))
    canvas.text(
        x - board.size * 1.1,
        y - 1.25 * board.size + font * 0.35,
        "col",
        size=font,
        fill=MUTED,
        anchor="end",
    )


def _panel(canvas: Canvas, view: Mapping[str, Any], x: float, y: float) -> None:
    canvas.line(x - 12, y, x - 12, canvas.height - MARGIN, stroke=PANEL_LINE)
    width = PANEL
    y = canvas.heading(x, y, "Seats", width=width)
    rows = []
    for name in view["seats"]:
        you = " (you)" if name == view.get("you") else ""
        move = " to move" if name == view.get("to_move") else ""
        rows.append(
            (
                FILL[name],
                f"{name}{you}: area {view['area'][name]}, value {view['value'][name]}{move}",
            )
        )
    y = canvas.swatch_rows(x, y, rows, width=width) + 8
    y = canvas.heading(x, y, "Legend", width=width)
    y = canvas.swatch_rows(
        x,
        y,
        [
            (FILL["White"], "White cell (blue), with its strength"),
            (FILL["Black"], "Black cell (red), with its strength"),
            (EMPTY, "empty cell"),
            (WALL, "wall (not a cell)"),
            (BIG_RING, f"ring: big cell, cap {BIG_CAP} (others {SMALL_CAP})"),
        ],
        width=width,
    )
    canvas.arrow(x, y + 7, x + 12, y + 7, 1.6, ATTACK)
    canvas.text(x + 18, y + 12, "attack on the last turn shown", size=12)
    y += 18
    canvas.circle(x + 6, y + 7, 7, fill=MARK, stroke=ATTACK, stroke_width=0.8)
    canvas.text(x + 6, y + 10.5, "+", size=11, fill=ATTACK, anchor="middle", bold=True)
    canvas.text(x + 18, y + 12, "+k: k points given on that turn", size=12)
    y += 26
    last = view.get("last_turn")
    if isinstance(last, Mapping):
        y = canvas.heading(
            x, y, f"Last turn: {last.get('seat')} (turn {last.get('turn')})", width=width
        )
        attacks = last.get("attacks") or []
        captured = last.get("captured") or []
        y = canvas.lines(
            x,
            y,
            [
                f"{len(attacks)} attack(s), {len(captured)} cell(s) captured",
                f"{last.get('points_spent', 0)} point(s) given, {last.get('points_lost', 0)} lost",
            ],
            width=width,
            size=12,
        )
    canvas.text(x, y + 16, "Neighbours of r,c: r,c±1  r±1,c  r+1,c+1  r-1,c-1", size=11, fill=MUTED)
