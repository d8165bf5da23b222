"""Wait amplification on loopback: many open `wait` calls on one big game must not slow an
unrelated client.

Starts `cogs-arena serve --transport http` on a temporary store and builds one game whose
record holds about 5,000 events. The game is Blending (four seats, every seat an MCP client
through invitations): a game with more than two seats is needed so that one seat can stay
blind to the filler. Seats 0 and 1 whisper to each other (`talk` with `to`), so every filler
event is invisible to seat 3, the waiting seat, which is not on turn: its waits stay open, and
a server that re-reads the game for each waiter pays for every filler event on each look.

The waiters start from the cursor seat 3 had before the filler (the earliest cursor at which a
wait blocks: `after=0` returns at once with the join events), so the filler lies after their
cursor, the worst case for a server that scans from the cursor. `--after N` overrides.

If the server refuses that much talk (a per-decision talk limit), the script tries the flag
`--talk-per-decision`; failing that it whispers up to the limit each decision and moves the
game on (public moves), and reports how many invisible events lie after the waiters' cursor.

Then, in one run: an unrelated client's `ping` p50/p99 idle; 150 waits opened on the game over
several client connections in a separate process; `ping` p50/p99 again while they are open;
and again while, in a third process, seat 0 whispers to seat 1 twenty times a second (events
hidden from the waiting seat: a server that wakes every wait on every change re-reads the game
150 times for each). Targets: loaded p50 within 3x of idle p50, and with the hidden events
within 1.5x. The server's CPU per phase is printed beside the pings.

The server's fair shares (a seat credential's calls a second and at once) are lifted with
SHARE_FLAGS: 150 waits on one credential are this benchmark's load, not a client to refuse.

Usage: python benchmarks/bench_waits.py [--events 5000] [--waits 150] [--clients 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAME = "blending"
TALKERS = (0, 1)  # whisper to each other
WAITER = 3
TALK_FLAG = "--talk-per-decision"
SHARE_FLAGS = ["--credential-rate", "100000", "--credential-at-once", "100000"]
HIDDEN_RATE = 20.0
"""Hidden events a second in the third phase."""


# ---- the server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def healthy(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            return b"ok" in sock.recv(1000)
    except OSError:
        return False


def start_server(root: Path, port: int, extra: list[str]) -> subprocess.Popen[bytes] | None:
    """The server, or None when it exited at once (e.g. an unknown flag)."""
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
    command += ["--port", str(port), "--store", str(root / "s.sqlite3")]
    command += ["--transcripts", str(root / "t"), *extra]
    with open(root / "server.err", "ab") as err:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, cwd=root)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        if healthy(port):
            return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start: " + (root / "server.err").read_text()[-2000:])


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def count_events(store: Path, game_id: str) -> int | None:
    """Events of the game in the store, if its schema has an `events` table we can read."""
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])
    except sqlite3.Error:
        return None
    finally:
        db.close()


# ---- calls ----------------------------------------------------------------------------------


class ToolFailed(Exception):
    def __init__(self, tool: str, text: str) -> None:
        super().__init__(f"{tool}: {text}")
        self.text = text


async def call(client: Any, tool: str, **args: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise ToolFailed(tool, "".join(getattr(b, "text", "") for b in result.content))
    return dict(result.structured_content or {})


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def ping_series(url: str, count: int, seconds: float, gap: float = 0.0) -> list[float]:
    """Milliseconds per `ping` from one fresh, unrelated client: `count` calls at most, for
    `seconds` at most, `gap` seconds apart (so a phase samples a stretch of time)."""
    from mcp import Client

    out: list[float] = []
    async with Client(url) as client:
        await call(client, "ping")  # the connection and the SDK's first-call costs
        until = time.monotonic() + seconds
        while len(out) < count and time.monotonic() < until:
            start = time.perf_counter()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.1, until - time.monotonic())):
                    await call(client, "ping")
                    out.append((time.perf_counter() - start) * 1000)
            if gap:
                await asyncio.sleep(gap)
    return out


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- building the game ----------------------------------------------------------------------


async def build_game(url: str, store: Path, target: int, seconds: float) -> dict[str, Any]:
    from mcp import Client

    until = time.monotonic() + seconds
    async with Client(url) as host:
        game = await call(host, "new_game", game=GAME, seat=0, bots=["open"] * 3)
        gid = game["game_id"]
        creds = {0: game["credential"]}
        names = {0: game["seat_name"]}
        for code in game["invitations"].values():
            joined = await call(host, "join_game", invitation=code)
            creds[joined["seat"]] = joined["credential"]
            names[joined["seat"]] = joined["seat_name"]
        # The waiter's starting cursor: where its wait stops returning the join events.
        first = await call(host, "wait", game_id=gid, credential=creds[WAITER], after=0, timeout=1)
        start_cursor = int(first["cursor"])
        state = {"talks": 0, "plays": 0, "limited": False, "over": False}

        async def whisper(seat: int, share: int) -> None:
            other = TALKERS[1 - TALKERS.index(seat)]
            for i in range(share):
                if time.monotonic() > until or state["limited"]:
                    return
                try:
                    await call(
                        host,
                        "talk",
                        game_id=gid,
                        credential=creds[seat],
                        text=f"filler {seat}.{i}",
                        to=[names[other]],
                    )
                    state["talks"] += 1
                except ToolFailed as exc:
                    if "limit" in exc.text.lower():
                        state["limited"] = True
                        return
                    raise

        async def fill(lines: int) -> None:
            per = [lines // 8 + (i < lines % 8) for i in range(8)]
            await asyncio.gather(*(whisper(TALKERS[i % 2], n) for i, n in enumerate(per)))

        await fill(target)
        cursor = start_cursor
        while state["limited"] and time.monotonic() < until:
            # A talk limit per decision: move the game on and whisper again. The moves are
            # public, so the waiters' cursor moves past them.
            view = await call(host, "show", game_id=gid, credential=creds[0])
            total = count_events(store, gid) or int(view.get("log_cursor", 0))
            if total >= target:
                break
            if view["status"] == "over":
                state["over"] = True
                break
            mover = next(i for i, n in names.items() if n in view["to_act"])
            try:
                await call(host, "play", game_id=gid, credential=creds[mover], number=1)
                state["plays"] += 1
            except ToolFailed:
                pass  # a refused move still moves on after a second refusal (fallback)
            now = await call(host, "show", game_id=gid, credential=creds[0])
            if names[WAITER] in now["to_act"]:
                continue  # the waiter moves first: its waits must not find its turn
            waited = await call(
                host, "wait", game_id=gid, credential=creds[WAITER], after=cursor, timeout=0.1
            )
            cursor = int(waited["cursor"])
            state["limited"] = False
            await fill(target - total)
        # The waiters' cursor: the first at which a wait blocks (past any public event).
        for _ in range(5):
            check = await call(
                host, "wait", game_id=gid, credential=creds[WAITER], after=cursor, timeout=1
            )
            if check["reason"] == "timeout":
                break
            cursor = int(check["cursor"])
    return {
        "game_id": gid,
        "credential": creds[WAITER],
        "talker": creds[TALKERS[0]],
        "listener": names[TALKERS[1]],
        "cursor": cursor,
        "start_cursor": start_cursor,
        "talks": state["talks"],
        "plays": state["plays"],
        "limited_fallback": state["plays"] > 0,
        "blocks": check["reason"] == "timeout",
        "waiter_cursor_after_fill": int(check["cursor"]),
        "events": count_events(store, gid),
    }


# ---- the waiters' process -------------------------------------------------------------------


async def waiters_main(opts: dict[str, Any]) -> dict[str, Any]:
    """`opts["waits"]` wait calls kept open over `opts["clients"]` connections until stdin
    says stop (or `opts["seconds"]` pass); each wait that returns is opened again."""
    from mcp import Client

    tally: dict[str, Any] = {"calls": 0, "timeouts": 0, "early": 0, "errors": 0, "samples": []}
    until = time.monotonic() + opts["seconds"]
    stop = asyncio.Event()

    async def one(client: Any) -> None:
        while not stop.is_set() and time.monotonic() < until:
            timeout = max(1.0, min(opts["timeout"], until - time.monotonic()))
            try:
                got = await call(
                    client,
                    "wait",
                    game_id=opts["game_id"],
                    credential=opts["credential"],
                    after=opts["after"],
                    timeout=timeout,
                )
            except Exception as exc:  # counted and reported, then the waiter tries again
                tally["errors"] += 1
                if len(tally["samples"]) < 3:
                    tally["samples"].append(repr(exc)[:300])
                await asyncio.sleep(0.5)
                continue
            tally["calls"] += 1
            tally["timeouts" if got["reason"] == "timeout" else "early"] += 1

    async def client_loop(share: int) -> None:
        async with Client(opts["url"]) as client:
            await call(client, "ping")
            await asyncio.gather(*(one(client) for _ in range(share)))

    async def watch_stdin() -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)
        stop.set()

    n, k = opts["waits"], opts["clients"]
    shares = [n // k + (i < n % k) for i in range(k)]
    tasks = [asyncio.ensure_future(client_loop(s)) for s in shares if s]
    print("started", flush=True)
    watcher = asyncio.ensure_future(watch_stdin())
    await asyncio.wait([watcher, *tasks], timeout=opts["seconds"], return_when="FIRST_COMPLETED")
    return tally


# ---- the hidden events' producer ------------------------------------------------------------


async def producer_main(opts: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 whispers to seat 1 `opts["rate"]` times a second (each line an event hidden from
    the waiting seat) until stdin says stop or `opts["seconds"]` pass."""
    from mcp import Client

    tally: dict[str, Any] = {"talks": 0, "errors": 0, "samples": [], "seconds": 0.0}
    stop = asyncio.Event()

    async def watch_stdin() -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)
        stop.set()

    async with Client(opts["url"]) as client:
        await call(client, "ping")
        watcher = asyncio.ensure_future(watch_stdin())
        print("started", flush=True)
        started = time.monotonic()
        until, due, period = started + opts["seconds"], started, 1.0 / opts["rate"]
        while not stop.is_set() and time.monotonic() < until:
            try:
                await call(
                    client,
                    "talk",
                    game_id=opts["game_id"],
                    credential=opts["credential"],
                    text=f"hidden {tally['talks']}",
                    to=[opts["to"]],
                )
                tally["talks"] += 1
            except Exception as exc:  # counted and reported
                tally["errors"] += 1
                if len(tally["samples"]) < 3:
                    tally["samples"].append(repr(exc)[:300])
            due += period
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, due - time.monotonic())):
                    await stop.wait()
        tally["seconds"] = time.monotonic() - started
        watcher.cancel()
    return tally


