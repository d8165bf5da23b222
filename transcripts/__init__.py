"""The game record: typed events, transcript files, replay verification and scoring."""

from .evaluation.score import LabelScore, ScoreProblem, ScoreResult, score_files, seat_label
from .events import SCHEMA_VERSION, Event, event_json, parse_event, view_digest
from .io import TranscriptDir, TranscriptError, read_transcript, strip_wall
from .replay import ReplayReport, replay, replay_events

__all__ = [
    "SCHEMA_VERSION",
    "Event",
    "LabelScore",
    "ReplayReport",
    "ScoreProblem",
    "ScoreResult",
    "TranscriptDir",
    "TranscriptError",
    "event_json",
    "parse_event",
    "read_transcript",
    "replay",
    "replay_events",
    "score_files",
    "seat_label",
    "strip_wall",
    "view_digest",
]
