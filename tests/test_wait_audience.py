"""Waits wake only for what their seat may see: a change hidden from a seat (a whisper between
two other seats, another seat's own submission) neither wakes nor makes read that seat's waits;
a line it may see, its turn and the end do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_helpers import call

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.adapter.support import GameChanges
from cogs_arena.server.adapter.waiters import WaiterHub
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

pytestmark = pytest.mark.anyio


def _blending(service: GameService) -> tuple[str, dict[int, str], dict[int, str]]:
    """A four-seat game every seat of which is a client: its id, credentials and names."""
    game = service.new_game("blending", seed=5, seat=0, bots=["open"] * 3)
    creds, names = {0: game.credential}, {0: game.seat_name}
    for code in game.invitations.values():
        joined = service.join_game(code)
        creds[joined.seat], names[joined.seat] = joined.credential, joined.seat_name
    return game.game_id, creds, names


def _quiet_seat(service: GameService, gid: str, creds: dict[int, str]) -> int:
    """A seat that is not to act (so its waits stay open), other than seats 0 and 1."""
    view = service.show(gid, creds[0])
    return next(i for i in (2, 3) if service.show(gid, creds[i]).seat_name not in view.to_act)


async def test_a_hidden_change_sets_no_flag_and_a_visible_one_does(tmp_path: Path) -> None:
    """The notice of a whisper between seats 0 and 1 does not reach a waiter of another seat;
    a public line does. Checked on the flags themselves: nothing timed."""
    service = GameService(MemoryStore(), tmp_path / "t")
    gid, creds, names = _blending(service)
    quiet = _quiet_seat(service, gid, creds)
    hub, changes = WaiterHub(), GameChanges()
    hub.on_change.append(changes.fire)
    service.add_listener(hub.notify)
    hub.bind()  # on this loop: notices from this thread fire at once
    with (
        changes.watch(gid, quiet) as waiter,
        changes.watch(gid, 1) as whispered_to,
        changes.watch(gid) as spectator,
    ):
        service.talk(gid, creds[0], "psst", to=[names[1]])
        assert not waiter.is_set(), "a whisper to another seat must not wake this seat's wait"
        assert whispered_to.is_set() and spectator.is_set()
        whispered_to.clear()
        service.talk(gid, creds[0], "hello all")
        assert waiter.is_set() and whispered_to.is_set()


async def test_territory_a_submission_does_not_wake_the_other_seats(tmp_path: Path) -> None:
    """In a simultaneous game one seat's submission is hidden from the others: the waits of a
    seat that has submitted sleep on; the turn's resolution (public) wakes them."""
    service = GameService(MemoryStore(), tmp_path / "t")
    game = service.new_game("territory", seed=4, seat=0, bots=["open"])
    creds = {0: game.credential}
    for code in game.invitations.values():
        joined = service.join_game(code)
        creds[joined.seat] = joined.credential
    hub, changes = WaiterHub(), GameChanges()
    hub.on_change.append(changes.fire)
    service.add_listener(hub.notify)
    hub.bind()
    gid = game.game_id
    service.play(gid, creds[1], _hold())
    with changes.watch(gid, 1) as other:
        service.play(gid, creds[0], _hold())
        assert not other.is_set(), "seat 0's submission is not seat 1's news"
        for seat in sorted(creds)[2:]:
            assert not other.is_set()
            service.play(gid, creds[seat], _hold())
        assert other.is_set(), "the resolved turn is"


def _hold() -> Any:
    from cogs_arena.server.service import Submission

    return Submission(move="hold")


async def test_through_mcp_a_wait_sleeps_through_a_whisper_and_wakes_for_a_public_line(
    tmp_path: Path,
) -> None:
    """A wait of a seat not on turn: a whisper between two other seats adds no look at the
    game; the public line that follows wakes it, and it returns that line only."""
    service = GameService(MemoryStore(), tmp_path / "t")
    gid, creds, names = _blending(service)
    quiet = _quiet_seat(service, gid, creds)
    cursor = service.poll(gid, creds[quiet]).cursor
    looks: list[int | None] = []
    real = service.poll_seat

    def counting(game_id: str, credential: str, after: int | None = None) -> Any:
        looks.append(after)
        return real(game_id, credential, after)

    service.poll_seat = counting  # type: ignore[method-assign]
    server = build_server(service)
    got: dict[str, Any] = {}
    async with Client(server) as waiter, Client(server) as talker:

        async def wait() -> None:
            got.update(
                await call(
                    waiter, "wait", game_id=gid, credential=creds[quiet], after=cursor, timeout=50
                )
            )

        async with anyio.create_task_group() as tg:
            tg.start_soon(wait)
            with anyio.fail_after(10):
                while not looks:
                    await anyio.sleep(0.01)
            await call(talker, "talk", game_id=gid, credential=creds[0], text="x", to=[names[1]])
            for _ in range(3):  # round trips: a wake would have been handled meanwhile
                await call(talker, "ping")
            await call(talker, "talk", game_id=gid, credential=creds[1], text="hello all")
    assert got["reason"] == "events"
    assert [e["text"] for e in got["events"]] == ["to all: hello all"]
    assert len(looks) == 2, "the first look, then the look the public line woke"
