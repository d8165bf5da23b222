"""The ratings chart: one row per rated label, a dot at its rating and a bar over its 95%
bootstrap interval (where it has one), drawn as SVG and rendered to PNG with resvg
(text needs a system font; DejaVu is the usual)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from .rating import RatingTable
from .score import printable

if TYPE_CHECKING:
    from .compare import Comparison

WIDTH = 820
ROW = 26
TOP = 56
BOTTOM = 44
VALUE_ROOM = 150
MAX_LABEL = 42


def _short(text: str) -> str:
    text = printable(text)
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _ticks(low: float, high: float) -> list[float]:
    raw = (high - low) / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step) + 1)]


def _span(table: RatingTable) -> tuple[float, float]:
    values = [v for r in table.rows for v in (r.rating, r.low, r.high) if v is not None]
    low, high = min(values), max(values)
    pad = (high - low) * 0.06 or 1.0
    return low - pad, high + pad


def _axis(table: RatingTable) -> str:
    if table.method == "openskill":
        return "rating (openskill mu)"
    zero = "labels' mean" if table.anchor == "mean" else _short(table.anchor)
    return f"rating (Plackett–Luce log-strength, {zero} at 0)"


def svg_chart(table: RatingTable) -> str:
    """The chart as SVG text. Raises ValueError for a table with no rows."""
    rows = [r for r in table.rows if r.rating is not None]
    if not rows:
        raise ValueError("no ratings to draw")
    table = replace(table, rows=rows)
    games = sorted({r.game for r in table.rows})
    labels = [_short(f"{r.label}") for r in table.rows]
    left = min(330, 16 + 7 * max(len(t) for t in labels))
    x0, x1 = left + 12, WIDTH - VALUE_ROOM
    heading_rows = len(games) if len(games) > 1 else 0
    height = TOP + ROW * (len(table.rows) + heading_rows) + BOTTOM
    low, high = _span(table)

    def x(value: float) -> float:
        return x0 + (value - low) / (high - low) * (x1 - x0)

    intervals = (
        f"95% bootstrap intervals over distinct games, {table.bootstrap} resamples"
        if any(r.low is not None for r in rows)
        else ""
    )
    title = f"Plackett–Luce ratings by {table.by}" + (f" ({intervals})" if intervals else "")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="16" y="28" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    bottom = height - BOTTOM
    for tick in _ticks(low, high):
        tx = x(tick)
        out.append(
            f'<line x1="{tx:.1f}" y1="{TOP - 8}" x2="{tx:.1f}" y2="{bottom}" stroke="#e3e3e3"/>'
            f'<text x="{tx:.1f}" y="{bottom + 18}" text-anchor="middle" fill="#555">'
            f"{tick:g}</text>"
        )
    out.append(
        f'<text x="{(x0 + x1) / 2:.1f}" y="{height - 8}" text-anchor="middle" fill="#555">'
        f"{_axis(table)}</text>"
    )
    y = TOP
    current = None
    for row, label in zip(table.rows, labels, strict=True):
        if heading_rows and row.game != current:
            current = row.game
            out.append(f'<text x="16" y="{y + 16}" font-weight="bold">{escape(row.game)}</text>')
            y += ROW
        mid = y + ROW / 2
        out.append(f'<text x="{left}" y="{mid + 4:.1f}" text-anchor="end">{escape(label)}</text>')
        assert row.rating is not None  # unrated rows were left out above
        shown = f"{row.rating:.2f}"
        if row.low is not None and row.high is not None:
            a, b = x(row.low), x(row.high)
            out.append(
                f'<line x1="{a:.1f}" y1="{mid}" x2="{b:.1f}" y2="{mid}" stroke="#4a78b5" '
                'stroke-width="3"/>'
                f'<line x1="{a:.1f}" y1="{mid - 6}" x2="{a:.1f}" y2="{mid + 6}" stroke="#4a78b5"/>'
                f'<line x1="{b:.1f}" y1="{mid - 6}" x2="{b:.1f}" y2="{mid + 6}" stroke="#4a78b5"/>'
            )
            shown += f"  [{row.low:.2f}, {row.high:.2f}]"
        out.append(
            f'<circle cx="{x(row.rating):.1f}" cy="{mid}" r="5" fill="#c0392b"/>'
            f'<text x="{x1 + 12}" y="{mid + 4:.1f}" fill="#333">{escape(shown)}</text>'
        )
        y += ROW
    out.append("</svg>")
    return "\n".join(out)


def write_png(table: RatingTable, path: str | Path) -> None:
    import resvg_py

    png = resvg_py.svg_to_bytes(svg_string=svg_chart(table))
    Path(path).write_bytes(bytes(png))


PAIRED_HEIGHT = 420
"""The plot area's height for the paired differences, whatever their number."""


