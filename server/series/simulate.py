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
from typing import Any

from ...engines.registry import available
from .compare import run_compare
from .numbers import report, summary
from .plan import BACKENDS, Refused, plan_series, play_series
from .ray_backend import RayMissing


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "simulate",
        help="run a series of bot games and print the game's numbers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "game",
        choices=available(),
        metavar="GAME",
        help="influence, territory, chemistry, blending, a plugin's game, or openspiel:<game>",
    )
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
    parser.add_argument(
        "--jobs", type=int, default=0, help="processes, or local Ray workers (default: CPU count)"
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="processes",
        help="where the games run: local processes (default), or Ray tasks (the ray extra; "
        "the same seeds, seats and transcripts)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="with --backend ray: a running cluster (ray://HEAD:10001 or auto; default: "
        "RAY_ADDRESS, else a local Ray instance of --jobs workers)",
    )
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


def run(args: argparse.Namespace) -> int:
    if args.compare:
        return run_compare(args)
    try:
        plan = plan_series(args)
    except Refused as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    try:
        records, _ = play_series(plan, args)
    except RayMissing as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    stats = summary(args.game, records)
    if args.transcripts is not None:
        stats["transcripts"] = os.path.abspath(args.transcripts)
    print(json.dumps(stats, indent=2) if args.json else report(stats))
    return 0
