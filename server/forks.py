"""Forks: a new game that starts where a finished game stood at a decision, with new seats.

The fork's record is self-contained: its header names the parent, the decision and the state
digest there, and the parent's transitions before that decision are played again as the
fork's first events (through the referee, so their news and redactions are the fork's own).
`replay` checks the digest at that point. Only a finished game can be forked through the
tools: a fork of a running game would start from its hidden draws (same seed), and anyone who
forked it could look at them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engines import GameError, get_engine
from ..transcripts.events import Batch, Event, ForkPoint, Header, Move, Settle, StateTalk
from .errors import BadArgument
from .referee import Referee
from .sessions import Session

Transition = Move | Batch | StateTalk


@dataclass(frozen=True)
class Parent:
    """What a fork needs of its parent: its id, header and events."""

    game_id: str
    header: Header
    events: Sequence[Event]
    finished: bool


def prefix(parent: Parent, at: int) -> list[Transition]:
    """The parent's transitions before decision `at`: moves and resolves of decisions 0..at-1,
    and talk queued in them. A settle ends the game, so no fork reaches past one."""
    engine = get_engine(parent.header.game)
    if parent.header.rules_version != engine.rules_version:
        raise BadArgument(
            f"The game {parent.game_id} was recorded by {parent.header.game} rules version "
            f"{parent.header.rules_version}; this server plays version {engine.rules_version}, "
            "so its positions cannot be re-created to fork from.",
            allowed=f"a game of rules version {engine.rules_version}",
        )
    decisions = sum(1 for e in parent.events if isinstance(e, Move | Batch))
    if at > decisions:
        raise BadArgument(
            f"The game {parent.game_id} has {decisions} decisions; there is no decision {at}.",
            allowed=f"at from 0 to {decisions}",
        )
    out: list[Transition] = []
    for event in parent.events:
        if isinstance(event, Settle):
            break
        if isinstance(event, Transition) and event.decision < at:
            out.append(event)
    return out


def play_prefix(
    session: Session, referee: Referee, transitions: Sequence[Transition], events: list[Event]
) -> None:
    """Plays the parent's transitions on the fork's fresh session, checking each digest."""
    engine, record = session.engine, session.record
    for event in transitions:
        try:
            if isinstance(event, Move):
                move = engine.parse_move(session.state, event.seat, event.move)
                referee.apply(session, event.seat, move, events)
            elif isinstance(event, Batch):
                record.pending = {int(seat): text for seat, text in event.moves.items()}
                referee.apply_batch(session, events)
            else:
                to = None if event.to is None else tuple(event.to)
                session.state = engine.talk(session.state, event.seat, event.text, to)
                events.append(
                    event.model_copy(update={"seq": 0, "wall": None, "decision": record.decision})
                )
        except GameError as exc:
            raise BadArgument(
                f"The parent's record does not replay at its event {event.seq}: {exc}",
                allowed="a parent whose transcript `cogs-arena replay` reports ok",
            ) from None
        if engine.digest(session.state) != event.digest:
            raise BadArgument(
                f"The parent's record does not replay at its event {event.seq}: digest differs.",
                allowed="a parent whose transcript `cogs-arena replay` reports ok",
            )


def fork_point(session: Session, parent: Parent, at: int, transitions: int) -> ForkPoint:
    return ForkPoint(
        parent=parent.game_id,
        at=at,
        transitions=transitions,
        digest=session.engine.digest(session.state),
    )