def svg_paired(result: Comparison) -> str:
    """The paired differences A − B, one dot per distinct paired game (sorted), with 0, the
    mean and the 95% interval (or why there is none)."""
    diffs = sorted(result.differences)
    if not diffs:
        raise ValueError("no paired differences to draw")
    values = [*diffs, 0.0] + [v for v in (result.diff_low, result.diff_high) if v is not None]
    low, high = min(values), max(values)
    pad = (high - low) * 0.06 or 1.0
    low, high = low - pad, high + pad
    x0, x1 = 60, WIDTH - 40
    step = PAIRED_HEIGHT / len(diffs)
    height = TOP + PAIRED_HEIGHT + BOTTOM + ROW

    def x(value: float) -> float:
        return x0 + (value - low) / (high - low) * (x1 - x0)

    bottom = TOP + PAIRED_HEIGHT
    names = f"A = {_short(result.a)}, B = {_short(result.b)}"
    title = f"Paired score differences A − B by {result.by}: {names}"
    if result.diff_low is not None and result.diff_high is not None:
        summary = (
            f"{result.distinct} distinct paired games: mean {result.mean_diff:+.3f}, 95% "
            f"t-interval [{result.diff_low:+.3f}, {result.diff_high:+.3f}]"
        )
    else:
        summary = (
            f"{result.distinct} distinct paired games: mean {result.mean_diff:+.3f}; no interval"
        )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="16" y="28" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<text x="16" y="46" fill="#333">{escape(summary)}</text>',
    ]
    if result.diff_low is not None and result.diff_high is not None:
        a, b = x(result.diff_low), x(result.diff_high)
        out.append(
            f'<rect x="{a:.1f}" y="{TOP}" width="{max(b - a, 1):.1f}" height="{PAIRED_HEIGHT}" '
            'fill="#4a78b5" fill-opacity="0.15"/>'
        )
    for tick in _ticks(low, high):
        tx = x(tick)
        out.append(
            f'<line x1="{tx:.1f}" y1="{TOP}" x2="{tx:.1f}" y2="{bottom}" stroke="#e3e3e3"/>'
            f'<text x="{tx:.1f}" y="{bottom + 18}" text-anchor="middle" fill="#555">'
            f"{tick:g}</text>"
        )
    zero, mean = x(0.0), x(result.mean_diff)
    out.append(f'<line x1="{zero:.1f}" y1="{TOP}" x2="{zero:.1f}" y2="{bottom}" stroke="#333"/>')
    out.append(
        f'<line x1="{mean:.1f}" y1="{TOP}" x2="{mean:.1f}" y2="{bottom}" stroke="#c0392b" '
        'stroke-width="2"/>'
    )
    radius = max(1.5, min(5.0, step / 2.5))
    for i, value in enumerate(diffs):
        out.append(
            f'<circle cx="{x(value):.1f}" cy="{TOP + (i + 0.5) * step:.1f}" r="{radius:.1f}" '
            'fill="#4a78b5"/>'
        )
    reason = result.no_interval
    footer = "score difference A − B per distinct paired game"
    out.append(
        f'<text x="{(x0 + x1) / 2:.1f}" y="{bottom + 36}" text-anchor="middle" fill="#555">'
        f"{escape(footer)}</text>"
    )
    if reason:
        out.append(f'<text x="16" y="{height - 8}" fill="#c0392b">{escape(_clip(reason))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _clip(text: str, most: int = 120) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def write_paired_png(result: Comparison, path: str | Path) -> None:
    import resvg_py

    png = resvg_py.svg_to_bytes(svg_string=svg_paired(result))
    Path(path).write_bytes(bytes(png))
