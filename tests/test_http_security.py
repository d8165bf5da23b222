"""Who the HTTP transports let in: the bearer token on every route but /healthz, the Origin
check (403), the Host check against DNS rebinding on loopback (421), and the refusal to bind
beyond loopback without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import httpx2
import pytest
from http_helpers import HttpServer, free_port, running, sse, streamable
from mcp import MCPError
from mcp_helpers import call

from cogs_arena.server.web.guard import Guard, HttpOptions, check_bind, is_loopback

pytestmark = pytest.mark.anyio

TOKEN = "s3cret-token-for-tests"
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    root = tmp_path_factory.mktemp("sec")
    # The token comes from the environment, as the help text recommends.
    srv = HttpServer(root / "s.sqlite3", root / "t", env={"COGS_ARENA_AUTH_TOKEN": TOKEN})
    with running(srv):
        yield srv


def _post(server: HttpServer, headers: dict[str, str]) -> httpx2.Response:
    return httpx2.post(
        server.base + "/mcp", json=INITIALIZE, headers={**ACCEPT, **headers}, timeout=10
    )


@pytest.mark.slow
def test_requests_without_the_right_token_get_401(server: HttpServer) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        response = _post(server, headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert httpx2.get(server.base + "/sse", timeout=10).status_code == 401
    assert httpx2.post(server.base + "/messages/?session_id=x", timeout=10).status_code == 401
    assert httpx2.get(server.base + "/healthz", timeout=10).text == "ok"  # no token needed
    assert _post(server, {"Authorization": f"Bearer {TOKEN}"}).status_code == 200


@pytest.mark.slow
def test_foreign_origin_gets_403_even_with_the_token(server: HttpServer) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert _post(server, {**auth, "Origin": "http://evil.example"}).status_code == 403
    assert _post(server, {**auth, "Origin": "null"}).status_code == 403
    assert _post(server, {**auth, "Origin": f"http://localhost:{server.port}"}).status_code == 200
    assert _post(server, {**auth, "Origin": "http://127.0.0.1:6274"}).status_code == 200


@pytest.mark.slow
def test_rebound_host_name_gets_421_on_loopback(server: HttpServer) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert _post(server, {**auth, "Host": f"evil.example:{server.port}"}).status_code == 421
    assert _post(server, {**auth, "Host": f"localhost:{server.port}"}).status_code == 200


@pytest.mark.slow
async def test_sdk_clients_with_the_token_play_and_without_it_fail(server: HttpServer) -> None:
    async with streamable(server.base, token=TOKEN) as client:
        game = await call(client, "new_game", game="influence", seat="White")
    async with sse(server.base, token=TOKEN) as client:
        view = await call(client, "show", game_id=game["game_id"], credential=game["credential"])
        assert view["seat_name"] == "White"
    with pytest.raises(ExceptionGroup) as failed:  # the SDK reports the 401 as an MCPError
        async with streamable(server.base, token="wrong") as client:
            await call(client, "ping")
    assert failed.group_contains(MCPError)


@pytest.mark.slow
def test_non_loopback_bind_without_token_refuses_to_start() -> None:
    command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
    command += ["--host", "0.0.0.0", "--port", str(free_port()), "--memory"]
    env = {k: v for k, v in os.environ.items() if k != "COGS_ARENA_AUTH_TOKEN"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "--auth-token" in done.stderr and "refusing" in done.stderr
    assert done.stdout == ""


def test_guard_rules_without_a_socket() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("[::1]")
    assert is_loopback("127.1.2.3") and not is_loopback("0.0.0.0") and not is_loopback("10.0.0.5")
    strong = "k" * 32
    check_bind(HttpOptions(host="10.0.0.5", auth_token=strong))  # a strong token: acceptable
    check_bind(HttpOptions(host="127.0.0.1", auth_token="t"))  # loopback: any token will do
    with pytest.raises(Exception, match="needs an access token"):
        check_bind(HttpOptions(host="::"))
    for weak in (" ", "a", "k" * 31):
        with pytest.raises(Exception, match=r"at least 32 characters|printable ASCII"):
            check_bind(HttpOptions(host="10.0.0.5", auth_token=weak))
    remote = Guard(lambda *_: None, HttpOptions(host="10.0.0.5", auth_token=strong))  # type: ignore[arg-type]
    assert remote.origin_ok("http://10.0.0.5:8765")  # the server's own origin
    assert remote.origin_ok("http://localhost:3000") and remote.origin_ok(None)
    assert not remote.origin_ok("https://evil.example") and not remote.origin_ok("file://")
    assert remote.host_ok("10.0.0.5:8765")  # Host is only pinned on loopback binds
    extra = Guard(lambda *_: None, HttpOptions(allowed_origins=("https://app.example",)))  # type: ignore[arg-type]
    assert extra.origin_ok("https://app.example") and not extra.origin_ok("https://app.example:1")
    assert not extra.host_ok("app.example") and extra.host_ok("[::1]:8765")
