"""Planning and playing a series: the games a `simulate` command line asks for, played over
processes as they finish, with the progress line. Shared by `simulate` and its `--compare`."""

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
from ...engines.runner import seat_bots
from ..seats import default_bot
from .play import Planned, play

MAX_GAMES = 100_000


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


BACKENDS = ("processes", "ray")


def played(
    plan: Sequence[Planned], jobs: int, backend: str = "processes", address: str | None = None
) -> Iterator[dict[str, Any]]:
    """Each game's numbers as the games finish, in any order: over local processes, or as Ray
    tasks (a local Ray instance of `jobs` workers, or the cluster at `address`)."""
    if backend == "ray":
        from .ray_backend import played_on_ray

        yield from played_on_ray(plan, address, cpus=jobs)
        return
    if jobs == 1 or len(plan) < 4:
        yield from map(play, plan)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play, item) for item in plan]
        for future in as_completed(futures):
            yield future.result()


def play_series(
    plan: Sequence[Planned], args: argparse.Namespace
) -> tuple[list[dict[str, Any]], int]:
    """Plays the series as the command line asks (`--jobs`, `--backend`, `--ray-address`) with
    the progress line: the games' numbers sorted by seed, and the jobs used. RayMissing
    propagates for the caller to report."""
    jobs = min(args.jobs or os.cpu_count() or 1, len(plan))
    progress = Progress(len(plan))
    records: list[dict[str, Any]] = []
    for record in played(plan, jobs, args.backend, args.ray_address):
        records.append(record)
        progress.show(len(records))
    records.sort(key=lambda r: int(r["seed"]))
    return records, jobs


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
