"""The Blending strength ladder: one command that plays a `cogs-arena simulate` league (seats
rotated, seeds spread) over overlapping four-seat line-ups of neighbouring rungs, then prints
`cogs-arena rate`'s table (bot, rating, interval, games).

    PYTHONPATH=... python benchmarks/ladder_blending.py [games per line-up, default 24] [DIR]

Rungs: random < builder < search:1 < search:2 < search:3 < search:4. Each line-up holds four
neighbouring rungs, so every rung meets the ones above and below it; every series starts at its
own seed (1000 apart) and runs with `--jobs 1` (the machine is shared). CPU per game grows with
the search levels seated: about 1 s with search:1 and 2, 5 to 10 s with search:3 and 4.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

LINEUPS = (
    "random,builder,search:1,search:2",
    "builder,search:1,search:2,search:3",
    "search:1,search:2,search:3,search:4",
)


def cli(*args: str) -> str:
    code = "from cogs_arena.server.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True
    )
    return done.stdout


def main(games: int, out: Path) -> None:
    for i, bots in enumerate(LINEUPS):
        series = out / f"lineup{i}"
        series.mkdir(parents=True, exist_ok=True)
        cli(
            "simulate", "blending", "--games", str(games), "--bots", bots,
            "--seed", str(1000 * (i + 1)), "--jobs", "1", "--transcripts", str(series),
        )  # fmt: skip
    print(f"{games} games per line-up: " + " | ".join(LINEUPS))
    print(cli("rate", str(out), "--by", "model"))


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    if len(sys.argv) > 2:
        main(n, Path(sys.argv[2]))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(n, Path(tmp))
