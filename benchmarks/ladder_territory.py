"""Territory ladder: one league of every rung at one table (nine bots, nine seats), seats rotated
one per game and seeds spread, through `cogs-arena simulate`, then `cogs-arena rate` over its
transcripts prints each bot's rating with its interval.

Run: python benchmarks/ladder_territory.py [games] [first seed]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

RUNGS = [
    "random",
    "raider",
    "diplomat",
    "homesteader",
    "settler",
    "search:1",
    "search:2",
    "search:3",
    "search:4",
]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 90
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    with tempfile.TemporaryDirectory() as out:
        c0 = time.perf_counter()
        subprocess.run(
            [
                *("cogs-arena", "simulate", "territory"),
                *("--games", str(games), "--seed", str(seed), "--jobs", "1"),
                *("--bots", ",".join(RUNGS), "--transcripts", out),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - c0
        subprocess.run(["cogs-arena", "rate", out], check=True)
    print(f"{games} games in {wall:.0f} s wall: about {games * 3600 / wall:.0f} games per hour")


if __name__ == "__main__":
    main()
