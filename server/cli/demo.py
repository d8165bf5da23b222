"""`cogs-arena demo`: a bot-vs-bot Influence game played through a real MCP client talking to
the server over stdio. The client-side seat is driven by the greedy bot, reading only the view
and menu the tools return, exactly as an LLM would."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from ...engines import LegalMoves, MoveInfo, get_engine
from ...engines.runner import bot_stream


def serve_command(store: Path | None, transcripts: Path | None, memory: bool) -> list[str]:
    args = [sys.executable, "-m", "cogs_arena", "serve"]
    if memory:
        args.append("--memory")
    if store is not None:
        args += ["--store", str(store)]
    if transcripts is not None:
        args += ["--transcripts", str(transcripts)]
    return args


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        text = "".join(getattr(block, "text", "") for block in result.content)
        raise RuntimeError(f"{tool} failed: {text}")
    assert result.structured_content is not None
    return dict(result.structured_content)


async def run_demo(
    store: Path, transcripts: Path, seed: int, max_turns: int, memory: bool = False
) -> int:
    command = serve_command(store, transcripts, memory)
    params = StdioServerParameters(command=command[0], args=command[1:])
    engine = get_engine("influence")
    greedy = engine.bots()["greedy"]
    async with Client(params) as client:
        game = await call(
            client,
            "new_game",
            game="influence",
            seed=seed,
            seat="White",
            bots=["random"],
            ruleset={"max_turns": max_turns},
            model="demo:greedy",
        )
        gid, cred = game["game_id"], game["credential"]
        view = game["view"]
        calls = 1
        decision = 0
        while view["status"] != "over":
            menu = await call(client, "legal_moves", game_id=gid, credential=cred, page_size=500)
            legal = LegalMoves(
                tuple(MoveInfo(m["notation"], m["description"], m["kind"]) for m in menu["moves"]),
                menu["complete"],
                menu["hints"],
            )
            move = greedy(view["observation"], legal, bot_stream(seed, game["seat"], decision))
            # The demo's player is a program: it reads the observation, not the text.
            played = await call(
                client, "play", game_id=gid, credential=cred, move=move, detail="data"
            )
            view = played["view"]
            decision += 1
            calls += 2
        final = await client.call_tool("show", {"game_id": gid, "credential": cred})
        print("".join(getattr(block, "text", "") for block in final.content))
        outcome = view["outcome"]
        names = [s["name"] for s in game["seats"]]
        winners = ", ".join(names[i] for i in outcome["winners"])
        print(f"Result: {outcome['reason']}; winner(s): {winners}; scores {outcome['scores']}")
        print(f"Tool calls: {calls}")
        # Results carry no server paths; the demo started the server, so it knows the folder
        # and the file's name (`GameRecord.transcript_name`).
        print(f"Transcript: {transcripts / f'influence-{gid}.jsonl'}")
    return 0
