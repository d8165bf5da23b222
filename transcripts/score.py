"""Per seat-label results over many transcripts: games, wins, mean score, illegal attempts,
fallbacks. A seat's label is its model label (or bot name, or client name) plus its prompt label."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .io import read_transcript


@dataclass
class LabelScore:
    label: str
    games: int = 0
    finished: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    illegal: int = 0
    fallbacks: int = 0

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.finished if self.finished else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "mean_score": round(self.mean_score, 4),
            "illegal": self.illegal,
            "fallbacks": self.fallbacks,
        }


def seat_label(seat: dict[str, Any]) -> str:
    player = seat.get("player", {})
    if player.get("kind") == "bot":
        base = f"bot:{player.get('bot')}"
    else:
        base = player.get("model") or (player.get("client") or {}).get("name") or "llm"
    prompt = player.get("prompt")
    return base + (f" [{prompt}]" if prompt else "")


def score_files(paths: Iterable[str | Path]) -> list[LabelScore]:
    table: dict[str, LabelScore] = {}
    for path in paths:
        events = read_transcript(path)
        header, footer = events[0], events[-1]
        seats = [dict(seat) for seat in header["seats"]]
        for event in events:
            if event.get("type") == "join":
                seats[event["seat"]]["player"] = event["player"]
        labels = [f"{header['game']}:" + seat_label(s) for s in seats]
        per_label_game: dict[str, bool] = defaultdict(bool)
        for index, label in enumerate(labels):
            entry = table.setdefault(label, LabelScore(label))
            if not per_label_game[label]:
                entry.games += 1
                per_label_game[label] = True
            if footer.get("type") == "footer":
                outcome = footer["outcome"]
                entry.finished += 1
                entry.score_sum += float(outcome["scores"][index])
                winners = outcome["winners"]
                if index in winners:
                    entry.wins += 1.0 / len(winners)
                counters = footer.get("counters", {}).get(str(index), {})
                entry.illegal += int(counters.get("rejected", 0))
                entry.fallbacks += int(counters.get("fallbacks", 0))
    return sorted(table.values(), key=lambda s: s.label)
