"""The `cogs-arena` command: serve, demo, replay, score, simulate, rate, compare, export, view."""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ... import __version__
from ...engines.registry import load_plugins
from ..store.choose import describe, is_url, open_store, store_spec, transcripts_dir
from .flags import (
    HTTP_BOUNDS,
    LIMIT_FLAGS,
    LOG_LEVELS,
    add_http_flags,
    add_limit_flags,
    add_store_flags,
    log_level,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cogs-arena", description="An MCP tool server where LLM agents play board games."
    )
    parser.add_argument("--version", action="version", version=f"cogs-arena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the MCP server (stdio, or HTTP)")
    add_store_flags(serve)
    serve.add_argument(
        "--log-level",
        default="WARNING",
        type=log_level,
        help="stderr log level: " + ", ".join(LOG_LEVELS).lower() + " (warning)",
    )
    serve.add_argument(
        "--deadline",
        type=float,
        default=None,
        metavar="SECONDS",
        help="default time per decision for LLM seats (off unless set; new_game can override)",
    )
    serve.add_argument(
        "--join-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="how long a game waits for invited seats before starting or forfeiting (300)",
    )
    serve.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="default label of the games this server starts and the seats it fills, e.g. "
        "model=gpt-x or prompt=v2; repeatable; over $COGS_ARENA_LABELS (model=a,prompt=b), "
        "under a new_game/join_game argument",
    )
    add_limit_flags(serve)
    add_http_flags(serve)

    demo = sub.add_parser("demo", help="play a bot-vs-bot Influence game through MCP over stdio")
    add_store_flags(demo)
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--max-turns", type=int, default=100)

    replay = sub.add_parser("replay", help="re-simulate transcripts and check every digest")
    replay.add_argument("files", nargs="+", type=Path, help="transcripts, or folders of them")
    replay.add_argument(
        "--views", action="store_true", help="print every view a seat was shown, regenerated"
    )

    score = sub.add_parser("score", help="per seat-label results over transcripts")
    score.add_argument("files", nargs="+", type=Path, help="transcripts, or folders of them")
    score.add_argument("--json", action="store_true", help="print JSON")

    from ..series.simulate import add_parser as add_simulate

    add_simulate(sub)
    from .evaluate import add_parsers as add_evaluate  # rate, compare, export

    add_evaluate(sub)
    from .view import add_parser as add_view

    add_view(sub)
    from .fork import add_parser as add_fork

    add_fork(sub, add_store_flags)
    return parser


def _paths(args: argparse.Namespace) -> tuple[str, Path]:
    """The store (a file or a URL) and the transcripts folder."""
    spec = store_spec(args.store)
    return spec, transcripts_dir(args.transcripts, spec)


