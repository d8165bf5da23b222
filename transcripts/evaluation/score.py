"""Per seat-label results over many transcripts.

A seat's label is who played it (model label, whether the model or its harness set it, else
client name, else bot name) plus its prompt label, prefixed with the game. Games are counted
once per label however many seats the label held in it; the illegal-attempt and fallback
counters come from the events, so unfinished games count too. A transcript that cannot be
read is reported and the rest are scored.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..events import Attempt, Batch, Event, Fallback, Footer, Header, Join, Move, Player
from ..io import TranscriptError, read_transcript


def label_of(player: Player, key: str) -> str | None:
    """The value of label `key` on a seat, or None. `model` and `prompt` have their own fields
    in the record; a writer that put them among the other labels is read the same way."""
    if key in ("model", "prompt"):
        value = getattr(player, key) or player.labels.get(key)
    else:
        value = player.labels.get(key)
    return value or None


def player_name(player: Player) -> str:
    """Who played a seat: its model label, else the client's name, else `bot:<name>`."""
    model = label_of(player, "model")
    if model:
        return model
    if player.client_name:
        return player.client_name
    if player.bot:
        return f"bot:{player.bot}"
    return "open" if player.kind == "open" else "llm"


def seat_label(game: str, player: Player) -> str:
    prompt = label_of(player, "prompt")
    shown = f" [{prompt}]" if prompt else ""
    return f"{game}:{player_name(player)}{shown}"


@dataclass
class LabelScore:
    label: str
    games: int = 0
    """Distinct games the label played in."""
    seats: int = 0
    """Seat-games: a game where the label held two seats counts 2."""
    finished: int = 0
    """Seats in finished games."""
    wins: float = 0.0
    """A win shared by n seats counts 1/n to each."""
    score_sum: float = 0.0
    illegal: int = 0
    """Counted rejections of `play` attempts."""
    fallbacks: int = 0

    @property
    def mean_score(self) -> float | None:
        return self.score_sum / self.finished if self.finished else None

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "games": self.games,
            "seats": self.seats,
            "finished": self.finished,
            "wins": self.wins,
            "mean_score": self.mean_score,
            "illegal": self.illegal,
            "fallbacks": self.fallbacks,
        }


UNREADABLE = (ValueError, KeyError, TypeError)
"""What reading a transcript and tallying it raise for a file that is not a usable record
(TranscriptError is a ValueError)."""


@dataclass(frozen=True)
class ScoreProblem:
    path: str
    reason: str

    @classmethod
    def of(cls, path: str | Path, exc: Exception) -> ScoreProblem:
        if isinstance(exc, TranscriptError):
            where = f"line {exc.line}: " if exc.line is not None else ""
            return cls(str(path), where + exc.reason)
        return cls(str(path), f"{type(exc).__name__}: {exc}")

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass
class ScoreResult:
    rows: list[LabelScore] = field(default_factory=list)
    """Sorted by label."""
    problems: list[ScoreProblem] = field(default_factory=list)
    files: int = 0
    """Transcripts scored (problems excluded)."""

    def row(self, label: str) -> LabelScore | None:
        return next((r for r in self.rows if r.label == label), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "labels": [r.to_json() for r in self.rows],
            "problems": [p.to_json() for p in self.problems],
        }


@dataclass
class SeatTally:
    """One seat's record in one game, as the events give it."""

    player: Player
    label: str
    attempts: int = 0
    """`play` calls, refused ones included."""
    illegal: int = 0
    fallbacks: int = 0
    moves: int = 0
    """Transitions that applied a move of this seat (its own or a fallback)."""
    score: float | None = None
    """None until the game is over; so is `rank`."""
    rank: int | None = None
    win: float = 0.0


