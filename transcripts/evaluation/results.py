"""One row per seat per game, read from transcripts: what `rate`, `compare` and `export` work on.

The per-seat counts come from `score.seat_tallies`, so every reader of the record counts illegal
attempts and fallbacks the same way. A transcript that cannot be read is reported, like `score`
does, and the rest are read.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..events import Footer, Header, Player
from ..io import read_transcript
from .distinct import game_key
from .score import UNREADABLE, ScoreProblem, label_of, player_name, seat_tallies

BY_CHOICES = "model, prompt or label:<key>"


@dataclass(frozen=True)
class SeatResult:
    path: str
    game_id: str
    """The transcript's file name without `.jsonl` (the server names files by game id)."""
    game: str
    ruleset_digest: str
    seed: str
    """As text: seeds may be 128-bit integers, or strings."""
    seat: int
    seat_name: str
    player: Player
    finished: bool
    score: float | None
    rank: int | None
    win: float | None
    """1 for a win, 1/n for a win shared by n seats; None while the game is unfinished."""
    attempts: int
    illegal: int
    fallbacks: int
    moves: int
    tool_calls: int | None
    """From the footer's counters when the host recorded them."""
    wall_seconds: float | None
    game_key: str = ""
    """Equal for every record of the same game played again (`distinct.game_key`)."""

    def label(self, by: str) -> str:
        return label_value(self.player, by)


@dataclass
class Results:
    rows: list[SeatResult] = field(default_factory=list)
    problems: list[ScoreProblem] = field(default_factory=list)
    files: int = 0


def parse_by(text: str) -> str:
    """Checks a `--by` value: `model`, `prompt` or `label:<key>`."""
    if text in ("model", "prompt"):
        return text
    if text.startswith("label:") and text[len("label:") :].strip():
        return "label:" + text[len("label:") :].strip()
    raise ValueError(f"--by {text!r}: use {BY_CHOICES}")


def label_value(player: Player, by: str) -> str:
    """The seat's value for `by`. A seat without that label is named by its bot (`bot:<name>`),
    so bots stay apart from each other, or else `(none)`."""
    if by == "model":
        return player_name(player)
    key = "prompt" if by == "prompt" else by.removeprefix("label:")
    value = label_of(player, key)
    if value:
        return value
    return f"bot:{player.bot}" if player.bot else "(none)"


def ruleset_digest(ruleset: dict[str, Any]) -> str:
    """Equal for equal rulesets, whatever the key order."""
    text = json.dumps(ruleset, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def transcript_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[ScoreProblem]]:
    """Files as given, directories as every `*.jsonl` under them (sorted); each file once."""
    found: list[Path] = []
    problems: list[ScoreProblem] = []
    seen: set[str] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*.jsonl") if p.is_file())
            if not inside:
                problems.append(ScoreProblem(str(path), "a directory with no *.jsonl files"))
        else:
            inside = [path]
        for item in inside:
            key = os.path.realpath(item)
            if key not in seen:
                seen.add(key)
                found.append(item)
    return found, problems


def _wall_seconds(header: Header, footer: Footer | None) -> float | None:
    start = (header.wall or {}).get("created")
    end = (footer.wall or {}).get("ended") if footer is not None else None
    if isinstance(start, int | float) and isinstance(end, int | float):
        return max(0.0, float(end) - float(start))
    return None


def _tool_calls(footer: Footer | None, seat: int) -> int | None:
    if footer is None:
        return None
    value = footer.counters.get(str(seat), {}).get("tool_calls")
    return value if isinstance(value, int) else None


def game_rows(path: str | Path) -> list[SeatResult]:
    """The rows of one transcript. Raises TranscriptError or ValueError for one that cannot be
    read or does not fit together."""
    events = read_transcript(path)
    header = events[0]
    assert isinstance(header, Header)  # read_transcript checks it
    tallies = seat_tallies(events)
    footer = events[-1] if isinstance(events[-1], Footer) else None
    names = {entry.index: entry.name for entry in header.seats}
    game_id = Path(path).name.removesuffix(".jsonl")
    digest = ruleset_digest(header.ruleset)
    wall = _wall_seconds(header, footer)
    key = game_key(events)
    return [
        SeatResult(
            path=str(path),
            game_id=game_id,
            game=header.game,
            ruleset_digest=digest,
            seed=str(header.seed),
            seat=index,
            seat_name=names[index],
            player=tally.player,
            finished=tally.score is not None,
            score=tally.score,
            rank=tally.rank,
            win=tally.win if tally.score is not None else None,
            attempts=tally.attempts,
            illegal=tally.illegal,
            fallbacks=tally.fallbacks,
            moves=tally.moves,
            tool_calls=_tool_calls(footer, index),
            wall_seconds=wall,
            game_key=key,
        )
        for index, tally in enumerate(tallies)
    ]


def read_results(paths: Iterable[str | Path]) -> Results:
    """Every seat of every readable transcript under `paths` (files or directories)."""
    files, problems = transcript_paths(paths)
    result = Results(problems=problems)
    for path in files:
        try:
            rows = game_rows(path)
        except UNREADABLE as exc:
            result.problems.append(ScoreProblem.of(path, exc))
            continue
        result.files += 1
        result.rows.extend(rows)
    return result
