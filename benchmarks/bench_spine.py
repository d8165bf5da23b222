"""Spine benchmark: Influence bot games per second in-process, and `show` / `play` round trips
through the SDK client over in-memory and stdio transports, beside the trivial `ping` tool (the
SDK's own floor) measured in the same run.

    python benchmarks/bench_spine.py [--calls 1000] [--games 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.sqlite import SqliteStore


def games_per_second(bots: list[str], games: int) -> tuple[float, float]:
    engine = get_engine("influence")
    ruleset = engine.ruleset()
    times = []
    plies = 0
    for seed in range(games):
        start = time.perf_counter()
        result = play_bots(engine, ruleset, seed, bots)
        times.append(time.perf_counter() - start)
        plies += len(result.moves)
    return 1.0 / statistics.median(times), plies / sum(times)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed(samples: list[float], client: Client, tool: str, args: dict[str, Any]) -> Any:
    start = time.perf_counter()
    result = await client.call_tool(tool, args)
    samples.append((time.perf_counter() - start) * 1000)
    return result


async def round_trips(client: Client, calls: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"ping": [], "show": [], "play": []}
    game: dict[str, Any] = {}

    async def fresh() -> None:
        result = await client.call_tool(
            "new_game", {"game": "influence", "seed": len(out["play"]), "seat": "White"}
        )
        assert result.structured_content is not None
        game.update(result.structured_content)

    await fresh()
    while min(len(v) for v in out.values()) < calls:
        ids = {"game_id": game["game_id"], "credential": game["credential"]}
        await timed(out["ping"], client, "ping", {})
        await timed(out["show"], client, "show", ids)
        result = await timed(out["play"], client, "play", {**ids, "number": 1})
        if result.is_error or result.structured_content["view"]["status"] == "over":
            await fresh()
    return out


def report(label: str, samples: dict[str, list[float]]) -> None:
    for tool, values in samples.items():
        print(
            f"  {label:9} {tool:5} n={len(values):5}  p50 {pct(values, 0.5):7.2f} ms"
            f"  p99 {pct(values, 0.99):7.2f} ms"
        )


async def main_async(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "mem.sqlite3")
        service = GameService(store, Path(tmp) / "t-mem")
        async with Client(build_server(service)) as client:
            report("in-memory", await round_trips(client, calls))
        store.close()
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "cogs_arena", "serve", "--store", str(Path(tmp) / "io.sqlite3")],
        )
        async with Client(params) as client:
            report("stdio", await round_trips(client, calls))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    for bots in (["greedy", "random"], ["random", "random"], ["greedy", "greedy"]):
        per_game, plies = games_per_second(bots, args.games)
        print(
            f"Influence {bots[0]} vs {bots[1]}: {per_game:7.1f} games/s (median of "
            f"{args.games} seeds), {plies:8.0f} moves/s"
        )
    print(f"Round trips through the SDK client ({args.calls} calls each, SQLite store):")
    anyio.run(main_async, args.calls)


if __name__ == "__main__":
    main()
