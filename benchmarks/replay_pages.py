"""How large and how slow `cogs-arena view` is on whole bot games: one game per kind at the
default ruleset (bots via `cogs-arena simulate`), its page size beside the size the pictures
would take one by one, and the seconds to build it (nearly all of it drawing the pictures).

Run: `.venv/bin/python benchmarks/replay_pages.py [--seed 0] [--games influence,blending]`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cogs_arena.transcripts.viewer.html_replay import write_replay

GAMES = ("influence", "territory", "chemistry", "blending")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    print(f"{'game':10} {'steps':>6} {'views':>6} {'pictures':>10} {'page':>9} {'seconds':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            folder = Path(tmp) / game
            simulate = [sys.executable, "-m", "cogs_arena", "simulate", game, "--games", "1"]
            options = ["--jobs", "1", "--seed", str(args.seed), "--transcripts", str(folder)]
            subprocess.run([*simulate, *options], check=True, capture_output=True)
            (transcript,) = folder.glob("*.jsonl")
            started = time.perf_counter()
            book, size = write_replay(transcript, folder / "game.html")
            seconds = time.perf_counter() - started
            views = len(book.perspectives)
            raw = sum(len(svg) for step in book.steps for svg in step.pictures)
            print(
                f"{game:10} {len(book.steps) - 1:>6} {views:>6} {raw / 1e6:>8.1f}MB "
                f"{size / 1e3:>7.0f}KB {seconds:>8.1f}"
            )


if __name__ == "__main__":
    main()
