"""The games' SVG pictures drawn with Pillow: the PNG is drawn from the very SVG the HTML replay
shows, so the two cannot disagree.

Only the small subset `engines/svg.py` writes is understood (rect, circle, polygon, line with its
arrow marker, text; fill, stroke, stroke-width, stroke-dasharray, rx, font-size, font-weight,
text-anchor) and anything else is refused (`ValueError`), so a picture that starts using more
fails its tests instead of losing a shape in the PNG. Shapes have crisp edges, text is
anti-aliased, laid out without complex shaping (the labels are short Latin text), and each
label's glyphs are rendered once per process: a board is drawn in about ten milliseconds where
resvg spent ~100 ms, half of it shaping the labels.
"""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

NS = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
STROKE = frozenset({"fill", "stroke", "stroke-width", "stroke-dasharray"})
ATTRIBUTES = {
    "rect": STROKE | {"x", "y", "width", "height", "rx"},
    "circle": STROKE | {"cx", "cy", "r"},
    "polygon": STROKE | {"points"},
    "line": STROKE | {"x1", "y1", "x2", "y2", "marker-end"},
    "text": frozenset({"x", "y", "font-size", "fill", "text-anchor", "font-weight"}),
}
"""What each element may carry: an attribute the raster would ignore (an opacity, a transform)
is refused, as an unknown element is."""
ARROW = ((0.0, 0.0), (10.0, 5.0), (0.0, 10.0))
"""The arrow marker's path in its own 10x10 box; its tip (10, 5) is drawn at refX 9."""


def draw(svg: str, zoom: float, fonts: Sequence[str]) -> Image.Image:
    """The picture as an RGB image `zoom` times the SVG's size; `fonts` is (regular, bold) or
    empty (Pillow's own font)."""
    root = ET.fromstring(svg)
    if root.tag != NS + "svg":
        raise ValueError("not an SVG picture")
    width = max(1, math.ceil(float(root.attrib["width"]) * zoom))
    height = max(1, math.ceil(float(root.attrib["height"]) * zoom))
    image = Image.new("RGB", (width, height), "#ffffff")
    pen = _Pen(ImageDraw.Draw(image), zoom, tuple(fonts))
    for element in root:
        tag = element.tag.removeprefix(NS)
        if tag == "title":
            continue
        if tag == "defs":
            pen.read_markers(element)
            continue
        shape = pen.shapes.get(tag)
        if shape is None:
            raise ValueError(f"the picture raster does not draw <{tag}>")
        unknown = element.attrib.keys() - ATTRIBUTES[tag]
        if unknown:
            raise ValueError(f"the picture raster does not draw <{tag}> {sorted(unknown)}")
        shape(element.attrib, element.text or "")
    return image


@lru_cache(maxsize=256)
def _font(path: str, size: float) -> Font:
    if not path:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=8192)
def _label(path: str, size: float, content: str, anchor: str) -> tuple[Any, int, int]:
    """A text's coverage mask (Pillow's core image) and its offset from the anchor point. Kept:
    the same labels (tile keys, yields, seat names) come back in every picture of a game, and
    rendering the glyphs is most of what drawing a picture costs."""
    font = _font(path, size)
    if not isinstance(font, ImageFont.FreeTypeFont):  # a Pillow built without FreeType
        return font.getmask(content, "L"), 0, -round(size * 0.8)
    mask, (left, top) = font.getmask2(content, "L", anchor=anchor)
    return mask, left, top


def _colour(value: str | None) -> str | None:
    return None if value in (None, "none") else value


def _points(text: str, zoom: float) -> list[Point]:
    values = [float(v) * zoom for v in text.replace(",", " ").split()]
    return list(zip(values[::2], values[1::2], strict=True))


def _dashes(points: Sequence[Point], pattern: Sequence[float]) -> list[tuple[Point, Point]]:
    """The dash segments along a closed or open path (pattern: on, off, on, off...)."""
    out: list[tuple[Point, Point]] = []
    k, left, on = 0, pattern[0], True
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        length = math.hypot(x2 - x1, y2 - y1)
        at = 0.0
        while at < length:
            step = min(left, length - at)
            if on:
                a, b = at / length, (at + step) / length
                dx, dy = x2 - x1, y2 - y1
                out.append(((x1 + dx * a, y1 + dy * a), (x1 + dx * b, y1 + dy * b)))
            at += step
            left -= step
            if left <= 1e-9:
                k = (k + 1) % len(pattern)
                left, on = pattern[k], not on
    return out


@lru_cache(maxsize=512)
def _dashed(points: tuple[Point, ...], pattern: tuple[float, ...], width: int) -> Image.Image:
    """A dashed path's mask, kept: a board draws the same dashed ring on many tiles."""
    right = math.ceil(max(x for x, _ in points)) + 2 * width
    bottom = math.ceil(max(y for _, y in points)) + 2 * width
    mask = Image.new("L", (right, bottom), 0)
    pen = ImageDraw.Draw(mask)
    for a, b in _dashes(points, pattern):
        pen.line([a, b], fill=255, width=width)
    return mask


def clear_caches() -> None:
    """Forget the kept labels and strokes (a benchmark's first picture, a test)."""
    _label.cache_clear()
    _dashed.cache_clear()


