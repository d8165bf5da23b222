"""The referee: turns accepted moves into transitions, lets bots act, plays fallbacks, ends games.

Everything here runs on a session inside `Sessions.open` and appends typed events to the step's
list; the caller commits them. Nothing here writes to the store.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..engines import GameError
from ..engines.protocol import LazyLegalMoves
from ..engines.runner import bot_stream
from ..transcripts.events import (
    Batch,
    Event,
    Fallback,
    FallbackReason,
    Footer,
    Move,
    Settle,
    Talk,
)
from ..transcripts.redact import redactions
from .sessions import Session

MAX_FALLBACK_STEPS = 200
UNSEEN_KEPT = 20


class Referee:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock

    def apply(
        self, session: Session, seat: int, move: Any, events: list[Event], after: Any = None
    ) -> None:
        """Applies `move` (or records it, when the caller already has the state `after`)."""
        engine, record = session.engine, session.record
        before = session.state
        session.state = engine.apply(before, seat, move) if after is None else after
        text = engine.move_text(move)
        shown = self._shown(session, {seat: move})
        events.append(
            Move(
                seat=seat,
                move=text,
                digest=engine.digest(session.state),
                decision=record.decision,
                redacted=redactions({seat: text}, shown).get(str(seat), {}),
                news=list(engine.news(before, session.state)),
            )
        )
        self.next_decision(session)

    def apply_batch(self, session: Session, events: list[Event]) -> None:
        engine, record = session.engine, session.record
        moves = {
            seat: engine.parse_move(session.state, seat, text)
            for seat, text in sorted(record.pending.items())
        }
        before = session.state
        queued = engine.queued_talk(before)
        session.state = engine.apply_batch(before, moves)
        texts = {seat: engine.move_text(m) for seat, m in moves.items()}
        events.append(
            Batch(
                moves={str(s): t for s, t in texts.items()},
                digest=engine.digest(session.state),
                decision=record.decision,
                redacted=redactions(texts, self._shown(session, moves)),
                news=list(engine.news(before, session.state)),
            )
        )
        # Lines sent with `talk` during the turn were written for their sender alone: the
        # resolve posts them, so their readers get them now, with the turn, and not before.
        events.extend(
            Talk(
                seat=seat,
                to=None if to is None else list(to),
                text=text,
                audience=None if to is None else sorted({seat, *to}),
            )
            for seat, to, text in queued
        )
        record.pending = {}
        self.next_decision(session)

    @staticmethod
    def _shown(session: Session, moves: dict[int, Any]) -> dict[int, dict[int | None, str | None]]:
        """How each move reads to every other seat and to a spectator."""
        engine = session.engine
        viewers: list[int | None] = [*range(len(session.record.seats)), None]
        return {
            mover: {
                viewer: engine.visible_move_text(move, mover, viewer)
                for viewer in viewers
                if viewer != mover
            }
            for mover, move in moves.items()
        }

    def next_decision(self, session: Session) -> None:
        record = session.record
        record.decision += 1
        record.decision_started = self.clock()
        for seat in record.seats:
            seat.rejections_this_decision = 0
            seat.talk_this_decision = 0

    def fallback(
        self,
        session: Session,
        seat: int,
        reason: FallbackReason,
        rejected: Any,
        events: list[Event],
    ) -> str:
        """Plays the game's default move for the seat, recorded as a fallback that only the seat
        sees; in games whose turn is several moves, plays the rest of the turn (DECISIONS 5.3)."""
        engine, record = session.engine, session.record
        seat_rec = record.seats[seat]
        decision = record.decision
        move = engine.default_move(session.state, seat, rejected)
        texts = [engine.move_text(move)]
        seat_rec.counters.fallbacks += 1
        events.append(
            Fallback(seat=seat, decision=decision, reason=reason, move=texts[0], audience=[seat])
        )
        if engine.simultaneous:
            record.pending[seat] = texts[0]
        else:
            self.apply(session, seat, move, events)
            while engine.fallback_ends_turn and len(texts) < MAX_FALLBACK_STEPS:
                if engine.to_act(session.state) != (seat,):
                    break
                move = engine.default_move(session.state, seat, None)
                texts.append(engine.move_text(move))
                events.append(
                    Fallback(
                        seat=seat,
                        decision=record.decision,
                        reason=reason,
                        move=texts[-1],
                        continued=True,
                        audience=[seat],
                    )
                )
                self.apply(session, seat, move, events)
        played = "; ".join(texts)
        if reason in ("deadline", "absent") and seat_rec.kind != "bot":
            seat_rec.unseen_fallbacks.append(f"decision {decision} ({reason}): {played}")
            del seat_rec.unseen_fallbacks[:-UNSEEN_KEPT]
        return played

    def advance(self, session: Session, events: list[Event]) -> None:
        """Lets bots (and absent seats' fallbacks) act until a seat with a client must decide
        or the game ends."""
        engine, record = session.engine, session.record
        if record.status == "waiting":
            return
        while True:
            to_act = engine.to_act(session.state)
            if not to_act:
                self.finish(session, events)
                return
            if engine.simultaneous:
                for seat in to_act:
                    if seat in record.pending:
                        continue
                    if record.seats[seat].kind == "bot":
                        move, _ = self._bot_move(session, seat, events)
                        record.pending[seat] = engine.move_text(move)
                    elif record.seats[seat].absent:
                        self.fallback(session, seat, "absent", None, events)
                if not all(seat in record.pending for seat in to_act):
                    return
                self.apply_batch(session, events)
            else:
                seat = to_act[0]
                kind = record.seats[seat].kind
                if kind != "bot" and record.seats[seat].absent:
                    self.fallback(session, seat, "absent", None, events)
                    continue
                if kind != "bot":
                    return
                move, after = self._bot_move(session, seat, events)
                self.apply(session, seat, move, events, after)

    def _bot_move(self, session: Session, seat: int, events: list[Event]) -> tuple[Any, Any]:
        """The bot's move, checked once: for a sequential game also the state it leads to, so
        the move is not applied a second time. A bot bug becomes a recorded fallback."""
        engine, record = session.engine, session.record
        bot = engine.bots()[record.seats[seat].bot or "random"]
        observation = engine.observe(session.state, seat)
        menu = LazyLegalMoves(partial(engine.legal_moves, session.state, seat))
        text = bot(observation, menu, bot_stream(record.seed, seat, record.decision))
        try:
            move = engine.parse_move(session.state, seat, text)
            if engine.simultaneous:
                engine.validate(session.state, seat, move)
                return move, None
            return move, engine.apply(session.state, seat, move)
        except GameError:
            record.seats[seat].counters.fallbacks += 1
            default = engine.default_move(session.state, seat, None)
            events.append(
                Fallback(
                    seat=seat,
                    decision=record.decision,
                    reason="bot_error",
                    move=engine.move_text(default),
                    audience=[seat],
                )
            )
            return default, None

    def finish(self, session: Session, events: list[Event]) -> None:
        record, engine = session.record, session.engine
        if record.status == "over":
            return
        outcome = engine.outcome(session.state)
        assert outcome is not None
        record.status = "over"
        record.pending = {}
        events.append(
            Footer(
                outcome=outcome.to_json(),
                digest=engine.digest(session.state),
                counters={str(s.index): s.counters.model_dump() for s in record.seats},
                wall={"ended": self.clock()},  # with the header's `created`: a game's wall time
            )
        )

    def settle(self, session: Session, reason: str, events: list[Event]) -> None:
        """Ends the game now (deadline, forfeit), scored as it stands."""
        if session.record.status == "over":
            return
        session.record.status = "active"  # a waiting game that ends still gets its footer
        session.state = session.engine.settle(session.state, reason)
        events.append(
            Settle(
                reason=reason,
                digest=session.engine.digest(session.state),
                decision=session.record.decision,
            )
        )
        session.record.pending = {}
        self.next_decision(session)
        self.advance(session, events)
