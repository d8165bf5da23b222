"""HTTP load benchmark on loopback: many MCP clients over Streamable HTTP against one server.

Starts `cogs-arena serve --transport http` in a subprocess, then runs the clients in separate
worker processes (one process cannot drive 200 clients: the client side becomes the bottleneck).
Phases, each bounded in time:

1. ping: every client calls the trivial `ping` tool in a loop (the SDK's floor);
2. games: every client plays whole Influence games - half against bots, half in pairs through
   invitations - calling show, legal_moves, play and ping each move, and `wait` for its turn;
3. memory: a fresh server, 1,000 live games created, its RSS before and after.

Reports p50/p99 of the non-waiting calls, errors, server CPU per call (from /proc utime+stime)
and server RSS. The server bounds live games and games started per minute; where `serve` takes
flags for them (BOUND_FLAGS) the benchmark lifts them, and otherwise it counts the calls refused
with `limit_reached` apart from the errors, so the figures say what the bounds turned away.
Usage: python benchmarks/load_http.py [--clients 200] [--duration 90] ...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK")
MEASURED = ("ping", "show", "legal_moves", "play")
BOUND_FLAGS = {
    "--max-live-games": "100000",
    "--games-per-minute": "100000",
    "--credential-rate": "100000",
    "--credential-at-once": "100000",
    "--connection-rate": "100000",
    "--connection-at-once": "100000",
}
"""`serve` flags lifting the server's bounds, used when this version of `serve` has them."""


