"""The Chemistry strength ladder: random → courier → porter → freeloader → search:1 … search:4.

Run: python benchmarks/ladder_chemistry.py [--games N] [--keep DIR]
One of each bot in the eight seats, rotated a seat a game so each visits every seat, through
`cogs-arena simulate` (seeds from 1; the seeded twins of courier and freeloader, so that a
seed changes the game), then `cogs-arena rate` over the games; prints the table (bot, rating,
95% interval, games), the CPU time and the games per hour. Then the issue's head-to-head: the
top rung beside a freeloader and six couriers, how often it eats more than the freeloader.
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

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots, seat_bots
from cogs_arena.server.cli.main import main as cli

RUNGS = (
    "random",
    "courier-seeded",
    "porter",
    "freeloader-seeded",
    "search:1",
    "search:2",
    "search:3",
    "search:4",
)


def _quiet(args: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli(args)
    if status != 0:
        raise SystemExit(f"cogs-arena {args[0]} exited {status}: {err.getvalue()[-2000:]}")
    return out.getvalue()


def _cpu() -> float:
    """CPU seconds of this process and its finished children (simulate may fork workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def ladder(games: int, directory: Path) -> None:
    started, wall = _cpu(), time.perf_counter()
    series = ["--games", str(games), "--bots", ",".join(RUNGS), "--seed", "1", "--jobs", "1"]
    _quiet(["simulate", "chemistry", *series, "--transcripts", str(directory)])
    cpu = _cpu() - started
    table = json.loads(_quiet(["rate", str(directory), "--json", "--bootstrap", "200"]))
    print(f"chemistry ladder: {games} games, one of each bot in eight rotating seats")
    print(f"  {cpu:.0f} s CPU ({time.perf_counter() - wall:.0f} s wall), one process")
    print(f"  about {games / cpu * 3600:.0f} games an hour on one core at this mix")
    print(f"  {'bot':<22} {'rating':>7}  {'95% interval':>16} {'games':>6} {'mean eaten':>10}")
    for row in table["labels"]:
        interval = "-" if row["low"] is None else f"[{row['low']:>6.2f}, {row['high']:>6.2f}]"
        print(
            f"  {row['label']:<22} {row['rating']:>7.2f}  {interval:>16} {row['games']:>6}"
            f" {row['mean_score']:>10.1f}"
        )


def head_to_head(games: int) -> None:
    engine = get_engine("chemistry")
    top = RUNGS[-1]
    base = [top, "freeloader", *["courier"] * 6]
    more = 0
    for game in range(games):
        bots = seat_bots(base, game, True)
        scores = play_bots(engine, engine.ruleset(), game, bots).outcome.scores
        more += scores[bots.index(top)] > scores[bots.index("freeloader")]
    print(
        f"head-to-head: {top} beside a freeloader and six couriers (seats rotated, seeds "
        f"0..{games - 1}) ate more than the freeloader in {more}/{games} games"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=64, help="ladder games")
    parser.add_argument("--duel", type=int, default=40, help="head-to-head games")
    parser.add_argument("--keep", type=Path, help="keep the transcripts in this directory")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        ladder(args.games, args.keep)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            ladder(args.games, Path(tmp))
    head_to_head(args.duel)


if __name__ == "__main__":
    main()