# ---- the driver -----------------------------------------------------------------------------


def report_pings(title: str, ms: list[float]) -> None:
    print(
        f"{title:18} calls {len(ms):>4}  p50 {pct(ms, 0.5):8.2f} ms  p99 {pct(ms, 0.99):8.2f} ms"
        f"  max {max(ms, default=float('nan')):8.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiters", help=argparse.SUPPRESS)
    parser.add_argument("--producer", help=argparse.SUPPRESS)
    parser.add_argument("--events", type=int, default=5000, help="filler talk lines (5000)")
    parser.add_argument("--waits", type=int, default=150, help="open waits (150)")
    parser.add_argument("--clients", type=int, default=10, help="connections for the waits")
    parser.add_argument("--pings", type=int, default=200, help="pings per phase (200)")
    parser.add_argument("--ping-gap", type=float, default=0.02, help="seconds between pings")
    parser.add_argument("--ping-seconds", type=float, default=60, help="time limit per phase")
    parser.add_argument("--settle", type=float, default=3, help="seconds for the waits to open")
    parser.add_argument("--build-seconds", type=float, default=300, help="time limit to build")
    parser.add_argument("--wait-timeout", type=float, default=45, help="each wait's timeout")
    parser.add_argument("--after", type=int, default=None, help="the waits' cursor")
    parser.add_argument(
        "--no-talk-flag", action="store_true", help=f"do not try {TALK_FLAG} (the server's limit)"
    )
    args = parser.parse_args()
    if args.waiters:
        tally = asyncio.run(waiters_main(json.loads(args.waiters)))
        print(json.dumps(tally), flush=True)
        os._exit(0)  # open waits are abandoned, not drained
    if args.producer:
        print(json.dumps(asyncio.run(producer_main(json.loads(args.producer)))), flush=True)
        return 0
    with tempfile.TemporaryDirectory(prefix="cogs-waits-") as tmp:
        root = Path(tmp)
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        talk = [] if args.no_talk_flag else [[TALK_FLAG, str(10**6)]]
        # The flags this version of `serve` takes, the most first.
        tries = [*(t + SHARE_FLAGS for t in talk), *talk, SHARE_FLAGS, []]
        server, flag_used = None, False
        for flags in tries:
            server = start_server(root, port, flags)
            if server is not None:
                flag_used = TALK_FLAG in flags
                break
        if server is None:
            raise SystemExit("server exited: " + (root / "server.err").read_text()[-2000:])
        try:
            return run(args, root, url, server, flag_used)
        finally:
            stop_server(server)


