"""Transcript files: one game's events, one JSON line each, in a directory of such files.

The store holds the same events and is the authority; a file is the portable copy a user takes
away. So a torn last line (a crash mid-write) is dropped on the next append, and `rewrite` lays
a file anew from the store's events when the two are out of step.

Lines are split on b"\\n" only: `event_json` escapes U+2028, U+2029 and U+0085, but a reader that
split on them (as `str.splitlines` does) would still cut lines written by anything else.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import ValidationError

from .events import SCHEMA_VERSION, Event, Header, event_json, parse_event

_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.jsonl")
_TAIL_BLOCK = 64 * 1024

# Striped locks: a bounded set shared by every TranscriptDir, so two objects on the same
# directory still exclude each other and memory does not grow with the number of games.
_STRIPES = tuple(threading.Lock() for _ in range(64))


def _lock_for(path: Path) -> threading.Lock:
    return _STRIPES[hash(os.path.abspath(path)) % len(_STRIPES)]


class TranscriptError(ValueError):
    """A file that is not a readable transcript; names the file and, where known, the line."""

    def __init__(self, path: str | Path, line: int | None, reason: str) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        where = f"{self.path}: line {line}" if line is not None else self.path
        super().__init__(f"{where}: {reason}")


def _lines_text(events: Sequence[Event]) -> bytes:
    return "".join(event_json(e) + "\n" for e in events).encode("utf-8")


def _complete_end(handle: Any, size: int) -> int:
    """Offset just past the last b"\\n" of an open binary file (0 if there is none)."""
    end = size
    while end > 0:
        start = max(0, end - _TAIL_BLOCK)
        handle.seek(start)
        block: bytes = handle.read(end - start)
        cut = block.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        end = start
    return 0


class TranscriptDir:
    """A directory of transcript files, named like `influence-<16 hex>.jsonl`."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path(self, name: str) -> Path:
        # Names come from game ids, never from clients; the check keeps a bad one from
        # reaching outside the directory all the same.
        if not _SAFE_NAME.fullmatch(name):
            raise ValueError(f"not a transcript file name: {name!r}")
        return self.root / name

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if _SAFE_NAME.fullmatch(p.name))

    def append(self, name: str, events: Sequence[Event]) -> None:
        """Adds one line per event. A torn last line left by a crash is cut first, so the new
        lines never run on from it."""
        data = _lines_text(events)
        if not data:
            return
        path = self.path(name)
        with _lock_for(path), _open_appending(path) as handle:
            size = handle.seek(0, os.SEEK_END)
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    handle.truncate(_complete_end(handle, size))
            handle.write(data)
            handle.flush()

    def last_seq(self, name: str) -> int:
        """The seq of the last complete line, read from the end of the file; 0 when the file
        is missing, empty, or that line does not parse."""
        path = self.path(name)
        with _lock_for(path):
            try:
                handle = path.open("rb")
            except FileNotFoundError:
                return 0
            with handle:
                end = _complete_end(handle, handle.seek(0, os.SEEK_END))
                if end == 0:
                    return 0
                start = _complete_end(handle, end - 1)
                handle.seek(start)
                line = handle.read(end - start)
        try:
            return parse_event(line).seq
        except ValueError:  # pydantic's ValidationError is a ValueError
            return 0

    def rewrite(self, name: str, events: Sequence[Event]) -> None:
        """Replaces the file by exactly these events: readers see the old file or the new one,
        never a mix, even across a crash."""
        path = self.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = _lines_text(events)
        with _lock_for(path):
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            _fsync_dir(path.parent)


def _open_appending(path: Path) -> BinaryIO:
    # The folder exists but for a game's first lines: no mkdir on every step.
    try:
        return path.open("a+b")
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open("a+b")


def _fsync_dir(directory: Path) -> None:
    # The rename is durable only once the directory entry is; not every platform allows it.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        if errors:
            first = errors[0]
            loc = ".".join(str(p) for p in first["loc"])
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            return f"{loc + ': ' if loc else ''}{first['msg']}{more}"
    return str(exc)


def _old_schema(line: bytes) -> int | None:
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("type") == "header":
        version = data.get("schema", data.get("schema_version"))
        if isinstance(version, int) and version != SCHEMA_VERSION:
            return version
    return None


def read_transcript(path: str | Path) -> list[Event]:
    """Every event of a transcript file, in order. Raises TranscriptError naming the file and
    line for a line that is not an event, a missing header, or a second header."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise TranscriptError(path, None, f"cannot read: {exc.strerror or exc}") from exc
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the terminator of the last line
    if not lines:
        raise TranscriptError(path, None, "empty file, not a cogs-arena transcript")
    events: list[Event] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise TranscriptError(path, number, "empty line")
        try:
            event = parse_event(line)
        except ValueError as exc:
            old = _old_schema(line) if number == 1 else None
            if old is not None:
                raise TranscriptError(
                    path, 1, f"schema version {old}; this version reads {SCHEMA_VERSION}"
                ) from None
            raise TranscriptError(path, number, _reason(exc)) from None
        if number == 1 and not isinstance(event, Header):
            raise TranscriptError(path, 1, f"{event.type} event where the header should be")
        if number > 1 and isinstance(event, Header):
            raise TranscriptError(path, number, "a second header")
        events.append(event)
    header = events[0]
    assert isinstance(header, Header)
    if header.schema_version != SCHEMA_VERSION:
        raise TranscriptError(
            path, 1, f"schema version {header.schema_version}; this version reads {SCHEMA_VERSION}"
        )
    return events


def strip_wall(event: Event) -> dict[str, Any]:
    """The event's JSON form without its wall-clock fields: equal across runs of the same
    ruleset, seed and moves."""
    data: dict[str, Any] = json.loads(event_json(event))
    data.pop("wall", None)
    return data
