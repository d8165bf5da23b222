"""Re-simulates a transcript from its header and its `apply` events, checking every digest."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engines import get_engine
from .format import SCHEMA_VERSION
from .io import read_transcript


@dataclass
class ReplayReport:
    path: str
    game: str
    transitions: int = 0
    mismatches: list[str] = field(default_factory=list)
    final_digest: str | None = None
    finished: bool = False
    outcome_matches: bool | None = None

    @property
    def ok(self) -> bool:
        return not self.mismatches


def replay(path: str | Path) -> ReplayReport:
    events = read_transcript(path)
    header = events[0]
    if header.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"{path}: schema {header.get('schema')}, expected {SCHEMA_VERSION}")
    engine = get_engine(header["game"])
    ruleset = engine.ruleset(header["ruleset"])
    state: Any = engine.new_game(ruleset, header["seed"])
    report = ReplayReport(str(path), header["game"])
    for number, event in enumerate(events[1:], start=2):
        if event.get("type") == "footer":
            outcome = engine.outcome(state)
            report.finished = True
            report.outcome_matches = outcome is not None and outcome.to_json() == event["outcome"]
            if not report.outcome_matches:
                report.mismatches.append(f"line {number}: outcome differs from the footer")
            continue
        if event.get("type") != "apply":
            continue
        kind = event["kind"]
        try:
            if kind == "move":
                move = engine.parse_move(state, event["seat"], event["move"])
                state = engine.apply(state, event["seat"], move)
            elif kind == "batch":
                moves = {
                    int(seat): engine.parse_move(state, int(seat), text)
                    for seat, text in event["moves"].items()
                }
                state = engine.apply_batch(state, moves)
            elif kind == "talk":
                to = None if event["to"] is None else tuple(event["to"])
                state = engine.talk(state, event["seat"], event["text"], to)
            elif kind == "settle":
                state = engine.settle(state, event["reason"])
            else:
                report.mismatches.append(f"line {number}: unknown apply kind {kind!r}")
                break
        except Exception as exc:  # a transcript that no longer replays is a finding, not a crash
            report.mismatches.append(f"line {number}: {kind} failed: {exc}")
            break
        report.transitions += 1
        digest = engine.digest(state)
        if digest != event["digest"]:
            report.mismatches.append(
                f"line {number}: digest {digest[:12]} != {event['digest'][:12]}"
            )
            break
    report.final_digest = engine.digest(state)
    return report
