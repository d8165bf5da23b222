"""Re-simulates a transcript from its header and its transitions, checking every state digest,
every view a seat was shown, and the outcome in the footer."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engines import Outcome, get_engine
from .events import (
    Batch,
    Event,
    Footer,
    Header,
    Move,
    Settle,
    StateTalk,
    ViewShown,
    view_digest,
)
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
    views_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.mismatches


ViewHook = Callable[[ViewShown, str], None]
"""Called with each recorded view and the board text regenerated from the replayed state."""


def replay(path: str | Path, *, on_view: ViewHook | None = None) -> ReplayReport:
    """Never raises for a bad file: what cannot be read or re-simulated is a mismatch."""
    try:
        events = read_transcript(path)
    except ValueError as exc:  # TranscriptError
        return ReplayReport(str(path), "", mismatches=[str(exc)])
    return replay_events(events, path=str(path), on_view=on_view)


def _short(digest: str) -> str:
    return digest[:12]


def _json_equal(a: Any, b: Any) -> bool:
    # The footer went through JSON: compare in that form (tuples read back as lists).
    return bool(json.loads(json.dumps(a)) == json.loads(json.dumps(b)))


def replay_events(
    events: Sequence[Event], *, path: str = "<events>", on_view: ViewHook | None = None
) -> ReplayReport:
    """The same checks on events already in memory (from the store, say). Line numbers in the
    mismatches are positions in `events`, from 1."""
    if not events or not isinstance(events[0], Header):
        return ReplayReport(path, "", mismatches=["line 1: no header"])
    header = events[0]
    report = ReplayReport(path, header.game)
    try:
        engine = get_engine(header.game)
        state: Any = engine.new_game(engine.ruleset(header.ruleset), header.seed)
    except Exception as exc:  # a record the engines cannot start is a finding, not a crash
        report.mismatches.append(f"line 1: cannot start the game: {exc}")
        return report
    footer_line: int | None = None
    expected = 1
    for number, event in enumerate(events, start=1):
        if event.seq != expected:  # once per gap, not on every line after it
            report.mismatches.append(f"line {number}: seq {event.seq}, expected {expected}")
        expected = event.seq + 1
        if number == 1:
            continue
        if footer_line is not None:
            report.mismatches.append(
                f"line {number}: {event.type} event after the footer (line {footer_line})"
            )
            break
        before = state
        try:
            if isinstance(event, Move):
                state = engine.apply(
                    state, event.seat, engine.parse_move(state, event.seat, event.move)
                )
            elif isinstance(event, Batch):
                moves = {
                    int(seat): engine.parse_move(state, int(seat), text)
                    for seat, text in event.moves.items()
                }
                state = engine.apply_batch(state, moves)
            elif isinstance(event, StateTalk):
                to = None if event.to is None else tuple(event.to)
                state = engine.talk(state, event.seat, event.text, to)
            elif isinstance(event, Settle):
                state = engine.settle(state, event.reason)
            elif isinstance(event, ViewShown):
                # The record keeps a digest of what the seat saw; the view itself is a function
                # of the state and the seat, so it is regenerated here, not stored.
                observation = engine.observe(state, event.seat)
                seen = view_digest(observation)
                report.views_checked += 1
                if on_view is not None:
                    on_view(event, engine.render(observation))
                if seen != event.digest:
                    report.mismatches.append(
                        f"line {number}: view digest for seat {event.seat} is "
                        f"{_short(seen)}, recorded {_short(event.digest)}"
                    )
                continue
            elif isinstance(event, Footer):
                footer_line = number
                _check_footer(report, number, event, engine.outcome(state), engine.digest(state))
                continue
            else:
                continue
        except Exception as exc:  # a transition that no longer applies is a finding
            report.mismatches.append(f"line {number}: {event.type} failed: {exc}")
            break
        report.transitions += 1
        digest = engine.digest(state)
        if digest != event.digest:
            report.mismatches.append(
                f"line {number}: {event.type} digest {_short(digest)}, "
                f"recorded {_short(event.digest)}"
            )
            break  # every later state would differ too
        if isinstance(event, Move | Batch) and event.news:
            news = list(engine.news(before, state))
            if news != event.news:
                report.mismatches.append(
                    f"line {number}: {event.type} news {news!r}, recorded {event.news!r}"
                )
    report.final_digest = engine.digest(state)
    return report


def _check_footer(
    report: ReplayReport, number: int, footer: Footer, outcome: Outcome | None, digest: str
) -> None:
    report.finished = True
    if outcome is None:
        report.outcome_matches = False
        report.mismatches.append(f"line {number}: footer, but the game is not over")
        return
    report.outcome_matches = _json_equal(outcome.to_json(), footer.outcome)
    if not report.outcome_matches:
        report.mismatches.append(f"line {number}: outcome differs from the footer")
    if digest != footer.digest:
        report.mismatches.append(
            f"line {number}: footer digest {_short(digest)}, recorded {_short(footer.digest)}"
        )
