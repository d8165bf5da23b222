"""The stdio transport of the real server process: every line it cannot take gets a JSON-RPC
error (-32700 for a line that is not JSON or is over the bound, -32600 for JSON that is not a
JSON-RPC message), a line over the bound is never held whole, and the session goes on."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from cogs_arena.server.adapter import stdio as stdio_transport
from cogs_arena.server.adapter.stdio import MAX_LINE_BYTES

HUGE = 100 << 20  # 100 MB: the SDK's transport held it whole (and more: 243 MB for 50 MB)


def _answers(lines: queue.Queue[bytes], count: int, limit: float) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = []
    deadline = time.monotonic() + limit
    while len(answers) < count:
        try:
            answers.append(json.loads(lines.get(timeout=max(0.1, deadline - time.monotonic()))))
        except queue.Empty:
            raise AssertionError(f"{len(answers)} answers of {count}: {answers}") from None
    return answers


def _peak_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


@pytest.mark.slow
def test_bad_and_overlong_lines_are_answered_and_the_session_goes_on(tmp_path: Path) -> None:
    """Before: no answer at all to a line that is not JSON (the client waited forever), and a
    100 MB line read whole. Now each gets its error, the process never holds the huge line,
    and the requests around them are served."""
    command = [sys.executable, "-m", "cogs_arena", "serve", "--memory"]
    command += ["--transcripts", str(tmp_path / "t")]
    stderr = (tmp_path / "stderr").open("wb")
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
    stderr.close()
    assert proc.stdin is not None
    stdin = proc.stdin

    def ping(request_id: int | str) -> bytes:
        return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode() + b"\n"

    def send() -> None:
        stdin.write(b"hello\n" + ping(1) + b"\n   \n")  # blank lines carry nothing to answer
        stdin.write(b'{"jsonrpc": "2.0", "method": "x", "params": "' + b"x" * HUGE + b'"}\n')
        stdin.write(ping(2) + b"[1, 2]\n" + b'{"jsonrpc": "2.0", "id": "q", "bogus": 1}\n')
        stdin.write(b"\xff\xfe not utf-8\n" + ping("last"))
        stdin.flush()

    assert proc.stdout is not None
    stdout = proc.stdout
    lines: queue.Queue[bytes] = queue.Queue()
    writer = threading.Thread(target=send, daemon=True)

    def read() -> None:
        for line in stdout:
            lines.put(line)

    reader = threading.Thread(target=read, daemon=True)
    writer.start()
    reader.start()
    try:
        answers = _answers(lines, 8, limit=120)
        peak = _peak_rss_kb(proc.pid)
    finally:
        writer.join(30)
        stdin.close()
        proc.wait(30)
        reader.join(30)  # the server's exit ends its stdout
        stdout.close()
    assert proc.returncode == 0
    parse, invalid = -32700, -32600
    got = [(a["id"], a["result"] if "result" in a else a["error"]["code"]) for a in answers]
    # Errors are written by the reader, answers by the server: they may pass each other.
    expected: list[tuple[int | str | None, object]] = [
        (None, parse),
        (1, {}),
        (None, parse),
        (2, {}),
        (None, invalid),
    ]
    expected += [("q", invalid), (None, parse), ("last", {})]
    assert sorted(got, key=repr) == sorted(expected, key=repr)
    messages = [a["error"]["message"] for a in answers if "error" in a]
    assert messages.count("Parse error: the line is not JSON") == 2
    overlong = f"Parse error: a line over {MAX_LINE_BYTES} bytes was skipped unread"
    assert sum(m.startswith(overlong) for m in messages) == 1
    # The interpreter with the server loaded is well under 150 MB; the line alone is 100 MB.
    assert peak < 150_000 + MAX_LINE_BYTES // 1024, f"peak {peak} kB"
    assert "Traceback" not in (tmp_path / "stderr").read_text(errors="replace")


def _read_all(data: bytes, limit: int) -> tuple[list[bytes], int]:
    """The lines a LineReader with `limit` yields from `data` sent through a pipe in pieces of
    7 bytes (lines cross chunk edges), and how many overlong lines it reported."""
    overlong = 0

    async def note() -> None:
        nonlocal overlong
        overlong += 1

    async def run() -> list[bytes]:
        read_end, write_end = os.pipe()
        with os.fdopen(write_end, "wb") as pipe:  # a pipe holds 64 KiB: these fit
            pipe.write(data)
        reader = stdio_transport.LineReader(read_end, limit, note)
        lines = []
        while (line := await reader.next_line()) is not None:
            lines.append(line)
        os.close(read_end)
        return lines

    chunk = stdio_transport.READ_CHUNK
    stdio_transport.READ_CHUNK = 7
    try:
        return anyio.run(run), overlong
    finally:
        stdio_transport.READ_CHUNK = chunk


@pytest.mark.parametrize(
    ("data", "lines", "overlong"),
    [
        (b"0123456789\n", [b"0123456789"], 0),  # exactly the bound
        (b"0123456789a\nok\n", [b"ok"], 1),  # one byte over, the next line kept
        (b"x" * 100 + b"\nok\n" + b"y" * 30 + b"\n", [b"ok"], 2),  # over many chunks
        (b"ab\ncd", [b"ab", b"cd"], 0),  # the last line without its newline
        (b"ok\n" + b"z" * 40, [b"ok"], 1),  # overlong at the end of input
        (b"\n\n", [b"", b""], 0),  # blank lines reach the reader (which skips them)
    ],
)
def test_line_reader_bounds(data: bytes, lines: list[bytes], overlong: int) -> None:
    """The bound is on the line without its newline: 10 bytes pass, 11 are dropped and
    reported once each, however many chunks they span and wherever the input ends."""
    assert _read_all(data, 10) == (lines, overlong)
