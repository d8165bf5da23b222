"""Fair shares on loopback: one credential flooding the server from 16 connections must not
slow an unrelated client much more than the flood's own load on the machine does.

Starts two servers, A and B (`cogs-arena serve --transport http` with its default bounds, each
on a temporary SQLite store) and one Influence game on each. The flood: 16 processes, each one
MCP client (one connection) to A and one to B, calling `show` with the game's one seat
credential as fast as the answers come back, ignoring every `[limit_reached]` and its retry
hint. In one run, three phases:

  idle  the unrelated client pings A; no flood;
  (a)   the flood aimed at A, the client pings A;
  (b)   the same flood aimed at B, the client pings A.

The flooders share this machine's cores with both servers in (a) and (b) alike, so the bound
is relative: the client's ping p50 in (a) within 2x of (b). Prints idle, (a) and (b) p50/p99,
the flood's accepted and refused calls in each phase, and the servers' CPU. Loopback only;
every phase is bounded in time and the run stops by itself.

Usage: python benchmarks/bench_fairness.py [--flooders 16] [--pings 200] [--settle 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import multiprocessing.process
import os
import queue
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench_waits import call, cpu_seconds, free_port, pct, ping_series, start_server, stop_server

TARGET = 2.0
"""(a) p50 / (b) p50 at most."""


# ---- a flooder process ----------------------------------------------------------------------


async def flooder_main(opts: dict[str, Any], commands: Connection) -> None:
    """Connects to both servers, says "ready", then on each command: "A" or "B" floods that
    server until the next command ("pause" sends back the phase's counts), "stop" ends."""
    from mcp import Client

    lines: queue.Queue[str] = queue.Queue()

    def listen() -> None:
        with contextlib.suppress(EOFError, OSError):
            while True:
                lines.put(commands.recv())

    threading.Thread(target=listen, daemon=True).start()
    until = time.monotonic() + opts["seconds"]
    async with Client(opts["A"]["url"]) as a, Client(opts["B"]["url"]) as b:
        clients = {"A": a, "B": b}
        for client in clients.values():
            await call(client, "ping")
        commands.send("ready")
        target: str | None = None
        tally = {"accepted": 0, "refused": 0, "errors": 0}
        while time.monotonic() < until:
            try:
                command = lines.get_nowait() if target else lines.get(timeout=0.2)
            except queue.Empty:
                command = ""
            if command in ("A", "B"):
                target = command
            elif command in ("pause", "stop"):
                commands.send(tally)
                tally = {"accepted": 0, "refused": 0, "errors": 0}
                target = None
                if command == "stop":
                    return
            if target is None:
                continue
            game = opts[target]
            try:
                result = await clients[target].call_tool(
                    "show", {"game_id": game["game_id"], "credential": game["credential"]}
                )
            except Exception:  # a flooder counts what it gets and goes on
                tally["errors"] += 1
                continue
            text = "".join(getattr(block, "text", "") for block in result.content)
            if not result.is_error:
                tally["accepted"] += 1
            elif text.startswith("[limit_reached]"):
                tally["refused"] += 1
            else:
                tally["errors"] += 1


def flooder(opts: dict[str, Any], commands: Connection) -> None:
    asyncio.run(flooder_main(opts, commands))
    os._exit(0)  # nothing to drain


# ---- the driver -----------------------------------------------------------------------------


async def new_game(url: str) -> dict[str, Any]:
    from mcp import Client

    async with Client(url) as client:
        game = await call(client, "new_game", game="influence", seat=0, bots=["greedy"])
    return {"url": url, "game_id": game["game_id"], "credential": game["credential"]}


class Flood:
    """The flooder processes, told together what to do. They are forked from this process,
    which has the client library loaded already: sixteen fresh interpreters importing it
    would take the two cores for a minute before the flood began."""

    def __init__(self, count: int, opts: dict[str, Any]) -> None:
        fork = multiprocessing.get_context("fork")
        self.pipes: list[Connection] = []
        self.procs: list[multiprocessing.process.BaseProcess] = []
        for _ in range(count):
            mine, theirs = fork.Pipe()
            proc = fork.Process(target=flooder, args=(opts, theirs), daemon=True)
            proc.start()
            self.pipes.append(mine)
            self.procs.append(proc)
        deadline = time.monotonic() + 120
        for pipe in self.pipes:
            if not pipe.poll(max(0.1, deadline - time.monotonic())) or pipe.recv() != "ready":
                raise SystemExit("a flooder did not start")

    def tell(self, command: str) -> None:
        for pipe in self.pipes:
            pipe.send(command)

    def counts(self) -> dict[str, int]:
        total = {"accepted": 0, "refused": 0, "errors": 0}
        for pipe in self.pipes:
            if not pipe.poll(30):
                total["errors"] += 1
                continue
            for key, value in pipe.recv().items():
                total[key] += value
        return total

    def close(self) -> None:
        for proc in self.procs:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)


