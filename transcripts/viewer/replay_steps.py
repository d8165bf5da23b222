"""A transcript as a sequence of steps for people to step through (`cogs-arena view`).

Step 0 is the start; step k is the position after the k-th transition. Each step carries, for
every perspective (each seat, then the spectator), the picture of that viewer's view and the
lines that viewer may read of what led to it: attempts, rejections, talk, fallbacks, the move
with its news, and after the last transition the result. What a seat may read is decided by
`redact.visible`, as everywhere else. The file is read after the game, so the spectator's
perspective sees everything (`spectate(full=True)`, every event), as `spectate` does once a
game is over.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engines import AnyEngine, get_engine
from ..evaluation.score import player_name
from ..events import (
    Absent,
    Attempt,
    Batch,
    Event,
    Fallback,
    Footer,
    Header,
    Join,
    JoinTimeout,
    Move,
    Settle,
    StateTalk,
    Talk,
)
from ..redact import visible
from ..replay import Transition, apply_transition

Line = tuple[str, str]
"""(kind, text). Kinds: move, news, talk, attempt, rejected, why, fallback, note, result."""


class ReplayBookError(ValueError):
    """A transcript that cannot be stepped through: names the line and what went wrong."""


@dataclass
class Step:
    decision: int
    seq: int
    lines: list[list[Line]]
    """Per perspective: what that viewer may read of the events that led to this step."""
    pictures: list[str]
    """Per perspective: the SVG of that viewer's view after this step."""


@dataclass
class ReplayBook:
    game: str
    title: str
    seed: int | str
    ruleset: dict[str, Any]
    perspectives: list[str]
    """Seat names in seat order, then "Spectator"."""
    players: list[str]
    """Who played each seat (model label, client or bot), then what the spectator sees."""
    steps: list[Step] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    """The footer's outcome; None for an unfinished game."""

    def shown(self, step: int, perspective: int) -> bool:
        """Whether a perspective stops at this step: the start, a step with something that
        viewer may read, or one whose picture changed for that viewer. A step made only of
        another seat's private line is not one, so a seat's steps give nothing away."""
        if step == 0:
            return True
        here = self.steps[step]
        before = self.steps[step - 1]
        return bool(here.lines[perspective]) or (
            here.pictures[perspective] != before.pictures[perspective]
        )


def build_book(events: Sequence[Event]) -> ReplayBook:
    """Re-simulates the transitions (checking each state digest) into steps. Raises
    ReplayBookError for a record that does not replay."""
    if not events or not isinstance(events[0], Header):
        raise ReplayBookError("line 1: no header")
    header = events[0]
    try:
        engine = get_engine(header.game)
        state: Any = engine.new_game(engine.ruleset(header.ruleset), header.seed)
    except Exception as exc:  # the record names a game or ruleset this install cannot start
        raise ReplayBookError(f"line 1: cannot start the game: {exc}") from None
    if header.rules_version != engine.rules_version:
        raise ReplayBookError(
            f"recorded by {header.game} rules version {header.rules_version}; this engine plays "
            f"version {engine.rules_version}, so its positions cannot be re-created (the record "
            "is not corrupt: `cogs-arena replay` checks what it can)"
        )
    players = [seat.player for seat in header.seats]
    for event in events:
        if isinstance(event, Join) and 0 <= event.seat < len(players):
            players[event.seat] = event.player
    names = [seat.name for seat in header.seats]
    viewers: list[int | None] = [*range(len(names)), None]
    book = ReplayBook(
        game=header.game,
        title=engine.title,
        seed=header.seed,
        ruleset=dict(header.ruleset),
        perspectives=[*names, "Spectator"],
        players=[player_name(p) for p in players] + ["sees everything (after the game)"],
    )
    book.steps.append(Step(0, 0, [[] for _ in viewers], _pictures(engine, state, viewers)))
    pending: list[Event] = []
    for number, event in enumerate(events[1:], start=2):
        if isinstance(event, Footer):
            book.outcome = dict(event.outcome)
        if not isinstance(event, Transition):
            pending.append(event)
            continue
        try:
            state = apply_transition(engine, state, event)
        except Exception as exc:
            raise ReplayBookError(f"line {number}: {event.type} no longer applies: {exc}") from None
        if engine.digest(state) != event.digest:
            raise ReplayBookError(
                f"line {number}: the state after this {event.type} differs from the record "
                "(`cogs-arena replay` lists every mismatch)"
            )
        pending.append(event)
        lines = [_lines(pending, viewer, names) for viewer in viewers]
        book.steps.append(Step(event.decision, event.seq, lines, _pictures(engine, state, viewers)))
        pending = []
    # What follows the last transition (the last views, the footer) belongs to the last step.
    for index, viewer in enumerate(viewers):
        book.steps[-1].lines[index].extend(_lines(pending, viewer, names))
    return book


