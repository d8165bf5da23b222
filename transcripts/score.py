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

from .events import Attempt, Event, Fallback, Footer, Header, Join, Player
from .io import TranscriptError, read_transcript


def label_of(player: Player, key: str) -> str | None:
    """The value of label `key` on a seat, or None. `model` and `prompt` have their own fields
    in the record; a writer that put them among the other labels is read the same way."""
    if key in ("model", "prompt"):
        value = getattr(player, key) or player.labels.get(key)
    else:
        value = player.labels.get(key)
    return value or None


def seat_label(game: str, player: Player) -> str:
    model = label_of(player, "model")
    prompt = label_of(player, "prompt")
    if model:
        base = model
    elif player.client_name:
        base = player.client_name
    elif player.bot:
        base = f"bot:{player.bot}"
    else:
        base = "open" if player.kind == "open" else "llm"
    shown = f" [{prompt}]" if prompt else ""
    return f"{game}:{base}{shown}"


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


@dataclass(frozen=True)
class ScoreProblem:
    path: str
    reason: str

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
class _Seat:
    label: str
    illegal: int = 0
    fallbacks: int = 0
    score: float | None = None
    win: float = 0.0


def _seats_of(events: Sequence[Event]) -> list[_Seat]:
    """One game's tally per seat. Raises ValueError for events that name no seat of the game
    or a footer that does not fit the seats."""
    header = events[0]
    if not isinstance(header, Header):
        raise ValueError("no header")
    players = {entry.index: entry.player for entry in header.seats}
    if sorted(players) != list(range(len(players))):
        raise ValueError(f"header seats are {sorted(players)}, expected 0..{len(players) - 1}")
    illegal = dict.fromkeys(players, 0)
    fallbacks = dict.fromkeys(players, 0)
    footer: Footer | None = None
    for event in events[1:]:
        seat = getattr(event, "seat", None)
        if seat is not None and seat not in players:
            raise ValueError(f"seq {event.seq}: {event.type} for seat {seat}, not in the game")
        if isinstance(event, Join):
            players[event.seat] = event.player
        elif isinstance(event, Attempt):
            illegal[event.seat] += 0 if event.ok or not event.counted else 1
        elif isinstance(event, Fallback) and not event.continued:
            fallbacks[event.seat] += 1
        elif isinstance(event, Footer):
            footer = event
    seats = [
        _Seat(seat_label(header.game, players[i]), illegal[i], fallbacks[i])
        for i in range(len(players))
    ]
    if footer is not None:
        scores = [float(s) for s in footer.outcome["scores"]]
        winners = [int(w) for w in footer.outcome["winners"]]
        if len(scores) != len(seats) or any(w not in players for w in winners):
            raise ValueError(f"footer outcome does not fit {len(seats)} seats")
        for index, entry in enumerate(seats):
            entry.score = scores[index]
            entry.win = 1.0 / len(winners) if index in winners else 0.0
    return seats


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
            seats = _seats_of(read_transcript(path))
        except TranscriptError as exc:
            where = f"line {exc.line}: " if exc.line is not None else ""
            result.problems.append(ScoreProblem(str(path), where + exc.reason))
            continue
        except (ValueError, KeyError, TypeError) as exc:
            result.problems.append(ScoreProblem(str(path), f"{type(exc).__name__}: {exc}"))
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
