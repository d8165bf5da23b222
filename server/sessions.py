"""Live sessions: a cache of games in memory over the store, and the one way to change them.

Every call on a game runs inside `Sessions.open`, which holds the game's lock and keeps a copy of
the record and state as the store has them. A step is made on the live session and saved with
`commit`; if anything fails before the commit succeeds, the session is put back exactly as the
store holds it, so the live game never runs ahead of (or apart from) the record. Idle sessions
are dropped from memory and reloaded from the store when next used.

When several server instances share the store, `open` also holds the game in the store for the
call and compares versions: a copy that another instance moved on is reloaded first, so every
step is made on the latest state and none is overwritten. A commit whose outcome the store cannot
tell (`OutcomeUnknown`) drops the session from memory: the next call reads what the store holds.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..engines import AnyEngine, get_engine
from ..engines.canonical import canonical_json
from ..engines.protocol import LegalMoves
from ..transcripts.events import Attempt, Event, Header, Talk, ViewShown
from ..transcripts.io import TranscriptDir
from .changes import Change
from .errors import OutcomeUnknown, ServiceError, StoreUnavailable, UnknownGameId
from .limits import Limits
from .repeats import summaries
from .store.memory import Commit, Store, StoredRequest
from .store.records import GameRecord

log = logging.getLogger("cogs_arena.sessions")


class NotSaved(ServiceError):
    code = "not_saved"


@dataclass
class Session:
    record: GameRecord
    engine: AnyEngine
    state: Any
    lock: threading.RLock = field(default_factory=threading.RLock)
    chat: list[Talk] | None = None
    """Host-kept talk lines, read from the store on first use."""
    touched: float = 0.0
    evicted: bool = False
    transcript_behind: bool = False
    """The transcript file missed a write; it is laid anew from the store at the next commit."""
    saved: tuple[bytes, Any, int, int] | None = None
    transcript_checked: bool = False
    """Whether the transcript's end was compared with the record, under the game's lock (where
    another instance cannot be between its commit and its append)."""
    version: int = 0
    """The store's version of the game this copy is: one more with every commit."""
    menus: dict[int, tuple[Any, LegalMoves]] = field(default_factory=dict, repr=False)
    """Per seat, the last state whose legal moves were built and those moves."""
    told: dict[int, str] = field(default_factory=dict, repr=False)
    """Per seat, the menu instructions its menu text last gave (said once, not every step)."""

    def legal_moves(self, state: Any, seat: int) -> LegalMoves:
        """The seat's legal moves at `state`, built once per state: a state is a value (every
        transition makes a new one), so `legal_moves` then `play number=N`, or the pages of a
        menu, build it once."""
        kept = self.menus.get(seat)
        if kept is not None and kept[0] is state:
            return kept[1]
        built = self.engine.legal_moves(state, seat)
        self.menus[seat] = (state, built)
        return built


def load_session(store: Store, game_id: str) -> Session:
    loaded = store.load(game_id)
    if loaded is None:
        raise UnknownGameId(
            f"No game with id {game_id!r}.",
            allowed="a game_id returned by new_game (list_games shows the games to start)",
        )
    engine = get_engine(loaded.record.game)
    state = engine.state_from_json(json.loads(loaded.state))
    return Session(loaded.record, engine, state, version=loaded.version)


