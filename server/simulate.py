"""`cogs-arena simulate blending`: bot games fanned out over processes, with a progress bar on
stderr, and the "fun numbers" of the rules document (or JSON) on stdout."""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from ..engines import InvalidRuleset, get_engine

SIMULATED = ("blending",)


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("simulate", help="run bot games and print the fun numbers")
    parser.add_argument("game", choices=SIMULATED)
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--bots",
        default="builder",
        help="comma-separated bot names, one per seat, or one name for every seat",
    )
    parser.add_argument(
        "--rules", default="{}", help="ruleset overrides as JSON, e.g. '{\"players\": 3}'"
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (games use seed..)")
    parser.add_argument(
        "--no-rotate", action="store_true", help="keep bots in their seats (default: rotate)"
    )
    parser.add_argument("--jobs", type=int, default=0, help="processes (default: CPU count)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    from ..engines.blending import simulate as sim

    if not 1 <= args.games <= 100_000:
        print("simulate: --games must be 1..100000", file=sys.stderr)
        return 2
    engine = get_engine(args.game)
    try:
        overrides = json.loads(args.rules)
        if not isinstance(overrides, dict):
            raise ValueError("--rules must be a JSON object")
        ruleset = engine.ruleset(overrides)
    except (ValueError, InvalidRuleset) as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    seats = len(engine.seat_names(ruleset))
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) == 1:
        bots = bots * seats
    unknown = [b for b in bots if b not in engine.bots()]
    if len(bots) != seats or unknown:
        print(
            f"simulate: give one bot or {seats} bots from {', '.join(engine.bots())}",
            file=sys.stderr,
        )
        return 2
    rules = ruleset.model_dump(mode="json")
    jobs = args.jobs or os.cpu_count() or 1
    plan = [
        (rules, args.seed + i, sim.seat_bots(bots, i, not args.no_rotate))
        for i in range(args.games)
    ]
    records: list[dict[str, Any]] = []
    if jobs == 1 or args.games < 4:
        for n, item in enumerate(plan, start=1):
            records.append(sim.game_record(*item))
            _progress(n, len(plan))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(sim.game_record, *item) for item in plan]
            for n, future in enumerate(as_completed(futures), start=1):
                records.append(future.result())
                _progress(n, len(plan))
    records.sort(key=lambda r: int(r["seed"]))
    stats = sim.aggregate(records)
    print(json.dumps(stats, indent=2) if args.json else sim.report(stats))
    return 0
