"""Which games are the same game played again: the same game, ruleset, seat map (who played each
seat, by bot, model, prompt and labels) and move sequence, with the same outcome (a guard for
games whose seed changes a position without changing any move's text). Readers that
count games (`rate`, `compare`, `score`, the Inspect metrics) count distinct ones and say how many
repeats they merged: a deterministic game and deterministic players give the same game for every
seed, and counting it n times would claim n times the evidence."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from ..events import Batch, Event, Footer, Header, Join, Move, Player, Settle, StateTalk


def _who(player: Player) -> dict[str, Any]:
    # The client's name and version say which program connected, not who played.
    return {
        "kind": player.kind,
        "bot": player.bot,
        "model": player.model,
        "prompt": player.prompt,
        "labels": dict(sorted(player.labels.items())),
    }


def game_key(events: Sequence[Event]) -> str:
    """A digest equal for two records of the same game played again (their seeds may differ:
    where the rules and the players draw nothing from it, every seed plays the same game)."""
    header = events[0]
    if not isinstance(header, Header):
        raise ValueError("a transcript starts with its header")
    players = {entry.index: entry.player for entry in header.seats}
    steps: list[Any] = []
    outcome: Any = None
    for event in events[1:]:
        if isinstance(event, Join):
            players[event.seat] = event.player
        elif isinstance(event, Move):
            steps.append(["m", event.seat, event.move])
        elif isinstance(event, Batch):
            steps.append(["b", sorted(event.moves.items())])
        elif isinstance(event, StateTalk):
            steps.append(["t", event.seat, event.text, event.to])
        elif isinstance(event, Settle):
            steps.append(["s", event.reason])
        elif isinstance(event, Footer):
            outcome = event.outcome
    key = [
        header.game,
        header.rules_version,
        header.ruleset,
        [_who(players[index]) for index in sorted(players)],
        steps,
        outcome,
    ]
    text = json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
