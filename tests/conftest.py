from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_helpers import PgCluster, PgUnavailable

from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import replay


@pytest.fixture
def memory_service(tmp_path: Path) -> GameService:
    return GameService(MemoryStore(), tmp_path / "transcripts")


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[GameService]:
    store = SqliteStore(tmp_path / "arena.sqlite3")
    yield GameService(store, tmp_path / "transcripts")
    store.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """One throwaway PostgreSQL server for the whole run, started by the first test needing it."""
    cluster = PgCluster()
    try:
        cluster.start()
    except PgUnavailable as exc:
        cluster.stop()
        pytest.fail(f"PostgreSQL is needed here and could not start: {exc}", pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    """A fresh empty database on the test cluster."""
    return pg_cluster.new_database()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


TRANSCRIPT_NAME = re.compile(
    r"^(influence|territory|chemistry|blending|openspiel_[a-z0-9_]+)-[0-9a-f]{16}\.jsonl$"
)


@pytest.fixture(autouse=True)
def replay_written_transcripts(tmp_path: Path) -> Iterator[None]:
    """Every transcript a test writes under its tmp_path must replay with matching digests."""
    yield
    for path in sorted(tmp_path.rglob("*.jsonl")):
        if TRANSCRIPT_NAME.match(path.name):
            report = replay(path)
            assert report.ok, f"{path.name}: {report.mismatches}"


# ---- what the fast loop (`pytest -m "not slow"`) leaves to CI ----------------------------------

SLOW_HERE: dict[str, str] = {
    # whole games, several times over
    "tests/test_leaks.py::test_influence_secrets_stay_with_their_seats": "whole games",
    "tests/test_conformance.py::test_check_engine[influence]": "long random games",
    "tests/test_conformance.py::test_check_engine_over_every_era": "every Blending era",
    "tests/test_conformance.py::test_check_engine_catches_a_broken_engine": "whole playouts",
    "tests/test_influence_opening.py::test_the_seeded_opening_passes": "the harness again",
    "tests/test_canonical.py::test_states_observations_and_digests_of_every_game": "every game",
    "tests/test_blending_views.py::test_no_view_shows_another_seats_hand_faces_over_whole": "games",
    "tests/test_openspiel.py::test_check_engine_passes_over_every_kind_of_game[connect": "MCTS",
    "tests/test_rate.py::test_the_league_rates_every_strong_bot_above_random": "a league",
    "tests/test_ab.py::": "permutation tests over many simulated games",
    "tests/test_cli_simulate.py::test_every_game_simulates": "series with transcripts",
    "tests/test_cli_simulate.py::test_the_same_series_gives": "two series",
    "tests/test_cli_args.py::test_score_and_replay_take_folders": "series with transcripts",
    # every module of the package, parsed
    "tests/test_imports.py::test_the_eras_are_reached_only_through_their_doors": "every module",
    "tests/test_imports.py::test_no_private_name_crosses_the_eras_seam": "every module",
    "tests/test_inspect_params.py::test_only_the_inspect_package_imports_inspect": "a subprocess",
    "tests/test_move_schemas.py::test_the_structured_argument_has_a_form_per_game": "105 games",
    # pages and servers
    "tests/test_html_replay.py::": "whole games drawn",
    "tests/test_watch.py::test_the_page_under_the_guard": "an HTTP server",
}
"""Tests the fast loop leaves out (prefix of the node id -> why), beside those marked `slow`
where they stand and every test that needs the PostgreSQL server or the SQLite+MCP leak
backend. CI runs them all."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        postgres = "pg_cluster" in getattr(item, "fixturenames", ())
        sqlite_leak = item.nodeid.startswith("tests/test_leaks.py::") and "[sqlite" in item.nodeid
        if postgres or sqlite_leak or any(item.nodeid.startswith(p) for p in SLOW_HERE):
            item.add_marker(pytest.mark.slow)
