"""The ratings chart: one row per label, a dot at its rating and a bar over its 95% interval,
drawn as SVG and rendered to PNG with resvg (text needs a system font; DejaVu is the usual)."""

from __future__ import annotations

import math
from pathlib import Path
from xml.sax.saxutils import escape

from .rating import RatingTable
from .score import printable

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


def svg_chart(table: RatingTable) -> str:
    """The chart as SVG text. Raises ValueError for a table with no rows."""
    if not table.rows:
        raise ValueError("no ratings to draw")
    games = sorted({r.game for r in table.rows})
    labels = [_short(f"{r.label}") for r in table.rows]
    left = min(330, 16 + 7 * max(len(t) for t in labels))
    x0, x1 = left + 12, WIDTH - VALUE_ROOM
    heading_rows = len(games) if len(games) > 1 else 0
    height = TOP + ROW * (len(table.rows) + heading_rows) + BOTTOM
    low, high = _span(table)

    def x(value: float) -> float:
        return x0 + (value - low) / (high - low) * (x1 - x0)

    intervals = f"95% bootstrap intervals, {table.bootstrap} resamples" if table.bootstrap else ""
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
        "rating (openskill mu)</text>"
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
