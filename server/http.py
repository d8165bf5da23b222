"""The HTTP transports: one ASGI app serving the same MCPServer over Streamable HTTP (`/mcp`)
and the legacy HTTP+SSE transport (`/sse` plus `/messages/`) at once, behind the Guard (Host,
Origin and bearer-token checks on every request), run with uvicorn."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from .http_guard import HEALTH_PATH, App, Guard, HttpOptions, check_bind

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


def build_http_app(mcp: MCPServer, options: HttpOptions) -> App:
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
    routes = _unique([health, *streamable.routes, *sse.routes])
    # The session manager's task group hosts the Streamable HTTP sessions; SSE sessions live
    # inside their GET requests and need no lifespan.
    app = Starlette(routes=routes, lifespan=lambda _app: mcp.session_manager.run())
    return Guard(app, options)


def serve_http(mcp: MCPServer, options: HttpOptions, log_level: str = "WARNING") -> None:
    """Runs until SIGINT/SIGTERM. Raises BindRefused before binding anything."""
    check_bind(options)
    config = uvicorn.Config(
        build_http_app(mcp, options),
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
    log.info("MCP on http://%s:%d%s and %s", options.host, options.port, MCP_PATH, SSE_PATH)
    uvicorn.Server(config).run()
