"""Two real server processes on one PostgreSQL database, every client spread over both: whole
games, two clients racing one seat through the two instances, a `wait` woken by a move made on
the other instance, a spectator subscribed on one hearing moves made on the other, a deadline
with both instances ticking, and one instance killed mid-game."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any

import anyio
import pytest
from http_helpers import Caller, HttpServer, held, play_all, play_seat, sse, streamable
from mcp_helpers import call
from pg_helpers import PgCluster
from test_subscribe_legacy import Heard, subscribe

from cogs_arena.server.store.postgres import PostgresStore
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Attempt, Fallback

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@dataclass
class Instance(HttpServer):
    """`cogs-arena serve --transport http --store postgresql://...`; `store` names its log."""

    url: str = ""

    def command(self) -> list[str]:
        command = super().command()
        command[command.index("--store") + 1] = self.url
        return command


def _pair(root: Path, url: str) -> list[Instance]:
    # One transcripts folder for both, as instances share a volume in a deployment.
    return [Instance(root / f"{name}.log", root / "t", url=url) for name in "ab"]


@pytest.fixture(scope="module")
def instances(
    tmp_path_factory: pytest.TempPathFactory, pg_cluster: PgCluster
) -> Iterator[list[Instance]]:
    pair = _pair(tmp_path_factory.mktemp("instances"), pg_cluster.new_database())
    for instance in pair:
        instance.start()
    try:
        yield pair
    finally:
        for instance in pair:
            instance.stop()


def spread(*callers: Caller) -> Caller:
    """One seat's calls, each through the next instance in turn."""
    turn = count()

    async def caller(tool: str, **arguments: Any) -> dict[str, Any]:
        return await callers[next(turn) % len(callers)](tool, **arguments)

    return caller


def _transcript(server: HttpServer, game: dict[str, Any]) -> Path:
    return server.transcripts / f"{game['view']['game']}-{game['game_id']}.jsonl"


