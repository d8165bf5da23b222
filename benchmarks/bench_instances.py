"""Several server instances on one PostgreSQL, against one instance on SQLite, on loopback.

For each setup - SQLite with 1 instance, PostgreSQL with 1, 2 and 4 instances - starts the
instances (`cogs-arena serve --transport http`), then client processes whose clients play
Influence against bots as fast as they can, each call through the next instance in turn (as a
load balancer without sticky sessions would send them, the worst case for the instances'
caches: most calls find the game moved on by another instance and reload it; `--spread client`
keeps each client on one instance). Prints play
calls/s and p50/p99 play latency per setup, the instances' CPU per play call (all their work
over the plays) and, for a throwaway cluster, PostgreSQL's.

Bounded: --seconds per setup (default 15) after a short warm-up. PostgreSQL is a throwaway
cluster (tests/pg_helpers.py) unless --pg-url names one.
Usage: python benchmarks/bench_instances.py [--seconds 15] [--clients 24] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from load_http import cpu_seconds, free_port  # noqa: E402

LIFT = ["--max-live-games", "100000", "--games-per-minute", "100000"]


def start_instance(store: str, transcripts: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
    command += ["--port", str(port), "--store", store, "--transcripts", str(transcripts), *LIFT]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(log, "ab"))  # noqa: SIM115
    import httpx

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("instance exited: " + log.read_text()[-2000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).text == "ok":
                return proc, f"http://127.0.0.1:{port}/mcp"
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("instance did not start: " + log.read_text()[-2000:])


# ---- client side: one process, many clients ------------------------------------------------


async def _client(
    clients: list[Any], window: tuple[float, float], out: dict[str, Any], spread: str
) -> None:
    warm, until = window
    turn = int.from_bytes(os.urandom(2), "big")

    async def call(tool: str, **args: Any) -> dict[str, Any] | None:
        nonlocal turn
        turn += 1 if spread == "call" else 0
        client = clients[turn % len(clients)]
        start = time.perf_counter()
        try:
            result = await client.call_tool(tool, args)
        except Exception as exc:  # counted, not fatal
            out["errors"] += 1
            out["samples"] = (out["samples"] + [repr(exc)[:200]])[:3]
            return None
        done = time.perf_counter()
        if tool == "play":
            out["plays"] += 1
            if warm <= time.time() < until:
                out["ms"].append((done - start) * 1000)
        if result.is_error:
            text = "".join(getattr(b, "text", "") for b in result.content)
            out["errors"] += 1
            out["samples"] = (out["samples"] + [text[:200]])[:3]
            return None
        return dict(result.structured_content or {})

    while time.time() < until:
        game = await call("new_game", game="influence", seat="White", bots=["greedy"])
        if game is None:
            await asyncio.sleep(0.2)
            continue
        gid, cred = game["game_id"], game["credential"]
        status = "active"
        while status == "active" and time.time() < until:
            played = await call("play", game_id=gid, credential=cred, number=1)
            if played is None:
                break
            status = played["view"]["status"]


def worker(
    urls: list[str], clients: int, warmup: float, seconds: float, spread: str
) -> dict[str, Any]:
    """Connects every client to every instance first; then plays through its own window."""
    out: dict[str, Any] = {"ms": [], "plays": 0, "errors": 0, "samples": []}

    async def main() -> None:
        from contextlib import AsyncExitStack

        from mcp import Client

        async with AsyncExitStack() as stack:
            # one task enters them all: the SDK's clients leave in the task they entered in
            sets = [
                [await stack.enter_async_context(Client(url)) for url in urls]
                for _ in range(clients)
            ]
            warm = time.time() + warmup
            window = (warm, warm + seconds)
            await asyncio.gather(*(_client(list(c), window, out, spread) for c in sets))

    asyncio.run(main())
    return out


def database_cpu(root_pid: int | None) -> dict[int, float]:
    """CPU seconds of every process under `root_pid` (the throwaway cluster's postmaster and
    its backends), by pid."""
    if root_pid is None:
        return {}
    seen: dict[int, float] = {}
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        try:
            seen[pid] = cpu_seconds(pid)
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # gone meanwhile
            continue
    return seen


# ---- one setup -------------------------------------------------------------------------------


def run_setup(
    label: str, stores: list[str], root: Path, args: argparse.Namespace, db_pid: int | None = None
) -> dict[str, Any]:
    folder = root / label
    folder.mkdir()
    procs = [
        start_instance(store, folder / "t", folder / f"instance{i}.log")
        for i, store in enumerate(stores)
    ]
    urls = [url for _, url in procs]
    try:
        cpu_before = [cpu_seconds(p.pid) for p, _ in procs]
        db_before = database_cpu(db_pid)
        per_worker = max(1, args.clients // args.workers)
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [
                pool.submit(worker, urls, per_worker, args.warmup, args.seconds, args.spread)
                for _ in range(args.workers)
            ]
            results = [f.result() for f in futures]
        cpu = sum(cpu_seconds(p.pid) for p, _ in procs) - sum(cpu_before)
        db_after = database_cpu(db_pid)
        db_cpu = sum(t - db_before.get(pid, 0.0) for pid, t in db_after.items())
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            proc.wait(10)
    ms = sorted(m for r in results for m in r["ms"])
    errors = sum(r["errors"] for r in results)
    samples = [s for r in results for s in r["samples"]][:3]
    calls = len(ms)
    plays = sum(r["plays"] for r in results)
    return {
        "setup": label,
        "play_per_s": calls / args.seconds,
        "p50_ms": statistics.median(ms) if ms else float("nan"),
        "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan"),
        # all the instances' CPU, handshakes and new games included, over every play
        "cpu_ms_per_play": 1000 * cpu / plays if plays else float("nan"),
        "db_ms_per_play": 1000 * db_cpu / plays if plays and db_pid else float("nan"),
        "errors": errors,
        "samples": samples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per setup")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--clients", type=int, default=24, help="clients in all")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--instances", default="1,2,4", help="PostgreSQL setups to run")
    parser.add_argument("--pg-url", default=None, help="an existing database (else a throwaway)")
    parser.add_argument(
        "--spread",
        choices=["call", "client"],
        default="call",
        help="each call through the next instance (call), or each client on one (client)",
    )
    parser.add_argument("--sqlite", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cluster = None
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-instances-") as tmp:
        root = Path(tmp)
        try:
            if args.sqlite:
                rows.append(run_setup("sqlite x1", [str(root / "s.sqlite3")], root, args))
            if args.pg_url is None:
                from pg_helpers import PgCluster

                cluster = PgCluster()
                cluster.start()
            for n in (int(x) for x in args.instances.split(",")):
                url = args.pg_url or (cluster.new_database("bench") if cluster else "")
                db_pid = cluster.postmaster() if cluster else None
                rows.append(run_setup(f"postgres x{n}", [url] * n, root, args, db_pid))
        finally:
            if cluster is not None:
                cluster.stop()
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{os.cpu_count()} cores; {args.clients} clients in {args.workers} processes; "
        f"{args.seconds:.0f} s per setup; "
        + (
            "each call through the next instance in turn"
            if args.spread == "call"
            else "each client on one instance"
        )
    )
    print(
        f"{'setup':<13} {'play/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/play':>12} "
        f"{'PG ms/play':>11} errors"
    )
    for row in rows:
        print(
            f"{row['setup']:<13} {row['play_per_s']:>8.0f} {row['p50_ms']:>8.1f} "
            f"{row['p99_ms']:>8.1f} {row['cpu_ms_per_play']:>12.2f} "
            f"{row['db_ms_per_play']:>11.2f} {row['errors']}"
        )
        for sample in row["samples"]:
            print(f"    e.g. {sample}")


if __name__ == "__main__":
    main()
