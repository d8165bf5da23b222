"""`cogs-arena compare`: the paired A/B comparison of two labels over transcripts, as text, JSON
or a chart of the paired differences. Bad arguments exit 2; data that cannot be paired, or a
chart that cannot be written, exits 1 with what is wrong."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ...transcripts.evaluation.results import BY_CHOICES, parse_by, read_results
from ...transcripts.evaluation.score import printable


def add_parser(sub: Any) -> None:
    compare = sub.add_parser("compare", help="paired A/B comparison of two labels")
    compare.add_argument("files", nargs="+", type=Path, help="transcripts or directories")
    compare.add_argument("--by", default="model", help=f"{BY_CHOICES} (default: model)")
    compare.add_argument("--a", required=True, metavar="LABEL", help="the label of A")
    compare.add_argument("--b", required=True, metavar="LABEL", help="the label of B")
    compare.add_argument(
        "--skip-unfinished",
        action="store_true",
        help="leave out unfinished games and their partners (and say how many)",
    )
    compare.add_argument("--json", action="store_true", help="print JSON")
    compare.add_argument(
        "--chart", type=Path, metavar="OUT.png", help="also draw the paired differences"
    )


def _say(text: str) -> None:
    print(f"cogs-arena compare: {text}", file=sys.stderr)


def cmd_compare(args: argparse.Namespace) -> int:
    from ...transcripts.evaluation.compare import UnpairedData, compare

    try:
        by = parse_by(args.by)
    except ValueError as exc:
        _say(str(exc))
        return 2
    results = read_results(args.files)
    for problem in results.problems:
        _say(f"skipped {problem.path}: {printable(problem.reason)}")
    try:
        result = compare(results.rows, by, args.a, args.b, skip_unfinished=args.skip_unfinished)
    except UnpairedData as exc:
        _say(printable(str(exc)))
        return 1
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines(result)))
    if result.skipped_games:
        _say(
            f"left out {result.skipped_games} unfinished game(s) and {result.skipped_seats} "
            "finished seat(s) on their seeds and seats (--skip-unfinished)"
        )
    if args.chart is not None:
        from ...transcripts.evaluation.chart import write_paired_png

        try:
            write_paired_png(result, args.chart)
        except (OSError, ValueError) as exc:
            _say(f"cannot write the chart {args.chart}: {exc}")
            return 1
        _say(f"chart written to {args.chart}")
    return 1 if results.problems else 0


def _interval(low: float | None, high: float | None, scale: float = 1.0, digits: int = 3) -> str:
    assert low is not None and high is not None
    return f"[{low * scale:+.{digits}f}, {high * scale:+.{digits}f}]"


def lines(r: Any) -> list[str]:
    """The comparison as text (`r` is a `compare.Comparison`)."""
    a, b = printable(r.a), printable(r.b)
    merged = f", {r.merged} repeat(s) of the same two games merged" if r.merged else ""
    seats = f"; up to {r.seats} seat pairs a paired game, averaged within it" if r.seats > 1 else ""
    out = [
        f"A = {a}, B = {b} (by {r.by}): {r.pairs} seat pairs (same game, ruleset, seed, seat) "
        f"in {r.games} paired game(s), {r.distinct} distinct{merged}{seats}",
    ]
    if len(r.game_names) > 1:
        out.append(
            f"  games            {', '.join(r.game_names)}: each paired game's difference is on "
            "its own game's score scale, and they are pooled as they are"
        )
    if r.skipped_games:
        out.append(
            f"  left out        {r.skipped_games} unfinished game(s) and {r.skipped_seats} "
            "finished seat(s) on their seeds and seats"
        )
    out.append(f"  mean score       A {r.mean_a:.3f}   B {r.mean_b:.3f}")
    if r.no_interval is None:
        out.append(
            f"  score A - B      {r.mean_diff:+.3f}   95% interval "
            f"{_interval(r.diff_low, r.diff_high)} (t over {r.distinct} paired games, "
            f"{r.distinct - 1} df)"
        )
    else:
        out.append(f"  score A - B      {r.mean_diff:+.3f}   no interval: {r.no_interval}")
    if r.effect_size is not None:
        out.append(
            f"  effect size      {r.effect_size:+.2f} (d_z: the mean difference over the standard "
            "deviation of the paired games' differences)"
        )
    win = (
        f"  win rate A - B   {r.win_rate_diff * 100:+.1f} points ({r.win_rate_a:.1%} vs "
        f"{r.win_rate_b:.1%})"
    )
    if r.no_win_interval is None:
        win += (
            f", 95% interval {_interval(r.win_diff_low, r.win_diff_high, 100, 1)} "
            "(Newcombe, paired)"
        )
    else:
        win += ", no interval"
    out.append(win)
    out.append(
        f"  sign test        A better {r.a_better}, B better {r.b_better}, ties {r.ties} "
        f"(paired games): p = {r.sign_p:.4g} (exact, two-sided)"
    )
    out.append(f"  signed-rank      p = {r.signed_rank_p:.4g} (Wilcoxon, two-sided, ties dropped)")
    return out
