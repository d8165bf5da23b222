"""Writes one PNG per game: the seat-0 view of each game's mid-game example position (what a
model with `show(image=true)` receives), for the README.

Run: `.venv/bin/python scripts/pictures.py [--out docs] [--games influence,territory]`.
Prints each file's size and pixels; every file stays under 100 KB.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cogs_arena.engines import get_engine
from cogs_arena.engines.positions import EXAMPLE_BOTS, example
from cogs_arena.server.pictures import MAX_PNG_BYTES, png, png_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    parser.add_argument("--games", default=",".join(EXAMPLE_BOTS))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games.split(","):
        engine = get_engine(game)
        data = png(engine.picture(engine.observe(example(engine), 0)))
        path = args.out / f"{game}.png"
        path.write_bytes(data)
        width, height = png_size(data)
        flag = "" if len(data) < MAX_PNG_BYTES else "  (over 100 KB!)"
        print(f"{path}: {len(data):,} bytes, {width}x{height}{flag}")


if __name__ == "__main__":
    main()
