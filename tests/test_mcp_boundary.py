"""The tool boundary through the SDK's in-memory client: unknown arguments refused by name,
strings the record cannot hold refused naming the field (and nothing written), numbers out of
range named, the spectator resource behind its code, unknown prompts as invalid params, cheap
waits, and the token a bind beyond loopback needs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from http_helpers import free_port
from mcp import Client, MCPError
from mcp.server.mcpserver.exceptions import ToolError
from mcp_helpers import call, call_error, text_of

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.web.guard import MIN_TOKEN_CHARS, BindRefused, HttpOptions, check_bind

pytestmark = pytest.mark.anyio

INVALID_PARAMS = -32602
BAD = "\ud800"


async def _game(client: Client, game: str = "influence", **extra: Any) -> dict[str, Any]:
    return await call(client, "new_game", game=game, seed=4, seat=0, **extra)


async def test_every_tool_publishes_a_flat_schema_that_refuses_extra_arguments(
    memory_service: GameService,
) -> None:
    async with Client(build_server(memory_service)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {
        "ping",
        "list_games",
        "new_game",
        "join_game",
        "show",
        "legal_moves",
        "play",
        "talk",
        "log",
        "wait",
        "spectate",
    }
    for tool in tools.values():
        schema = tool.input_schema
        assert schema["additionalProperties"] is False, tool.name
        assert "$defs" not in schema, tool.name
        assert all(p.get("description") for p in schema["properties"].values()), tool.name
    assert list(tools["play"].input_schema["properties"]) == [
        "game_id",
        "credential",
        "move",
        "number",
        "moves",
        "structured",
        "why",
        "request_id",
        "decision",
        "detail",
        "image",
    ]
    for name in ("show", "legal_moves", "log", "wait", "spectate", "list_games", "ping"):
        annotations = tools[name].annotations
        assert annotations is not None and annotations.read_only_hint is True, name
    for name in ("new_game", "join_game", "play", "talk"):
        annotations = tools[name].annotations
        assert annotations is not None and annotations.read_only_hint is False, name


async def test_unknown_arguments_are_refused_by_name_and_nothing_is_applied(
    memory_service: GameService,
) -> None:
    async with Client(build_server(memory_service)) as client:
        game = await _game(client)
        seat = {"game_id": game["game_id"], "credential": game["credential"]}
        before = await call(client, "show", **seat)
        text = await call_error(client, "play", **seat, move="end", decison=before["decision"])
        assert text.startswith("[bad_argument] decison: unknown argument")
        assert "game_id, credential, move, number, moves, structured, why" in text
        after = await call(client, "show", **seat)
        assert after["observation"] == before["observation"]
        assert "seeed: unknown argument" in await call_error(
            client, "new_game", game="influence", seeed=3
        )
        assert "verbose: unknown argument" in await call_error(client, "ping", verbose=True)
        assert "cursor: unknown argument" in await call_error(client, "log", **seat, cursor=0)
        assert "tiemout: unknown argument" in await call_error(client, "wait", **seat, tiemout=1)
        assert "code: unknown argument" in await call_error(
            client, "spectate", spectator_code=game["spectator_code"], code="x"
        )


PLAY_FIELDS = ["game_id", "credential", "move", "moves", "structured", "why", "request_id"]


@pytest.mark.parametrize("field", PLAY_FIELDS)
async def test_a_lone_surrogate_in_any_play_argument_is_refused_naming_it(
    memory_service: GameService, field: str
) -> None:
    async with Client(build_server(memory_service)) as client:
        game = await _game(client)
        seat = {"game_id": game["game_id"], "credential": game["credential"]}
        before = await call(client, "log", **seat)
        arguments: dict[str, Any] = {**seat, "move": "end"}
        if field == "moves":
            arguments = {**seat, "moves": ["end", "x" + BAD]}
        elif field == "structured":
            arguments = {**seat, "structured": {"kind": "end", "note": BAD}}
        else:
            arguments[field] = "a" + BAD
        text = await call_error(client, "play", **arguments)
        named = {"moves": "moves[1]", "structured": "structured.note"}.get(field, field)
        assert text.startswith(f"[bad_argument] {named} contains a lone surrogate (U+D800)"), text
        after = await call(client, "log", **seat, after=before["cursor"])
        assert after["events"] == [], "a refused call writes nothing"


@pytest.mark.parametrize("field", ["game_id", "credential", "text", "to"])
async def test_a_lone_surrogate_in_any_talk_argument_is_refused_naming_it(
    memory_service: GameService, field: str
) -> None:
    async with Client(build_server(memory_service)) as client:
        game = await _game(client, "territory")
        seat = {"game_id": game["game_id"], "credential": game["credential"]}
        before = await call(client, "log", **seat)
        arguments: dict[str, Any] = {**seat, "text": "hello"}
        arguments[field] = ["a" + BAD] if field == "to" else "a" + BAD
        text = await call_error(client, "talk", **arguments)
        named = "to[0]" if field == "to" else field
        assert text.startswith(f"[bad_argument] {named} contains a lone surrogate"), text
        after = await call(client, "log", **seat, after=before["cursor"])
        assert after["events"] == []
        assert (await call(client, "show", **seat))["status"] != "over"  # still playable


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("game", "influence" + BAD, "game"),
        ("seed", BAD, "seed"),
        ("seat", BAD, "seat"),
        ("bots", ["greedy" + BAD], "bots[0]"),
        ("model", "m" + BAD, "model"),
        ("prompt", "p" + BAD, "prompt"),
        ("ruleset", {"max_turns": 5, "note": BAD}, "ruleset.note"),
    ],
)
async def test_a_lone_surrogate_in_any_new_game_argument_is_refused_naming_it(
    memory_service: GameService, field: str, value: Any, named: str
) -> None:
    async with Client(build_server(memory_service)) as client:
        arguments = {"game": "influence", field: value}
        text = await call_error(client, "new_game", **arguments)
        assert text.startswith(f"[bad_argument] {named} contains a lone surrogate"), text
    assert memory_service.store.game_ids() == [], "no game was created"


async def test_a_lone_surrogate_in_a_key_is_refused(memory_service: GameService) -> None:
    # The SDK client cannot even encode such a key, but a raw JSON client can send
    # {"\\ud800": 5}: call the server directly, as its JSON-RPC layer would.
    server = build_server(memory_service)
    with pytest.raises(ToolError) as refused:
        await server.call_tool("new_game", {"game": "influence", "ruleset": {BAD: 5}})
    assert str(refused.value).startswith("[bad_argument] a key of ruleset contains a lone")
    with pytest.raises(ToolError) as unknown:
        await server.call_tool("ping", {BAD: 1})
    assert "an argument's name is not valid Unicode text" in str(unknown.value)
    str(unknown.value).encode("utf-8")  # the refusal itself can be sent
    assert memory_service.store.game_ids() == []


async def test_numbers_out_of_range_name_the_argument(memory_service: GameService) -> None:
    async with Client(build_server(memory_service)) as client:
        game = await _game(client)
        seat = {"game_id": game["game_id"], "credential": game["credential"]}
        text = await call_error(client, "log", **seat, after=2**63)
        assert text.startswith("[bad_argument] after: input should be less than or equal to")
        assert "Cursor" in text
        assert "[bad_argument] decision:" in await call_error(
            client, "play", **seat, number=1, decision=2**60
        )
        assert "[bad_argument] timeout:" in await call_error(client, "wait", **seat, timeout=99)
        assert "exactly one of move, number, moves or structured" in await call_error(
            client, "play", **seat
        )
        # A game error keeps its own code at the start of the text.
        wrong = await call_error(client, "show", game_id=game["game_id"], credential="wrong")
        assert wrong.startswith("[bad_credential]")


async def test_results_carry_no_server_paths(memory_service: GameService, tmp_path: Path) -> None:
    async with Client(build_server(memory_service)) as client:
        result = await client.call_tool("new_game", {"game": "influence", "seat": 0})
    assert result.structured_content is not None
    assert "transcript" not in result.structured_content
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert str(tmp_path) not in text and str(tmp_path) not in str(result.structured_content)


async def test_the_spectator_resource_needs_the_spectator_code(memory_service: GameService) -> None:
    async with Client(build_server(memory_service)) as client:
        game = await _game(client)
        gid, code = game["game_id"], game["spectator_code"]
        templates = [
            t.uri_template for t in (await client.list_resource_templates()).resource_templates
        ]
        assert "cogs-arena://spectate/{spectator_code}" in templates
        assert not any("games/" in t for t in templates)
        with pytest.raises(MCPError) as bare:
            await client.read_resource(f"cogs-arena://games/{gid}/spectator")
        assert bare.value.code == INVALID_PARAMS
        for wrong in (gid, f"{gid}.wrong-code", "x" * 300):
            with pytest.raises(MCPError) as refused:
                await client.read_resource(f"cogs-arena://spectate/{wrong}")
            assert refused.value.code == INVALID_PARAMS
            assert "bad_" in refused.value.message  # bad_credential or bad_argument
        view = await client.read_resource(f"cogs-arena://spectate/{code}")
        assert "Influence" in text_of(view.contents[0])


async def test_subscribers_by_code_hear_of_changes_and_wrong_codes_hear_nothing(
    memory_service: GameService,
) -> None:
    server = build_server(memory_service)
    async with Client(server) as watcher, Client(server) as player:
        game = await _game(player)
        good = f"cogs-arena://spectate/{game['spectator_code']}"
        wrong = f"cogs-arena://spectate/{game['game_id']}.guessed"
        async with watcher.listen(resource_subscriptions=[wrong, good]) as subscription:
            seat = {"game_id": game["game_id"], "credential": game["credential"]}
            await call(player, "play", **seat, move="end")
            with anyio.fail_after(10):
                event = await subscription.__anext__()
            assert good in str(event)
            with anyio.move_on_after(0.5):
                async for more in subscription:
                    assert wrong not in str(more)


async def test_unknown_prompts_and_prompt_arguments_are_invalid_params(
    memory_service: GameService,
) -> None:
    async with Client(build_server(memory_service)) as client:
        with pytest.raises(MCPError) as unknown:
            await client.get_prompt("chess_seat")
        assert unknown.value.code == INVALID_PARAMS
        assert "influence_seat" in unknown.value.message
        with pytest.raises(MCPError) as extra:
            await client.get_prompt("influence_seat", {"gameid": "x"})
        assert extra.value.code == INVALID_PARAMS and "gameid" in extra.value.message
        with pytest.raises(MCPError) as broken:
            await client.get_prompt("influence_seat", {"game_id": "x" + BAD})
        assert broken.value.code == INVALID_PARAMS and "game_id" in broken.value.message
        prompt = await client.get_prompt("influence_seat", {"game_id": "g-1"})
        assert "g-1" in text_of(prompt.messages[0].content)


@pytest.mark.slow
async def test_a_quiet_wait_looks_at_the_game_twice_and_a_change_wakes_it(
    memory_service: GameService,
) -> None:
    polls: list[int | None] = []
    real_poll = memory_service.poll_seat

    def counting_poll(game_id: str, credential: str, after: int | None = None) -> Any:
        polls.append(after)
        return real_poll(game_id, credential, after)

    memory_service.poll_seat = counting_poll  # type: ignore[method-assign]
    server = build_server(memory_service)
    async with Client(server) as white, Client(server) as black:
        game = await call(white, "new_game", game="influence", seed=2, seat=0, bots=["open"])
        joined = await call(black, "join_game", invitation=game["invitations"]["Black"])
        gid, cred = game["game_id"], joined["credential"]
        cursor = joined["view"]["log_cursor"]
        quiet = await call(black, "wait", game_id=gid, credential=cred, after=cursor, timeout=1.5)
        assert quiet["reason"] == "timeout"
        assert len(polls) == 2, "first look and last look only"

        async def white_moves() -> None:
            with anyio.fail_after(10):
                while len(polls) < 3:  # the wait had its first look: it sleeps on a notice now
                    await anyio.sleep(0.01)
            await call(white, "play", game_id=gid, credential=game["credential"], move="end")

        async with anyio.create_task_group() as tg:
            tg.start_soon(white_moves)
            started = anyio.current_time()
            woken = await call(
                black, "wait", game_id=gid, credential=cred, after=quiet["cursor"], timeout=20
            )
            elapsed = anyio.current_time() - started
        assert woken["ready"] and woken["reason"] in {"events", "your_turn"}
        assert elapsed < 5


def test_a_bind_beyond_loopback_needs_a_token_of_32_characters() -> None:
    strong = "k" * MIN_TOKEN_CHARS
    check_bind(HttpOptions(host="10.0.0.5", auth_token=strong))
    check_bind(HttpOptions(host="127.0.0.1"))  # loopback: no token needed
    check_bind(HttpOptions(host="localhost", auth_token="short"))
    for weak in (None, "", " ", "a", "k" * (MIN_TOKEN_CHARS - 1), " " * 40, "k" * 31 + " x"):
        with pytest.raises(BindRefused, match=r"refusing to serve on '0\.0\.0\.0'"):
            check_bind(HttpOptions(host="0.0.0.0", auth_token=weak))


@pytest.mark.slow
def test_serve_refuses_a_short_token_beyond_loopback_with_exit_2() -> None:
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http", "--memory"]
    command += ["--host", "0.0.0.0", "--port", str(free_port())]
    env = {**os.environ, "COGS_ARENA_AUTH_TOKEN": "a"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "at least 32 characters" in done.stderr and "this one has 1" in done.stderr
    assert done.stdout == ""
