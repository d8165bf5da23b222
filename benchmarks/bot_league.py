"""Bot league: N nine-seat Territory games over mixed bots (raider, diplomat, homesteader,
random; seats rotating game by game) written as transcripts by `cogs-arena simulate`, then
`cogs-arena rate` over them. Prints the ratings with their 95% bootstrap intervals over
distinct games and the wall time of each stage.

Run: python benchmarks/bot_league.py [games] [--bootstrap N] [--jobs N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from ladder import quiet as _quiet  # benchmarks/ is the script's path

BOTS = ("raider", "diplomat", "homesteader", "random")


def run(games: int, bootstrap: int, jobs: int, directory: Path) -> None:
    started = time.perf_counter()
    series = ["--games", str(games), "--bots", ",".join(BOTS), "--seed", "1"]
    _quiet(["simulate", "territory", *series, "--jobs", str(jobs), "--transcripts", str(directory)])
    played = time.perf_counter() - started
    started = time.perf_counter()
    table = json.loads(_quiet(["rate", str(directory), "--json", "--bootstrap", str(bootstrap)]))
    rated = time.perf_counter() - started
    print(f"bot league: {games} Territory games, bots {', '.join(BOTS)} over 9 rotating seats")
    print(f"  transcripts in {directory}")
    print(
        f"  play:  {played:.1f} s wall over {jobs} process(es) "
        f"({played / games * 1000:.0f} ms per game, transcripts written)"
    )
    print(f"  rate:  {rated:.1f} s wall ({bootstrap} bootstrap resamples of games)")
    for summary in table["games"]:
        print(
            f"  {summary['distinct']} distinct games ({summary['repeats_merged']} repeats merged)"
            + (f"; no interval: {summary['no_interval']}" if summary["no_interval"] else "")
        )
    print(f"  {'label':<18} {'rating':>7}  {'95% interval':>16} {'win rate':>9} {'mean score':>11}")
    for row in table["labels"]:
        interval = "-" if row["low"] is None else f"[{row['low']:>6.2f}, {row['high']:>6.2f}]"
        print(
            f"  {row['label']:<18} {row['rating']:>7.2f}  {interval:>16}"
            f" {row['win_rate'] * 100:>8.1f}% {row['mean_score']:>11.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=100)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="write the transcripts here and keep them")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args.games, args.bootstrap, args.jobs, args.keep)
        return
    with tempfile.TemporaryDirectory(prefix="bot-league-") as tmp:
        run(args.games, args.bootstrap, args.jobs, Path(tmp))


if __name__ == "__main__":
    main()
