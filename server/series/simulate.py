"""`cogs-arena simulate <game>`: a series of bot games fanned out over processes, with a progress
bar on stderr and the game's numbers (or JSON) on stdout; `--transcripts DIR` keeps each game's
record, which `replay` verifies and `score` and `rate` read (each seat labelled by its bot).

Game i of a series is played with seed `--seed` + i; with rotation (the default) its bots are
shifted i seats, so every bot visits every seat."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TextIO

from ...engines import InvalidRuleset, get_engine
from ...engines.registry import available
from ...engines.runner import seat_bots
from ..seats import default_bot
from .numbers import report, summary
from .play import Planned, play

MAX_GAMES = 100_000


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "simulate",
        help="run a series of bot games and print the game's numbers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=available())
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot names, one per seat; fewer are repeated in order to fill the "
        "seats (default: the game's first bot that is not random, in every seat)",
    )
    parser.add_argument(
        "--rules", default="{}", help="ruleset overrides as JSON, e.g. '{\"players\": 3}'"
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (games use seed..)")
    parser.add_argument(
        "--no-rotate", action="store_true", help="keep bots in their seats (default: rotate)"
    )
    parser.add_argument("--jobs", type=int, default=0, help="processes (default: CPU count)")
    parser.add_argument(
        "--transcripts",
        default=None,
        metavar="DIR",
        help="write one transcript per game into DIR (for replay, score and rate)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--compare",
        nargs="+",
        metavar="RULES",
        help="several rulesets (JSON objects over --rules): the same games under each, the "
        "numbers side by side in one table",
    )


class Refused(ValueError):
    """A bad argument: its text says what is allowed."""


def plan_series(args: argparse.Namespace) -> list[Planned]:
    """The games to play, or Refused naming the bad argument."""
    if not 1 <= args.games <= MAX_GAMES:
        raise Refused(f"--games must be 1..{MAX_GAMES}")
    if args.jobs < 0:
        raise Refused("--jobs must be 0 (one per CPU) or more")
    engine = get_engine(args.game)
    try:
        overrides = json.loads(args.rules)
        if not isinstance(overrides, dict):
            raise ValueError("--rules must be a JSON object")
        ruleset = engine.ruleset(overrides)
    except (ValueError, InvalidRuleset) as exc:
        raise Refused(f"--rules: {exc}") from None
    seats = len(engine.seat_names(ruleset))
    given = args.bots if args.bots is not None else default_bot(engine)
    names = [b.strip() for b in given.split(",") if b.strip()]
    unknown = [b for b in names if b not in engine.bots()]
    if not 1 <= len(names) <= seats or unknown:
        raise Refused(
            f"--bots: give 1 to {seats} bot names (repeated in order to fill the {seats} "
            "seats) from "
            + ", ".join(engine.bots())
            + (f"; unknown: {', '.join(unknown)}" if unknown else f"; got {len(names)}")
        )
    bots = [names[i % len(names)] for i in range(seats)]
    rules = ruleset.model_dump(mode="json")
    return [
        Planned(
            game=args.game,
            rules=rules,
            seed=args.seed + i,
            bots=tuple(seat_bots(bots, i, not args.no_rotate)),
            transcripts=args.transcripts,
        )
        for i in range(args.games)
    ]


def played(plan: Sequence[Planned], jobs: int) -> Iterator[dict[str, Any]]:
    """Each game's numbers as the games finish, in any order."""
    if jobs == 1 or len(plan) < 4:
        yield from map(play, plan)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play, item) for item in plan]
        for future in as_completed(futures):
            yield future.result()


class Progress:
    """`[#####.....] 40/100 games, 12.3 games/s` redrawn on a terminal's stderr; elsewhere (a log
    file, a pipe) a plain line every `EVERY_PLAIN` seconds and at the end, so logs hold no
    carriage returns."""

    WIDTH = 30

    EVERY = 0.1
    """Seconds between redraws: a long series must not flood the terminal."""
    EVERY_PLAIN = 10.0

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty()
        self.started = time.monotonic()
        self.drawn = self.started if not self.terminal else 0.0

    def show(self, done: int) -> None:
        now = time.monotonic()
        every = self.EVERY if self.terminal else self.EVERY_PLAIN
        if done < self.total and now - self.drawn < every:
            return
        self.drawn = now
        rate = done / max(now - self.started, 1e-9)
        counts = f"{done}/{self.total} games, {rate:.1f} games/s"
        if self.terminal:
            filled = self.WIDTH * done // self.total
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}]"
            self.stream.write(f"\r{bar} {counts}" + ("\n" if done == self.total else ""))
        else:
            self.stream.write(f"simulate: {counts}\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    if args.compare:
        from .compare import run_compare

        return run_compare(args)
    try:
        plan = plan_series(args)
    except Refused as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    jobs = min(args.jobs or os.cpu_count() or 1, len(plan))
    progress = Progress(len(plan))
    records: list[dict[str, Any]] = []
    for record in played(plan, jobs):
        records.append(record)
        progress.show(len(records))
    records.sort(key=lambda r: int(r["seed"]))
    stats = summary(args.game, records)
    if args.transcripts is not None:
        stats["transcripts"] = os.path.abspath(args.transcripts)
    print(json.dumps(stats, indent=2) if args.json else report(stats))
    return 0
