"""Session stores: where games live between calls and across restarts.

A game is a `GameRecord`, its state (JSON text) and an append-only list of typed events. One
`Commit` writes all three, and the results of the request ids it answers, in one transaction: after
a crash the store holds either all of a step or none of it.
"""

from __future__ import annotations

import contextlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, LiteralString

from ...transcripts.events import Event, event_json, parse_event
from ...transcripts.redact import may_see
from .records import GameRecord

Viewer = int | None | Literal["all"]
"""A seat index, None for a spectator, or "all" for the whole record."""


@dataclass(frozen=True)
class StoredRequest:
    """The answer a `play` with a client request id got, bound to the move it carried."""

    seat: int
    request_id: str
    fingerprint: str
    result: str
    """JSON: {"result": PlayResult} or {"error": [code, message]}."""


@dataclass
class Commit:
    record: GameRecord
    state: str
    events: Sequence[Event] = ()
    requests: Sequence[StoredRequest] = field(default_factory=tuple)
    version: int | None = None
    """The game's version once this commit is in: the store refuses it (StaleWrite) unless it
    holds `version - 1` (0: no such game yet). None writes whatever the store holds, plus one."""


@dataclass(frozen=True)
class Loaded:
    """A game as one read of the store has it: record, state and version agree."""

    record: GameRecord
    state: str
    version: int


class StaleWrite(RuntimeError):
    """The record in the store moved on since this copy was read (another writer won)."""


class GameBusy(RuntimeError):
    """Another server instance holds the game's lock (raised only when asked not to wait)."""


class SchemaTooNew(RuntimeError):
    """The store was written by a newer cogs-arena than this one."""


class Store(ABC):
    shared = False
    """True when other server instances may write to this store at the same time."""

    @abstractmethod
    def commit(self, commit: Commit) -> None:
        """Writes the record, its state, its events (numbered up to `record.event_count`) and
        request results atomically; raises StaleWrite if the events or version are out of step."""

    @abstractmethod
    def load(self, game_id: str) -> Loaded | None:
        """Record, state and version of a game, as of one moment."""

    def hold(
        self, game_id: str, *, wait: bool = True
    ) -> contextlib.AbstractContextManager[int | None]:
        """Holds the game against other server instances for one call and gives the game's
        version in the store (0: none), so a cached copy that another instance moved on is
        reloaded. Without `wait`, raises GameBusy if another instance holds it. A store that
        only this process writes gives None: the cache is the truth."""
        return contextlib.nullcontext(None)

    def watch(self, callback: Callable[[str], None]) -> None:
        """`callback(game_id)` after another instance changed a game (from any thread)."""
        return None

    def peers(self) -> int:
        """How many other server instances are using this store now."""
        return 0

    @abstractmethod
    def get(self, game_id: str) -> GameRecord | None: ...

    @abstractmethod
    def state(self, game_id: str) -> str | None: ...

    @abstractmethod
    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]: ...

    @abstractmethod
    def count(self, statuses: Sequence[str], *, updated_since: float | None = None) -> int:
        """Games in these statuses (and, if given, changed at or after `updated_since`)."""

    @abstractmethod
    def events(
        self,
        game_id: str,
        after: int = 0,
        *,
        viewer: Viewer = "all",
        over: bool = False,
        limit: int | None = None,
    ) -> list[Event]:
        """Events with seq > after that `viewer` may see (redaction of their content is the
        caller's: `transcripts.redact.visible`), oldest first, at most `limit`."""

    @abstractmethod
    def last_seq(self, game_id: str, *, viewer: Viewer = "all", over: bool = False) -> int:
        """The seq of the last event `viewer` may see (0 if none): a cursor that does not
        count what others were told in private."""

    @abstractmethod
    def request(self, game_id: str, seat: int, request_id: str) -> StoredRequest | None: ...

    @abstractmethod
    def due(self, now: float) -> list[str]:
        """Unfinished games whose clock needs a look at `now`."""

    def close(self) -> None:
        return None


def next_version(commit: Commit, stored: int) -> int:
    """The version a commit makes over the `stored` one, or StaleWrite if it was made from
    another."""
    if commit.version is None:
        return stored + 1
    if commit.version != stored + 1:
        raise StaleWrite(
            f"game {commit.record.game_id}: store at version {stored}, this copy was made from "
            f"version {commit.version - 1}"
        )
    return commit.version


