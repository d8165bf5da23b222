"""`cogs-arena view TRANSCRIPT [-o game.html]`: one self-contained HTML replay of a game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    view = sub.add_parser(
        "view",
        help="write a transcript as one HTML page to step through (no network needed)",
        description="Writes one self-contained HTML file: step through the game with the arrow "
        "keys, switch between each seat's perspective and the spectator's (up/down or number "
        "keys), and read the talk, attempts, rejections, fallbacks and news of each step.",
    )
    view.add_argument("transcript", type=Path, help="a transcript file (.jsonl)")
    view.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help="the HTML file to write (default: the transcript's name with .html)",
    )


def run(args: argparse.Namespace) -> int:
    from ...transcripts.evaluation.score import printable
    from ...transcripts.io import TranscriptError
    from ...transcripts.viewer.html_replay import write_replay
    from ...transcripts.viewer.replay_steps import ReplayBookError

    output: Path = args.output or args.transcript.with_suffix(".html")
    try:
        book, size = write_replay(args.transcript, output)
    except TranscriptError as exc:
        print(f"cogs-arena view: {printable(str(exc))}", file=sys.stderr)
        return 2
    except ReplayBookError as exc:
        print(
            f"cogs-arena view: {args.transcript} cannot be shown: {printable(str(exc))}",
            file=sys.stderr,
        )
        return 1
    except OSError as exc:
        print(f"cogs-arena view: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    end = "finished" if book.outcome is not None else "unfinished"
    print(
        f"wrote {output}: {book.title}, {len(book.steps) - 1} steps ({end}), "
        f"{len(book.perspectives)} perspectives, {size / 1024:.0f} KB"
    )
    return 0
