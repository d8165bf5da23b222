"""A game's strength ladder: one command per game plays its league through `cogs-arena simulate`
(seats rotated, seeds spread, one series per line-up), fits every bot with `cogs-arena rate`
(Plackett–Luce, 95% expanded percentile bootstrap over distinct games) and prints the table the
README carries, rung by rung from the bottom, saying for each rung whether its interval is
separated from the one below, with the CPU the league took and the games that fit in an hour
of one core at its mix.

Run: python benchmarks/ladder.py GAME [--games N] [--jobs J] [--seed S] [--keep DIR]

GAME is influence, territory, chemistry or blending; N sets every line-up's games (by default
each plays the games of the league the README's table was made with). The line-ups are below,
with why; `--jobs` is `simulate`'s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogs_arena.server.cli.main import main as cli


@dataclass(frozen=True)
class League:
    rungs: tuple[str, ...]
    """The ladder from the bottom: each is to out-rate the one before it."""
    lineups: tuple[tuple[int, tuple[str, ...]], ...]
    """One series each: its games in the published league, and its bots in seat order (rotated
    a seat a game by simulate)."""
    rules: str = "{}"
    note: str = ""


COURIERS = ("courier-seeded",) * 6
HOMESTEADERS = ("homesteader",) * 7

LEAGUES: dict[str, League] = {
    "influence": League(
        rungs=("random", "greedy", "search:1", "search:4"),
        lineups=(
            (60, ("random", "greedy")),
            (200, ("greedy", "search:1")),
            (250, ("search:1", "search:4")),
            (60, ("greedy", "search:4")),
            (40, ("search:1", "search:2")),
            (40, ("search:3", "search:4")),
        ),
        rules='{"opening": "seeded"}',
        note="two seats: neighbouring rungs meet, and the top meets greedy (the issue's pair)",
    ),
    "territory": League(
        rungs=("random", "homesteader", "search:4"),
        lineups=(
            (150, ("random", "search:4", *HOMESTEADERS)),
            (50, ("random", "search:1", *HOMESTEADERS)),
            (50, ("random", "search:2", *HOMESTEADERS)),
            (50, ("random", "search:3", *HOMESTEADERS)),
        ),
        note="one search seat a table: searching seats model the others as heuristic bots",
    ),
    "chemistry": League(
        rungs=("random", "freeloader", "search:4"),
        lineups=(
            (60, ("random", "freeloader", *COURIERS)),
            (200, ("freeloader", "search:4", *COURIERS)),
            (60, ("freeloader", "search:1", *COURIERS)),
            (60, ("freeloader", "search:2", *COURIERS)),
            (60, ("freeloader", "search:3", *COURIERS)),
        ),
        note="six couriers keep the room alive; the couriers carry and eat least (not a rung)",
        # The seeded couriers, so that the games differ: with the plain ones the room is the
        # same every game but for the search's own draws (250 games gave 27 distinct ones).
    ),
    "blending": League(
        rungs=("random", "builder", "search:4"),
        lineups=(
            (140, ("random", "search:1", "builder", "search:4")),
            (150, ("builder", "search:1", "builder", "search:1")),
            (100, ("builder", "search:2", "builder", "search:3")),
        ),
        note="the later line-ups, without the costly top rung, meet the builder often"
        " (search:1 and search:2 play level with it)",
    ),
}


def quiet(args: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli(args)
    if status != 0:
        raise SystemExit(f"cogs-arena {args[0]} exited {status}: {err.getvalue()[-2000:]}")
    return out.getvalue()


def _cpu() -> float:
    """CPU seconds of this process and its finished children (simulate forks its workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def separated(rows: Sequence[dict[str, Any]]) -> list[bool | None]:
    """For each rung after the first: is its interval wholly above the one below's (None where
    either has no interval)?"""
    out: list[bool | None] = []
    for below, above in itertools.pairwise(rows):
        if below["high"] is None or above["low"] is None:
            out.append(None)
        else:
            out.append(above["low"] > below["high"])
    return out


def play(game: str, league: League, every: int | None, jobs: int, seed: int, where: Path) -> int:
    total = 0
    for k, (games, bots) in enumerate(league.lineups):
        games = every or games
        out = where / f"lineup{k}"
        series = ["--games", str(games), "--bots", ",".join(bots), "--seed", str(seed + 10000 * k)]
        where_to = ["--jobs", str(jobs), "--json", "--transcripts", str(out)]
        quiet(["simulate", game, *series, "--rules", league.rules, *where_to])
        total += games
        print(f"  line-up {k}: {games} games of {', '.join(bots)}", flush=True)
    return total


def table(game: str, league: League, where: Path, total: int, cpu: float, wall: float) -> None:
    rated = json.loads(quiet(["rate", str(where), "--json", "--bootstrap", "200"]))
    by_label = {row["label"].removeprefix("bot:"): row for row in rated["labels"]}
    rows = [by_label[r] for r in league.rungs if r in by_label]
    others = [row for label, row in by_label.items() if label not in league.rungs]
    marks = [None, *separated(rows)]
    distinct = sum(s["distinct"] for s in rated["games"])
    print(
        f"{game} ladder: {total} games ({distinct} distinct) over {len(league.lineups)} "
        f"line-up(s); {cpu:.0f} s CPU, {wall:.0f} s wall; about {total / cpu * 3600:.0f} "
        "games an hour on one core at this mix"
    )
    if league.note:
        print(f"({league.note})")
    print("| rung | bot | rating | 95% interval | games | seats | win rate | mean score |"
          " above the rung below |")  # fmt: skip
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for n, (row, mark) in reversed(list(enumerate(zip(rows, marks, strict=True), 1))):
        print(_line(str(n), row, {None: "", True: "separated", False: "**overlaps**"}[mark]))
    for row in others:
        print(_line("", row, "not a rung"))
    for summary in rated["games"]:
        if summary["no_interval"]:
            print(f"no interval: {summary['no_interval']}")


def _line(rung: str, row: dict[str, Any], mark: str) -> str:
    interval = "-" if row["low"] is None else f"[{row['low']:.2f}, {row['high']:.2f}]"
    label = row["label"].removeprefix("bot:")
    return (
        f"| {rung} | `{label}` | {row['rating']:.2f} | {interval} | {row['games']} |"
        f" {row['seats']} | {row['win_rate'] * 100:.1f}% | {row['mean_score']:.2f} | {mark} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=sorted(LEAGUES))
    parser.add_argument("--games", type=int, help="games in every line-up (default: the league's)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="write the transcripts here and keep them")
    parser.add_argument("--rate-only", type=Path, metavar="DIR", help="rate a kept league again")
    args = parser.parse_args()
    league = LEAGUES[args.game]
    if args.rate_only:
        spent = json.loads((args.rate_only / "spent.json").read_text())
        table(args.game, league, args.rate_only, spent["games"], spent["cpu"], spent["wall"])
        return
    with contextlib.ExitStack() as stack:
        where = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        where.mkdir(parents=True, exist_ok=True)
        cpu, wall = _cpu(), time.perf_counter()
        total = play(args.game, league, args.games, args.jobs, args.seed, where)
        cpu, wall = _cpu() - cpu, time.perf_counter() - wall
        spent = {"games": total, "cpu": cpu, "wall": wall}
        (where / "spent.json").write_text(json.dumps(spent))
        table(args.game, league, where, total, cpu, wall)


if __name__ == "__main__":
    main()