def visible_sql(
    viewer: Viewer, over: bool, holds_seat: LiteralString
) -> tuple[LiteralString, list[object]]:
    """The SQL condition (and its arguments) for the events `viewer` may see; `holds_seat` is
    the store's own test that the audience column holds its one argument."""
    if viewer == "all" or (viewer is None and over):
        return "", []
    if viewer is None:
        return " AND audience = '*'", []
    return " AND (audience = '*' OR " + holds_seat + ")", [f"|{viewer}|"]


def audience_key(event: Event) -> str:
    """The audience as the stores index it: "*" for everyone, "|0|3|" for seats 0 and 3."""
    if event.audience is None:
        return "*"
    return "|" + "".join(f"{seat}|" for seat in sorted(set(event.audience)))


class MemoryStore(Store):
    """For tests and `--memory`: the same contract as SQLite, kept as JSON text."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: dict[str, str] = {}
        self._states: dict[str, str] = {}
        self._due: dict[str, float | None] = {}
        self._status: dict[str, str] = {}
        self._updated: dict[str, float] = {}
        self._events: dict[str, list[str]] = {}
        self._requests: dict[tuple[str, int, str], StoredRequest] = {}
        self._versions: dict[str, int] = {}

    def commit(self, commit: Commit) -> None:
        record = commit.record
        lines = [event_json(e) for e in commit.events]
        raw = record.model_dump_json()
        with self._lock:
            log = self._events.get(record.game_id, [])
            if len(log) + len(lines) != record.event_count:
                raise StaleWrite(f"game {record.game_id}: events out of step with the record")
            version = next_version(commit, self._versions.get(record.game_id, 0))
            for req in commit.requests:
                if (record.game_id, req.seat, req.request_id) in self._requests:
                    raise StaleWrite(f"request id {req.request_id!r} already answered")
            self._events[record.game_id] = log + lines
            self._records[record.game_id] = raw
            self._states[record.game_id] = commit.state
            self._status[record.game_id] = record.status
            self._updated[record.game_id] = record.updated
            self._due[record.game_id] = record.due()
            self._versions[record.game_id] = version
            for req in commit.requests:
                self._requests[(record.game_id, req.seat, req.request_id)] = req

    def load(self, game_id: str) -> Loaded | None:
        with self._lock:
            raw = self._records.get(game_id)
            state = self._states.get(game_id)
            version = self._versions.get(game_id, 0)
        if raw is None or state is None:
            return None
        return Loaded(GameRecord.model_validate_json(raw), state, version)

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            raw = self._records.get(game_id)
        return None if raw is None else GameRecord.model_validate_json(raw)

    def state(self, game_id: str) -> str | None:
        with self._lock:
            return self._states.get(game_id)

    def game_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        with self._lock:
            return [g for g, s in self._status.items() if statuses is None or s in statuses]

    def count(self, statuses: Sequence[str], *, updated_since: float | None = None) -> int:
        with self._lock:
            return sum(
                1
                for game_id, status in self._status.items()
                if status in statuses
                and (updated_since is None or self._updated[game_id] >= updated_since)
            )

    def events(
        self,
        game_id: str,
        after: int = 0,
        *,
        viewer: Viewer = "all",
        over: bool = False,
        limit: int | None = None,
    ) -> list[Event]:
        with self._lock:
            lines = self._events.get(game_id, [])[max(after, 0) :]
        out: list[Event] = []
        for line in lines:
            event = parse_event(line)
            if viewer == "all" or may_see(event, viewer, over=over):
                out.append(event)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def last_seq(self, game_id: str, *, viewer: Viewer = "all", over: bool = False) -> int:
        with self._lock:
            lines = list(self._events.get(game_id, []))
        for line in reversed(lines):
            event = parse_event(line)
            if viewer == "all" or may_see(event, viewer, over=over):
                return event.seq
        return 0

    def request(self, game_id: str, seat: int, request_id: str) -> StoredRequest | None:
        with self._lock:
            return self._requests.get((game_id, seat, request_id))

    def due(self, now: float) -> list[str]:
        with self._lock:
            return [g for g, t in self._due.items() if t is not None and t <= now]
