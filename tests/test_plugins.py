"""Games from other packages: a plugin names its engine in the `cogs_arena.games` entry-point
group and is played like the four (here Nim, from `tests/plugins/`, found through its
`.dist-info` on the server's path); a plugin that raises on import is reported by name and
skipped, never fatal; and without OpenSpiel the server starts, serves the four games and says
how to install it."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp_helpers import call, call_error, stdio_params

from cogs_arena.engines.testing import check_engine

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

PLUGINS = Path(__file__).parent / "plugins"
NO_PYSPIEL = PLUGINS / "no_pyspiel"


def _server(tmp_path: Path, *paths: Path) -> StdioServerParameters:
    return stdio_params(tmp_path / "s.sqlite3", tmp_path / "t", *paths)


async def _finish(client: Client, game: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = game["view"]
    for _ in range(100):
        if view["status"] == "over":
            return view
        view = (
            await call(
                client, "play", game_id=game["game_id"], credential=game["credential"], number=1
            )
        )["view"]
    raise AssertionError("the game did not end")


async def test_a_plugin_game_is_listed_played_and_replayed_and_a_broken_one_skipped(
    tmp_path: Path,
) -> None:
    async with Client(_server(tmp_path, PLUGINS)) as client:
        games = await call(client, "list_games")
        assert "nim" in [g["name"] for g in games["games"]]
        assert "broken" in games["not_loaded"]
        assert "broken on purpose" in games["not_loaded"]["broken"]
        for name in ("influence", "territory", "chemistry", "blending"):
            assert name in [g["name"] for g in games["games"]]
        game = await call(
            client, "new_game", game="nim", seed=1, bots=["perfect"], ruleset={"stones": 9}
        )
        view = await _finish(client, game)
        assert view["outcome"] is not None
        rules = await client.read_resource("cogs-arena://rules/nim")
        assert "last stone" in str(rules)
    (path,) = (tmp_path / "t").iterdir()
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")])
    )
    done = subprocess.run(
        [sys.executable, "-m", "cogs_arena", "replay", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "plugin broken not loaded" in done.stderr


def test_the_plugin_passes_the_shipped_conformance_harness(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGINS))
    engine = importlib.import_module("nim_game.engine").NimEngine()
    report = check_engine(engine)
    assert report.bots == ["perfect", "random"]


async def test_without_openspiel_the_four_games_are_served_and_it_says_how_to_install(
    tmp_path: Path,
) -> None:
    async with Client(_server(tmp_path, NO_PYSPIEL)) as client:
        games = await call(client, "list_games")
        assert [g["name"] for g in games["games"]] == [
            "influence",
            "territory",
            "chemistry",
            "blending",
        ]
        (family,) = games["families"]
        assert family["name"] == "openspiel" and not family["installed"]
        assert "pip install '.[openspiel]'" in family["install"]
        error = await call_error(client, "new_game", game="openspiel:chess")
        assert "not installed" in error and "pip install" in error
        game = await call(client, "new_game", game="influence", seed=3, ruleset={"max_turns": 4})
        assert (await _finish(client, game))["outcome"] is not None
