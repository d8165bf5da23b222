"""A small SVG writer shared by the games' pictures (`engines/<game>/picture.py`).

Pictures are compared byte for byte with stored files, so every number goes through `num` (two
decimals at most, no exponent, no "-0") and elements are written in the order they are drawn.
Text from a view may carry characters XML forbids (control characters, lone surrogates): `clean`
drops them before escaping, so a picture is always well-formed XML.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
MUTED = "#666666"
PAPER = "#fbfaf6"
PANEL_LINE = "#d8d4ca"
ACCENT = "#d1495b"
"""Arrows and highlights: a red that reads on light and dark fills alike."""

PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
)
"""Seat colours for games whose seats have no colour of their own (seat i takes colour i)."""

CHAR_WIDTH = 0.6
"""Average advance of a DejaVu Sans character, in font sizes: used to cut text to a width."""

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def num(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def clean(text: object) -> str:
    """Text as XML character data (also safe inside a double-quoted attribute)."""
    raw = _FORBIDDEN.sub("", str(text))
    return (
        raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def fit(text: str, width: float, size: float) -> str:
    """`text` cut (with an ellipsis) to about `width` pixels at font size `size`."""
    most = max(1, int(width / (size * CHAR_WIDTH)))
    return text if len(text) <= most else text[: most - 1] + "…"


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` broken at spaces into rows of about `width` pixels at font size `size`, so nothing
    is cut; a word longer than a row is cut (`fit`) as a last resort."""
    most = max(1, int(width / (size * CHAR_WIDTH)))
    rows: list[str] = []
    row = ""
    for word in text.split(" "):
        if row and len(row) + 1 + len(word) > most:
            rows.append(row)
            row = word
        else:
            row = f"{row} {word}" if row else word
    rows.append(row)
    return [fit(r, width, size) for r in rows]


def ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on the fill `#rrggbb`."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def hexagon(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """A pointy-top hexagon's corners, `size` from the centre to each corner."""
    return [
        (
            cx + size * math.cos(math.radians(60 * k - 30)),
            cy + size * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


def _attrs(**attrs: object) -> str:
    out = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        shown = num(value) if isinstance(value, float) else clean(value)
        out.append(f' {name}="{shown}"')
    return "".join(out)


class Canvas:
    """An SVG document built element by element."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []
        self.arrows: dict[str, str] = {ACCENT: "arrow"}
        """The arrow marker of each arrow colour drawn: (colour, marker id)."""
        # width and height may grow while drawing: the document takes its size when written.

    def svg(self) -> str:
        # Whole pixels, so the PNG of a picture is exactly this size.
        w, h = str(math.ceil(self.width)), str(math.ceil(self.height))
        head = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="{FONT}">',
            f"<title>{clean(self.title)}</title>",
            "<defs>"
            + "".join(
                f'<marker id="{name}" viewBox="0 0 10 10" refX="9" refY="5" '
                'markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
                f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
                for colour, name in self.arrows.items()
            )
            + "</defs>",
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="{PAPER}"/>',
        ]
        return "\n".join([*head, *self.parts, "</svg>"]) + "\n"

    def rect(
        self, x: float, y: float, w: float, h: float, *, fill: str = "none", **attrs: object
    ) -> None:
        self.parts.append(
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"'
            f"{_attrs(fill=fill, **attrs)}/>"
        )

    def circle(self, cx: float, cy: float, r: float, *, fill: str, **attrs: object) -> None:
        self.parts.append(
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}"{_attrs(fill=fill, **attrs)}/>'
        )

    def polygon(self, points: Iterable[tuple[float, float]], *, fill: str, **attrs: object) -> None:
        shown = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{shown}"{_attrs(fill=fill, **attrs)}/>')

    def line(
        self, x1: float, y1: float, x2: float, y2: float, *, stroke: str, **attrs: object
    ) -> None:
        self.parts.append(
            f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"'
            f"{_attrs(stroke=stroke, **attrs)}/>"
        )

    def arrow(
        self, x1: float, y1: float, x2: float, y2: float, width: float, colour: str = ACCENT
    ) -> None:
        name = self.arrows.setdefault(colour, f"arrow-{colour.lstrip('#')}")
        self.line(x1, y1, x2, y2, stroke=colour, stroke_width=width, marker_end=f"url(#{name})")

    def text(
        self,
        x: float,
        y: float,
        content: object,
        *,
        size: float = 13,
        fill: str = INK,
        anchor: str = "start",
        bold: bool = False,
        **attrs: object,
    ) -> None:
        self.parts.append(
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"'
            + _attrs(
                fill=fill,
                text_anchor=None if anchor == "start" else anchor,
                font_weight="bold" if bold else None,
                **attrs,
            )
            + f">{clean(content)}</text>"
        )

    def lines(
        self, x: float, y: float, rows: Sequence[str], *, width: float, size: float = 13
    ) -> float:
        """Plain text rows from (x, y) down, each cut to `width`; returns the y below them."""
        step = size * 1.35
        for row in rows:
            self.text(x, y + size, fit(row, width, size), size=size)
            y += step
        return y

    def swatch_rows(
        self,
        x: float,
        y: float,
        rows: Sequence[tuple[str, str]],
        *,
        width: float,
        size: float = 12,
    ) -> float:
        """Rows of (colour, text), each with a colour square; returns the y below them."""
        step = size * 1.5
        for colour, label in rows:
            self.rect(x, y + 1, size, size, fill=colour, stroke=INK, stroke_width=1.0)
            self.text(x + size * 1.5, y + size, fit(label, width - size * 1.5, size), size=size)
            y += step
        return y

    def heading(self, x: float, y: float, content: str, *, width: float, size: float = 14) -> float:
        self.text(x, y + size, fit(content, width, size), size=size, bold=True)
        return y + size * 1.6


def seat_colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]
