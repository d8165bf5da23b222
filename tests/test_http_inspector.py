"""A third-party client: the MCP Inspector CLI (Node) lists the tools and calls new_game and
show against the server over stdio and over Streamable HTTP. scripts/setup-dev installs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from http_helpers import HttpServer, running

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
INSPECTOR = ROOT / ".cache" / "inspector" / "node_modules" / ".bin" / "mcp-inspector"


def _inspector(home: Path, target: list[str], *args: str) -> dict[str, Any]:
    if not INSPECTOR.exists() or shutil.which("node") is None:
        pytest.fail(
            f"the MCP Inspector CLI is not installed at {INSPECTOR} (or node is missing): "
            "run `bash scripts/setup-dev` (it needs npm and Node 20+)"
        )
    # The Inspector writes under HOME; a scratch one keeps the user's untouched.
    env = {**os.environ, "HOME": str(home), "npm_config_cache": str(home / ".npm")}
    done = subprocess.run(
        [str(INSPECTOR), "--cli", *target, *args],
        capture_output=True,
        text=True,
        timeout=90,
        env=env,
        cwd=home,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _check(home: Path, target: list[str]) -> None:
    listed = _inspector(home, target, "--method", "tools/list")
    names = {tool["name"] for tool in listed["tools"]}
    assert {"new_game", "join_game", "show", "legal_moves", "play", "wait"} <= names
    game = _inspector(
        home,
        target,
        *("--method", "tools/call", "--tool-name", "new_game"),
        *("--tool-arg", "game=influence", "seat=Black", "seed=5", 'ruleset={"max_turns": 5}'),
    )
    assert not game.get("isError"), game
    created = game["structuredContent"]
    # The seed is the record's, not the seat's: hidden while the game runs.
    assert created["seat_name"] == "Black" and created["seed"] is None
    shown = _inspector(
        home,
        target,
        *("--method", "tools/call", "--tool-name", "show"),
        *("--tool-arg", f"game_id={created['game_id']}", f"credential={created['credential']}"),
    )
    assert not shown.get("isError"), shown
    view = shown["structuredContent"]
    assert view["game_id"] == created["game_id"] and view["seat_name"] == "Black"
    assert "Black" in shown["content"][0]["text"]


def test_inspector_cli_over_stdio(tmp_path: Path) -> None:
    # Each Inspector call starts its own server process on the same store: show in a second
    # process finds the game new_game made in the first.
    serve = [sys.executable, "-m", "cogs_arena", "serve"]
    serve += ["--store", str(tmp_path / "s.sqlite3"), "--transcripts", str(tmp_path / "t")]
    _check(tmp_path, serve)


def test_inspector_cli_over_streamable_http(tmp_path: Path) -> None:
    with running(HttpServer(tmp_path / "s.sqlite3", tmp_path / "t")) as server:
        _check(tmp_path, [server.base + "/mcp", "--transport", "http"])
