"""The MCP adapter through the SDK's in-memory client: every tool, resources, prompts, and bad
input from a model, each a tool error that changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client, MCPError
from mcp_helpers import call, call_error, text_of

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript, replay
from cogs_arena.transcripts.events import Header

pytestmark = pytest.mark.anyio


async def test_full_game_with_every_tool(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        expected = {"ping", "list_games", "new_game", "show", "legal_moves", "play", "talk", "log"}
        assert expected <= set(tools)
        for name in ("show", "legal_moves", "log", "list_games"):
            annotations = tools[name].annotations
            assert annotations is not None and annotations.read_only_hint is True
        assert tools["play"].annotations is not None
        assert tools["play"].annotations.read_only_hint is False
        games = await call(client, "list_games")
        assert "influence" in [g["name"] for g in games["games"]]
        game = await call(
            client,
            "new_game",
            game="influence",
            seed=4,
            seat="White",
            bots=["greedy"],
            ruleset={"max_turns": 30},
            model="test-model",
            prompt="p1",
        )
        gid, cred = game["game_id"], game["credential"]
        view = await call(client, "show", game_id=gid, credential=cred)
        assert view["your_turn"] and view["seat_name"] == "White"
        talk = await call(client, "talk", game_id=gid, credential=cred, text="good luck")
        assert talk["delivered_to"] == ["Black"]
        menu = await call(client, "legal_moves", game_id=gid, credential=cred, kind="attack")
        assert menu["moves"] and all(m["kind"] == "attack" for m in menu["moves"])
        first = menu["moves"][0]
        played = await call(
            client, "play", game_id=gid, credential=cred, number=first["number"], why="testing"
        )
        assert played["accepted"] == [first["notation"]]
        played = await call(client, "play", game_id=gid, credential=cred, move="end")
        view = played["view"]
        while view["status"] != "over":
            played = await call(client, "play", game_id=gid, credential=cred, number=1)
            view = played["view"]
        assert view["outcome"]["reason"] in {"elimination", "move_limit"}
        seen: list[dict[str, object]] = []
        cursor = 0
        while True:
            log = await call(client, "log", game_id=gid, credential=cred, after=cursor)
            if not log["events"]:
                break
            seen.extend(log["events"])
            cursor = log["cursor"]
        assert seen[-1]["type"] == "end"
        assert any(e["type"] == "talk" for e in seen)
        resources = {str(r.uri) for r in (await client.list_resources()).resources}
        assert "cogs-arena://rules/influence" in resources
        rules = await client.read_resource("cogs-arena://rules/influence")
        assert "Influence" in text_of(rules.contents[0])
        code = game["spectator_code"]
        spectator = await client.read_resource(f"cogs-arena://spectate/{code}")
        assert text_of(spectator.contents[0])
        for uri in (f"cogs-arena://games/{gid}/spectator", f"cogs-arena://spectate/{gid}"):
            with pytest.raises(MCPError):  # the game id alone opens nothing
                await client.read_resource(uri)
        prompts = {p.name for p in (await client.list_prompts()).prompts}
        assert "influence_seat" in prompts
        prompt = await client.get_prompt("influence_seat", {"game_id": gid})
        assert gid in text_of(prompt.messages[0].content)
    assert "transcript" not in game  # no server paths in results
    path = tmp_path / "t" / f"influence-{gid}.jsonl"
    report = replay(path)
    assert report.ok and report.finished
    header = read_transcript(path)[0]
    assert isinstance(header, Header)
    player = header.seats[0].player
    assert player.client_name and player.model == "test-model"
    assert player.prompt == "p1"


async def test_bad_input_is_a_tool_error_and_changes_nothing(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as client:
        game = await call(client, "new_game", game="influence", seed=5, seat="White")
        gid, cred = game["game_id"], game["credential"]
        before = await call(client, "show", game_id=gid, credential=cred)
        errors = [
            await call_error(client, "new_game", game="chess"),
            await call_error(client, "show", game_id="nope", credential=cred),
            await call_error(client, "show", game_id=gid, credential="wrong"),
            await call_error(client, "play", game_id=gid, credential="", move="end"),
            await call_error(client, "play", game_id=gid, credential=cred, move="banana"),
            await call_error(client, "play", game_id=gid, credential=cred, move="x" * 10_000),
            await call_error(client, "talk", game_id=gid, credential=cred, text="y" * 10_000),
            await call_error(client, "new_game", game="influence", ruleset={"bogus": 1}),
            await call_error(client, "play", game_id=gid, credential=cred),
        ]
        assert "unknown_game" in errors[0] and "influence" in errors[0]
        assert "unknown_game_id" in errors[1]
        assert "bad_credential" in errors[2] and "bad_credential" in errors[3]
        assert "malformed_move" in errors[4] and "9,1>8,1" in errors[4]
        assert "bogus" in errors[7] and "max_turns" in errors[7]
        assert "exactly one of" in errors[8]
        after = await call(client, "show", game_id=gid, credential=cred)
        assert after["observation"] == before["observation"]
        other = await call(client, "new_game", game="influence", seed=5, seat="White")
        illegal = await call_error(
            client,
            "play",
            game_id=other["game_id"],
            credential=other["credential"],
            move="1,9>1,8",
        )
        assert "illegal_move" in illegal and "try once more" in illegal
        assert await call(client, "ping") is not None
    # out of turn through MCP: a second client holds Black
    async with Client(server) as client:
        game = await call(client, "new_game", game="influence", seed=6, seat="White", bots=["open"])
        joined = await call(client, "join_game", invitation=game["invitations"]["Black"])
        text = await call_error(
            client, "play", game_id=game["game_id"], credential=joined["credential"], move="end"
        )
        assert "not_your_turn" in text and "White" in text


@pytest.mark.slow
async def test_wait_wakes_on_turn_and_times_out(tmp_path: Path) -> None:
    import anyio

    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as white, Client(server) as black:
        game = await call(white, "new_game", game="influence", seed=2, seat="White", bots=["open"])
        joined = await call(black, "join_game", invitation=game["invitations"]["Black"])
        gid = game["game_id"]
        quiet = await call(
            black,
            "wait",
            game_id=gid,
            credential=joined["credential"],
            after=joined["view"]["log_cursor"],
            timeout=0.3,
        )
        assert quiet["reason"] == "timeout" and not quiet["ready"]
        progressed: list[float] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            progressed.append(progress)

        async def white_moves() -> None:
            with anyio.fail_after(15):
                while not progressed:  # the wait reported progress at least once
                    await anyio.sleep(0.05)
            await call(white, "play", game_id=gid, credential=game["credential"], move="end")
            await call(white, "play", game_id=gid, credential=game["credential"], number=1)

        async with anyio.create_task_group() as tg:
            tg.start_soon(white_moves)
            started = anyio.current_time()
            result = await black.call_tool(
                "wait",
                {"game_id": gid, "credential": joined["credential"], "after": quiet["cursor"]},
                progress_callback=on_progress,
            )
            elapsed = anyio.current_time() - started
        assert result.structured_content is not None
        assert result.structured_content["reason"] in {"your_turn", "events"}
        assert elapsed < 20
        assert progressed, "a long wait sends progress notifications"


async def test_listeners_get_resource_updated_for_their_game(tmp_path: Path) -> None:
    import anyio

    service = GameService(MemoryStore(), tmp_path / "t")
    server = build_server(service)
    async with Client(server) as watcher, Client(server) as player:
        game = await call(player, "new_game", game="influence", seed=3, seat="White")
        uri = f"cogs-arena://spectate/{game['spectator_code']}"
        async with watcher.listen(resource_subscriptions=[uri]) as subscription:
            await call(
                player,
                "play",
                game_id=game["game_id"],
                credential=game["credential"],
                move="end",
            )
            with anyio.fail_after(10):
                event = await subscription.__anext__()
        assert uri in str(event)
