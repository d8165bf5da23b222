"""Connection hygiene of the real HTTP server on 127.0.0.1: a header or a body that does not
arrive in time closes its connection (408), connections over the cap are refused (503), live
Streamable HTTP sessions are capped and idle ones expire, and none of it leaves a traceback in
the server's log."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from http_helpers import HttpServer, running

pytestmark = pytest.mark.slow

TOKEN = "short-token"  # under 32 characters: fine on loopback, with a warning
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 2.0
SLACK = 3.0  # a loaded two-core machine
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def _server(root: Path, *flags: str) -> HttpServer:
    return HttpServer(
        root / "s.sqlite3",
        root / "t",
        extra=("--log-level", "info", "--auth-token", TOKEN, *flags),
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    srv = _server(
        tmp_path_factory.mktemp("hygiene"),
        *("--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT)),
        *("--max-mcp-sessions", "3", "--mcp-session-idle", "2"),
    )
    with running(srv):
        yield srv


def _log(server: HttpServer) -> str:
    return server.store.with_suffix(".stderr").read_text(errors="replace")


def _connect(server: HttpServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def _until_closed(sock: socket.socket, limit: float, trickle: bytes = b"") -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took;
    meanwhile one byte of `trickle` goes out every 0.2 s (the recv timeout paces it)."""
    start = time.monotonic()
    received = b""
    sock.settimeout(0.2)
    while time.monotonic() - start < limit:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            if trickle:
                sock.sendall(trickle[:1])
                trickle = trickle[1:]
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    else:
        raise AssertionError(f"still open after {limit} s; received {received!r}")
    return received, time.monotonic() - start


