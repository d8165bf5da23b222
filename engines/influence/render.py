"""The text rendering of an Influence view (seat or spectator): the board drawn as hex rows, the
areas and values, the last turn and, for a seat, its legal attacks; and the brief form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import BIG_CAP, SMALL_CAP
from .history import render_record

LETTERS = ("W", "B")
CELL_WIDTH = 4
"""Characters per cell in the drawing; even, so a half-cell row offset is a whole number."""


def _token(v: int) -> str:
    if v == 0:
        return "."
    return f"{LETTERS[0] if v > 0 else LETTERS[1]}{abs(v)}"


def render(view: Mapping[str, Any]) -> str:
    r0, c0 = (int(x) for x in view["origin"])
    grid = view["grid"]
    cells: dict[tuple[int, int], int] = {}
    walls: set[tuple[int, int]] = set()
    for k, line in enumerate(grid):
        for m, v in enumerate(line):
            if v is None:
                walls.add((r0 + k, c0 + m))
            else:
                cells[(r0 + k, c0 + m)] = int(v)
    big = {(int(r), int(c)) for r, c in view["big"]}
    rows = list(range(r0, r0 + len(grid)))
    cols = list(range(c0, c0 + max(len(line) for line in grid)))
    lines = _header(view)
    last = view.get("last_turn")
    if isinstance(last, Mapping):
        lines.append(render_record(last, view.get("you")))
    lines.append("")
    lines.extend(_grid(cells, big, walls, rows, cols))
    lines.append("")
    lines.extend(_footer(view))
    return "\n".join(lines).rstrip() + "\n"


def render_brief(view: Mapping[str, Any]) -> str:
    """The compact text a host sends after a move: the header, the cells the decision is made
    with, a cell's neighbours in one line, and the footer's instructions without the legend and
    the legal-attack list (`render` and the menu keep those). The cells: the seat's (a
    spectator's: White's) that may attack, or in the reinforce phase those below their cap,
    and the rival's cells that touch the seat's; the others are counted, and walls and empty
    cells left out (the full view, `show`, draws every cell)."""
    r0, c0 = (int(x) for x in view["origin"])
    big = {(int(r), int(c)) for r, c in view["big"]}
    cells = {
        (r0 + k, c0 + m): int(v)
        for k, line in enumerate(view["grid"])
        for m, v in enumerate(line)
        if v is not None and int(v) != 0
    }
    mine = 1 if view.get("you") in (None, view["seats"][0]) else -1
    ours = {p for p, v in cells.items() if v * mine > 0}
    theirs = {p for p, v in cells.items() if v * mine < 0}
    front = {p for p in theirs if any(q in ours for q in _around(p))}
    # What this decision is made with: cells that may attack (strength 2 or more, beside a cell
    # not yours) in the attack phase; such cells below their cap in the reinforce phase.
    if view["phase"] == "reinforce":
        usable = {
            p
            for p in ours
            if abs(cells[p]) < (BIG_CAP if p in big else SMALL_CAP)
            and any(q not in ours for q in _around(p))
        }
        what = "on the edge, below their cap"
    else:
        usable = {p for p in ours if abs(cells[p]) >= 2 and any(q not in ours for q in _around(p))}
        what = "that may attack"
    lines = _header(view)
    lines.append("")
    names = view["seats"] if mine > 0 else view["seats"][::-1]
    lines.append(
        f"{names[0]} cells {what}: "
        + (_rows(usable, cells, big) or "none")
        + f" (+{len(ours) - len(usable)} more)"
    )
    lines.append(
        f"{names[1]} cells touching yours: "
        + (_rows(front, cells, big) or "none")
        + f" (+{len(theirs) - len(front)} more)"
    )
    lines.append("(rN col:strength; * big; `show` draws every cell)")
    lines.extend(_footer(view, brief=True))
    return "\n".join(lines).rstrip() + "\n"


def _around(cell: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = cell
    return [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c), (r + 1, c + 1)]


def _rows(
    chosen: set[tuple[int, int]], cells: Mapping[tuple[int, int], int], big: set[tuple[int, int]]
) -> str:
    by_row: dict[int, list[str]] = {}
    for r, c in sorted(chosen):
        mark = "*" if (r, c) in big else ""
        by_row.setdefault(r, []).append(f"{c}:{abs(cells[(r, c)])}{mark}")
    return "; ".join(f"r{r} " + " ".join(items) for r, items in by_row.items())


def _header(view: Mapping[str, Any]) -> list[str]:
    seat, you = view.get("seat"), view.get("you")
    area, value = view["area"], view["value"]
    sides = "   ".join(
        f"{name} ({name[0]}): area {area[name]}, value {value[name]}"
        + (" (you)" if name == you else "")
        for name in view["seats"]
    )
    lines = [f"Influence: turn {view['turn']} of {view['max_turns']}. {sides}"]
    if view["phase"] == "over":
        outcome = view.get("outcome") or {}
        winners = outcome.get("winners", [])
        result = "a draw" if len(winners) != 1 else f"{view['seats'][winners[0]]} wins"
        lines.append(f"Game over: {result} ({outcome.get('reason', '?')}).")
        return lines
    mover = view["to_move"]
    who = f"you ({mover})" if mover == you and seat is not None else mover
    if view["phase"] == "attack":
        lines.append(
            f"To move: {who}, attack phase; {view['attacks_this_phase']} attack(s) made this phase."
        )
    else:
        points, spendable = view["points_left"], view.get("spendable", view["points_left"])
        room = "" if spendable >= points else f" (only {spendable} fit below the caps)"
        lines.append(f"To move: {who}, reinforce phase; {points} point(s) left to spend{room}.")
    return lines


def _grid(
    cells: Mapping[tuple[int, int], int],
    big: set[tuple[int, int]],
    walls: set[tuple[int, int]],
    rows: list[int],
    cols: list[int],
) -> list[str]:
    # Cell (r, c) sits at x = c − r/2 (influence.md §1.2): each row starts half a cell left of
    # the one above, so the six neighbours touch it on the drawing.
    half = CELL_WIDTH // 2
    offset = min(CELL_WIDTH * c - half * r for r in rows for c in cols)
    label = max(len(f"row {r}") for r in rows) + 2

    def place(r: int, items: list[tuple[int, str]]) -> str:
        line = ""
        for c, text in items:
            pos = CELL_WIDTH * c - half * r - offset
            line += " " * (pos - len(line)) + text
        return line

    def axis(r: int) -> str:
        return (" " * (label - 5) + "col: " + place(r, [(c, f"{c:>3} ") for c in cols])).rstrip()

    out = [axis(rows[0])]
    for r in rows:
        items = []
        for c in cols:
            if (r, c) in cells:
                mark = "*" if (r, c) in big else " "
                items.append((c, f"{_token(cells[(r, c)]):>3}{mark}"))
            elif (r, c) in walls:
                items.append((c, "  # "))
        out.append(f"row {r}".ljust(label) + place(r, items).rstrip())
    out.append(axis(rows[-1]))
    return out


NEIGHBOURS = "r,c-1  r,c+1  r-1,c-1  r-1,c  r+1,c  r+1,c+1"


def _footer(view: Mapping[str, Any], brief: bool = False) -> list[str]:
    lines = (
        # The brief carries no legend: the neighbours of r,c are in the rules and the full
        # view, and spelled out here they took the brief past a third of the full view.
        []
        if brief
        else [
            f"Legend: W5 = White strength 5, B7 = Black strength 7, . = empty, # = wall; "
            f"* after a cell = big cell (cap {BIG_CAP}), other cells are small (cap {SMALL_CAP}).",
            f"Neighbours of r,c: {NEIGHBOURS} (columns run diagonally: each row is drawn half "
            "a cell left of the row above).",
        ]
    )
    attacks = view.get("legal_attacks") or []
    # Brief: the list is what `legal_moves` answers, and a whole-turn plan outgrows it anyway.
    if attacks and not brief:
        by_source: dict[str, list[str]] = {}
        for text in attacks:
            source, target = text.split(">")
            by_source.setdefault(source, []).append(target)
        lines.append(
            f"Your legal attacks ({len(attacks)}), as source>target, or `end` to end the phase:"
        )
        lines.extend(f"  {source}> {'  '.join(targets)}" for source, targets in by_source.items())
    elif (
        not attacks
        and view.get("seat") is not None
        and view["phase"] == "attack"
        and (view["to_move"] == view.get("you"))
    ):
        lines.append(
            "No legal attack: play `end`."
            if brief
            else "You have no legal attack: play `end` to end the attack phase."
        )
    if (
        view.get("seat") is not None
        and view["phase"] == "reinforce"
        and view["to_move"] == view.get("you")
    ):
        spendable = view.get("spendable", view["points_left"])
        lines.append(
            f"Spend {spendable} point(s) below the caps: `+9,1` or `+9,1:3 +8,2:1`."
            if brief
            else f"Spend {spendable} point(s) on your cells below their cap (8 small, 12 big): "
            f"one at a time (`+9,1`) or all at once (`+9,1:3 +8,2:2 ...`, totalling {spendable})."
        )
    return lines
