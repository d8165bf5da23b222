"""Helpers for test_record_items.py (its fake clock serves test_service_time.py too): a store
that fails on demand, and readers of the record that only rely on what every version of it has
(a `type` per event, one JSON object per transcript line), so the same tests can be run against
the code before issue 9."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from cogs_arena.server.store.sqlite import SqliteStore as SqliteStore


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class FaultyStore(SqliteStore):
    """A SQLite store whose commits fail when told to, like a full disk or a killed process.

    `fail_once()`: the next commit raises, later ones succeed again.
    `crash_after(n)`: n more commits succeed, then every commit raises (the process is gone)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        self._fail_next = False
        self._allowed: int | None = None

    def fail_once(self) -> None:
        self._fail_next = True

    def crash_after(self, commits: int) -> None:
        self._allowed = commits

    def commit(self, *args: Any, **kwargs: Any) -> Any:
        if self._fail_next:
            self._fail_next = False
            raise sqlite3.OperationalError("disk I/O error (injected by the test)")
        if self._allowed is not None:
            if self._allowed <= 0:
                raise sqlite3.OperationalError("the process was killed (injected by the test)")
            self._allowed -= 1
        return super().commit(*args, **kwargs)


def transcript_of(directory: Path, game_id: str) -> Path:
    """The one transcript file of a game, wherever the service put it under `directory`."""
    found = [p for p in directory.rglob("*.jsonl") if game_id in p.name]
    assert len(found) == 1, f"expected one transcript for {game_id}, found {found}"
    return found[0]


def transcript_lines(path: Path) -> list[dict[str, Any]]:
    """Every line as JSON, split on '\\n' only (a line reader must not split on U+2028)."""
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def event_type(event: Any) -> str:
    """The event's type, with the pre-issue-9 `apply` events named by their kind."""
    data = event if isinstance(event, dict) else event.model_dump()
    kind = str(data["type"])
    return str(data.get("kind", kind)) if kind == "apply" else kind


def stored_events(service: Any, game_id: str) -> list[Any]:
    return list(service.store.events(game_id))


def batch_moves(path: Path) -> list[dict[str, str]]:
    """The submissions of each resolved turn of a simultaneous game, seat -> move text."""
    return [dict(e["moves"]) for e in transcript_lines(path) if event_type(e) == "batch"]


def footer(path: Path) -> dict[str, Any]:
    last = transcript_lines(path)[-1]
    assert event_type(last) == "footer", f"last line is {event_type(last)}, not the footer"
    return last


def log_texts(result: Any) -> str:
    """Everything a log or poll result shows, as one string to search for leaks."""
    return "\n".join(f"{e.type} {e.seat or ''} {e.text}" for e in result.events)
