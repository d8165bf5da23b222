"""A transcript as one self-contained HTML page (`cogs-arena view TRANSCRIPT -o game.html`):
step through the game, switch perspective, read what each viewer could read at each step.

The page needs no network (its Content-Security-Policy forbids it). A picture per step and
perspective would make a long game tens of megabytes (a 358-move Influence game: 40 MB of SVG),
but consecutive pictures differ in a few lines, and the SVG writer puts one element per line. So
the page keeps every distinct line once and each picture as edits to the same perspective's
picture one step before: runs of kept lines, runs of dropped ones, and new lines by number; the
page's script rebuilds a picture when it is shown.
"""

from __future__ import annotations

import difflib
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..events import Event
from ..io import read_transcript
from .replay_page import PAGE, fill
from .replay_steps import ReplayBook, build_book

Edit = int | list[int]
"""n > 0: keep the next n lines of the picture before; n < 0: drop the next -n; a list: these
lines (by number in the line table)."""


class LineTable:
    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def ids(self, svg: str) -> list[int]:
        return [self.numbers.setdefault(line, len(self.numbers)) for line in svg.split("\n")]

    def lines(self) -> list[str]:
        return list(self.numbers)


def edits(before: list[int] | None, after: list[int]) -> list[Edit]:
    """The edits that turn `before` into `after` (all of `after` when there is no before)."""
    if before is None:
        return [after]
    if before == after:
        return [len(after)]
    out: list[Edit] = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append(i2 - i1)
            continue
        if i2 > i1:
            out.append(-(i2 - i1))
        if j2 > j1:
            out.append(after[j1:j2])
    return out


def rebuild(before: list[int] | None, ops: list[Edit]) -> list[int]:
    """What the page's script does with `edits` (kept here to test the two agree)."""
    out: list[int] = []
    at = 0
    for op in ops:
        if isinstance(op, list):
            out.extend(op)
        elif op > 0:
            assert before is not None
            out.extend(before[at : at + op])
            at += op
        else:
            at -= op
    return out


def page_data(book: ReplayBook, name: str) -> dict[str, Any]:
    """Everything the page shows, as JSON."""
    table = LineTable()
    count = len(book.perspectives)
    last: list[list[int] | None] = [None] * count
    steps = []
    for index, step in enumerate(book.steps):
        pictures: list[list[Edit]] = []
        for p, svg in enumerate(step.pictures):
            ids = table.ids(svg)
            pictures.append(edits(last[p], ids))
            last[p] = ids
        steps.append(
            {
                "decision": step.decision,
                "seq": step.seq,
                "svg": pictures,
                "lines": [[list(line) for line in lines] for lines in step.lines],
                "shown": [book.shown(index, p) for p in range(count)],
            }
        )
    return {
        "name": name,
        "game": book.game,
        "title": book.title,
        # A string: seeds run to 128 bits, past what a JavaScript number holds exactly.
        "seed": str(book.seed),
        "ruleset": book.ruleset,
        "perspectives": book.perspectives,
        "players": book.players,
        "finished": book.outcome is not None,
        "lines": table.lines(),
        "steps": steps,
    }


def script_json(data: Any) -> str:
    """JSON that can sit inside a <script> element: no `</` (which would end it) and no `<!--`
    (which changes how the element's end is found)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def render_page(book: ReplayBook, name: str) -> str:
    title = f"{book.title} replay: {name}"
    return fill(PAGE, TITLE=html.escape(title), DATA=script_json(page_data(book, name)))


def html_replay(events: Sequence[Event], name: str) -> str:
    """The page for a transcript's events. Raises ReplayBookError if they do not replay."""
    return render_page(build_book(events), name)


def write_replay(transcript: str | Path, output: str | Path) -> tuple[ReplayBook, int]:
    """Writes the page of a transcript file; returns the book and the page's size in bytes.
    Raises TranscriptError (unreadable file) or ReplayBookError (does not replay)."""
    events = read_transcript(transcript)
    book = build_book(events)
    data = render_page(book, Path(transcript).name).encode("utf-8")
    Path(output).write_bytes(data)
    return book, len(data)