def cmd_serve(args: argparse.Namespace) -> int:
    from ..adapter.app import build_server
    from ..adapter.shares import Shares
    from ..errors import BadArgument
    from ..labels import server_labels
    from ..limits import Limits
    from ..service import GameService
    from ..store.memory import Store
    from ..web.app import serve_http
    from ..web.guard import AUTH_TOKEN_ENV, BindRefused, HttpOptions, check_bind, token_warning
    from ..web.watch import Watch

    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper())
    options = HttpOptions(
        host=args.host,
        port=args.port,
        auth_token=args.auth_token or os.environ.get(AUTH_TOKEN_ENV) or None,
        allowed_origins=tuple(args.allow_origin),
        **{name: getattr(args, name) for _, name, _, _ in HTTP_BOUNDS},
    )
    for flag, name, _, _ in HTTP_BOUNDS:
        if not 0 < getattr(args, name) < float("inf"):
            print(f"cogs-arena serve: {flag} must be a finite number over 0", file=sys.stderr)
            return 2
    for flag, value in (("--deadline", args.deadline), ("--join-timeout", args.join_timeout)):
        if value is not None and value <= 0:
            print(f"cogs-arena serve: {flag} must be > 0 seconds", file=sys.stderr)
            return 2
    for flag, name, _ in LIMIT_FLAGS:
        if getattr(args, name) < 1:
            print(f"cogs-arena serve: {flag} must be 1 or more", file=sys.stderr)
            return 2
    limits = Limits(**{name: getattr(args, name) for _, name, _ in LIMIT_FLAGS})
    try:
        labels = server_labels(args.label)
    except BadArgument as exc:
        print(f"cogs-arena serve: {exc}", file=sys.stderr)
        return 2
    if args.transport == "http":
        try:  # before opening the store: a refused start must leave nothing behind
            check_bind(options)
        except BindRefused as exc:
            print(f"cogs-arena serve: {exc}", file=sys.stderr)
            return 2
    store_path, transcripts = _paths(args)
    try:
        store: Store = open_store(store_path, memory=args.memory)
    except Exception as exc:  # unreachable server, wrong credentials, a newer schema
        where = describe(store_path, memory=args.memory)
        print(f"cogs-arena serve: cannot open the store {where}: {exc}", file=sys.stderr)
        return 2
    service = GameService(
        store,
        transcripts,
        default_deadline=args.deadline,
        default_join_timeout=args.join_timeout,
        limits=limits,
        default_labels=labels,
    )
    report = service.resume_report
    for problem in report.problems:
        print(f"cogs-arena serve: skipped a game that cannot be loaded: {problem}", file=sys.stderr)

    def say(line: str) -> None:  # stderr only: under stdio, stdout carries the protocol
        print(f"cogs-arena serve: {line}", file=sys.stderr, flush=True)

    warning = token_warning(options.auth_token, options.host)
    if args.transport == "http" and warning is not None:
        say(f"warning: {warning}")
    kept = describe(store_path, memory=args.memory)
    say(f"store {kept}; transcripts in {transcripts.absolute()}")
    if labels:
        say("default labels " + ", ".join(f"{k}={v}" for k, v in labels.items()))
    say(
        f"resumed {report.unfinished} unfinished game(s) of {report.games} in the store; "
        f"{len(report.transcripts_repaired)} transcript(s) repaired"
        + (f"; {len(report.problems)} skipped" if report.problems else "")
    )
    # One stdio client: its calls run on the event loop, without a thread hop each way, and
    # there are no others to share the server with.
    http = args.transport == "http"
    shares = Shares(limits) if http else None
    server = build_server(service, tools_on_loop=not http, shares=shares)
    # Deadlines and join timeouts need a clock that runs while nobody calls.
    stop_ticker = service.start_ticker()
    try:
        if args.transport == "http":
            serve_http(
                server,
                options,
                args.log_level,
                on_ready=lambda mcp_url, sse_url: say(
                    f"listening: Streamable HTTP at {mcp_url}, HTTP+SSE at {sse_url}; "
                    "spectators watch at /watch/<spectator code>"
                ),
                extra_routes=Watch(service).routes(),
            )
        else:
            import anyio

            from ..adapter.stdio import serve_stdio

            say("speaking MCP over stdio (requests on stdin, answers on stdout)")
            anyio.run(serve_stdio, server)
    finally:
        stop_ticker.set()
        store.close()
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    import anyio

    from .demo import run_demo

    store_path, transcripts = _paths(args)
    if is_url(store_path):
        print(
            "cogs-arena demo: the demo keeps its game in a SQLite file or --memory", file=sys.stderr
        )
        return 2
    return anyio.run(
        run_demo, Path(store_path), transcripts, args.seed, args.max_turns, args.memory
    )


def cmd_replay(args: argparse.Namespace) -> int:
    from ...transcripts import replay
    from ...transcripts.evaluation.results import transcript_paths
    from ...transcripts.evaluation.score import printable
    from ...transcripts.events import ViewShown

    def show_view(event: ViewShown, board: str) -> None:
        print(f"--- #{event.seq} seat {event.seat}, decision {event.decision}")
        print(board.rstrip())

    paths, problems = transcript_paths(args.files)
    for empty in problems:
        print(f"FAIL {empty.path}: {printable(empty.reason)}")
    failed = len(problems)
    for path in paths:
        # An unreadable file is a mismatch, never an exception.
        report = replay(path, on_view=show_view if args.views else None)
        status = "ok" if report.ok else "FAIL"
        end = "finished" if report.finished else "unfinished"
        if report.ok and not report.complete:
            end += ", partly checked"
        game = report.game or "unreadable"
        print(
            f"{status} {path}: {game}, {report.transitions} transitions, "
            f"{report.views_checked} views, {end}"
        )
        for problem in report.mismatches:
            print(f"  {printable(problem)}")
        for gap in report.not_checked:
            print(f"  {printable(gap)}")
        failed += 0 if report.ok else 1
    return 1 if failed else 0


def cmd_score(args: argparse.Namespace) -> int:
    from ...transcripts.evaluation.results import transcript_paths
    from ...transcripts.evaluation.score import printable, score_files, table_lines

    paths, problems = transcript_paths(args.files)
    result = score_files(paths)
    result.problems[:0] = problems
    for problem in result.problems:
        print(
            f"cogs-arena score: skipped {problem.path}: {printable(problem.reason)}",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in table_lines(result):
            print(line)
    return 1 if result.problems else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..series.simulate import run

    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for name, why in load_plugins().items():
        print(f"cogs-arena: plugin {name} not loaded (skipped): {why}", file=sys.stderr)
    handlers = {
        "serve": cmd_serve,
        "demo": cmd_demo,
        "replay": cmd_replay,
        "score": cmd_score,
        "simulate": cmd_simulate,
    }
    from .evaluate import HANDLERS as evaluate_handlers

    handlers.update(evaluate_handlers)
    from .fork import cmd_fork

    handlers["fork"] = functools.partial(cmd_fork, store_and_transcripts=_paths)
    from .view import run as cmd_view

    handlers["view"] = cmd_view
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
