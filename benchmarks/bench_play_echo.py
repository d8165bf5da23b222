"""A `play` round trip over stdio beside a trivial echo tool built with the same SDK.

Spawns `python -m cogs_arena serve` (in-memory store) and benchmarks/echo_server.py, each with
the SDK's stdio client, and times, interleaved in one run, an Influence move against the greedy
bot (`play number=1`, the default detail) and an `echo` call. Prints p50/p99 of each and the
ratio of the p50s (target: play within 1.3x of echo). A finished game is replaced by a new one
outside the timed calls.

A second pass, on the same two servers, interleaves cogs-arena's own `ping` with `echo` in the
same way: the adapter's floor (input model, error mapping, the stdio loop) without game work.
The passes are separate because a third call in the same rotation would leave the echo server
idle twice as long as the arena server, and an idle process wakes slower.

Run: `python benchmarks/bench_play_echo.py [--calls 400]`.
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

HERE = Path(__file__).resolve().parent


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _new_game(arena: Client) -> dict[str, Any]:
    result = await arena.call_tool("new_game", {"game": "influence", "bots": ["greedy"]})
    data = dict(result.structured_content or {})
    return {"game_id": data["game_id"], "credential": data["credential"]}


class Timings:
    def __init__(self) -> None:
        self.plays: list[float] = []
        self.echoes: list[float] = []
        self.pings: list[float] = []
        self.ping_echoes: list[float] = []
        self.sizes: list[int] = []


async def _timed(client: Client, tool: str, args: dict[str, Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = await client.call_tool(tool, args)
    elapsed = time.perf_counter() - started
    if result.is_error:
        raise SystemExit(f"{tool} failed: {result.content}")
    return result, elapsed


async def run(calls: int, warmup: int, detail_choice: str | None) -> Timings:
    detail = {} if detail_choice is None else {"detail": detail_choice}
    out = Timings()
    with tempfile.TemporaryDirectory() as folder:
        arena_params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "cogs_arena", "serve", "--memory", "--transcripts", folder],
        )
        echo_params = StdioServerParameters(
            command=sys.executable, args=[str(HERE / "echo_server.py")]
        )
        async with Client(arena_params) as arena, Client(echo_params) as echo:
            ids = await _new_game(arena)
            for i in range(warmup + calls):
                result, play_time = await _timed(arena, "play", {**ids, "number": 1, **detail})
                _, echo_time = await _timed(echo, "echo", {"text": "ping"})
                if i >= warmup:
                    out.plays.append(play_time)
                    out.echoes.append(echo_time)
                    out.sizes.append(len(getattr(result.content[0], "text", "")))
                view = (result.structured_content or {}).get("view", {})
                if view.get("status") == "over":
                    ids = await _new_game(arena)
            for i in range(warmup + calls):
                _, ping_time = await _timed(arena, "ping", {})
                _, echo_time = await _timed(echo, "echo", {"text": "ping"})
                if i >= warmup:
                    out.pings.append(ping_time)
                    out.ping_echoes.append(echo_time)
    return out


def _line(label: str, values: list[float]) -> str:
    return f"{label:44} p50 {pct(values, 0.5) * 1000:.2f} ms, p99 {pct(values, 0.99) * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--detail", choices=["full", "brief", "none"], help="default: the server's")
    args = parser.parse_args()
    t = anyio.run(run, args.calls, args.warmup, args.detail)
    size = int(statistics.median(t.sizes))
    print(f"{len(t.plays)} interleaved round trips over stdio (median play text {size} chars)")
    print(_line("play (influence vs greedy, default detail):", t.plays))
    print(_line("echo:", t.echoes))
    print(f"play/echo p50 ratio: {pct(t.plays, 0.5) / pct(t.echoes, 0.5):.2f}x (target <= 1.3x)")
    print("Second pass, the adapter's floor:")
    print(_line("ping (cogs-arena, no game work):", t.pings))
    print(_line("echo:", t.ping_echoes))
    print(f"ping/echo p50 ratio: {pct(t.pings, 0.5) / pct(t.ping_echoes, 0.5):.2f}x")


if __name__ == "__main__":
    main()