def report(title: str, ms: list[float], extra: str = "") -> None:
    print(
        f"{title:24} pings {len(ms):>4}  p50 {pct(ms, 0.5):8.2f} ms  p99 {pct(ms, 0.99):8.2f} ms"
        + (f"  {extra}" if extra else "")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=16, help="flooding processes (16)")
    parser.add_argument("--pings", type=int, default=200, help="pings per phase (200)")
    parser.add_argument("--ping-gap", type=float, default=0.02, help="seconds between pings")
    parser.add_argument("--ping-seconds", type=float, default=60, help="time limit per phase")
    parser.add_argument("--settle", type=float, default=3, help="seconds of flood before pings")
    parser.add_argument(
        "--serve-args", default="", help="more `serve` flags for both servers (default: none)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cogs-fair-") as tmp:
        roots = [Path(tmp) / "A", Path(tmp) / "B"]
        ports = [free_port(), free_port()]
        servers = []
        try:
            for root, port in zip(roots, ports, strict=True):
                root.mkdir()
                proc = start_server(root, port, shlex.split(args.serve_args))
                if proc is None:
                    raise SystemExit("server exited: " + (root / "server.err").read_text()[-2000:])
                servers.append(proc)
            return run(args, [f"http://127.0.0.1:{p}/mcp" for p in ports], servers)
        finally:
            for proc in servers:
                stop_server(proc)


def run(args: argparse.Namespace, urls: list[str], servers: list[subprocess.Popen[bytes]]) -> int:
    games = [asyncio.run(new_game(url)) for url in urls]
    phase_seconds = 2 * args.settle + args.ping_seconds
    opts = {"A": games[0], "B": games[1], "seconds": 3 * phase_seconds + 120}
    pings = (urls[0], args.pings, args.ping_seconds, args.ping_gap)
    extra = f" with {args.serve_args}" if args.serve_args else " with the default bounds"
    print(
        f"servers A pid {servers[0].pid}, B pid {servers[1].pid}{extra}; {args.flooders} flooders"
    )
    idle = asyncio.run(ping_series(*pings))
    started = time.monotonic()
    flood = Flood(args.flooders, opts)
    print(f"flooders connected in {time.monotonic() - started:.1f} s")
    results: dict[str, tuple[list[float], dict[str, int], list[float]]] = {}
    try:
        for target in ("A", "B"):
            flood.tell(target)
            time.sleep(args.settle)  # past the burst every share starts with
            cpu = [cpu_seconds(p.pid) for p in servers]
            ms = asyncio.run(ping_series(*pings))
            used = [cpu_seconds(p.pid) - before for p, before in zip(servers, cpu, strict=True)]
            flood.tell("pause")
            results[target] = (ms, flood.counts(), used)
        flood.tell("stop")
    finally:
        flood.close()
    print()
    report("idle", idle)
    for target, title in (("A", "(a) flood on A"), ("B", "(b) flood on B")):
        ms, counts, used = results[target]
        report(
            title,
            ms,
            f"flood: {counts['accepted']} accepted, {counts['refused']} refused, "
            f"{counts['errors']} errors; CPU A {used[0]:.1f} s, B {used[1]:.1f} s",
        )
    ratio = pct(results["A"][0], 0.5) / pct(results["B"][0], 0.5)
    complete = all(len(results[t][0]) >= args.pings for t in "AB")
    verdict = "PASS" if ratio <= TARGET and complete else "FAIL"
    print(f"(a) p50 / (b) p50 = {ratio:.2f} (target <= {TARGET:g}): {verdict}")
    print(f"(a) p50 / idle p50 = {pct(results['A'][0], 0.5) / pct(idle, 0.5):.2f}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
