"""Scores read from the game's own record: the transcript the sample's server wrote. Each seated
model gets score, rank, win, finished, illegal attempts, fallbacks, play attempts and the tool
calls it made; a game that did not finish gives `finished` 0 and no score, rank or win (the
metrics count it as unfinished and as a loss in the win rate: see `metrics`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from ..transcripts.evaluation.score import SeatTally, seat_tallies
from ..transcripts.events import Event
from ..transcripts.io import read_transcript
from .metrics import GAME_KEY, PLAYERS_KEY, ab_pairs, by_variant, played_key

SEATS_KEY = "cogs_arena_seats"
"""Sample metadata: one entry per seated model (role, seat, game id, transcript, run)."""


def seat_values(tally: SeatTally, tool_calls: int) -> dict[str, float]:
    values: dict[str, float] = {
        "finished": 0.0 if tally.score is None else 1.0,
        "illegal": float(tally.illegal),
        "fallbacks": float(tally.fallbacks),
        "attempts": float(tally.attempts),
        "tool_calls": float(tool_calls),
    }
    if tally.score is not None and tally.rank is not None:
        values.update(score=tally.score, rank=float(tally.rank), win=tally.win)
    return values


def read_game(transcript: str | Path) -> tuple[list[Event], list[SeatTally]]:
    events = read_transcript(transcript)
    return events, seat_tallies(events)


def _explain(entry: dict[str, Any], tally: SeatTally, seats: int) -> str:
    who = f"{entry.get('role') or 'model'} as {entry['seat_name']} (seat {entry['seat']})"
    if tally.score is None:
        return f"{who}: game not finished ({entry.get('ended') or 'stopped'})"
    return (
        f"{who}: score {tally.score:g}, rank {tally.rank} of {seats}"
        + (", won" if tally.win else "")
        + f"; {tally.illegal} illegal, {tally.fallbacks} fallbacks, "
        f"{entry.get('tool_calls', 0)} tool calls"
    )


def _group(entry: dict[str, Any], state: TaskState) -> str:
    """Where the metrics count this seat: its prompt, and its model role if it has one (the
    A/B design's sides are one model under two prompts, so there the prompt alone)."""
    prompt = str(entry.get("prompt") or state.metadata.get("prompt", ""))
    role = entry.get("role")
    if role is None or state.metadata.get("ab"):
        return prompt
    return f"{prompt}/{role}"


@scorer(metrics=[by_variant(), ab_pairs()])
def game_outcome() -> Scorer:
    """Each seated model's outcome, read from the transcript named in the sample metadata.
    With one model the keys are plain (`score`, `win`, …); with several they are prefixed by
    the model role (`red_score`, `blue_win`, …)."""

    async def score(state: TaskState, target: Target) -> Score:
        entries: list[dict[str, Any]] = state.metadata.get(SEATS_KEY) or []
        if not entries:
            return Score(value={}, explanation="no game was started")
        transcript = entries[0]["transcript"]
        events, tallies = read_game(transcript)
        single = len(entries) == 1
        value: dict[str, float] = {}
        lines = []
        for entry in entries:
            tally = tallies[entry["seat"]]
            prefix = "" if single else f"{entry['role']}_"
            for key, number in seat_values(tally, entry.get("tool_calls", 0)).items():
                value[prefix + key] = number
            lines.append(_explain(entry, tally, len(tallies)))
        return Score(
            value=value,
            explanation="\n".join(lines),
            metadata={
                "transcript": transcript,
                "game_id": entries[0]["game_id"],
                "prompt": state.metadata.get("prompt"),
                GAME_KEY: played_key(events),
                PLAYERS_KEY: [
                    {"role": e.get("role"), "seat": e["seat"], "group": _group(e, state)}
                    for e in entries
                ],
            },
        )

    return score
