"""Pictures benchmark: per game, the milliseconds to build a seat's SVG and to draw it as the PNG
`image=true` returns (server/pictures.py), beside what resvg (the renderer the PNGs used before)
takes for the same SVG, in one run.

`png first` is a process's first picture of that game (the label and stroke caches empty);
`png` is the median over the run, as every later picture of a game draws (its labels recur);
`resvg` is the way PNGs were made before: resvg's RGBA PNG, decoded, reduced to 64 colours and
written with Pillow's optimizing encoder.

Run: python benchmarks/bench_pictures.py [repeats]
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

import resvg_py
from PIL import Image

from cogs_arena.engines import get_engine
from cogs_arena.engines.positions import EXAMPLE_BOTS, example
from cogs_arena.server import raster
from cogs_arena.server.pictures import font_files, png


def _ms(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def _cpu_ms(work: Callable[[], object]) -> float:
    """Processor time: on a shared machine the wall clock also counts other processes' turns."""
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def _resvg(svg: str) -> bytes:
    fonts = font_files()
    rgba = resvg_py.svg_to_bytes(
        svg_string=svg,
        shape_rendering="crisp_edges",
        skip_system_fonts=bool(fonts),
        font_files=list(fonts) or None,
    )
    with Image.open(io.BytesIO(bytes(rgba))) as image:
        reduced = image.convert("RGB").quantize(colors=64, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    reduced.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(
        f"{'game':<10} {'svg ms':>7} {'png first':>9} {'first cpu':>9} {'png ms':>7} "
        f"{'png max':>7} {'png cpu':>7} {'KB':>5} {'resvg ms':>8} {'resvg cpu':>9}"
        f"  (medians of {repeats})"
    )
    for game in EXAMPLE_BOTS:
        engine = get_engine(game)
        view = engine.observe(example(engine), 0)
        svg = engine.picture(view)
        draw = partial(engine.picture, view)
        raster.clear_caches()
        first = _ms(partial(png, svg))
        raster.clear_caches()
        first_cpu = _cpu_ms(partial(png, svg))
        svg_ms = [_ms(draw) for _ in range(repeats)]
        png_ms = [_ms(partial(png, svg)) for _ in range(repeats)]
        png_cpu = [_cpu_ms(partial(png, svg)) for _ in range(repeats)]
        slow = max(3, repeats // 4)
        resvg_ms = [_ms(partial(_resvg, svg)) for _ in range(slow)]
        resvg_cpu = [_cpu_ms(partial(_resvg, svg)) for _ in range(slow)]
        print(
            f"{game:<10} {statistics.median(svg_ms):7.1f} {first:9.1f} {first_cpu:9.1f} "
            f"{statistics.median(png_ms):7.1f} {max(png_ms):7.1f} "
            f"{statistics.median(png_cpu):7.1f} {len(png(svg)) / 1000:5.1f} "
            f"{statistics.median(resvg_ms):8.1f} {statistics.median(resvg_cpu):9.1f}"
        )


if __name__ == "__main__":
    main()
