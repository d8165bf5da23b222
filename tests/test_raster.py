"""The PNG pictures (server/raster.py): drawn with Pillow from the very SVG the replay page
shows, so both hold the same shapes in the same places, deterministically; an SVG element the
raster does not know is refused rather than left out."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import resvg_py
from PIL import Image, ImageChops

from cogs_arena.server import raster
from cogs_arena.server.pictures import font_files, png

GOLDEN = Path(__file__).parent / "golden"
PICTURES = sorted(GOLDEN.glob("*.svg"))
TEXT = re.compile(r"<text .*</text>\n")


def _resvg(svg: str) -> Image.Image:
    fonts = font_files()
    data = resvg_py.svg_to_bytes(
        svg_string=svg,
        shape_rendering="crisp_edges",
        skip_system_fonts=True,
        font_files=list(fonts),
    )
    with Image.open(io.BytesIO(bytes(data))) as image:
        return image.convert("RGB")


def _worst_block(a: Image.Image, b: Image.Image, block: int = 8) -> int:
    """The largest mean difference over any block x block square of the two images."""
    diff = ImageChops.difference(a, b).convert("L")
    small = diff.resize((diff.width // block, diff.height // block), Image.Resampling.BOX)
    return max(small.tobytes())  # one byte a pixel


@pytest.mark.parametrize("path", PICTURES, ids=[p.stem for p in PICTURES])
def test_the_png_draws_the_svgs_shapes_where_an_svg_renderer_does(path: Path) -> None:
    """Every shape of a stored picture (text left out: the two lay glyphs out a pixel apart)
    lands where resvg, a full SVG renderer, puts it: no 8x8 square differs by more than a
    quarter of the range on average (a missing tile or a shifted ring differs by ~100+)."""
    shapes = TEXT.sub("", path.read_text(encoding="utf-8"))
    assert _worst_block(_resvg(shapes), raster.draw(shapes, 1.0, font_files())) <= 64


def test_the_comparison_sees_a_missing_shape() -> None:
    """The check above is not blind: the same picture with one tile fewer fails it."""
    shapes = TEXT.sub("", (GOLDEN / "influence-mid-seat0.svg").read_text(encoding="utf-8"))
    tiles = re.findall(r'<polygon [^>]*fill="#[0-9a-f]{6}"[^>]*/>\n', shapes)
    broken = shapes.replace(tiles[len(tiles) // 2], "", 1)
    assert _worst_block(_resvg(shapes), raster.draw(broken, 1.0, font_files())) > 64


@pytest.mark.parametrize("path", PICTURES[::3], ids=[p.stem for p in PICTURES[::3]])
def test_every_label_is_drawn(path: Path) -> None:
    """Each text label leaves ink: the picture without its labels differs from the picture
    wherever a label stood (checked on the labels' count of changed 8x8 squares)."""
    svg = path.read_text(encoding="utf-8")
    labels = TEXT.findall(svg)
    bare = raster.draw(TEXT.sub("", svg), 1.0, font_files())
    full = raster.draw(svg, 1.0, font_files())
    diff = ImageChops.difference(bare, full).convert("L")
    small = diff.resize((diff.width // 8, diff.height // 8), Image.Resampling.BOX)
    inked = sum(1 for v in small.tobytes() if v)
    assert inked >= len([t for t in labels if not t.endswith("></text>\n")]) // 2


def test_the_png_is_the_same_bytes_with_or_without_the_kept_labels() -> None:
    """Keeping rendered labels between pictures changes nothing drawn."""
    svg = (GOLDEN / "territory-mid-seat0.svg").read_text(encoding="utf-8")
    raster.clear_caches()
    first = png(svg)
    assert png(svg) == first
    raster.clear_caches()
    assert png(svg) == first


def test_an_unknown_element_is_refused_not_dropped() -> None:
    svg = (GOLDEN / "blending-start-seat0.svg").read_text(encoding="utf-8")
    bad = svg.replace("</svg>", '<ellipse cx="1" cy="1" rx="2" ry="3" fill="#000000"/></svg>')
    with pytest.raises(ValueError, match="ellipse"):
        png(bad)
    with pytest.raises(ValueError, match="opacity"):
        png(svg.replace("<rect ", '<rect opacity="0.5" ', 1))
    with pytest.raises(ValueError, match="marker"):
        png(
            svg.replace(
                "</svg>",
                '<line x1="0" y1="0" x2="9" y2="9" stroke="#000000" '
                'marker-end="url(#nowhere)"/></svg>',
            )
        )


def test_a_zoomed_png_is_scaled() -> None:
    """The shrink for an oversized picture draws at the zoom asked."""
    svg = (GOLDEN / "chemistry-start-seat0.svg").read_text(encoding="utf-8")
    full = raster.draw(svg, 1.0, font_files())
    half = raster.draw(svg, 0.5, font_files())
    assert half.size == ((full.width + 1) // 2, (full.height + 1) // 2)