class _Pen:
    def __init__(self, canvas: ImageDraw.ImageDraw, zoom: float, fonts: tuple[str, ...]) -> None:
        self.canvas = canvas
        self.zoom = zoom
        self.regular, self.bold = fonts if len(fonts) == 2 else ("", "")
        self.markers: dict[str, str] = {}
        self.inks: dict[str, int] = {}
        self.shapes: dict[str, Callable[[dict[str, str], str], None]] = {
            "rect": self.rect,
            "circle": self.circle,
            "polygon": self.polygon,
            "line": self.line,
            "text": self.text,
        }

    def read_markers(self, defs: ET.Element) -> None:
        for marker in defs:
            path = marker.find(NS + "path")
            if marker.tag != NS + "marker" or path is None:
                raise ValueError("the picture raster knows only arrow markers in <defs>")
            self.markers[marker.attrib["id"]] = path.attrib.get("fill", "#000000")

    def _n(self, attrs: dict[str, str], key: str, default: float = 0.0) -> float:
        value = attrs.get(key)
        return default * self.zoom if value is None else float(value) * self.zoom

    def _outline(self, attrs: dict[str, str], points: Sequence[Point]) -> None:
        """The stroke along `points` (already closed if the shape is), dashed if asked."""
        stroke = _colour(attrs.get("stroke"))
        if stroke is None:
            return
        width = max(1, round(self._n(attrs, "stroke-width", 1.0)))
        dash = attrs.get("stroke-dasharray")
        if dash:
            pattern = tuple(float(v) * self.zoom for v in dash.replace(",", " ").split())
            x0 = math.floor(min(x for x, _ in points)) - width
            y0 = math.floor(min(y for _, y in points)) - width
            shape = tuple((round(x - x0, 1), round(y - y0, 1)) for x, y in points)
            self.canvas.bitmap((x0, y0), _dashed(shape, pattern, width), fill=stroke)
        else:
            # Round joints cost a pie slice per corner in Python; at 2 px a corner shows none.
            joint = "curve" if width > 2 else None
            self.canvas.line(list(points), fill=stroke, width=width, joint=joint)

    def rect(self, attrs: dict[str, str], _: str) -> None:
        x, y = self._n(attrs, "x"), self._n(attrs, "y")
        w, h = self._n(attrs, "width"), self._n(attrs, "height")
        fill = _colour(attrs.get("fill", "#000000"))
        stroke = _colour(attrs.get("stroke"))
        rx = self._n(attrs, "rx")
        if rx > 0:
            half = self._n(attrs, "stroke-width", 1.0) / 2 if stroke else 0.0
            self.canvas.rounded_rectangle(
                (x - half, y - half, x + w + half, y + h + half),
                radius=rx + half,
                fill=fill,
                outline=stroke,
                width=max(1, round(2 * half)) if stroke else 0,
            )
            return
        if fill is not None:
            self.canvas.rectangle((x, y, x + w - 1, y + h - 1), fill=fill)
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        self._outline(attrs, corners)

    def circle(self, attrs: dict[str, str], _: str) -> None:
        cx, cy, r = self._n(attrs, "cx"), self._n(attrs, "cy"), self._n(attrs, "r")
        stroke = _colour(attrs.get("stroke"))
        half = self._n(attrs, "stroke-width", 1.0) / 2 if stroke else 0.0
        self.canvas.ellipse(
            (cx - r - half, cy - r - half, cx + r + half, cy + r + half),
            fill=_colour(attrs.get("fill", "#000000")),
            outline=stroke,
            width=max(1, round(2 * half)) if stroke else 0,
        )

    def polygon(self, attrs: dict[str, str], _: str) -> None:
        points = _points(attrs["points"], self.zoom)
        fill = _colour(attrs.get("fill", "#000000"))
        stroke = _colour(attrs.get("stroke"))
        width = round(self._n(attrs, "stroke-width", 1.0))
        if stroke is None or (width <= 1 and not attrs.get("stroke-dasharray")):
            self.canvas.polygon(points, fill=fill, outline=stroke)
            return
        if fill is not None:
            self.canvas.polygon(points, fill=fill)
        self._outline(attrs, [*points, points[0]])

    def line(self, attrs: dict[str, str], _: str) -> None:
        a = (self._n(attrs, "x1"), self._n(attrs, "y1"))
        b = (self._n(attrs, "x2"), self._n(attrs, "y2"))
        self._outline(attrs, [a, b])
        marker = attrs.get("marker-end")
        if marker is None:
            return
        fill = self.markers.get(marker.removeprefix("url(#").removesuffix(")"))
        if fill is None:
            raise ValueError(f"the picture names a marker it does not define: {marker}")
        # markerUnits="strokeWidth", markerWidth 5 over a 10-unit box: half a stroke per unit.
        unit = self._n(attrs, "stroke-width", 1.0) / 2
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        head = [
            (
                b[0] + ((px - 9) * dx - (py - 5) * dy) * unit,
                b[1] + ((px - 9) * dy + (py - 5) * dx) * unit,
            )
            for px, py in ARROW
        ]
        self.canvas.polygon(head, fill=fill)

    def text(self, attrs: dict[str, str], content: str) -> None:
        if not content:
            return
        size = self._n(attrs, "font-size", 16.0)
        path = self.bold if attrs.get("font-weight") == "bold" else self.regular
        anchor = ANCHORS.get(attrs.get("text-anchor", "start"))
        if anchor is None:
            raise ValueError(f"the picture raster does not anchor text {attrs['text-anchor']!r}")
        mask, left, top = _label(path, size, content, anchor)
        x, y = round(self._n(attrs, "x")), round(self._n(attrs, "y"))
        # Pillow's own text drawing, minus the glyph rendering the kept mask saves.
        fill = attrs.get("fill", "#000000")
        ink = self.inks.get(fill)
        if ink is None:
            ink = self.inks[fill] = self.canvas.draw.draw_ink(ImageColor.getrgb(fill))
        self.canvas.draw.draw_bitmap((x + left, y + top), mask, ink)
