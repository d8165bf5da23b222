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
from .compare import add_parser as add_compare
from .compare import cmd_compare


def add_parsers(sub: Any) -> None:
    rate = sub.add_parser(
        "rate", help="Plackett–Luce ratings per label over distinct games, with bootstrap intervals"
    )
    _add_common(rate)
    rate.add_argument("--bootstrap", type=int, default=200, metavar="N", help="resamples (200)")
    rate.add_argument(
        "--method",
        choices=("plackett-luce", "openskill"),
        default="plackett-luce",
        help="batch Plackett–Luce fit (default) or openskill's online one",
    )
    rate.add_argument(
        "--anchor",
        metavar="LABEL",
        help="put this label at 0 (default: the labels' mean is 0)",
    )
    out = rate.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--csv", action="store_true", help="print CSV")
    rate.add_argument("--chart", type=Path, metavar="OUT.png", help="also draw a PNG chart")

    add_compare(sub)

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
    try:
        table = rate(
            results.rows,
            by,
            args.bootstrap,
            args.seed,
            method=args.method,
            reference=args.anchor,
        )
    except ValueError as exc:
        _say("rate", printable(str(exc)))
        return 2
    if not table.rows:
        _say("rate", "no games to rate")
        return 1
    for summary in table.games:
        _say("rate", printable(_merged(summary)))
        for warning in summary.warnings:
            _say("rate", f"warning: {printable(warning)}")
    if args.json:
        print(json.dumps(table.to_json(), indent=2, ensure_ascii=False))
    elif args.csv:
        rows = [r.csv_row() for r in table.rows]
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


def _merged(summary: Any) -> str:
    """How many games a game kind's summary rests on, and why it has no interval."""
    text = (
        f"{summary.game}: {summary.records} transcript(s), {summary.distinct} distinct game(s) "
        f"({summary.repeats_merged} repeat(s) merged), {summary.rated} rated"
    )
    if summary.no_interval:
        text += f"; no interval: {summary.no_interval}"
    return text


def _scale(table: Any) -> str:
    if table.method == "openskill":
        return "openskill's online Plackett–Luce (mu; every label starts at 25)"
    zero = "the labels' mean" if table.anchor == "mean" else table.anchor
    return f"batch Plackett–Luce log-strength, {zero} at 0"


def _print_ratings(table: Any, files: int) -> None:
    from rich.console import Console
    from rich.table import Table

    view = Table(
        title=f"Ratings by {table.by} over {files} transcript(s): {_scale(table)}; "
        f"{table.interval}",
    )
    for name, justify in (
        ("game", "left"),
        ("label", "left"),
        ("rating", "right"),
        ("95% interval", "right"),
        ("games", "right"),
        ("seats", "right"),
        ("by seat", "left"),
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
            _num(r.rating),
            interval,
            str(r.games),
            str(r.seats),
            " ".join(f"{s.seat}:{s.seats}" for s in r.by_seat),
            _num(r.win_rate, 2, percent=True),
            _num(r.mean_score),
            _num(r.illegal_rate, 2, percent=True),
            _num(r.fallback_rate, 2, percent=True),
        )
    seats = Table(title="By seat, every label (finished distinct games)")
    for name in ("game", "seat", "name", "games", "win rate", "mean score"):
        seats.add_column(name, justify="left" if name in ("game", "name") else "right")
    for summary in table.games:
        for s in summary.seats:
            seats.add_row(
                summary.game,
                str(s.seat),
                printable(s.seat_name),
                str(s.seats),
                _num(s.win_rate, 2, percent=True),
                _num(s.mean_score),
            )
    # markup=False: labels come from clients and may hold [brackets]. Piped output is not cut
    # to 80 columns: a file or a pager can take the full labels.
    console = Console(markup=False, highlight=False)
    if not console.is_terminal:
        console.width = 240
    console.print(view)
    console.print(seats)


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
