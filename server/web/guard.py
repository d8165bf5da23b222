"""What the HTTP transports let in: the bind rule (no strong token, no network), the Host and
Origin checks against DNS rebinding, and the bearer token. Stdlib only, so the CLI can import
the defaults cheaply and the check costs little on every request."""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger("cogs_arena.http")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
AUTH_TOKEN_ENV = "COGS_ARENA_AUTH_TOKEN"
HEALTH_PATH = "/healthz"
WATCH_PREFIX = "/watch/"
"""The live spectator page and its event stream. A browser opening a link cannot send an
Authorization header (nor can its EventSource), so under these paths the token may also come as
`?token=<token>`; everywhere else only the header counts."""
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
MIN_TOKEN_CHARS = 32


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


def token_problem(token: str | None, host: str) -> str | None:
    """Why `token` cannot guard a server bound to `host`, or None. Beyond loopback it must be
    long enough not to be guessed; anywhere, it must fit in a header as given."""
    if token is None or token == "":
        if is_loopback(host):
            return None
        return "binding beyond loopback needs an access token"
    if any(char.isspace() or not char.isprintable() or not char.isascii() for char in token):
        return "the access token must be printable ASCII without spaces (it travels in a header)"
    if not is_loopback(host) and len(token) < MIN_TOKEN_CHARS:
        return (
            f"binding beyond loopback needs an access token of at least {MIN_TOKEN_CHARS} "
            f"characters (this one has {len(token)})"
        )
    return None


def check_bind(options: HttpOptions) -> None:
    """Refuses a bind beyond loopback without a strong token: anyone who can reach the port
    could otherwise create games and, with a leaked credential, act for seats."""
    problem = token_problem(options.auth_token, options.host)
    if problem is not None:
        raise BindRefused(
            f"refusing to serve on {options.host!r}: {problem}. Give it with --auth-token or "
            f"${AUTH_TOKEN_ENV} (clients send 'Authorization: Bearer <token>'; make one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`), or bind 127.0.0.1"
        )


def _hostname(host_header: str) -> str:
    """The name part of a Host header value: 'a:1' -> 'a', '[::1]:1' -> '::1'."""
    if host_header.startswith("["):
        return host_header[1 : host_header.find("]")].lower()
    return host_header.rsplit(":", 1)[0].lower() if host_header.count(":") == 1 else host_header


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class Guard:
    """ASGI middleware in front of every route. The SDK's own Host/Origin checks run only on
    its MCP routes and only on loopback binds; this one covers all routes and binds alike."""

    def __init__(self, app: App, options: HttpOptions) -> None:
        self.app = app
        self.check_host = is_loopback(options.host)
        bind = options.host.strip("[]").lower()
        self.origin_hosts = set(LOOPBACK_NAMES)
        if bind not in WILDCARD_HOSTS:
            self.origin_hosts.add(bind)
        self.extra_origins = {o.rstrip("/").lower() for o in options.allowed_origins}
        self.token = options.auth_token.encode() if options.auth_token else None

    def host_ok(self, host: str | None) -> bool:
        # On loopback, a Host naming anything else means a rebound DNS name led a browser here.
        return not self.check_host or (host is not None and is_loopback(_hostname(host)))

    def origin_ok(self, origin: str | None) -> bool:
        if origin is None:  # not a browser, or a same-origin GET: nothing to check
            return True
        if origin.rstrip("/").lower() in self.extra_origins:
            return True
        parts = urlsplit(origin)
        host = (parts.hostname or "").lower()
        return parts.scheme in ("http", "https") and host in self.origin_hosts

    def token_ok(self, authorization: str | None) -> bool:
        if self.token is None:
            return True
        scheme, _, given = (authorization or "").partition(" ")
        # compare_digest: the time taken must not tell how much of a guess was right.
        return scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), self.token
        )

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        if not self.host_ok(_header(scope, b"host")):
            return 421, "Invalid Host header"
        if not self.origin_ok(_header(scope, b"origin")):
            return 403, "Origin not allowed"
        if scope["path"] != HEALTH_PATH and not self.token_ok(_header(scope, b"authorization")):
            if not scope["path"].startswith(WATCH_PREFIX):
                return 401, "Missing or wrong access token"
            if not self.query_token_ok(scope):
                return 401, "Missing or wrong access token: add ?token=<token> to the address"
        return None

    def query_token_ok(self, scope: Scope) -> bool:
        query = bytes(scope.get("query_string", b"")).decode("latin-1")
        given = parse_qs(query).get("token") or [""]
        return given[-1] != "" and self.token_ok("Bearer " + given[-1])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refusal(scope) if scope["type"] == "http" else None
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, text = refused
        log.warning("refused %s %s: %d", scope.get("method"), scope.get("path"), status)
        headers = [(b"content-type", b"text/plain; charset=utf-8")]
        if status == 401:
            headers.append((b"www-authenticate", b'Bearer realm="cogs-arena"'))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": text.encode()})
