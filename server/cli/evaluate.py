"""`cogs-arena rate | compare | export`: ratings, paired comparison and export over transcripts.

All three read files or directories (every `*.jsonl` under them). A transcript that cannot be
read is named on stderr, the rest are used, and the exit status is 1, as with `score`. Bad
arguments exit 2; data `compare` cannot pair exits 1 with what is missing.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from ...transcripts.evaluation.results import BY_CHOICES, Results, parse_by, read_results
from ...transcripts.evaluation.score import printable


def add_parsers(sub: Any) -> None:
    rate = sub.add_parser("rate", help="Plackett–Luce ratings per label, with 95%% intervals")
    _add_common(rate)
    rate.add_argument("--bootstrap", type=int, default=200, metavar="N", help="resamples (200)")
    out = rate.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--csv", action="store_true", help="print CSV")
    rate.add_argument("--chart", type=Path, metavar="OUT.png", help="also draw a PNG chart")

    compare = sub.add_parser("compare", help="paired A/B comparison of two labels")
    _add_common(compare)
    compare.add_argument("--a", required=True, metavar="LABEL", help="the label of A")
    compare.add_argument("--b", required=True, metavar="LABEL", help="the label of B")
    compare.add_argument(
        "--bootstrap", type=int, default=2000, metavar="N", help="resamples (2000)"
    )
    compare.add_argument("--json", action="store_true", help="print JSON")

    export = sub.add_parser("export", help="one row per seat per game, as CSV or Parquet")
    export.add_argument("files", nargs="+", type=Path, help="transcripts or directories")
    export.add_argument("-o", "--output", required=True, type=Path, help="out.csv or out.parquet")


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, help="transcripts or directories")
    parser.add_argument("--by", default="model", help=f"{BY_CHOICES} (default: model)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (0)")


def _say(command: str, text: str) -> None:
    print(f"cogs-arena {command}: {text}", file=sys.stderr)


def _read(command: str, files: list[Path]) -> Results:
    results = read_results(files)
    for problem in results.problems:
        _say(command, f"skipped {problem.path}: {printable(problem.reason)}")
    return results


def _checked_by(command: str, args: argparse.Namespace, least: int) -> str | None:
    """The `--by` value, checked with `--bootstrap`; None once it has said what is wrong."""
    try:
        if args.bootstrap < least:
            raise ValueError(f"--bootstrap must be {least} or more")
        return parse_by(args.by)
    except ValueError as exc:
        _say(command, str(exc))
        return None


def _num(value: float | None, digits: int = 2, percent: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value * 100:.{digits - 1}f}%" if percent else f"{value:.{digits}f}"


def cmd_rate(args: argparse.Namespace) -> int:
    from ...transcripts.evaluation.rating import rate

    by = _checked_by("rate", args, least=0)
    if by is None:
        return 2
    results = _read("rate", args.files)
    table = rate(results.rows, by, args.bootstrap, args.seed)
    if not table.rows:
        _say("rate", "no games to rate")
        return 1
    if args.json:
        print(json.dumps(table.to_json(), indent=2, ensure_ascii=False))
    elif args.csv:
        rows = [r.to_json() for r in table.rows]
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    else:
        _print_ratings(table, results.files)
    if args.chart is not None:
        from ...transcripts.evaluation.chart import write_png

        try:
            write_png(table, args.chart)
        except (OSError, ValueError) as exc:
            _say("rate", f"cannot write the chart {args.chart}: {exc}")
            return 1
        _say("rate", f"chart written to {args.chart}")
    return 1 if results.problems else 0


def _print_ratings(table: Any, files: int) -> None:
    from rich.console import Console
    from rich.table import Table

    view = Table(
        title=f"Ratings by {table.by} over {files} transcript(s): Plackett–Luce (openskill), "
        f"95% intervals from {table.bootstrap} bootstrap resamples of games",
    )
    for name, justify in (
        ("game", "left"),
        ("label", "left"),
        ("rating", "right"),
        ("95% interval", "right"),
        ("games", "right"),
        ("seats", "right"),
        ("win rate", "right"),
        ("mean score", "right"),
        ("illegal", "right"),
        ("fallbacks", "right"),
    ):
        view.add_column(name, justify=justify, overflow="fold", no_wrap=name != "label")  # type: ignore[arg-type]
    for r in table.rows:
        interval = "-" if r.low is None else f"[{r.low:.2f}, {r.high:.2f}]"
        view.add_row(
            r.game,
            printable(r.label),
            f"{r.rating:.2f}",
            interval,
            str(r.games),
            str(r.seats),
            _num(r.win_rate, 2, percent=True),
            _num(r.mean_score),
            _num(r.illegal_rate, 2, percent=True),
            _num(r.fallback_rate, 2, percent=True),
        )
    # markup=False: labels come from clients and may hold [brackets]. Piped output is not cut
    # to 80 columns: a file or a pager can take the full labels.
    console = Console(markup=False, highlight=False)
    if not console.is_terminal:
        console.width = 240
    console.print(view)


def cmd_compare(args: argparse.Namespace) -> int:
    from ...transcripts.evaluation.compare import UnpairedData, compare

    by = _checked_by("compare", args, least=1)
    if by is None:
        return 2
    results = _read("compare", args.files)
    try:
        result = compare(results.rows, by, args.a, args.b, bootstrap=args.bootstrap, seed=args.seed)
    except UnpairedData as exc:
        _say("compare", printable(str(exc)))
        return 1
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        r = result
        a, b = printable(r.a), printable(r.b)
        print(f"A = {a}, B = {b} (by {r.by}): {r.pairs} pairs (same game, ruleset, seed, seat)")
        print(f"  mean score       A {r.mean_a:.3f}   B {r.mean_b:.3f}")
        print(
            f"  score A - B      {r.mean_diff:+.3f}   95% interval "
            f"[{r.diff_low:+.3f}, {r.diff_high:+.3f}] ({r.bootstrap} bootstrap resamples)"
        )
        print(
            f"  win rate A - B   {r.win_rate_diff * 100:+.1f} points ({r.win_rate_a:.1%} vs "
            f"{r.win_rate_b:.1%}), 95% interval [{r.win_diff_low * 100:+.1f}, "
            f"{r.win_diff_high * 100:+.1f}]"
        )
        print(
            f"  sign test        A better {r.a_better}, B better {r.b_better}, ties {r.ties}: "
            f"p = {r.sign_p:.4g} (exact, two-sided)"
        )
    return 1 if results.problems else 0


def cmd_export(args: argparse.Namespace) -> int:
    from ...transcripts.evaluation.export import ExportError, export

    results = _read("export", args.files)
    try:
        export(results.rows, args.output)
    except ExportError as exc:
        _say("export", str(exc))
        return 2
    except OSError as exc:
        _say("export", f"cannot write {args.output}: {exc}")
        return 1
    _say("export", f"{len(results.rows)} rows from {results.files} transcript(s) to {args.output}")
    return 1 if results.problems else 0


HANDLERS = {"rate": cmd_rate, "compare": cmd_compare, "export": cmd_export}
