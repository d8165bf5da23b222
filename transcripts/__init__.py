"""Transcript format, writing, reading, replay verification and scoring."""

from .format import SCHEMA_VERSION, strip_wall
from .io import TranscriptFile, read_transcript
from .replay import ReplayReport, replay
from .score import score_files

__all__ = [
    "SCHEMA_VERSION",
    "ReplayReport",
    "TranscriptFile",
    "read_transcript",
    "replay",
    "score_files",
    "strip_wall",
]
