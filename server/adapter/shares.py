"""Fair shares over HTTP: every seat credential and every connection gets a bounded rate and a
bounded number of calls at once, so one client flooding the server cannot take it from the
others. A call over either bound is not run: it is answered `[limit_reached]`, naming the
bound and when to call again.

The answer to a refused call is held back for `max_hold` (a second): a client that ignores the
hint and calls again at once waits anyway, so a flood of refusals costs the server a sleeping
task per connection, not its event loop (a refusal costs about half of what a `show` does to
receive and answer, so refusals answered at once would be most of a flood's load). A model's
seat never comes near the defaults (`Limits`).

The check runs as MCP middleware, before an argument is validated or a worker thread is taken.
A connection is the MCP session where the transport has one (the SSE transport, handshake-era
Streamable HTTP), else the TCP connection the request came on; stdio has one client and takes
no shares."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, TextContent

from ..limits import Limits

MAX_HOLD = 1.0
"""Seconds a refusal's answer is held back."""
LIMIT_REACHED = -32000
"""The JSON-RPC error code of a refused request other than a tool call (a tool call gets a
tool error), from the range JSON-RPC leaves to servers."""
PRUNE_AT = 4096
"""Shares kept before idle ones (nothing running, rate fully back) are dropped."""
NOT_HELD = frozenset({"subscriptions/listen"})
"""Requests that stay open for as long as the client listens: rated, not counted as running."""

Key = tuple[str, str]
"""("credential", digest) or ("connection", id)."""
NOUNS = {"credential": "seat credential", "connection": "connection"}


@dataclass(frozen=True)
class Bound:
    rate: int
    """Calls a second, on average."""
    at_once: int
    """Calls running at once."""

    @property
    def burst(self) -> int:
        """Calls in a row after a quiet spell: two seconds' worth."""
        return 2 * self.rate


@dataclass
class _Share:
    tokens: float
    stamp: float
    running: int = 0


@dataclass(frozen=True)
class Refusal:
    key: Key
    rate: bool
    """Over the rate (else over the calls at once)."""


class Shares:
    def __init__(
        self,
        limits: Limits,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_hold: float = MAX_HOLD,
    ) -> None:
        self.bounds = {
            "credential": Bound(limits.credential_rate, limits.credential_at_once),
            "connection": Bound(limits.connection_rate, limits.connection_at_once),
        }
        self.clock = clock
        self.max_hold = max_hold
        self._shares: dict[Key, _Share] = {}
        self.refused = 0

    # ---- the bookkeeping (on the event loop only: no locks) --------------------------------

    def _share(self, key: Key, now: float) -> _Share:
        bound = self.bounds[key[0]]
        share = self._shares.get(key)
        if share is None:
            if len(self._shares) >= PRUNE_AT:
                self._prune(now)
            share = self._shares[key] = _Share(tokens=float(bound.burst), stamp=now)
        else:
            share.tokens = min(bound.burst, share.tokens + (now - share.stamp) * bound.rate)
            share.stamp = now
        return share

    def _prune(self, now: float) -> None:
        for key, share in list(self._shares.items()):
            bound = self.bounds[key[0]]
            if not share.running and share.tokens + (now - share.stamp) * bound.rate >= bound.burst:
                del self._shares[key]

    def take(self, keys: Sequence[Key], held: bool = True) -> Refusal | None:
        """Lets a call in under every key (one token each; one running each when `held`), or
        none of them: the first bound it is over."""
        now = self.clock()
        shares = [self._share(key, now) for key in keys]
        for key, share in zip(keys, shares, strict=True):
            bound = self.bounds[key[0]]
            if share.tokens < 1.0:
                return Refusal(key, rate=True)
            if held and share.running >= bound.at_once:
                return Refusal(key, rate=False)
        for share in shares:
            share.tokens -= 1.0
            share.running += held
        return None

    def give_back(self, keys: Sequence[Key]) -> None:
        for key in keys:
            share = self._shares.get(key)
            if share is not None and share.running > 0:
                share.running -= 1

    def running(self, key: Key) -> int:
        share = self._shares.get(key)
        return 0 if share is None else share.running

    def refusal_text(self, refusal: Refusal) -> str:
        """What a refused call is told, as things stand when it is told."""
        kind = refusal.key[0]
        bound, noun = self.bounds[kind], NOUNS[kind]
        if refusal.rate:
            share = self._share(refusal.key, self.clock())
            wait = max(0.0, (1.0 - share.tokens) / bound.rate)
            return (
                f"[limit_reached] This {noun} is over its rate of {bound.rate} calls a second"
                f" ({bound.burst} in a row after a pause), so the call was not run: nothing was"
                f" read or changed. Allowed: retry after {wait:.1f} s"
            )
        return (
            f"[limit_reached] This {noun} has {bound.at_once} calls running, the most it may run"
            " at once, so the call was not run: nothing was read or changed. Allowed: call"
            " again once one of them has answered (a wait answers at its timeout at the latest)"
        )

    # ---- the middleware --------------------------------------------------------------------

    async def middleware(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if ctx.request_id is None or ctx.method == "initialize":
            return await call_next(ctx)
        keys = [key for key in (_credential(ctx), _connection(ctx)) if key is not None]
        held = ctx.method not in NOT_HELD
        refusal = self.take(keys, held)
        if refusal is None:
            try:
                return await call_next(ctx)
            finally:
                if held:
                    self.give_back(keys)
        self.refused += 1
        await anyio.sleep(self.max_hold)
        text = self.refusal_text(refusal)
        if ctx.method == "tools/call":
            return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
        raise MCPError(LIMIT_REACHED, text)


def _credential(ctx: ServerRequestContext[Any, Any]) -> Key | None:
    params = ctx.params
    arguments = params.get("arguments") if isinstance(params, Mapping) else None
    credential = arguments.get("credential") if isinstance(arguments, Mapping) else None
    if not isinstance(credential, str) or not credential:
        return None
    # Only a digest is kept; a credential longer than any real one is refused by its tool.
    data = credential[:256].encode("utf-8", "surrogatepass")
    return "credential", hashlib.sha256(data).hexdigest()[:32]


def _connection(ctx: ServerRequestContext[Any, Any]) -> Key:
    request = ctx.request
    if request is None:
        return "connection", "local"  # stdio or an in-memory client: one client
    headers = getattr(request, "headers", None) or {}
    query = getattr(request, "query_params", None) or {}
    session = headers.get("mcp-session-id") or query.get("session_id")
    if session:
        return "connection", f"session {session}"
    client = getattr(request, "client", None)
    peer = "?" if client is None else f"{client.host}:{client.port}"
    return "connection", f"peer {peer}"