def _pictures(engine: AnyEngine, state: Any, viewers: list[int | None]) -> list[str]:
    return [
        engine.picture(
            engine.spectate(state, full=True) if viewer is None else engine.observe(state, viewer)
        )
        for viewer in viewers
    ]


def _lines(events: Sequence[Event], viewer: int | None, names: list[str]) -> list[Line]:
    out: list[Line] = []
    for event in events:
        shown = visible(event, viewer, over=True)
        if shown is not None:
            out.extend(describe(shown, names))
    return out


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _target(names: list[str], to: list[int] | None) -> str:
    return "all" if to is None else ", ".join(_name(names, i) for i in to)


def describe(event: Event, names: list[str]) -> list[Line]:
    """The lines of one event as its viewer sees it (already passed through `visible`)."""
    if isinstance(event, Move):
        lines: list[Line] = [("move", f"{_name(names, event.seat)}: {event.move}")]
        return lines + [("news", text) for text in event.news]
    if isinstance(event, Batch):
        lines = [("move", f"{_name(names, int(m))}: {text}") for m, text in event.moves.items()]
        return lines + [("news", text) for text in event.news]
    if isinstance(event, Attempt):
        return _attempt(event, names)
    if isinstance(event, Talk | StateTalk):
        queued = (
            " (queued in the game; delivered next turn)" if isinstance(event, StateTalk) else ""
        )
        who = _name(names, event.seat)
        return [("talk", f"{who} to {_target(names, event.to)}: {event.text}{queued}")]
    if isinstance(event, Fallback):
        more = ", and on to the end of the turn" if event.continued else ""
        text = f"host played {event.move} for {_name(names, event.seat)} ({event.reason}){more}"
        return [("fallback", text)]
    if isinstance(event, Settle):
        return [("note", f"settled: {event.reason}")]
    if isinstance(event, Join):
        return [("note", f"{_name(names, event.seat)} joined ({player_name(event.player)})")]
    if isinstance(event, Absent):
        return [("note", f"{_name(names, event.seat)} is absent: its moves are defaulted")]
    if isinstance(event, JoinTimeout):
        absent = ", ".join(_name(names, i) for i in event.absent) or "nobody"
        return [("note", f"join timeout ({event.result}); absent: {absent}")]
    if isinstance(event, Footer):
        return result_lines(event.outcome, names)
    return []  # the header and recorded views: nothing to read


def _attempt(event: Attempt, names: list[str]) -> list[Line]:
    args = event.args
    who = _name(names, event.seat)
    if event.repeats:
        times = f"{event.repeats} more time{'s' if event.repeats != 1 else ''}"
        return [("note", f"{who} was refused {times} the same way: [{event.code}] {event.reason}")]
    if "move" in args:
        tried = str(args["move"])
    elif "number" in args:
        tried = f"menu #{args['number']}"
    elif "moves" in args and isinstance(args["moves"], list):
        tried = "; ".join(str(m) for m in args["moves"])
    elif "structured" in args:
        tried = json.dumps(args["structured"], ensure_ascii=False)
    else:
        tried = "(nothing)"
    if event.ok:
        lines: list[Line] = [("attempt", f"{who} played {tried}")]
    elif event.counted:
        lines = [("rejected", f"{who} tried {tried}: rejected [{event.code}] {event.reason}")]
    else:
        lines = [("note", f"{who} tried {tried}: refused [{event.code}] {event.reason}")]
    if args.get("why"):
        lines.append(("why", f"why: {args['why']}"))
    return lines


def result_lines(outcome: dict[str, Any], names: list[str]) -> list[Line]:
    winners = ", ".join(_name(names, i) for i in outcome.get("winners", ())) or "nobody"
    scores = outcome.get("scores", [])
    ranks = outcome.get("ranks", [])
    parts = [
        f"{_name(names, i)} {_number(score)} (rank {ranks[i] if i < len(ranks) else '?'})"
        for i, score in enumerate(scores)
    ]
    lines: list[Line] = [("result", f"Game over: {outcome.get('reason', '')}. Won by {winners}.")]
    if parts:
        lines.append(("result", "Scores: " + ", ".join(parts)))
    return lines


def _number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
