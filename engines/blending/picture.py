"""The picture of a Blending view: the tile grid with each square's land, the start square,
primers, blends over their 2x2 blocks, heroes and guardians; beside it the players, the viewer's
hand, the guardians' piles (face up), the fight in progress and the stock.

Tiles are drawn as their four corners (clockwise from the top-left, as the notation writes them).
A seat's picture shows its own hand only: rivals' hands are counts, as in the view; a finished
game's spectator view carries every hand and the picture shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..svg import INK, MUTED, PANEL_LINE, Canvas, fit, ink_on, seat_colour

LAND_COLOUR = {"M": "#a08b78", "F": "#4f9d55", "P": "#e8d36a"}
LAND_NAME = {"M": "Mountain", "F": "Forest", "P": "Plains"}
LAND_CODES = "MFP"
START_FILL = "#ffffff"
BLANK = "#efece4"
MARGIN = 16
HEAD = 64
AXIS = 20
BOARD = 560.0
MAX_CELL = 44.0
PANEL = 430
TILE = 22.0


def picture(view: Mapping[str, Any]) -> str:
    squares = {(int(x), int(y)): int(land) for x, y, land in view["squares"]}
    xs = range(min(x for x, _ in squares) - 1, max(x for x, _ in squares) + 2)
    ys = range(min(y for _, y in squares) - 1, max(y for _, y in squares) + 2)
    size = min(MAX_CELL, BOARD / len(xs), BOARD / len(ys))
    board_w = AXIS + len(xs) * size
    board_h = AXIS + len(ys) * size
    left = MARGIN + max(board_w, BOARD + AXIS) + MARGIN
    canvas = Canvas(left + PANEL, HEAD + board_h + 150 + MARGIN, f"Blending, round {view['round']}")
    _header(canvas, view, canvas.width)
    grid = _Grid(MARGIN + AXIS, HEAD + AXIS, xs[0], ys[0], size)
    _board(canvas, view, grid, squares, xs, ys)
    _legend(canvas, MARGIN, HEAD + board_h + 14, BOARD)
    bottom = _panel(canvas, view, left + 10, HEAD)
    canvas.height = max(canvas.height, bottom + MARGIN)
    canvas.line(left - 2, HEAD, left - 2, canvas.height - MARGIN, stroke=PANEL_LINE)
    return canvas.svg()


class _Grid:
    def __init__(self, left: float, top: float, x0: int, y0: int, size: float) -> None:
        self.left, self.top, self.x0, self.y0, self.size = left, top, x0, y0, size

    def at(self, x: int, y: int) -> tuple[float, float]:
        return self.left + (x - self.x0) * self.size, self.top + (y - self.y0) * self.size


def _header(canvas: Canvas, view: Mapping[str, Any], width: float) -> None:
    seat = view.get("seat")
    title = f"Blending: round {view['round']} of {view['rounds']}"
    if view["phase"] == "over":
        title += f" (game over: {view['ended']})"
    if view.get("era"):  # an older era names itself; the current rules' views carry no era
        title += f" - {view['era']}"
    canvas.text(MARGIN, 26, title, size=18, bold=True)
    if view["to_act"] is None:
        status = "Nobody to act."
    else:
        who = "you" if view["to_act"] == seat else f"seat {view['to_act']}"
        status = f"To act: {who} ({view['phase']})."
    who = f"You are seat {seat}." if seat is not None else "Spectator view."
    turn = view.get("turn")
    if isinstance(turn, Mapping) and view["phase"] != "walk":
        status += (
            f" Moves left {turn['moves_left']}/{view['native_speed']}, placed {turn['placed']}, "
            f"main action {turn['main'] or 'not taken'}."
        )
    canvas.text(MARGIN, 48, fit(f"{status} {who}", width - 2 * MARGIN, 13), size=13)


def _board(
    canvas: Canvas,
    view: Mapping[str, Any],
    grid: _Grid,
    squares: Mapping[tuple[int, int], int],
    xs: range,
    ys: range,
) -> None:
    size = grid.size
    font = max(7.0, size * 0.3)
    for y in ys:
        for x in xs:
            px, py = grid.at(x, y)
            land = squares.get((x, y))
            if land is None:
                canvas.rect(px, py, size, size, fill=BLANK, stroke="#dedad0", stroke_width=0.5)
            elif land >= len(LAND_CODES):
                canvas.rect(px, py, size, size, fill=START_FILL, stroke=INK, stroke_width=1)
                canvas.text(
                    px + size / 2, py + size / 2 + font * 0.35, "start", size=font, anchor="middle"
                )
            else:
                code = LAND_CODES[land]
                fill = LAND_COLOUR[code]
                canvas.rect(px, py, size, size, fill=fill, stroke="#6f6a60", stroke_width=0.8)
                canvas.text(px + 3, py + font + 1, code, size=font, fill=ink_on(fill))
    for x in xs:
        px, _ = grid.at(x, ys[0])
        canvas.text(px + size / 2, grid.top - 6, x, size=font, fill=MUTED, anchor="middle")
    for y in ys:
        _, py = grid.at(xs[0], y)
        canvas.text(
            grid.left - 4, py + size / 2 + font * 0.35, y, size=font, fill=MUTED, anchor="end"
        )
    for x, y, k in view["primers"]:
        px, py = grid.at(int(x), int(y))
        canvas.rect(px + size - 17, py + size - 13, 15, 11, fill=INK, rx=2)
        canvas.text(
            px + size - 9.5, py + size - 4.5, f"+{k}", size=8, fill="#ffffff", anchor="middle"
        )
    for x, y, name, _face, _rot, by in view["blends"]:
        px, py = grid.at(int(x), int(y))
        colour = seat_colour(int(by))
        canvas.rect(px + 3, py + 3, 2 * size - 6, 2 * size - 6, stroke=colour, stroke_width=3, rx=4)
        canvas.rect(px + size - 14, py + size - 7, 28, 14, fill=colour, rx=3)
        canvas.text(
            px + size,
            py + size + 3.5,
            name,
            size=9,
            fill=ink_on(colour),
            anchor="middle",
            bold=True,
        )
    heroes: dict[tuple[int, int], list[int]] = {}
    for p in view["players"]:
        heroes.setdefault((int(p["hero"][0]), int(p["hero"][1])), []).append(int(p["seat"]))
    estates = "territories" not in view
    guarded = set()
    for g in view["guardians"]:
        at = (int(g["at"][0]), int(g["at"][1]))
        guarded.add(at)
        if estates:
            _estate(canvas, grid, at, seat_colour(int(g["owner"])))
        # A hero on the guardian's square: the shield keeps the left of it, the heroes the right.
        _guardian(canvas, grid, at, g, font, narrow=at in heroes)
    for (x, y), seats in heroes.items():
        _heroes(canvas, grid, x, y, seats, beside=(x, y) in guarded)


def _estate(canvas: Canvas, grid: _Grid, at: tuple[int, int], colour: str) -> None:
    """The 3x3 a guardian guards, outlined in its owner's colour (inset, so two estates that
    touch both show)."""
    px, py = grid.at(at[0] - 1, at[1] - 1)
    span = 3 * grid.size
    canvas.rect(
        px + 2, py + 2, span - 4, span - 4, stroke=colour, stroke_width=2, stroke_dasharray="6,3"
    )


def _guardian(
    canvas: Canvas,
    grid: _Grid,
    at: tuple[int, int],
    g: Mapping[str, Any],
    font: float,
    *,
    narrow: bool,
) -> None:
    px, py = grid.at(*at)
    colour = seat_colour(int(g["owner"]))
    s = grid.size
    left, right, mid = (0.04, 0.58, 0.31) if narrow else (0.2, 0.8, 0.5)
    canvas.polygon(
        [
            (px + s * left, py + s * 0.12),
            (px + s * right, py + s * 0.12),
            (px + s * right, py + s * 0.55),
            (px + s * mid, py + s * 0.9),
            (px + s * left, py + s * 0.55),
        ],
        fill=colour,
        stroke=INK,
        stroke_width=1.2,
    )
    canvas.text(
        px + s * mid,
        py + s * 0.5,
        g["id"],
        size=font * (0.85 if narrow else 1.0),
        fill=ink_on(colour),
        anchor="middle",
        bold=True,
    )


def _heroes(
    canvas: Canvas, grid: _Grid, x: int, y: int, seats: Sequence[int], *, beside: bool
) -> None:
    """The heroes on a square: one in the middle, several in its corners, or, beside a
    guardian, stacked down the square's right side."""
    px, py = grid.at(x, y)
    size = grid.size
    n = len(seats)
    if beside:
        r = size * min(0.2, 0.46 / n)
        spots = [(px + size * 0.79, py + size * (k + 0.5) / n) for k in range(n)]
    elif n == 1:
        r = size * 0.3
        spots = [(px + size / 2, py + size / 2)]
    else:
        r = size * 0.2
        spots = [
            (px + size * (0.28 + 0.44 * (k % 2)), py + size * (0.28 + 0.44 * ((k // 2) % 2)))
            for k in range(n)
        ]
    for seat, (cx, cy) in zip(seats, spots, strict=True):
        colour = seat_colour(seat)
        canvas.circle(cx, cy, r, fill=colour, stroke="#ffffff", stroke_width=1.5)
        canvas.text(
            cx,
            cy + r * 0.4,
            seat,
            size=r * 1.15,
            fill=ink_on(colour),
            anchor="middle",
            bold=True,
        )


def _legend(canvas: Canvas, x: float, y: float, width: float) -> None:
    y = canvas.heading(x, y, "Legend", width=width)
    half = width / 2
    rows: list[tuple[str, str]] = [(LAND_COLOUR[c], f"{c} = {LAND_NAME[c]}") for c in LAND_CODES]
    rows.append((START_FILL, "start square (no land)"))
    canvas.swatch_rows(x, y, rows, width=half, size=11.5)
    x2 = x + half
    canvas.circle(x2 + 6, y + 7, 7, fill=seat_colour(0), stroke=INK)
    canvas.text(x2 + 18, y + 11, "hero of a seat (its number)", size=11.5)
    canvas.polygon(
        [(x2, y + 19), (x2 + 12, y + 19), (x2 + 12, y + 26), (x2 + 6, y + 32), (x2, y + 26)],
        fill=seat_colour(1),
        stroke=INK,
    )
    canvas.text(x2 + 18, y + 29, "guardian (owner's colour)", size=11.5)
    canvas.rect(x2, y + 37, 12, 12, stroke=seat_colour(2), stroke_width=2.5, rx=2)
    canvas.text(x2 + 18, y + 47, "blend over a 2x2 block (who laid it)", size=11.5)
    canvas.rect(x2, y + 56, 14, 11, fill=INK, rx=2)
    canvas.text(x2 + 7, y + 64.5, "+k", size=7.5, fill="#ffffff", anchor="middle")
    canvas.text(x2 + 18, y + 65, "primers stacked on a single", size=11.5)
    canvas.rect(x, y + 74, 12, 12, stroke=seat_colour(1), stroke_width=2, stroke_dasharray="6,3")
    canvas.text(x + 18, y + 84, "a guardian's estate: the 3x3 it guards", size=11.5)


def _tiles(
    canvas: Canvas, x: float, y: float, tiles: Sequence[Sequence[Any]], width: float
) -> float:
    """Tiles as small four-corner squares with their names under them; returns the y below."""
    if not tiles:
        canvas.text(x, y + 11, "none", size=11, fill=MUTED)
        return y + 16
    step = TILE + 14
    per_row = max(1, int(width // step))
    for k, tile in enumerate(tiles):
        tx = x + (k % per_row) * step
        ty = y + (k // per_row) * (TILE + 16)
        _tile(canvas, tx, ty, str(tile[1]))
        mark = "*" if len(tile) > 2 and not tile[2] else ""
        canvas.text(tx + TILE / 2, ty + TILE + 10, f"{tile[0]}{mark}", size=8.5, anchor="middle")
    return y + ((len(tiles) - 1) // per_row + 1) * (TILE + 16)


def _tile(canvas: Canvas, x: float, y: float, face: str) -> None:
    half = TILE / 2
    corners = ((0, 0), (half, 0), (half, half), (0, half))
    for (dx, dy), code in zip(corners, face, strict=False):
        canvas.rect(x + dx, y + dy, half, half, fill=LAND_COLOUR.get(code, BLANK))
    canvas.rect(x, y, TILE, TILE, stroke=INK, stroke_width=1)


def _panel(canvas: Canvas, view: Mapping[str, Any], x: float, y: float) -> float:
    """Draws the panel from (x, y) down; returns the y below it."""
    width = PANEL - 20
    seat = view.get("seat")
    land = "territories" if "territories" in view else "estate"
    y = canvas.heading(x, y, f"Players: score ({land} + blends), guardians left", width=width)
    for p in view["players"]:
        s = int(p["seat"])
        colour = seat_colour(s)
        canvas.circle(x + 7, y + 8, 7, fill=colour, stroke=INK, stroke_width=1)
        canvas.text(x + 7, y + 12, s, size=9.5, fill=ink_on(colour), anchor="middle", bold=True)
        you = " (you)" if s == seat else ""
        parts = p["score_parts"]
        score = f"score {p['score_now']} ({parts[0]} + {parts[1]})"
        label = f"seat {s}{you} {p['class']}, home {p['home']}: {score}"
        canvas.text(x + 20, y + 12, fit(label, width - 20, 11.5), size=11.5, bold=s == seat)
        one, two, three = p["hand_pips"]
        detail = (
            f"hero {p['hero'][0]},{p['hero'][1]}; hand {p['hand_size']} ({one} single, {two} "
            f"double, {three} triple); guardians {p['guardians_left']}"
        )
        canvas.text(x + 20, y + 26, fit(detail, width - 20, 10.5), size=10.5, fill=MUTED)
        y += 33
        if "hand" in p:
            y = _tiles(canvas, x + 20, y, p["hand"], width - 20) + 2
    if "hand" in view:
        y = canvas.heading(x, y + 4, "Your hand", width=width)
        y = _tiles(canvas, x, y, view["hand"], width)
    pick = view.get("pick")
    if isinstance(pick, Mapping) and pick.get("picked"):
        y = canvas.heading(x, y + 4, f"Picked for {pick['for']}", width=width)
        y = _tiles(canvas, x, y, pick["picked"], width)
    faces = "face down" if view.get("combat") == "legacy" else "face up"
    y = canvas.heading(x, y + 4, f"Guardians (piles {faces}, top first; * bolster)", width=width)
    if not view["guardians"]:
        canvas.text(x, y + 11, "none yet", size=11, fill=MUTED)
        y += 16
    for g in view["guardians"]:
        land = LAND_NAME.get(g["land"], g["land"])
        canvas.text(
            x,
            y + 11,
            f"{g['id']} of seat {g['owner']}, {land}, at {g['at'][0]},{g['at'][1]}",
            size=11.5,
        )
        y = _tiles(canvas, x, y + 16, g["pile"], width)
    fight = view.get("fight")
    if isinstance(fight, Mapping):
        y = canvas.heading(
            x,
            y + 4,
            f"Fight against {fight['guardian']}, pass {fight['pass']} of {fight['max_passes']}",
            width=width,
        )
        laid = {int(pos): f"{t} as {kind}" for pos, t, kind in fight["laid"]}
        rows = [
            f"{i}. {t}:{face} [{state}] vs {laid.get(i, '-')}"
            + (" (flipped)" if i in fight["flipped"] else "")
            for i, (t, face, state) in enumerate(fight["row"], start=1)
        ]
        y = canvas.lines(x, y, rows + [str(r) for r in fight["results"][-3:]], width=width, size=11)
    discard = view["discard"]
    lines = [f"Stock {view['stock']} tiles; discard pile {len(discard)} tiles."]
    return canvas.lines(x, y + 6, lines, width=width, size=11.5)
