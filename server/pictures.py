"""Board pictures as PNG for models with vision: the engine's SVG rendered by resvg (a wheel,
no system libraries), kept under about 100 KB.

Shapes are drawn with crisp edges and the result is reduced to a 64-colour palette (Pillow):
anti-aliased text is what makes a board PNG large (a Territory board is ~120 KB as resvg writes
it, ~50 KB in 64 colours, with no difference a reader can see).
The DejaVu fonts are passed by file where the system has them, so a picture does not depend on
which other fonts happen to be installed.
"""

from __future__ import annotations

import base64
import io
import struct
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import resvg_py
from PIL import Image

from ..engines import get_engine

PNG_MIME = "image/png"
MAX_PNG_BYTES = 100_000
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/dejavu"),
    Path("/Library/Fonts"),
)
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
COLOURS = 64


@lru_cache(maxsize=1)
def font_files() -> tuple[str, ...]:
    """The DejaVu Sans files found on this machine (empty: resvg uses the system's fonts)."""
    for folder in FONT_DIRS:
        found = tuple(str(folder / name) for name in FONT_FILES if (folder / name).is_file())
        if len(found) == len(FONT_FILES):
            return found
    return ()


def png(svg: str, zoom: float = 1.0) -> bytes:
    """The SVG as a palette PNG; shrinks the picture (down to half size) if it would pass
    MAX_PNG_BYTES, so a huge custom board still fits."""
    while True:
        data = _palette(render(svg, zoom))
        if len(data) <= MAX_PNG_BYTES or zoom <= 0.5:
            return data
        zoom = round(zoom * 0.8, 2)


def render(svg: str, zoom: float = 1.0) -> bytes:
    """The SVG as resvg's RGBA PNG."""
    fonts = font_files()
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=zoom,
            shape_rendering="crisp_edges",
            skip_system_fonts=bool(fonts),
            font_files=list(fonts) or None,
        )
    )


def _palette(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        reduced = image.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    reduced.save(out, format="PNG", optimize=True)
    return out.getvalue()


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header (the IHDR chunk comes first)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def view_png(game: str, observation: Mapping[str, Any]) -> bytes:
    return png(get_engine(game).picture(observation))


def png_base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
