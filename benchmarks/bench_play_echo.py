"""A `play` round trip over stdio beside a trivial echo tool built with the same SDK.

Spawns `python -m cogs_arena serve` (in-memory store) and benchmarks/echo_server.py, each with
the SDK's stdio client, and times, interleaved in one run, an Influence move against the greedy
bot (`play number=1`, the default detail) and an `echo` call. Prints p50/p99 of each and the
ratio of the p50s (target: play within 1.3x of echo). A finished game is replaced by a new one
outside the timed calls.

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


async def run(
    calls: int, warmup: int, detail_choice: str | None
) -> tuple[list[float], list[float], int]:
    detail = {} if detail_choice is None else {"detail": detail_choice}
    with tempfile.TemporaryDirectory() as folder:
        arena_params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "cogs_arena", "serve", "--memory", "--transcripts", folder],
        )
        echo_params = StdioServerParameters(
            command=sys.executable, args=[str(HERE / "echo_server.py")]
        )
        plays: list[float] = []
        echoes: list[float] = []
        sizes: list[int] = []
        async with Client(arena_params) as arena, Client(echo_params) as echo:
            ids = await _new_game(arena)
            for i in range(warmup + calls):
                started = time.perf_counter()
                result = await arena.call_tool("play", {**ids, "number": 1, **detail})
                play_time = time.perf_counter() - started
                if result.is_error:
                    raise SystemExit(f"play failed: {result.content}")
                started = time.perf_counter()
                await echo.call_tool("echo", {"text": "ping"})
                echo_time = time.perf_counter() - started
                if i >= warmup:
                    plays.append(play_time)
                    echoes.append(echo_time)
                    sizes.append(len(getattr(result.content[0], "text", "")))
                view = (result.structured_content or {}).get("view", {})
                if view.get("status") == "over":
                    ids = await _new_game(arena)
        return plays, echoes, int(statistics.median(sizes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--detail", choices=["full", "brief", "none"], help="default: the server's")
    args = parser.parse_args()
    plays, echoes, size = anyio.run(run, args.calls, args.warmup, args.detail)
    p50_play, p50_echo = pct(plays, 0.5), pct(echoes, 0.5)
    print(f"{len(plays)} interleaved round trips over stdio (median play text {size} chars)")
    print(
        f"play (influence vs greedy, default detail): p50 {p50_play * 1000:.2f} ms, "
        f"p99 {pct(plays, 0.99) * 1000:.2f} ms"
    )
    print(
        f"echo:                                       p50 {p50_echo * 1000:.2f} ms, "
        f"p99 {pct(echoes, 0.99) * 1000:.2f} ms"
    )
    ratio = p50_play / p50_echo
    print(f"play/echo p50 ratio: {ratio:.2f}x (target <= 1.3x)")


if __name__ == "__main__":
    main()