async def _influence(
    creator: Any, joiner: Any, ruleset: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    game = await call(
        creator, "new_game", game="influence", seat="White", bots=["open"], ruleset=ruleset
    )
    joined = await call(joiner, "join_game", invitation=game["invitations"]["Black"])
    return game, joined


async def test_a_game_with_every_seat_spread_over_two_instances(
    instances: list[Instance],
) -> None:
    a, b = instances
    async with (
        streamable(a.base) as white_a,
        streamable(b.base) as white_b,
        streamable(a.base, legacy=True) as black_a,
        streamable(b.base) as black_b,
    ):
        game, joined = await _influence(white_a, black_b, {"max_turns": 3})
        gid = game["game_id"]
        await play_all(
            [
                (spread(held(white_a), held(white_b)), gid, game["credential"]),
                (spread(held(black_b), held(black_a)), gid, joined["credential"]),
            ]
        )
        for client, credential in ((white_b, game["credential"]), (black_a, joined["credential"])):
            view = await call(client, "show", game_id=gid, credential=credential)
            assert view["status"] == "over"
    report = replay(_transcript(a, game))
    assert report.ok and report.finished, report.mismatches
    events = read_transcript(_transcript(a, game))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert not [e for e in events if isinstance(e, Fallback)]
    assert {e.seat for e in events if isinstance(e, Attempt) and e.ok} == {0, 1}


async def test_two_clients_racing_one_seat_through_two_instances_apply_one_move(
    instances: list[Instance],
) -> None:
    a, b = instances
    async with (
        streamable(a.base) as on_a,
        streamable(b.base) as on_b,
        streamable(b.base) as black,
    ):
        game, joined = await _influence(on_a, black, {"max_turns": 2})
        gid, cred = game["game_id"], game["credential"]
        for _ in range(3):
            decision = (await call(on_a, "show", game_id=gid, credential=cred))["decision"]
            outcomes: list[str] = []

            async def race(
                client: Any, decision: int = decision, out: list[str] = outcomes
            ) -> None:
                result = await client.call_tool(
                    "play", {"game_id": gid, "credential": cred, "number": 1, "decision": decision}
                )
                text = "".join(getattr(block, "text", "") for block in result.content)
                out.append("refused" if result.is_error and "stale_decision" in text else "ok")
                assert not result.is_error or "stale_decision" in text, text

            async with anyio.create_task_group() as tg:
                tg.start_soon(race, on_a)
                tg.start_soon(race, on_b)
            assert sorted(outcomes) == ["ok", "refused"]
            view = await call(on_b, "show", game_id=gid, credential=cred)
            assert view["decision"] == decision + 1
            while not view["your_turn"] and view["status"] == "active":
                await call(black, "play", game_id=gid, credential=joined["credential"], number=1)
                view = await call(on_a, "show", game_id=gid, credential=cred)
    events = read_transcript(_transcript(a, game))
    applied = [e.decision for e in events if isinstance(e, Attempt) and e.seat == 0 and e.ok]
    assert len(applied) == len(set(applied)), applied
    assert replay(_transcript(a, game)).ok


async def test_a_wait_on_one_instance_wakes_for_a_move_on_the_other(
    instances: list[Instance],
) -> None:
    a, b = instances
    async with streamable(a.base) as white, streamable(b.base) as black:
        game, joined = await _influence(white, black, {"max_turns": 2})
        gid = game["game_id"]
        view = await call(white, "show", game_id=gid, credential=game["credential"])
        assert view["your_turn"]
        while view["your_turn"]:  # White's whole turn, so Black is to act
            view = (
                await call(white, "play", game_id=gid, credential=game["credential"], number=1)
            )["view"]
        cursor = 0
        for _ in range(20):  # read up to now, so only news from here on wakes the wait below
            seen = await call(
                white, "wait", game_id=gid, credential=game["credential"], after=cursor, timeout=0.2
            )
            cursor = seen["cursor"]
            if not seen["ready"]:
                break
        woke: dict[str, Any] = {}

        async def waiter() -> None:
            started = time.monotonic()
            woke.update(
                await call(
                    white,
                    "wait",
                    game_id=gid,
                    credential=game["credential"],
                    after=cursor,
                    timeout=45,
                )
            )
            woke["seconds"] = time.monotonic() - started

        with anyio.fail_after(90):
            async with anyio.create_task_group() as tg:
                tg.start_soon(waiter)
                await anyio.sleep(1.5)
                assert not woke, "wait returned before Black moved"
                bc = joined["credential"]
                black_view = await call(black, "show", game_id=gid, credential=bc)
                assert black_view["your_turn"]
                while black_view["your_turn"] and black_view["status"] == "active":
                    played = await call(black, "play", game_id=gid, credential=bc, number=1)
                    black_view = played["view"]
        assert woke["ready"] and woke["seconds"] < 20, woke


async def test_a_deadline_fires_once_with_two_instances_ticking(
    instances: list[Instance],
) -> None:
    a, b = instances
    async with streamable(a.base) as white, streamable(b.base) as other:
        game = await call(
            white,
            "new_game",
            game="influence",
            seat="White",
            bots=["greedy"],
            deadline_seconds=1.5,
            ruleset={"max_turns": 20},
        )
        gid = game["game_id"]
        await anyio.sleep(5.5)  # three deadlines at least, both tickers running each second
        await call(other, "show", game_id=gid, credential=game["credential"])
    events = read_transcript(_transcript(a, game))
    incidents = [
        e for e in events if isinstance(e, Fallback) and not e.continued and e.reason == "deadline"
    ]
    assert len(incidents) >= 2, incidents
    decisions = [e.decision for e in incidents]
    assert len(decisions) == len(set(decisions)), decisions  # never twice for one decision
    assert replay(_transcript(a, game)).ok


async def _until_killed(server: HttpServer, gid: str, credential: str) -> None:
    """A seat playing through `server` until that server dies under it."""
    with contextlib.suppress(Exception):  # whatever the SDK raises for a vanished server
        async with streamable(server.base) as client:
            await play_seat(held(client), gid, credential)


async def test_one_instance_killed_mid_game_the_other_carries_on(
    tmp_path: Path, pg_url: str
) -> None:
    a, b = _pair(tmp_path, pg_url)
    a.start()
    b.start()
    store = PostgresStore(pg_url, pool_size=1)  # to read what the store holds
    try:
        async with streamable(a.base) as white, streamable(b.base) as black:
            game, joined = await _influence(white, black, {"max_turns": 4})
        gid, wc, bc = game["game_id"], game["credential"], joined["credential"]
        async with streamable(b.base) as black:
            with anyio.fail_after(90):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(_until_killed, a, gid, wc)
                    tg.start_soon(play_seat, held(black), gid, bc)
                    while (store.load(gid) or pytest.fail("no game")).record.decision < 6:
                        await anyio.sleep(0.05)
                    before = store.events(gid)
                    a.kill()  # mid-game, calls in flight; no shutdown code runs
                    tg.cancel_scope.cancel()  # Black's client stops too, for a moment
            assert (store.load(gid) or pytest.fail("no game")).record.status != "over"
            async with streamable(b.base) as white:  # White's client moves to the survivor
                await play_all([(held(white), gid, wc), (held(black), gid, bc)])
                view = await call(white, "show", game_id=gid, credential=wc)
                assert view["status"] == "over"
        after = store.events(gid)
    finally:
        store.close()
        a.stop()
        b.stop()
    assert after[: len(before)] == before  # nothing stored before the crash was lost
    transcript = _transcript(b, game)
    assert read_transcript(transcript) == after  # the file was mended from the store
    report = replay(transcript)
    assert report.ok and report.finished, report.mismatches


async def test_a_spectator_subscribed_on_one_instance_hears_moves_made_on_the_other(
    instances: list[Instance],
) -> None:
    a, b = instances
    heard = Heard()
    async with (
        sse(b.base, on_message=heard, legacy=True) as watcher,
        streamable(a.base) as player,
    ):
        game = await call(player, "new_game", game="influence", seat=0, bots=["greedy"])
        uri = f"cogs-arena://spectate/{game['spectator_code']}"
        await subscribe(watcher, uri)
        await call(player, "play", game_id=game["game_id"], credential=game["credential"], number=1)
        with anyio.fail_after(15):
            await heard.arrived.wait()
        assert uri in heard.uris
