"""Board pictures as PNG for models with vision: the engine's SVG drawn with Pillow
(`raster.py`), kept under about 100 KB.

Shapes are drawn with crisp edges and the result is reduced to a 64-colour palette:
anti-aliased text is what makes a board PNG large (a Territory board is ~120 KB in full colour,
~50 KB in 64 colours, with no difference a reader can see).
The DejaVu fonts are read by file where the system has them, so a picture does not depend on
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

from PIL import Image

from ..engines import get_engine
from .raster import draw

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
    """The DejaVu Sans files found on this machine (empty: Pillow's own font)."""
    for folder in FONT_DIRS:
        found = tuple(str(folder / name) for name in FONT_FILES if (folder / name).is_file())
        if len(found) == len(FONT_FILES):
            return found
    return ()


def png(svg: str, zoom: float = 1.0) -> bytes:
    """The SVG as a palette PNG; shrinks the picture (down to half size) if it would pass
    MAX_PNG_BYTES, so a huge custom board still fits."""
    while True:
        data = _palette(draw(svg, zoom, font_files()))
        if len(data) <= MAX_PNG_BYTES or zoom <= 0.5:
            return data
        zoom = round(zoom * 0.8, 2)


def _palette(image: Image.Image) -> bytes:
    # The palette is chosen from every 4th pixel each way (a picture is large flat areas), then
    # every pixel takes its nearest entry: a fifth of the time of choosing from all of them.
    sample = image.resize(
        (max(1, image.width // 4), max(1, image.height // 4)), Image.Resampling.NEAREST
    ).quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE)
    reduced = image.quantize(palette=sample, dither=Image.Dither.NONE)
    out = io.BytesIO()
    # zlib's fastest level: the higher ones save a tenth of the bytes for several times the time.
    reduced.save(out, format="PNG", compress_level=1)
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
