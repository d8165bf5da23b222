"""Writing a transcript file as the game goes, and reading one back."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .format import dumps


class TranscriptFile:
    """Appends events to one game's JSONL file. The store holds the same events; `rewrite`
    lays the file anew from them when a crash left the two out of step."""

    _lock = threading.Lock()

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def append(self, events: Iterable[dict[str, Any]]) -> None:
        text = "".join(dumps(e) + "\n" for e in events)
        if not text:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()

    def line_count(self) -> int:
        if not self.path.exists():
            return 0
        with self.path.open("rb") as handle:
            return sum(1 for line in handle if line.endswith(b"\n"))

    def rewrite(self, events: Iterable[dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write("".join(dumps(e) + "\n" for e in events))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)


def read_transcript(path: str | Path) -> list[dict[str, Any]]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines if line.strip()]
    if not events or events[0].get("type") != "header":
        raise ValueError(f"{path}: not a cogs-arena transcript (no header line)")
    return events
