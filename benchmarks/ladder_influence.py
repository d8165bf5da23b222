"""The Influence strength ladder: random → greedy → search:1 … search:4.

Run: python benchmarks/ladder_influence.py [--games N] [--keep DIR]
Each pair of neighbouring rungs (and greedy against the top rung, the issue's head-to-head)
plays N games through `cogs-arena simulate` on seeded openings (colours alternating, seeds
spread: pair k starts at seed 1000·k), then `cogs-arena rate` fits every bot over all the games;
prints the table (bot, rating, 95% interval, games) and the CPU time, and the games per hour.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from cogs_arena.server.cli.main import main as cli

RUNGS = ("random", "greedy-seeded", "search:1", "search:2", "search:3", "search:4")
RULES = '{"opening": "seeded"}'


def _quiet(args: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli(args)
    if status != 0:
        raise SystemExit(f"cogs-arena {args[0]} exited {status}: {err.getvalue()[-2000:]}")
    return out.getvalue()


def run(games: int, directory: Path) -> None:
    pairs = [(RUNGS[k], RUNGS[k + 1]) for k in range(len(RUNGS) - 1)]
    pairs.append(("greedy", RUNGS[-1]))
    started = _cpu()
    wall = time.perf_counter()
    total = 0
    for k, (low, high) in enumerate(pairs):
        out = directory / f"{k}-{low}-{high}".replace(":", "")
        series = ["--games", str(games), "--bots", f"{low},{high}", "--seed", str(1000 * k)]
        where = ["--jobs", "1", "--json", "--transcripts", str(out)]
        report = json.loads(_quiet(["simulate", "influence", *series, "--rules", RULES, *where]))
        total += games
        print(f"  {low} vs {high}: {_mean_scores(report)}")
    cpu = _cpu() - started
    table = json.loads(_quiet(["rate", str(directory), "--json", "--bootstrap", "200"]))
    print(f"influence ladder: {total} games ({games} per pair), seeded openings, colours rotated")
    print(f"  {cpu:.0f} s CPU ({time.perf_counter() - wall:.0f} s wall), one process")
    print(f"  about {total / cpu * 3600:.0f} games an hour on one core at this mix")
    print(f"  {'bot':<22} {'rating':>7}  {'95% interval':>16} {'games':>6}")
    for row in table["labels"]:
        interval = "-" if row["low"] is None else f"[{row['low']:>6.2f}, {row['high']:>6.2f}]"
        print(f"  {row['label']:<22} {row['rating']:>7.2f}  {interval:>16} {row['games']:>6}")


def _mean_scores(report: dict[str, Any]) -> str:
    return ", ".join(f"{bot} {row['mean_score']:.3f}" for bot, row in report["bots"].items())


def _cpu() -> float:
    """CPU seconds of this process and its finished children (simulate may fork workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per pair of rungs")
    parser.add_argument("--keep", type=Path, help="keep the transcripts in this directory")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args.games, args.keep)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(args.games, Path(tmp))


if __name__ == "__main__":
    main()
