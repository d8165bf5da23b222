"""The game record: typed events each with its audience (`events`), who may see what
(`redact`), writing and reading transcript files (`io`), and replay verification (`replay`).
Evaluation (`transcripts.evaluation`) and the HTML viewer (`transcripts.viewer`) read the record;
the record imports neither.

May import: `engines` only."""

from .events import SCHEMA_VERSION, Event, event_json, parse_event, view_digest
from .io import TranscriptDir, TranscriptError, read_transcript, strip_wall
from .replay import ReplayReport, replay, replay_events

__all__ = [
    "SCHEMA_VERSION",
    "Event",
    "ReplayReport",
    "TranscriptDir",
    "TranscriptError",
    "event_json",
    "parse_event",
    "read_transcript",
    "replay",
    "replay_events",
    "strip_wall",
    "view_digest",
]