# ---- the server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bound_flags() -> list[str]:
    """The BOUND_FLAGS this version of `serve` knows."""
    helped = subprocess.run(
        [sys.executable, "-m", "cogs_arena", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [part for flag, value in BOUND_FLAGS.items() if flag in helped for part in (flag, value)]


def start_server(root: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
    command += ["--port", str(port), "--store", str(root / "s.sqlite3")]
    command += ["--transcripts", str(root / "t"), *bound_flags()]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(root / "err", "ab"))  # noqa: SIM115
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                if b"ok" in sock.recv(1000):
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start: " + (root / "err").read_text()[-2000:])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---- one worker process: many async clients ---------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.calls: dict[str, int] = defaultdict(int)
        self.errors: dict[str, int] = defaultdict(int)
        self.limited: dict[str, int] = defaultdict(int)
        """Calls the server's bounds refused (`limit_reached`): not errors of the server."""
        self.samples: list[str] = []
        self.games = 0

    async def call(self, client: Any, tool: str, **args: Any) -> dict[str, Any] | None:
        start = time.perf_counter()
        try:
            result = await client.call_tool(tool, args)
        except Exception as exc:  # counted, not fatal: the benchmark reports errors
            self.error(tool, repr(exc))
            return None
        self.calls[tool] += 1
        if tool in MEASURED:
            self.ms[tool].append((time.perf_counter() - start) * 1000)
        if result.is_error:
            self.error(tool, "".join(getattr(b, "text", "") for b in result.content))
            return None
        return dict(result.structured_content or {})

    def error(self, tool: str, text: str) -> None:
        if text.startswith("[limit_reached]"):
            self.limited[tool] += 1
            return
        self.errors[tool] += 1
        if len(self.samples) < 5:
            self.samples.append(f"{tool}: {text[:300]}")


async def _move(tally: Tally, client: Any, gid: str, cred: str, think: float) -> dict[str, Any]:
    """One decision as an LLM seat makes it: look, list, think, play; plus the trivial tool."""
    await tally.call(client, "show", game_id=gid, credential=cred)
    await tally.call(client, "legal_moves", game_id=gid, credential=cred, page_size=20)
    await asyncio.sleep(think)
    played = await tally.call(client, "play", game_id=gid, credential=cred, number=1)
    await tally.call(client, "ping")
    return played["view"] if played else {"status": "error"}


async def _play(tally: Tally, client: Any, gid: str, cred: str, think: float, until: float) -> None:
    cursor = 0
    while time.time() < until:
        waited = await tally.call(
            client, "wait", game_id=gid, credential=cred, after=cursor, timeout=10
        )
        if waited is None or waited["status"] == "over":
            break
        cursor = waited["cursor"]
        if waited["your_turn"]:
            view = await _move(tally, client, gid, cred, think)
            if view["status"] in ("over", "error"):
                break
    tally.games += 1


async def _game_client(
    tally: Tally,
    url: str,
    role: str,
    inbox: asyncio.Queue[str],
    outbox: asyncio.Queue[str],
    opts: dict[str, Any],
) -> None:
    from mcp import Client

    rules = {"max_turns": opts["max_turns"]}
    async with Client(url) as client:
        while time.time() < opts["until"] and tally.games < opts["games_cap"]:
            if role == "joiner":
                try:
                    invitation = await asyncio.wait_for(inbox.get(), opts["until"] - time.time())
                except TimeoutError:
                    return
                game = await tally.call(client, "join_game", invitation=invitation)
            else:
                bots = ["open"] if role == "host" else None
                game = await tally.call(
                    client, "new_game", game="influence", seat="White", bots=bots, ruleset=rules
                )
                if game is not None and role == "host":
                    await outbox.put(game["invitations"]["Black"])
            if game is None:
                await asyncio.sleep(0.5)
                continue
            await _play(
                tally, client, game["game_id"], game["credential"], opts["think"], opts["until"]
            )


async def _ping_client(tally: Tally, url: str, opts: dict[str, Any]) -> None:
    from mcp import Client

    async with Client(url) as client:
        while time.time() < opts["until"]:
            await tally.call(client, "ping")
            await asyncio.sleep(opts["think"])


async def _reconnecting(tally: Tally, until: float, run: Callable[[], Awaitable[None]]) -> None:
    """A transport failure ends the SDK client's context; count it and connect again."""
    while time.time() < until:
        try:
            await run()
            return
        except Exception as exc:
            tally.error("connection", repr(exc))


async def worker_main(opts: dict[str, Any]) -> dict[str, Any]:
    tally = Tally()
    await asyncio.sleep(max(0.0, opts["start_at"] - time.time()))
    tasks: list[Callable[[], Awaitable[None]]] = []
    if opts["phase"] == "ping":
        tasks = [partial(_ping_client, tally, opts["url"], opts) for _ in range(opts["clients"])]
    else:
        solo = opts["clients"] // 2
        pairs = (opts["clients"] - solo) // 2
        tasks = [
            partial(
                _game_client, tally, opts["url"], "solo", asyncio.Queue(), asyncio.Queue(), opts
            )
            for _ in range(solo + (opts["clients"] - solo) % 2)
        ]
        for _ in range(pairs):
            channel: asyncio.Queue[str] = asyncio.Queue()
            tasks.append(partial(_game_client, tally, opts["url"], "host", channel, channel, opts))
            tasks.append(
                partial(_game_client, tally, opts["url"], "joiner", channel, channel, opts)
            )
    try:
        clients = [_reconnecting(tally, opts["until"], run) for run in tasks]
        await asyncio.wait_for(asyncio.gather(*clients), opts["until"] - time.time() + 30)
    except TimeoutError:
        tally.samples.append("worker: clients still busy 30 s after the end")
    return {
        "ms": tally.ms,
        "calls": tally.calls,
        "errors": tally.errors,
        "limited": tally.limited,
        "samples": tally.samples,
        "games": tally.games,
    }


# ---- the driver -----------------------------------------------------------------------------


def run_phase(
    phase: str, url: str, pid: int, args: argparse.Namespace, duration: float
) -> dict[str, Any]:
    per = [args.clients // args.procs + (i < args.clients % args.procs) for i in range(args.procs)]
    start_at = time.time() + 8  # every worker imports the SDK before the clock starts
    common = {"phase": phase, "url": url, "start_at": start_at, "until": start_at + duration}
    common |= {"think": args.think, "max_turns": args.max_turns, "games_cap": args.games}
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", json.dumps({**common, "clients": n})],
            stdout=subprocess.PIPE,
        )
        for n in per
        if n
    ]
    children0 = _children_cpu()  # includes the workers' start-up imports: an upper bound
    time.sleep(max(0.0, start_at - time.time()))
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    outputs = [w.communicate(timeout=duration + 120)[0] for w in workers]
    cpu, wall = cpu_seconds(pid) - cpu0, time.monotonic() - t0
    clients_cpu = _children_cpu() - children0
    merged: dict[str, Any] = {"ms": defaultdict(list), "calls": defaultdict(int)}
    merged |= {"errors": defaultdict(int), "limited": defaultdict(int), "samples": [], "games": 0}
    for raw in outputs:
        part = json.loads(raw)
        for key in ("ms",):
            for tool, values in part[key].items():
                merged["ms"][tool].extend(values)
        for key in ("calls", "errors", "limited"):
            for tool, count in part[key].items():
                merged[key][tool] += count
        merged["samples"].extend(part["samples"])
        merged["games"] += part["games"]
    merged |= {"cpu": cpu, "wall": wall, "rss": rss_mb(pid), "hwm": rss_mb(pid, "VmHWM")}
    merged |= {"clients_cpu": clients_cpu, "load": Path("/proc/loadavg").read_text().split()[0]}
    return merged


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(title: str, result: dict[str, Any]) -> None:
    calls = sum(result["calls"].values())
    errors = sum(result["errors"].values())
    print(f"\n== {title}: {result['wall']:.0f} s, {calls} calls ({calls / result['wall']:.0f}/s)")
    limited = sum(result["limited"].values())
    print(f"   games finished or cut at the end: {result['games']}; errors: {errors}")
    if limited:
        by_tool = ", ".join(f"{tool} {n}" for tool, n in sorted(result["limited"].items()))
        print(f"   refused by the server's bounds (limit_reached): {limited} ({by_tool})")
    for sample in result["samples"]:
        print(f"   error sample: {sample}")
    print(f"   {'tool':12} {'calls':>7} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for tool in MEASURED:
        values = result["ms"].get(tool, [])
        if values:
            print(
                f"   {tool:12} {len(values):>7} {pct(values, 0.5):>8.1f} {pct(values, 0.99):>8.1f}"
                f" {statistics.fmean(values):>8.1f}"
            )
    waits = result["calls"].get("wait", 0)
    print(f"   wait calls (not timed): {waits}")
    print(
        f"   server CPU {result['cpu']:.1f} s = {result['cpu'] / max(calls, 1) * 1000:.2f} ms per "
        f"call ({result['cpu'] / result['wall'] * 100:.0f}% of a core); "
        f"RSS {result['rss']:.0f} MB (peak {result['hwm']:.0f} MB)"
    )
    print(
        f"   client processes' CPU {result['clients_cpu']:.1f} s "
        f"({result['clients_cpu'] / result['wall'] * 100:.0f}% of a core); "
        f"1-min load average {result['load']}"
    )


async def _create_games(url: str, count: int, concurrency: int = 20) -> tuple[int, int]:
    """Games created, and new_game calls the server's bounds refused."""
    from mcp import Client

    made = refused = 0

    async def one(share: int) -> None:
        nonlocal made, refused
        async with Client(url) as client:
            for _ in range(share):
                result = await client.call_tool("new_game", {"game": "influence", "seat": "White"})
                text = "".join(getattr(b, "text", "") for b in result.content)
                made += 0 if result.is_error else 1
                refused += 1 if result.is_error and text.startswith("[limit_reached]") else 0

    shares = [count // concurrency + (i < count % concurrency) for i in range(concurrency)]
    await asyncio.gather(*(one(s) for s in shares))
    return made, refused


def memory_phase(root: Path, games: int) -> None:
    port = free_port()
    server = start_server(root / "mem", port)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        asyncio.run(_create_games(url, 20))  # warm: first calls import engines and fill caches
        before = rss_mb(server.pid)
        start = time.monotonic()
        made, refused = asyncio.run(_create_games(url, games))
        after = rss_mb(server.pid)
        print(f"\n== memory: {made} live games created in {time.monotonic() - start:.0f} s")
        if refused:
            print(f"   {refused} new_game calls refused by the server's bounds (limit_reached)")
        print(
            f"   server RSS {before:.0f} MB -> {after:.0f} MB "
            f"({(after - before) * 1024 / max(made, 1):.0f} KB per game)"
        )
    finally:
        server.terminate()
        server.wait(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--clients", type=int, default=200, help="concurrent MCP clients")
    parser.add_argument("--procs", type=int, default=10, help="client worker processes")
    parser.add_argument("--duration", type=float, default=90, help="seconds of game load")
    parser.add_argument("--ping-duration", type=float, default=30, help="seconds of ping load")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a seat thinks per move")
    parser.add_argument("--max-turns", type=int, default=3, help="Influence turns per game")
    parser.add_argument("--games", type=int, default=50, help="games per client at most")
    parser.add_argument("--live-games", type=int, default=1000, help="games for the memory phase")
    args = parser.parse_args()
    if args.worker:
        opts = json.loads(args.worker)
        print(json.dumps(asyncio.run(worker_main(opts))))
        return
    with tempfile.TemporaryDirectory(prefix="cogs-load-") as tmp:
        root = Path(tmp)
        (root / "load").mkdir()
        (root / "mem").mkdir()
        port = free_port()
        server = start_server(root / "load", port)
        url = f"http://127.0.0.1:{port}/mcp"
        print(
            f"{args.clients} clients in {args.procs} processes, think {args.think} s, "
            f"Influence max_turns {args.max_turns}; server pid {server.pid}, "
            f"RSS at start {rss_mb(server.pid):.0f} MB; {os.cpu_count()} CPUs"
        )
        try:
            report("ping only", run_phase("ping", url, server.pid, args, args.ping_duration))
            report("games (+ ping)", run_phase("games", url, server.pid, args, args.duration))
        finally:
            server.terminate()
            server.wait(15)
        if args.live_games:
            memory_phase(root, args.live_games)


if __name__ == "__main__":
    main()