def seat_tallies(events: Sequence[Event]) -> list[SeatTally]:
    """One game's tally per seat. Raises ValueError for events that name no seat of the game
    or a footer that does not fit the seats."""
    header = events[0]
    if not isinstance(header, Header):
        raise ValueError("no header")
    players = {entry.index: entry.player for entry in header.seats}
    if sorted(players) != list(range(len(players))):
        raise ValueError(f"header seats are {sorted(players)}, expected 0..{len(players) - 1}")
    seats = [SeatTally(players[i], "") for i in range(len(players))]
    footer: Footer | None = None
    for event in events[1:]:
        seat = getattr(event, "seat", None)
        if seat is not None and seat not in players:
            raise ValueError(f"seq {event.seq}: {event.type} for seat {seat}, not in the game")
        if isinstance(event, Join):
            seats[event.seat].player = event.player
        elif isinstance(event, Attempt):
            seats[event.seat].attempts += 1
            seats[event.seat].illegal += 0 if event.ok or not event.counted else 1
        elif isinstance(event, Fallback) and not event.continued:
            seats[event.seat].fallbacks += 1
        elif isinstance(event, Move):
            seats[event.seat].moves += 1
        elif isinstance(event, Batch):
            for mover in event.moves:
                if int(mover) in players:
                    seats[int(mover)].moves += 1
        elif isinstance(event, Footer):
            footer = event
    for entry in seats:
        entry.label = seat_label(header.game, entry.player)
    if footer is not None:
        _apply_outcome(seats, footer.outcome)
    return seats


def _apply_outcome(seats: list[SeatTally], outcome: dict[str, Any]) -> None:
    scores = [float(s) for s in outcome["scores"]]
    winners = [int(w) for w in outcome["winners"]]
    if len(scores) != len(seats) or any(not 0 <= w < len(seats) for w in winners):
        raise ValueError(f"footer outcome does not fit {len(seats)} seats")
    ranks = [int(r) for r in outcome.get("ranks") or []]
    if len(ranks) != len(seats):  # competition ranks, as the engines give them
        ranks = [1 + sum(1 for other in scores if other > mine) for mine in scores]
    for index, entry in enumerate(seats):
        entry.score = scores[index]
        entry.rank = ranks[index]
        entry.win = 1.0 / len(winners) if index in winners else 0.0


def score_files(paths: Iterable[str | Path]) -> ScoreResult:
    """Scores every readable transcript; the same file given twice counts once."""
    table: dict[str, LabelScore] = {}
    result = ScoreResult()
    seen: set[str] = set()
    for path in paths:
        key = os.path.realpath(path)
        if key in seen:
            continue
        seen.add(key)
        try:
            seats = seat_tallies(read_transcript(path))
        except UNREADABLE as exc:
            result.problems.append(ScoreProblem.of(path, exc))
            continue
        result.files += 1
        for label in {s.label for s in seats}:
            table.setdefault(label, LabelScore(label)).games += 1
        for entry in seats:
            row = table[entry.label]
            row.seats += 1
            row.illegal += entry.illegal
            row.fallbacks += entry.fallbacks
            if entry.score is not None:
                row.finished += 1
                row.score_sum += entry.score
                row.wins += entry.win
    result.rows = sorted(table.values(), key=lambda r: r.label)
    return result


def printable(text: str) -> str:
    """Labels and reasons come from clients: control, format and line-separator characters are
    escaped so they cannot break a table line or drive a terminal."""
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


def table_lines(result: ScoreResult) -> list[str]:
    """A plain-text table, labels in full."""
    labels = [printable(r.label) for r in result.rows]
    width = max([len("label"), *map(len, labels)])
    lines = [
        f"{'label':{width}} {'games':>5} {'seats':>5} {'finished':>8} {'wins':>6} "
        f"{'mean':>8} {'illegal':>7} {'fallbacks':>9}"
    ]
    for label, r in zip(labels, result.rows, strict=True):
        mean = "-" if r.mean_score is None else f"{r.mean_score:.3f}"
        lines.append(
            f"{label:{width}} {r.games:>5} {r.seats:>5} {r.finished:>8} {r.wins:>6.2f} "
            f"{mean:>8} {r.illegal:>7} {r.fallbacks:>9}"
        )
    return lines
