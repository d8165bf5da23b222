"""Slow clients against `cogs-arena serve --transport http` with its default bounds, on loopback.

Phase 1 opens N connections that each send half a request header and then nothing; phase 2,
once those are gone, M connections that send full headers and then their body one byte a
second. Prints, per phase, how many were answered what (408: timed out, 503: over the
connection cap), when the last one was closed, how many were still open at the time limit, and
whether the server's log holds a traceback.

Usage: python benchmarks/bench_slow_clients.py [--headers 2000] [--bodies 50] [--limit 60]
"""

from __future__ import annotations

import argparse
import contextlib
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx2

HALF_HEADER = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
BODY_HEADERS = (
    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(root: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http", "--memory"]
    command += ["--port", str(port), "--transcripts", str(root / "t"), "--log-level", "info"]
    with (root / "stderr").open("wb") as log:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1).text == "ok":
                return proc
        except httpx2.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def phase(port: int, count: int, opening: bytes, trickle: bool, limit: float) -> None:
    selector = selectors.DefaultSelector()
    answers: dict[socket.socket, bytes] = {}
    start = time.monotonic()
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(opening)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        answers[sock] = b""
    opened = time.monotonic() - start
    left = set(answers)
    last_closed = 0.0
    next_byte = time.monotonic() + 1.0
    while left and time.monotonic() - start < limit:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except (ConnectionResetError, BlockingIOError):
                data = b""
            if data:
                answers[sock] += data
                continue
            selector.unregister(sock)
            left.discard(sock)
            last_closed = time.monotonic() - start
        if trickle and time.monotonic() >= next_byte:
            next_byte += 1.0
            for sock in left:
                with contextlib.suppress(OSError):
                    sock.send(b" ")
    statuses = Counter(
        a[9:12].decode() if a.startswith(b"HTTP/1.1 ") else "none" for a in answers.values()
    )
    for sock in answers:
        sock.close()
    shown = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
    print(
        f"  {count} opened in {opened:.1f} s; answered {shown}; last closed at "
        f"{last_closed:.1f} s; still open at {limit:g} s: {len(left)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--headers", type=int, default=2000, help="half-sent headers (2000)")
    parser.add_argument("--bodies", type=int, default=50, help="bodies at 1 byte/s (50)")
    parser.add_argument("--limit", type=float, default=60, help="seconds per phase (60)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        port = free_port()
        proc = start(root, port)
        try:
            print("half-sent headers (--header-timeout 10, --max-connections 512):")
            phase(port, args.headers, HALF_HEADER, False, args.limit)
            print("bodies at one byte a second (--body-timeout 30):")
            phase(port, args.bodies, BODY_HEADERS, True, args.limit)
        finally:
            proc.terminate()
            proc.wait(30)
        log = (root / "stderr").read_text(errors="replace")
        refused = [line for line in log.splitlines() if "refused" in line and "connection" in line]
        print(f"server log: {len(log.splitlines())} lines, traceback: {'Traceback' in log}")
        for line in refused:
            print(f"  {line}")


if __name__ == "__main__":
    main()
