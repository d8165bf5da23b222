"""The flags `serve` and the store-using commands share: where the store is, the HTTP bounds and
fair shares, the server's limits, and the log level."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        default=None,
        metavar="FILE|URL",
        help="SQLite store file, or postgresql://user@host/db for one database shared by several "
        "server instances (default: $COGS_ARENA_STORE or the user data directory)",
    )
    parser.add_argument(
        "--memory", action="store_true", help="keep games in memory only (lost on exit)"
    )
    parser.add_argument(
        "--transcripts",
        type=Path,
        default=None,
        help="transcripts directory (default: $COGS_ARENA_TRANSCRIPTS or beside the store)",
    )


def add_http_flags(parser: argparse.ArgumentParser) -> None:
    from ..web.guard import AUTH_TOKEN_ENV, DEFAULT_HOST, DEFAULT_PORT, MIN_TOKEN_CHARS, HttpOptions

    parser.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default), or http: Streamable HTTP at /mcp and legacy SSE at /sse at once",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"HTTP bind address ({DEFAULT_HOST})")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"HTTP port ({DEFAULT_PORT})"
    )
    parser.add_argument(
        "--auth-token",
        default=None,
        help=f"require 'Authorization: Bearer <token>' on HTTP (default: ${AUTH_TOKEN_ENV}; "
        "prefer the variable, a flag shows in the process list); needed beyond loopback, "
        f"with at least {MIN_TOKEN_CHARS} characters",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser Origin (scheme://host:port) allowed besides loopback; repeatable",
    )
    defaults = HttpOptions()
    for flag, name, kind, text in HTTP_BOUNDS:
        default = getattr(defaults, name)
        parser.add_argument(
            flag,
            dest=name,
            type=kind,
            default=default,
            metavar="SECONDS" if kind is float else "N",
            help=f"HTTP: {text} ({default:g})",
        )


HTTP_BOUNDS: tuple[tuple[str, str, type[int] | type[float], str], ...] = (
    ("--header-timeout", "header_timeout", float, "seconds for a request's headers to arrive"),
    ("--body-timeout", "body_timeout", float, "seconds for a request's body, after its headers"),
    ("--max-connections", "max_connections", int, "open connections; more are refused (503)"),
    ("--max-mcp-sessions", "max_mcp_sessions", int, "Streamable HTTP sessions open at once"),
    ("--mcp-session-idle", "mcp_session_idle", float, "seconds before an idle session closes"),
)


LIMIT_FLAGS = (
    ("--max-live-games", "max_live_games", "unfinished games at once"),
    ("--games-per-minute", "games_per_minute", "new games per rolling minute, all clients"),
    ("--talk-per-decision", "talk_per_decision", "talk lines per seat per decision (host talk)"),
    ("--sessions-in-memory", "max_sessions_in_memory", "games kept in memory; others reload"),
    ("--credential-rate", "credential_rate", "HTTP calls a second per seat credential"),
    ("--credential-at-once", "credential_at_once", "HTTP calls running at once per credential"),
    ("--connection-rate", "connection_rate", "HTTP calls a second per connection"),
    ("--connection-at-once", "connection_at_once", "HTTP calls running at once per connection"),
)


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    from ..limits import Limits

    defaults = Limits()
    for flag, name, text in LIMIT_FLAGS:
        default = getattr(defaults, name)
        parser.add_argument(
            flag, dest=name, type=int, default=default, metavar="N", help=f"{text} ({default})"
        )


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def log_level(text: str) -> str:
    if text.upper() not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown level {text!r}; one of " + ", ".join(LOG_LEVELS).lower()
        )
    return text.upper()
