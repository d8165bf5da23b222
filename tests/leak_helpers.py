"""A table of client seats for leak tests: plants marker strings with the seats allowed to see
them, then reads every path each seat (and a spectator) has, through the service and, when a
client is given, through MCP, and reports every marker found where it must not be."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mcp import Client
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from cogs_arena.engines import GameError
from cogs_arena.server.models import NewGame, PlayResult, View
from cogs_arena.server.service import GameService, Submission

EVERYONE = None
"""A marker anyone may see: every seat and spectators."""

BIG = 10**6
"""Added to the decision to make a `play` stale without writing anything."""


def dump(value: Any) -> str:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def error_text(exc: GameError) -> str:
    return f"[{exc.code}] {exc}"


@dataclass
class Table:
    """One game with several client seats. `secrets` maps a marker to the seats that may see
    it (EVERYONE: public); a spectator may see non-public markers only once the game is over."""

    service: GameService
    game: NewGame
    creds: dict[int, str] = field(default_factory=dict)
    client: Client | None = None
    secrets: dict[str, set[int] | None] = field(default_factory=dict)
    hidden_tiles: dict[int, set[str]] = field(default_factory=dict)
    """Blending: the face-down tiles of each seat that were never face up before."""
    held: dict[int, set[str]] = field(default_factory=dict)
    seen_public: set[str] = field(default_factory=set)
    """Tiles a spectator has been shown: a tile from there is no secret in a hand."""
    checks: int = 0

    @classmethod
    def seated(cls, service: GameService, game: NewGame, client: Client | None = None) -> Table:
        """Joins every invitation, so each open seat has its own credential."""
        table = cls(service, game, {game.seat: game.credential}, client)
        for invitation in game.invitations.values():
            joined = service.join_game(invitation, model="leak-test")
            table.creds[joined.seat] = joined.credential
        return table

    # ---- the game ----------------------------------------------------------------------------

    @property
    def gid(self) -> str:
        return self.game.game_id

    @property
    def names(self) -> list[str]:
        return [str(s["name"]) for s in self.game.seats]

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def view(self, seat: int) -> View:
        return self.service.show(self.gid, self.creds[seat])

    def over(self) -> bool:
        return self.view(next(iter(self.creds))).status == "over"

    def play(
        self, seat: int, *, reveal: dict[str, set[int] | None] | None = None, **kwargs: Any
    ) -> PlayResult:
        """Plays for `seat` and checks what the seat is answered like any other read. `reveal`:
        the audiences this play opens (a resolving play: marker -> seats added, or EVERYONE)."""
        why = kwargs.pop("why", None)
        request_id = kwargs.pop("request_id", None)
        result = self.service.play(
            self.gid, self.creds[seat], Submission(**kwargs), why=why, request_id=request_id
        )
        for marker, seats in (reveal or {}).items():
            if seats is EVERYONE:
                self.publish(marker)
            else:
                self.allow(marker, *seats)
        self._scan(seat, {"play result": dump(result) + result.view.text})
        return result

    def fails(self, seat: int, **kwargs: Any) -> GameError:
        try:
            self.play(seat, **kwargs)
        except GameError as exc:
            self._scan(seat, {"play error": error_text(exc)})
            return exc
        raise AssertionError(f"play {kwargs} by seat {seat} was accepted")

    def talk(self, seat: int, text: str, to: list[str] | None = None) -> None:
        result = self.service.talk(self.gid, self.creds[seat], text, to=to)
        self._scan(seat, {"talk result": dump(result)})

    # ---- secrets -----------------------------------------------------------------------------

    def plant(self, marker: str, *seats: int) -> str:
        self.secrets[marker] = set(seats)
        return marker

    def allow(self, marker: str, *seats: int) -> None:
        allowed = self.secrets[marker]
        assert allowed is not None
        allowed.update(seats)

    def publish(self, marker: str) -> None:
        self.secrets[marker] = EVERYONE

    def forbidden(self, viewer: int | None, over: bool) -> list[str]:
        out = []
        for marker, allowed in self.secrets.items():
            if allowed is EVERYONE:
                continue
            if viewer is None and over:
                continue
            if viewer is None or viewer not in allowed:
                out.append(marker)
        return out

    def deal(self) -> None:
        """Blending: from now on, every seat's face-down tiles are secret from the others."""
        self.hidden_tiles = {seat: set() for seat in self.creds}
        self._still_hidden()

    # ---- reads -------------------------------------------------------------------------------

    def seat_reads(self, seat: int) -> dict[str, str]:
        """Every read path of the service for one seat, as text: the readable text and the
        JSON of the structured result, or the error text."""
        service, cred = self.service, self.creds[seat]
        out: dict[str, str] = {}
        view = service.show(self.gid, cred)
        out["show"] = view.text + dump(view)
        brief = service.show(self.gid, cred, detail="brief")
        out["show brief"] = brief.text + dump(brief)
        try:
            out["legal_moves"] = dump(service.legal_moves(self.gid, cred, page_size=500))
        except GameError as exc:
            out["legal_moves"] = error_text(exc)
        out["log"] = self._whole_log(seat)
        out["poll"] = dump(service.poll(self.gid, cred, 0))
        out["poll late"] = dump(service.poll(self.gid, cred, max(view.log_cursor - 3, 0)))
        errors = []
        try:
            service.play(
                self.gid, cred, Submission(move="hold"), expect_decision=view.decision + BIG
            )
        except GameError as exc:
            errors.append(error_text(exc))
        try:
            service.talk(self.gid, cred, "me", to=[self.names[seat]])
        except GameError as exc:
            errors.append(error_text(exc))
        out["errors"] = "\n".join(errors)
        return out

    def _whole_log(self, seat: int) -> str:
        parts, cursor = [], 0
        for _ in range(10_000):
            page = self.service.log(self.gid, self.creds[seat], after=cursor, limit=7)
            parts.append(dump(page))
            if not page.events:
                return "\n".join(parts)
            cursor = page.cursor
        raise AssertionError("the log never ends")

    def spectator_reads(self) -> dict[str, str]:
        view = self.service.spectate_with_code(self.game.spectator_code or "")
        return {"spectate": view.text + dump(view)}

    async def mcp_seat_reads(self, seat: int) -> dict[str, str]:
        assert self.client is not None
        ids = {"game_id": self.gid, "credential": self.creds[seat]}
        out = {
            "mcp show": await self._mcp("show", **ids),
            "mcp show brief": await self._mcp("show", detail="brief", **ids),
            "mcp legal_moves": await self._mcp("legal_moves", page_size=500, **ids),
            "mcp poll": await self._mcp("wait", after=0, timeout=0.01, **ids),
            "mcp talk error": await self._mcp("talk", text="me", to=[self.names[seat]], **ids),
        }
        decision = self.view(seat).decision
        out["mcp stale play"] = await self._mcp("play", move="hold", decision=decision + BIG, **ids)
        parts, cursor = [], 0
        while True:
            result = await self.client.call_tool("log", {"after": cursor, "limit": 7, **ids})
            parts.append(_mcp_text(result))
            events = (result.structured_content or {}).get("events")
            if result.is_error or not events:
                break
            cursor = int((result.structured_content or {})["cursor"])
        out["mcp log"] = "\n".join(parts)
        return out

    async def mcp_spectator_reads(self) -> dict[str, str]:
        assert self.client is not None
        code = self.game.spectator_code or ""
        resource = await self.client.read_resource(
            f"cogs-arena://spectate/{code}", cache_mode="bypass"
        )
        texts = [getattr(c, "text", "") for c in resource.contents]
        out = {
            "mcp spectate": await self._mcp("spectate", spectator_code=code),
            "mcp resource": "\n".join(texts),
        }
        # Without the code there is nothing to read: not by game id, not by a guessed code.
        for uri in (
            f"cogs-arena://games/{self.gid}/spectator",
            f"cogs-arena://spectate/{self.gid}",
            f"cogs-arena://spectate/{self.gid}.{code.split('.', 1)[-1][::-1]}",
        ):
            try:
                await self.client.read_resource(uri, cache_mode="bypass")
            except MCPError as exc:
                out[f"mcp {uri}"] = exc.error.message
            else:
                raise AssertionError(f"{uri} was served without the spectator code")
        return out

    async def _mcp(self, tool: str, **arguments: Any) -> str:
        assert self.client is not None
        return _mcp_text(await self.client.call_tool(tool, arguments))

    # ---- checks ------------------------------------------------------------------------------

    async def check(self, label: str) -> None:
        """Reads every path of every client seat and of a spectator; fails listing each marker
        (or hidden tile) found where it must not be."""
        self.checks += 1
        over = self.over()
        self._still_hidden()
        problems: list[str] = []
        for seat in sorted(self.creds):
            reads = self.seat_reads(seat)
            if self.client is not None:
                reads.update(await self.mcp_seat_reads(seat))
            problems += self._problems(label, seat, reads, over)
            problems += self._fallbacks_of_others(label, seat, reads)
        reads = self.spectator_reads()
        if self.client is not None:
            reads.update(await self.mcp_spectator_reads())
        problems += self._problems(label, None, reads, over)
        assert not problems, "\n".join(problems)

    def _scan(self, viewer: int | None, reads: dict[str, str]) -> None:
        self._still_hidden()
        problems = self._problems("answer", viewer, reads, self.over())
        assert not problems, "\n".join(problems)

    def _problems(
        self, label: str, viewer: int | None, reads: dict[str, str], over: bool
    ) -> list[str]:
        who = "spectator" if viewer is None else self.names[viewer]
        found = []
        for marker in self.forbidden(viewer, over):
            for path, text in reads.items():
                at = text.lower().find(marker.lower())
                if at >= 0:
                    found.append(
                        f"{label}: {who} sees {marker} via {path}: ...{text[at - 80 : at + 40]!r}"
                    )
        if self.hidden_tiles and not over:
            for owner, tiles in self.hidden_tiles.items():
                if owner == viewer:
                    continue
                for path, text in reads.items():
                    seen = tiles & set(TILE.findall(text))
                    if seen:
                        found.append(f"{label}: {who} sees {self.names[owner]}'s {seen} via {path}")
        return found

    def _still_hidden(self) -> None:
        """A tile is secret while a seat holds it face down, if it came to the hand without
        ever being shown face up (dealt or drawn from the stock); once played it may be."""
        if not self.hidden_tiles:
            return
        for seat, tiles in self.hidden_tiles.items():
            now = _hidden_tiles(self.view(seat))
            fresh = now - self.held.get(seat, set()) - self.seen_public
            self.hidden_tiles[seat] = (tiles & now) | fresh
            self.held[seat] = now
        secret = set().union(*self.hidden_tiles.values())
        shown = self.service.spectate_with_code(self.game.spectator_code or "")
        self.seen_public |= set(TILE.findall(shown.text + dump(shown))) - secret

    def _fallbacks_of_others(self, label: str, seat: int, reads: dict[str, str]) -> list[str]:
        """A fallback is told only to its seat; others learn the move from the transition."""
        out = []
        for path in ("log", "poll", "poll late"):
            for item in _log_events(reads[path]):
                if item["type"] == "fallback" and item.get("seat") != self.names[seat]:
                    out.append(f"{label}: {self.names[seat]} sees {item} via {path}")
        return out

    async def expect_seen(self, viewer: int | None, *markers: str) -> None:
        """The positive control: what a viewer must see somewhere (so markers are not lost)."""
        reads = self.spectator_reads() if viewer is None else self.seat_reads(viewer)
        every = "\n".join(reads.values()).lower()
        missing = [m for m in markers if m.lower() not in every]
        assert not missing, f"{viewer} should see {missing}"

    async def expect_logged(self, viewer: int, *markers: str) -> None:
        """The positive control for the log: the viewer reads each marker in `log` and in
        `wait` (poll), not only in its view."""
        reads = self.seat_reads(viewer)
        for path in ("log", "poll"):
            missing = [m for m in markers if m.lower() not in reads[path].lower()]
            assert not missing, f"{viewer} should read {missing} in {path}"


TILE = re.compile(r"\bt\d+\b")


def _hidden_tiles(view: View) -> set[str]:
    obs = view.observation
    held = [str(t[0]) for t in obs.get("hand", [])]
    held += [str(t[0]) for t in (obs.get("pick") or {}).get("picked", [])]
    return set(held)


def _log_events(text: str) -> Iterable[dict[str, Any]]:
    for line in text.split("\n"):
        if line.startswith("{"):
            data = json.loads(line)
            yield from data.get("events", [])


def _mcp_text(result: Any) -> str:
    text = "".join(getattr(block, "text", "") for block in result.content)
    return text + dump(result.structured_content or {})