def _post_headers(path: str, length: int, auth: bool = True) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines += ["Accept: application/json, text/event-stream", f"Content-Length: {length}"]
    if auth:
        lines.append(f"Authorization: Bearer {TOKEN}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_half_sent_headers_are_closed_within_the_timeout(server: HttpServer) -> None:
    """A connection that sends nothing, one that stops halfway through its header, and one
    that keeps trickling header bytes (each byte used to restart nothing at all: they stayed
    open) are all answered 408 and closed within the header timeout."""
    silent, half, trickling = (_connect(server) for _ in range(3))
    half.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    try:
        for sock, trickle in (
            (silent, b""),
            (half, b""),
            (trickling, b"GET /healthz HTTP/1.1\r\n"),
        ):
            received, took = _until_closed(sock, HEADER_TIMEOUT + SLACK, trickle)
            assert received.startswith(b"HTTP/1.1 408 "), received
            assert took < HEADER_TIMEOUT + SLACK
    finally:
        for sock in (silent, half, trickling):
            sock.close()
    # A header sent at once is untouched, and so is an idle connection after its answer.
    with httpx2.Client(base_url=server.base, timeout=10) as client:
        assert client.get("/healthz").text == "ok"
        assert client.get("/healthz").text == "ok"


def test_a_body_at_one_byte_a_second_is_dropped_without_a_traceback(server: HttpServer) -> None:
    """A POST whose body trickles in (to /mcp, to the SSE transport's /messages/, and one the
    Guard refused before reading its body) is answered 408 or keeps its 401, and is closed
    within the body timeout; the server logs one line each, no traceback, and still serves."""
    for path, auth, status in (
        ("/mcp", True, b"408"),
        ("/messages/?session_id=" + "0" * 32, True, b"408"),
        ("/mcp", False, b"401"),
    ):
        with _connect(server) as sock:
            sock.sendall(_post_headers(path, 200, auth) + b"{")
            start = time.monotonic()
            received = b""
            sock.settimeout(1.0)  # the pace: one byte a second
            while time.monotonic() - start < BODY_TIMEOUT + SLACK:
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    sock.sendall(b" ")
                    continue
                if not chunk:
                    break
                received += chunk
            else:
                raise AssertionError(f"{path}: still open; received {received!r}")
            assert received.startswith(b"HTTP/1.1 " + status), (path, received)
            assert received.count(b"HTTP/1.1 ") == 1  # never a second answer after the first
    log = _log(server)
    assert log.count(f"body not received within {BODY_TIMEOUT:g} s") == 3
    assert "Traceback" not in log and "Exception in ASGI" not in log
    assert "Error handling POST request" not in log
    assert httpx2.get(server.base + "/healthz", timeout=10).text == "ok"


def test_headers_over_the_size_bound_are_refused(server: HttpServer) -> None:
    """Headers that go on and on within the time allowed end at 1 MiB: the server stops
    reading (with a 431 the client may not get to read, as it is still sending)."""
    sent = 0
    with _connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        line = b"X-Filler: " + b"a" * 8000 + b"\r\n"
        try:
            while sent < 8 << 20:
                sock.sendall(line)
                sent += len(line)
            received, _ = _until_closed(sock, HEADER_TIMEOUT + SLACK)
            assert received.startswith(b"HTTP/1.1 431 "), received
        except (BrokenPipeError, ConnectionResetError):
            pass
    assert sent < 8 << 20
    assert "headers over 1048576 bytes" in _log(server)


def test_sessions_are_capped_and_idle_ones_expire(server: HttpServer) -> None:
    """Three initialize handshakes fill the cap: more are refused (503) instead of kept (the
    SDK keeps 10,000, for 30 minutes each). Two seconds idle, the two abandoned ones expire
    (their ids answer 404) while the one in use stays, and a new handshake is taken again."""
    ids = []
    refused = 0
    with httpx2.Client(base_url=server.base, headers={**ACCEPT, **AUTH}, timeout=10) as client:
        for _ in range(5):
            response = client.post("/mcp", json=INITIALIZE)
            if response.status_code == 200:
                ids.append(response.headers["mcp-session-id"])
            else:
                assert response.status_code == 503 and "Too many open sessions" in response.text
                refused += 1
        assert (len(ids), refused) == (3, 2)
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}

        def status(session: str) -> int:
            return client.post("/mcp", json=ping, headers={"mcp-session-id": session}).status_code

        deadline = time.monotonic() + 20
        while (opened := client.post("/mcp", json=INITIALIZE)).status_code != 200:
            assert opened.status_code == 503 and time.monotonic() < deadline
            assert status(ids[0]) == 200  # the one in use stays
            time.sleep(0.3)  # polling under the deadline, inside the idle time of ids[0]
        assert [status(i) for i in ids] == [200, 404, 404]
    assert "Traceback" not in _log(server)


def test_a_short_token_on_loopback_is_warned_about(server: HttpServer) -> None:
    """The server started with an 11-character token says so on start."""
    assert "warning: the access token has 11 characters" in _log(server)


def test_connections_over_the_cap_are_refused(tmp_path: Path) -> None:
    """With --max-connections 8, eight held connections (each answered once, then idle) fill
    the cap: the ninth is answered 503 and closed at once; when one leaves, there is room."""
    with running(_server(tmp_path, "--max-connections", "8")) as srv:
        held = [_connect(srv) for _ in range(8)]
        try:
            for sock in held:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                sock.settimeout(10)
                assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
            with _connect(srv) as extra:
                received, _ = _until_closed(extra, SLACK)
            assert (
                received.startswith(b"HTTP/1.1 503 ") and b"Too many open connections" in received
            )
            held.pop().close()
            deadline = time.monotonic() + 10
            while True:
                try:
                    if httpx2.get(srv.base + "/healthz", timeout=5).status_code == 200:
                        break
                except httpx2.HTTPError:
                    pass
                assert time.monotonic() < deadline, "no room after a connection left"
                time.sleep(0.1)  # polling under the deadline
        finally:
            for sock in held:
                sock.close()
        log = _log(srv)
        assert "refused 1 connection(s): 8 were open" in log and "Traceback" not in log
