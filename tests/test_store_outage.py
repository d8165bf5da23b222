"""A shared store that cannot be reached is a typed error a client can act on, never a crash,
and the server recovers by itself once the database answers again."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from pg_helpers import PgCluster

from cogs_arena.server.errors import StoreUnavailable
from cogs_arena.server.service import GameService
from cogs_arena.server.store.postgres import APP_NAME, PostgresStore


def test_a_lost_database_is_store_unavailable_then_the_next_call_works(
    pg_cluster: PgCluster, pg_url: str, tmp_path: Path
) -> None:
    store = PostgresStore(pg_url, pool_size=2)
    try:
        service = GameService(store, tmp_path / "t")
        game = service.new_game("influence", seed=2)
        before = service.show(game.game_id, game.credential)
        # The database drops every connection of ours, as a restart or a failover would.
        with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name LIKE %s AND pid <> pg_backend_pid()",
                (APP_NAME + " %",),
            )
        refused: list[StoreUnavailable] = []
        for _ in range(4):  # each broken pooled connection fails once, then is replaced
            try:
                after = service.show(game.game_id, game.credential)
                break
            except StoreUnavailable as exc:
                refused.append(exc)
        else:
            pytest.fail("the store did not recover after its connections were dropped")
        assert refused, "a dropped connection must surface as store_unavailable"
        assert refused[0].code == "store_unavailable"
        assert "cannot be reached" in str(refused[0]) and "again" in str(refused[0])
        assert after.decision == before.decision and after.observation == before.observation
    finally:
        store.close()
