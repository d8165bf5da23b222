"""Re-simulates a transcript from its header and its transitions, checking every state digest,
every view a seat was shown, and the outcome in the footer.

A record names the rules and view versions of the engine that wrote it (`Header.rules_version`,
`view_version`). What the running engine cannot re-create is reported as not checked, never as a
mismatch: transitions (and with them views and the outcome) only under the same rules version,
views and news only under the same view version too."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engines import AnyEngine, Outcome, get_engine
from ..engines.protocol import JSON
from .events import (
    Attempt,
    Batch,
    Event,
    Fallback,
    Footer,
    ForkPoint,
    Header,
    Move,
    Settle,
    StateTalk,
    ViewShown,
    view_digest,
)
from .io import read_transcript

Transition = Move | Batch | StateTalk | Settle
"""The events `replay` re-simulates (the `TRANSITIONS` of `events`)."""


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
    not_checked: list[str] = field(default_factory=list)
    """What the record holds that this engine's version cannot re-create, and why (not a
    mismatch: the record may be perfectly sound)."""

    @property
    def ok(self) -> bool:
        return not self.mismatches

    @property
    def complete(self) -> bool:
        """True when every transition and view of the record was re-simulated and checked."""
        return not self.mismatches and not self.not_checked


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


def _json_equal(a: JSON, b: JSON) -> bool:
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
    except Exception as exc:
        report.mismatches.append(f"line 1: cannot start the game: {exc}")
        return report
    if header.rules_version != engine.rules_version:
        return _unsimulated(report, events, header, engine)
    views = header.view_version == engine.view_version
    if not views:
        report.not_checked.append(
            f"views and news: recorded by {header.game} view version {header.view_version}; "
            f"this engine renders version {engine.view_version}; not checked"
        )
    try:
        state: Any = engine.new_game(engine.ruleset(header.ruleset), header.seed)
    except Exception as exc:  # a record the engines cannot start is a finding, not a crash
        report.mismatches.append(f"line 1: cannot start the game: {exc}")
        return report
    footer_line: int | None = None
    submitted: dict[int, str] = {}
    """Each seat's accepted submission for the simultaneous turn in progress, as the record
    tells it (an accepted attempt, or a fallback): a view counts what it used."""
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
            if isinstance(event, Transition):
                state = apply_transition(engine, state, event)
                if not isinstance(event, StateTalk):
                    submitted.clear()
            elif isinstance(event, Attempt | Fallback):
                _note_submission(engine, submitted, event)
                continue
            elif isinstance(event, ViewShown) and not views:
                continue
            elif isinstance(event, ViewShown):
                # The record keeps a digest of what the seat saw; the view itself is a function
                # of the state, the seat and its submission, so it is regenerated here.
                observation = seat_observation(engine, state, event.seat, submitted.get(event.seat))
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
        if views and isinstance(event, Move | Batch) and event.news:
            news = list(engine.news(before, state))
            if news != event.news:
                report.mismatches.append(
                    f"line {number}: {event.type} news {news!r}, recorded {event.news!r}"
                )
        if header.fork is not None and report.transitions == header.fork.transitions:
            _check_fork(report, number, header.fork, digest)
    if header.fork is not None and report.transitions < header.fork.transitions:
        report.mismatches.append(
            f"fork: the record has {report.transitions} transitions, the header says the "
            f"parent's first {header.fork.transitions} come first"
        )
    elif header.fork is not None and header.fork.transitions == 0:
        _check_fork(
            report,
            1,
            header.fork,
            engine.digest(engine.new_game(engine.ruleset(header.ruleset), header.seed)),
        )
    report.final_digest = engine.digest(state)
    return report


def _unsimulated(
    report: ReplayReport, events: Sequence[Event], header: Header, engine: AnyEngine
) -> ReplayReport:
    """A record of other rules: its sequence and shape are still checked, its positions are not."""
    expected = 1
    recorded = 0
    for number, event in enumerate(events, start=1):
        if event.seq != expected:
            report.mismatches.append(f"line {number}: seq {event.seq}, expected {expected}")
        expected = event.seq + 1
        if isinstance(event, Transition):
            recorded += 1
        elif isinstance(event, Footer):
            report.finished = True
    report.not_checked.append(
        f"transitions, views and outcome: recorded by {header.game} rules version "
        f"{header.rules_version}; this engine plays version {engine.rules_version}; "
        f"{recorded} transitions not re-simulated, not checked"
    )
    return report


def _check_fork(report: ReplayReport, number: int, fork: ForkPoint, digest: str) -> None:
    """A fork's record starts with its parent's transitions: the state after them must be the
    state the header recorded from the parent."""
    if digest != fork.digest:
        report.mismatches.append(
            f"line {number}: fork of {fork.parent} at decision {fork.at}: digest "
            f"{_short(digest)}, the parent's {_short(fork.digest)}"
        )


def seat_observation(
    engine: AnyEngine, state: Any, seat: int, submitted: str | None
) -> dict[str, Any]:
    """What a seat is shown of `state`, once it has `submitted` its move for a simultaneous
    turn (the text as accepted), or before."""
    if submitted is None or not engine.simultaneous:
        return engine.observe(state, seat)
    return engine.observe_submitted(state, seat, engine.parse_move(state, seat, submitted))


def _note_submission(
    engine: AnyEngine, submitted: dict[int, str], event: Attempt | Fallback
) -> None:
    if not engine.simultaneous:
        return
    if isinstance(event, Fallback):
        submitted[event.seat] = event.move
    elif event.accepted:
        submitted[event.seat] = event.accepted[-1]


def apply_transition(engine: AnyEngine, state: Any, event: Transition) -> Any:
    """The state after one recorded transition (raises what the engine raises)."""
    if isinstance(event, Move):
        return engine.apply(state, event.seat, engine.parse_move(state, event.seat, event.move))
    if isinstance(event, Batch):
        moves = {
            int(seat): engine.parse_move(state, int(seat), text)
            for seat, text in event.moves.items()
        }
        return engine.apply_batch(state, moves)
    if isinstance(event, StateTalk):
        to = None if event.to is None else tuple(event.to)
        return engine.talk(state, event.seat, event.text, to)
    return engine.settle(state, event.reason)


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
