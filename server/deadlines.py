"""Time: per-decision deadlines, absent seats, join timeouts and game time limits.

Nothing moves a game on its own but this: the ticker asks the store which games are due and
enforces their clocks, and every call on a game enforces them first, so a late call sees what
the deadline already decided.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..transcripts.events import Absent, Event, JoinTimeout
from .referee import Referee
from .sessions import Session, Sessions
from .store.memory import GameBusy

log = logging.getLogger("cogs_arena.deadlines")

ABSENT_AFTER_MISSES = 3


class Deadlines:
    def __init__(self, sessions: Sessions, referee: Referee, clock: Callable[[], float]) -> None:
        self.sessions = sessions
        self.referee = referee
        self.clock = clock

    def enforce(self, session: Session) -> bool:
        """Applies whatever the clock has decided for this game and commits it."""
        record, engine = session.record, session.engine
        due = record.due()
        now = self.clock()
        if due is None or now < due:
            return False
        events: list[Event] = []
        if record.status == "waiting" and record.join_deadline and now >= record.join_deadline:
            empty = [s for s in record.seats if s.kind == "open"]
            if not any(s.invited and s.kind == "llm" for s in record.seats):
                events.append(JoinTimeout(result="forfeit"))
                self.referee.settle(session, "forfeit", events)
            else:
                for open_seat in empty:
                    open_seat.absent = True
                record.status = "active"
                record.decision_started = now
                events.append(JoinTimeout(result="start", absent=[s.index for s in empty]))
                self.referee.advance(session, events)
        if record.status == "active" and record.game_deadline and now >= record.game_deadline:
            self.referee.settle(session, "deadline", events)
        if (
            record.status == "active"
            and record.deadline_seconds
            and now >= record.decision_started + record.deadline_seconds
        ):
            late = [
                seat
                for seat in engine.to_act(session.state)
                if record.seats[seat].kind != "bot" and seat not in record.pending
            ]
            for seat in late[: None if engine.simultaneous else 1]:
                rec = record.seats[seat]
                rec.counters.missed_deadlines += 1
                rec.consecutive_missed += 1
                self.referee.fallback(session, seat, "deadline", None, events)
                if rec.consecutive_missed >= ABSENT_AFTER_MISSES and not rec.absent:
                    rec.absent = True
                    events.append(Absent(seat=seat))
            self.referee.advance(session, events)
        self.sessions.commit(session, events)
        return bool(events)

    def tick(self) -> int:
        """Enforces every clock that has run out; returns how many games changed. The server
        calls it about once a second; tests call it after moving a fake clock.

        With several instances on one store each ticks: a game another instance holds is
        skipped (it enforces the clock itself if its call is a move, or a later tick will), and
        one it does get is reloaded if it moved on and looked at again, so a deadline fires once.
        """
        now = self.clock()
        changed = 0
        for game_id in self.sessions.store.due(now):
            try:
                with self.sessions.open(game_id, wait=False) as session:
                    changed += self.enforce(session)
            except GameBusy:
                continue
            except Exception:  # one broken game must not stop the clock for the others
                log.exception("deadline tick failed for game %s", game_id)
        self.sessions.evict_idle(now)
        return changed

    def start_ticker(self, interval: float = 1.0) -> threading.Event:
        """Runs `tick` on a daemon thread until the returned event is set."""
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(interval):
                try:
                    self.tick()
                except Exception:
                    log.exception("deadline tick failed")

        threading.Thread(target=run, name="cogs-arena-ticker", daemon=True).start()
        return stop
