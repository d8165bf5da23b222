"""Session stores: where games live between calls and across restarts.

A game is a `GameRecord`, its state (JSON text) and an append-only list of typed events. One
`Commit` writes all three, and the results of the request ids it answers, in one transaction: after
a crash the store holds either all of a step or none of it.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..transcripts.events import Event, event_json, parse_event
from ..transcripts.redact import may_see
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


class StaleWrite(RuntimeError):
    """The record in the store moved on since this copy was read (another writer won)."""


class Store(ABC):
    @abstractmethod
    def commit(self, commit: Commit) -> None:
        """Writes the record, its state, its events (numbered up to `record.event_count`) and
        request results atomically; raises StaleWrite if the events are out of step."""

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

    def commit(self, commit: Commit) -> None:
        record = commit.record
        lines = [event_json(e) for e in commit.events]
        raw = record.model_dump_json()
        with self._lock:
            log = self._events.get(record.game_id, [])
            if len(log) + len(lines) != record.event_count:
                raise StaleWrite(f"game {record.game_id}: events out of step with the record")
            for req in commit.requests:
                if (record.game_id, req.seat, req.request_id) in self._requests:
                    raise StaleWrite(f"request id {req.request_id!r} already answered")
            self._events[record.game_id] = log + lines
            self._records[record.game_id] = raw
            self._states[record.game_id] = commit.state
            self._status[record.game_id] = record.status
            self._updated[record.game_id] = record.updated
            self._due[record.game_id] = record.due()
            for req in commit.requests:
                self._requests[(record.game_id, req.seat, req.request_id)] = req

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
