"""The HTTP transports: one ASGI app serving the same MCPServer over Streamable HTTP (`/mcp`)
and the legacy HTTP+SSE transport (`/sse` plus `/messages/`) at once, behind the Guard (Host,
Origin and bearer-token checks on every request), run with uvicorn."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterable, Sequence

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from .guard import HEALTH_PATH, App, Guard, HttpOptions, check_bind

log = logging.getLogger("cogs_arena.http")

MCP_PATH = "/mcp"
SSE_PATH = "/sse"
MESSAGES_PATH = "/messages/"


async def _healthz(request: Request) -> Response:
    return PlainTextResponse("ok")


def _unique(routes: Iterable[BaseRoute]) -> list[BaseRoute]:
    # Both SDK apps append the server's custom routes; keep the first route of each path.
    seen: set[str] = set()
    kept = []
    for route in routes:
        path = str(getattr(route, "path", id(route)))
        if path not in seen:
            seen.add(path)
            kept.append(route)
    return kept


def build_http_app(
    mcp: MCPServer, options: HttpOptions, extra_routes: Sequence[BaseRoute] = ()
) -> App:
    """`extra_routes`: more pages behind the same Guard (the live spectator page)."""
    # The Guard does the Host/Origin checks for every route, so the SDK's are off here; its
    # POST Content-Type check stays on regardless.
    sdk_checks = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    streamable = mcp.streamable_http_app(
        streamable_http_path=MCP_PATH, transport_security=sdk_checks, host=options.host
    )
    sse = mcp.sse_app(
        sse_path=SSE_PATH,
        message_path=MESSAGES_PATH,
        transport_security=sdk_checks,
        host=options.host,
    )
    health = Route(HEALTH_PATH, _healthz, methods=["GET"])
    routes = _unique([health, *extra_routes, *streamable.routes, *sse.routes])
    # The session manager's task group hosts the Streamable HTTP sessions; SSE sessions live
    # inside their GET requests and need no lifespan.
    app = Starlette(routes=routes, lifespan=lambda _app: mcp.session_manager.run())
    return Guard(app, options)


def listen_urls(host: str, port: int) -> tuple[str, str]:
    """The Streamable HTTP and the HTTP+SSE URLs a client connects to."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{MCP_PATH}", f"http://{shown}:{port}{SSE_PATH}"


class _Server(uvicorn.Server):
    """uvicorn's server, calling `on_ready` with the bound port once it accepts connections."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[int], None]) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.should_exit:
            return
        ports = [sock.getsockname()[1] for s in self.servers for sock in s.sockets]
        self.on_ready(int(ports[0]) if ports else self.config.port)


def serve_http(
    mcp: MCPServer,
    options: HttpOptions,
    log_level: str = "WARNING",
    on_ready: Callable[[str, str], None] | None = None,
    extra_routes: Sequence[BaseRoute] = (),
) -> None:
    """Runs until SIGINT/SIGTERM. Raises BindRefused before binding anything. Once listening,
    calls `on_ready` with the `/mcp` and `/sse` URLs (with the bound port, so port 0 shows the
    port the system chose); by default it logs them."""
    check_bind(options)
    config = uvicorn.Config(
        build_http_app(mcp, options, extra_routes),
        host=options.host,
        port=options.port,
        log_config=None,  # uvicorn's own config logs access lines to stdout; ours goes to stderr
        log_level=log_level.lower(),
        access_log=False,
        # Longer than clients keep idle connections (httpx: 5 s), so a client never reuses a
        # connection the server is closing at that moment: that race fails the request.
        timeout_keep_alive=30,
        lifespan="on",
        # Open SSE streams never end on their own; do not hold a shutdown for them.
        timeout_graceful_shutdown=3,
    )

    def ready(port: int) -> None:
        urls = listen_urls(options.host, port)
        if on_ready is None:
            log.info("MCP on %s and %s", *urls)
        else:
            on_ready(*urls)

    _Server(config, ready).run()
