"""The transcript format, for readers that import it from here: one JSON line per typed event
(see `events`), read and written by `io`."""

from __future__ import annotations

from .events import SCHEMA_VERSION, event_json, parse_event
from .io import strip_wall

__all__ = ["SCHEMA_VERSION", "event_json", "parse_event", "strip_wall"]
