"""The HTTP transports: one ASGI app serving the same MCPServer over Streamable HTTP (`/mcp`)
and the legacy HTTP+SSE transport (`/sse` plus `/messages/`), behind one guard that checks the
Host and Origin headers (DNS rebinding) and an optional bearer token on every request."""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("cogs_arena.http")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
AUTH_TOKEN_ENV = "COGS_ARENA_AUTH_TOKEN"
MCP_PATH = "/mcp"
SSE_PATH = "/sse"
MESSAGES_PATH = "/messages/"
HEALTH_PATH = "/healthz"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})


class BindRefused(Exception):
    """The server would be reachable from the network without an access token."""


@dataclass(frozen=True)
class HttpOptions:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    auth_token: str | None = None
    allowed_origins: tuple[str, ...] = ()
    """Extra browser origins (scheme://host[:port]) allowed besides loopback and the bind host."""


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_bind(options: HttpOptions) -> None:
    """Refuses a non-loopback bind without a token: anyone who can reach the port could
    otherwise create games and, with a leaked credential, act for seats."""
    if not is_loopback(options.host) and not options.auth_token:
        raise BindRefused(
            f"refusing to serve on {options.host!r} without an access token: binding beyond "
            f"loopback needs --auth-token or ${AUTH_TOKEN_ENV} (clients send it as "
            "'Authorization: Bearer <token>'), or bind 127.0.0.1"
        )


def _hostname(host_header: str) -> str:
    """The name part of a Host header value: 'a:1' -> 'a', '[::1]:1' -> '::1'."""
    if host_header.startswith("["):
        return host_header[1 : host_header.find("]")].lower()
    return host_header.rsplit(":", 1)[0].lower() if host_header.count(":") == 1 else host_header


class Guard:
    """Pure ASGI middleware in front of every route. The SDK's own Host/Origin checks only run
    on its MCP routes and only on loopback binds; this one covers all routes and binds alike."""

    def __init__(self, app: ASGIApp, options: HttpOptions) -> None:
        self.app = app
        self.check_host = is_loopback(options.host)
        bind = options.host.strip("[]").lower()
        self.origin_hosts = set(LOOPBACK_NAMES)
        if bind not in WILDCARD_HOSTS:
            self.origin_hosts.add(bind)
        self.extra_origins = {o.rstrip("/").lower() for o in options.allowed_origins}
        self.token = options.auth_token.encode() if options.auth_token else None

    def _host_ok(self, host: str | None) -> bool:
        # On loopback, a Host naming anything else means a rebound DNS name led a browser here.
        return not self.check_host or (host is not None and is_loopback(_hostname(host)))

    def _origin_ok(self, origin: str | None) -> bool:
        if origin is None:  # not a browser, or a same-origin GET: nothing to check
            return True
        if origin.rstrip("/").lower() in self.extra_origins:
            return True
        parts = urlsplit(origin)
        host = (parts.hostname or "").lower()
        return parts.scheme in ("http", "https") and host in self.origin_hosts

    def _token_ok(self, authorization: str | None) -> bool:
        if self.token is None:
            return True
        scheme, _, given = (authorization or "").partition(" ")
        # compare_digest: the time taken must not tell how much of a guess was right.
        return scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), self.token
        )

    def _refusal(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        if not self._host_ok(headers.get("host")):
            return PlainTextResponse("Invalid Host header", status_code=421)
        if not self._origin_ok(headers.get("origin")):
            return PlainTextResponse("Origin not allowed", status_code=403)
        if scope["path"] != HEALTH_PATH and not self._token_ok(headers.get("authorization")):
            return PlainTextResponse(
                "Missing or wrong access token",
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="cogs-arena"'},
            )
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._refusal(scope)
            if refusal is not None:
                log.warning(
                    "refused %s %s: %s", scope["method"], scope["path"], refusal.status_code
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


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


def build_http_app(mcp: MCPServer, options: HttpOptions) -> ASGIApp:
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
    routes = _unique(
        [Route(HEALTH_PATH, _healthz, methods=["GET"]), *streamable.routes, *sse.routes]
    )
    # The session manager's task group hosts the Streamable HTTP sessions; SSE sessions live
    # in their GET requests and need no lifespan.
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
        lifespan="on",
        # Open SSE streams never end on their own; do not hold a shutdown for them.
        timeout_graceful_shutdown=3,
    )
    log.info("serving MCP on http://%s:%d%s and %s", options.host, options.port, MCP_PATH, SSE_PATH)
    uvicorn.Server(config).run()