class Sessions:
    def __init__(
        self,
        store: Store,
        transcripts: TranscriptDir,
        limits: Limits,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.transcripts = transcripts
        self.limits = limits
        self.clock = clock
        self.listeners: list[Callable[[Change], None]] = []
        self._live: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        store.watch(self._changed_elsewhere)

    def _changed_elsewhere(self, game_id: str) -> None:
        """Another server instance committed to this game: its waiters hear of it here too
        (all of them: what it wrote is not known here without reading it)."""
        for listener in self.listeners:
            listener(Change(game_id))

    def __len__(self) -> int:
        return len(self._live)

    def _get(self, game_id: str) -> Session:
        with self._lock:
            session = self._live.get(game_id)
            if session is not None:
                self._live.move_to_end(game_id)
                return session
        loaded = load_session(self.store, game_id)
        with self._lock:
            # Another thread may have loaded it meanwhile: one session per game, always.
            session = self._live.setdefault(game_id, loaded)
            self._live.move_to_end(game_id)
        self._trim()
        return session

    def peek(self, game_id: str) -> Session | None:
        """The live session if it is in memory; never loads."""
        with self._lock:
            return self._live.get(game_id)

    def add(self, session: Session) -> None:
        with self._lock:
            self._live[session.record.game_id] = session
        self._trim()

    def _check_transcript(self, session: Session) -> None:
        name = session.record.transcript_name
        if self.transcripts.last_seq(name) != session.record.event_count:
            session.transcript_behind = True
        session.transcript_checked = True

    def _refresh(self, session: Session) -> None:
        """Makes a cached copy that another instance moved on the store's again."""
        game_id, seen = session.record.game_id, session.record.event_count
        fresh = load_session(self.store, game_id)
        session.record, session.state, session.version = fresh.record, fresh.state, fresh.version
        if session.chat is not None:  # the talk kept so far stands: only the new lines are read
            news = self.store.events(game_id, after=seen)
            session.chat.extend(e for e in news if isinstance(e, Talk))
        self._check_transcript(session)

    @contextmanager
    def open(self, game_id: str, *, wait: bool = True) -> Iterator[Session]:
        """Holds the game's lock (and, on a shared store, the game in the store: without `wait`,
        GameBusy if another instance has it); rolls the session back to the store's copy on any
        failure."""
        while True:
            session = self._get(game_id)
            session.lock.acquire()
            if not session.evicted:
                break
            session.lock.release()
        try:
            if session.saved is not None:  # a call inside a call on this thread: held already
                session.touched = self.clock()
                yield session
                return
            with self.store.hold(game_id, wait=wait) as version:
                if version is not None and version != session.version:
                    self._refresh(session)
                elif not session.transcript_checked:
                    self._check_transcript(session)
                session.saved = _snapshot(session)
                session.touched = self.clock()
                try:
                    yield session
                except OutcomeUnknown:
                    # The store may hold the step or not: the next call reads the game anew.
                    _restore(session)
                    self._evict(session)
                    raise
                except BaseException:
                    _restore(session)
                    raise
                finally:
                    session.saved = None
        finally:
            session.lock.release()

    def commit(
        self,
        session: Session,
        events: Sequence[Event],
        requests: Sequence[StoredRequest] = (),
        *,
        force: bool = False,
    ) -> None:
        """Saves a step: numbers its events, writes record, state, events and request results in
        one transaction, then the transcript, then tells the listeners."""
        if not events and not requests and not force:
            return
        record = session.record
        if events:  # refusals counted since their first record are stored first
            events = [*summaries(record), *events]
        for event in events:
            record.event_count += 1
            event.seq = record.event_count
        record.updated = self.clock()
        state = canonical_json(session.engine.state_to_json(session.state))
        version = session.version + 1
        step = Commit(record, state, list(events), list(requests), version)
        try:
            self.store.commit(step)
        except OutcomeUnknown:
            raise  # not "nothing changed": it may have
        except Exception as exc:
            if isinstance(exc, StoreUnavailable):  # the store has logged why, in one line
                log.warning("commit failed for game %s: [%s]", record.game_id, exc.code)
            else:
                log.exception("commit failed for game %s", record.game_id)
            raise NotSaved(
                "The server could not save this step, so nothing changed: the game is as it was.",
                allowed="try the same call again (with the same request_id, if you gave one)",
            ) from exc
        session.version = version
        if session.saved is not None:
            session.saved = _snapshot(session)
        if session.chat is not None:
            session.chat.extend(e for e in events if isinstance(e, Talk))
        if step.unheld:
            # Appending now could land out of order with another instance's writes: the file is
            # laid anew from the store at this game's next step here, or is found short there.
            session.transcript_behind = True
        else:
            self._write_transcript(session, events)
        change = change_of(session, events)
        for listener in self.listeners:
            listener(change)

    def _write_transcript(self, session: Session, events: Sequence[Event]) -> None:
        name = session.record.transcript_name
        try:
            if session.transcript_behind:
                self.transcripts.rewrite(name, self.store.events(session.record.game_id))
                session.transcript_behind = False
            elif events:
                self.transcripts.append(name, events)
        except Exception:
            # The store holds the step; the file is a copy of it and is mended from the store
            # at the next commit or at the next start.
            log.exception("transcript write failed for %s", name)
            session.transcript_behind = True

    def repair_transcript(self, record: GameRecord) -> bool:
        """Lays the transcript anew from the store if it does not end where the store does."""
        name = record.transcript_name
        if self.transcripts.last_seq(name) == record.event_count:
            return False
        self.transcripts.rewrite(name, self.store.events(record.game_id))
        return True

    def live_ids(self) -> list[str]:
        with self._lock:
            return list(self._live)

    def evict_idle(self, now: float) -> int:
        with self._lock:
            idle = [s for s in self._live.values() if now - s.touched >= self.limits.idle_seconds]
        return sum(1 for s in idle if self._evict(s))

    def _trim(self) -> None:
        with self._lock:
            extra = len(self._live) - self.limits.max_sessions_in_memory
            oldest = list(self._live.values())[: max(extra, 0)]
        for session in oldest:
            self._evict(session)

    def _evict(self, session: Session) -> bool:
        # Only a session nobody is using can go: its memory then equals the store.
        if not session.lock.acquire(blocking=False):
            return False
        try:
            with self._lock:
                if self._live.get(session.record.game_id) is session:
                    del self._live[session.record.game_id]
            session.evicted = True
            return True
        finally:
            session.lock.release()


CALL_RECORDS = (Attempt, ViewShown, Header)
"""Events that record a call, never a line of anyone's log: no news for a `wait`."""


def change_of(session: Session, events: Sequence[Event]) -> Change:
    """Whose `wait` a commit may answer: a wait is ready when its seat must act, the game is
    over, or a log line its seat may see arrived, so the seats in the new lines' audiences and
    the seats now to act are the only ones with news."""
    record = session.record
    seats: set[int] = set()
    for event in events:
        if isinstance(event, CALL_RECORDS):
            continue
        if event.audience is None:
            return Change(record.game_id)
        seats.update(event.audience)
    if record.status == "over":
        return Change(record.game_id)
    if record.status == "active":
        to_act = session.engine.to_act(session.state)
        seats.update(seat for seat in to_act if seat not in record.pending)
    return Change(record.game_id, frozenset(seats))


def _snapshot(session: Session) -> tuple[bytes, Any, int, int]:
    # The record as JSON: a tenth of a deep copy's cost, and a rollback (rare) reads it back.
    chat = -1 if session.chat is None else len(session.chat)
    return session.record.model_dump_json().encode(), session.state, chat, session.version


def _restore(session: Session) -> None:
    assert session.saved is not None
    record, state, chat, session.version = session.saved
    session.record = GameRecord.model_validate_json(record)
    session.state = state
    if session.chat is not None:
        del session.chat[max(chat, 0) :]
        if chat < 0:
            session.chat = None