def run(
    args: argparse.Namespace,
    root: Path,
    url: str,
    server: subprocess.Popen[bytes],
    flag_used: bool,
) -> int:
    tried = "not tried" if args.no_talk_flag else "unknown to this server"
    print(f"server pid {server.pid}; {TALK_FLAG} {'accepted' if flag_used else tried}")
    started = time.monotonic()
    game = asyncio.run(build_game(url, root / "s.sqlite3", args.events, args.build_seconds))
    after = game["cursor"] if args.after is None else args.after
    events = game["events"]
    print(
        f"game {game['game_id']} ({GAME}): {events if events is not None else '?'} events in "
        f"the store, {game['talks']} whispers, {game['plays']} moves to get past a talk limit; "
        f"built in {time.monotonic() - started:.0f} s"
    )
    if events is not None:
        print(f"events after the waits' cursor (invisible to seat {WAITER}): {events - after}")
    print(
        f"waits: seat {WAITER}, after={after} (seat {WAITER}'s cursor before the filler: "
        f"{game['start_cursor']}; the game's cursor now: {game['waiter_cursor_after_fill']}); "
        f"a trial wait {'blocked' if game['blocks'] else 'RETURNED AT ONCE'}"
    )
    pings = (url, args.pings, args.ping_seconds, args.ping_gap)
    cpu = [cpu_seconds(server.pid)]
    idle = asyncio.run(ping_series(*pings))
    cpu.append(cpu_seconds(server.pid))
    opts = {
        "url": url,
        "game_id": game["game_id"],
        "credential": game["credential"],
        "after": after,
        "waits": args.waits,
        "clients": args.clients,
        "timeout": args.wait_timeout,
        "seconds": args.settle * 2 + args.ping_seconds * 2 + 30,
    }
    produce = {
        "url": url,
        "game_id": game["game_id"],
        "credential": game["talker"],
        "to": game["listener"],
        "rate": HIDDEN_RATE,
        "seconds": args.settle + args.ping_seconds + 30,
    }
    children: list[subprocess.Popen[str]] = []

    def spawn(flag: str, value: dict[str, Any]) -> subprocess.Popen[str]:
        child = subprocess.Popen(
            [sys.executable, __file__, flag, json.dumps(value)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        children.append(child)
        assert child.stdout is not None
        child.stdout.readline()  # "started": its clients are connecting
        return child

    def finish(child: subprocess.Popen[str]) -> dict[str, Any]:
        assert child.stdin is not None
        child.stdin.write("stop\n")
        child.stdin.flush()
        out, _ = child.communicate(timeout=30)
        result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return result

    try:
        waiters = spawn("--waiters", opts)
        time.sleep(args.settle)
        cpu.append(cpu_seconds(server.pid))
        loaded = asyncio.run(ping_series(*pings))
        cpu.append(cpu_seconds(server.pid))
        producer = spawn("--producer", produce)
        time.sleep(args.settle)
        cpu.append(cpu_seconds(server.pid))
        hidden_started = time.monotonic()
        hidden = asyncio.run(ping_series(*pings))
        hidden_seconds = time.monotonic() - hidden_started
        cpu.append(cpu_seconds(server.pid))
        made = finish(producer)
        tally = finish(waiters)
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait(10)
    print()
    spans = [(cpu[1] - cpu[0]), (cpu[3] - cpu[2]), (cpu[5] - cpu[4])]
    report_pings("ping idle", idle)
    report_pings(f"ping, {args.waits} waits", loaded)
    report_pings(f"  + {HIDDEN_RATE:.0f} hidden/s", hidden)
    print(
        f"server CPU in the three phases: {spans[0]:.2f} s, {spans[1]:.2f} s, {spans[2]:.2f} s "
        f"(the last over {hidden_seconds:.1f} s)"
    )
    ratio = pct(loaded, 0.5) / pct(idle, 0.5)
    hidden_ratio = pct(hidden, 0.5) / pct(idle, 0.5)
    ok_waits = ratio <= 3 and len(loaded) >= args.pings
    ok_hidden = hidden_ratio <= 1.5 and len(hidden) >= args.pings
    print(f"loaded p50 / idle p50 = {ratio:.2f} (target <= 3): {'PASS' if ok_waits else 'FAIL'}")
    print(
        f"hidden-events p50 / idle p50 = {hidden_ratio:.2f} (target <= 1.5): "
        f"{'PASS' if ok_hidden else 'FAIL'}"
    )
    print(
        f"producer: {made['talks']} hidden whispers in {made['seconds']:.1f} s "
        f"({made['talks'] / max(made['seconds'], 1e-9):.1f}/s, target {HIDDEN_RATE:.0f}/s), "
        f"{made['errors']} errors"
    )
    for sample in made["samples"]:
        print(f"  producer error: {sample}")
    print(
        f"waits: {tally['calls']} returned ({tally['timeouts']} at their timeout, "
        f"{tally['early']} early), {tally['errors']} errors; {args.clients} connections"
    )
    for sample in tally["samples"]:
        print(f"  wait error: {sample}")
    if tally["early"]:
        print("  note: waits that return early are re-opened: the load was not purely idle waits")
    return 0 if ok_waits and ok_hidden else 1


if __name__ == "__main__":
    sys.exit(main())
