"""GameService: the plain service under the MCP adapter. A thin facade: every argument is checked
once by its tool's input model (`inputs`), then the call goes to the part that owns it: the lobby
(starting and joining), the desk (play, talk), the presenter (views, menus, logs) and the clock
(deadlines). It knows nothing of MCP.

Each tool has one entry taking its input model as the adapter validated it (`play_input(args)`),
so an argument has one shape on its way in; the keyword form beside it (`play(game_id, ...)`),
for tests and scripts, builds that model once and calls the same entry."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..transcripts.events import Footer, Header
from ..transcripts.io import TranscriptDir, read_transcript
from .changes import Change
from .deadlines import Deadlines
from .errors import BadArgument, BadCredential, UnknownGameId
from .forks import Parent
from .inputs import (
    MAX_LABEL_CHARS,
    JoinGameInput,
    LegalMovesInput,
    LogInput,
    NewGameInput,
    PlayInput,
    ShowInput,
    SpectateInput,
    Submission,
    TalkInput,
    WaitInput,
    clean_label,
    validated,
)
from .labels import checked
from .limits import Limits
from .lobby import Lobby
from .models import (
    GameList,
    LogEvent,
    LogResult,
    Menu,
    NewGame,
    PlayResult,
    TalkResult,
    View,
    WaitResult,
)
from .plays import Desk
from .presenter import Presenter
from .referee import Referee
from .seats import authenticate, check_can_act, hash_secret
from .sessions import Session, Sessions
from .store.memory import Store

log = logging.getLogger("cogs_arena.service")

__all__ = ["GameService", "ResumeReport", "Submission"]


@dataclass
class ResumeReport:
    games: int = 0
    unfinished: int = 0
    transcripts_repaired: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Games that could not be loaded: reported and skipped, never a reason not to start."""


class GameService:
    def __init__(
        self,
        store: Store,
        transcripts_dir: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        default_deadline: float | None = None,
        default_join_timeout: float = 300.0,
        limits: Limits | None = None,
        transcripts: TranscriptDir | None = None,
        default_labels: Mapping[str, str] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or Limits()
        self.transcripts = transcripts or TranscriptDir(transcripts_dir)
        self.sessions = Sessions(store, self.transcripts, self.limits, clock)
        self.referee = Referee(clock)
        self.presenter = Presenter(store, self.limits)
        self.deadlines = Deadlines(self.sessions, self.referee, clock)
        self.lobby = Lobby(
            self.sessions,
            self.referee,
            self.presenter,
            self.limits,
            clock,
            default_deadline=default_deadline,
            default_join_timeout=default_join_timeout,
            default_labels=checked("default_labels", default_labels or {}),
        )
        self.desk = Desk(self.sessions, self.referee, self.presenter, self.deadlines, self.limits)
        self.resume_report = self.resume()

    def add_listener(self, listener: Callable[[Change], None]) -> None:
        """`listener(change)` runs after every commit to a game (on the writing thread)."""
        self.sessions.listeners.append(listener)

    # ---- lifecycle -------------------------------------------------------------------------

    def resume(self) -> ResumeReport:
        """Mends every game's transcript from the store, finished games included, and restarts
        the clocks of unfinished games (nobody is defaulted for the time the server was down).
        A game that cannot be loaded is reported and skipped. While other instances run on a
        shared store the service was not down, and the clocks run on."""
        report = ResumeReport()
        now = self.clock()
        restart_clocks = self.store.peers() == 0
        for game_id in self.store.game_ids():
            report.games += 1
            try:
                record = self.store.get(game_id)
                assert record is not None
                if self.sessions.repair_transcript(record):
                    report.transcripts_repaired.append(game_id)
                if record.status == "over":
                    continue
                report.unfinished += 1
                if not restart_clocks:
                    continue
                with self.sessions.open(game_id) as session:
                    if session.record.due() is not None:
                        session.record.decision_started = now
                        self.sessions.commit(session, [], force=True)
            except Exception as exc:
                log.exception("game %s could not be resumed", game_id)
                report.problems.append(f"{game_id}: {type(exc).__name__}: {exc}")
        return report

    # ---- catalogue and lobby ---------------------------------------------------------------

    def list_games(self) -> GameList:
        return self.lobby.list_games()

    def new_game(
        self,
        game: str,
        *,
        client_name: str | None = None,
        client_version: str | None = None,
        **kwargs: Any,
    ) -> NewGame:
        args = validated(NewGameInput, game=game, **kwargs)
        return self.new_game_input(args, client_name=client_name, client_version=client_version)

    def new_game_input(
        self,
        args: NewGameInput,
        *,
        client_name: str | None = None,
        client_version: str | None = None,
    ) -> NewGame:
        return self.lobby.new_game(args, *_client(client_name, client_version))

    def fork_transcript(self, path: Path, at: int, **kwargs: Any) -> NewGame:
        """`cogs-arena fork`: a new game on this server's store from a transcript file (any
        game, finished or not: the operator holds the whole record already)."""
        events = read_transcript(path)
        header = events[0] if events else None
        if not isinstance(header, Header):
            raise BadArgument(f"{path} has no header.", allowed="a cogs-arena transcript")
        parent_id = path.stem.split("-", 1)[-1]
        finished = isinstance(events[-1], Footer)
        parent = Parent(parent_id, header, events, finished=finished)
        args = validated(NewGameInput, game=header.game, fork_of=parent_id, at=at, **kwargs)
        return self.lobby.new_game(args, None, None, parent=parent)

    def join_game(
        self,
        invitation: str,
        *,
        client_name: str | None = None,
        client_version: str | None = None,
        **kwargs: Any,
    ) -> NewGame:
        args = validated(JoinGameInput, invitation=invitation, **kwargs)
        return self.join_game_input(args, client_name=client_name, client_version=client_version)

    def join_game_input(
        self,
        args: JoinGameInput,
        *,
        client_name: str | None = None,
        client_version: str | None = None,
    ) -> NewGame:
        return self.lobby.join_game(args, *_client(client_name, client_version))

    # ---- reads: they write nothing but a view a seat has not seen before ------------------

    def show(
        self, game_id: str, credential: str, *, detail: str = "full", image: bool = False
    ) -> View:
        args = validated(
            ShowInput, game_id=game_id, credential=credential, detail=detail, image=image
        )
        return self.show_input(args)

    def show_input(self, args: ShowInput) -> View:
        with self.sessions.open(args.game_id) as session:
            seat = authenticate(session, args.credential)
            self.deadlines.enforce(session)
            events: list[Any] = []
            view = self.presenter.view(session, seat, events, args.detail, args.image)
            self.sessions.commit(session, events)
            return view

    def legal_moves(self, game_id: str, credential: str, **kwargs: Any) -> Menu:
        args = validated(LegalMovesInput, game_id=game_id, credential=credential, **kwargs)
        return self.legal_moves_input(args)

    def legal_moves_input(self, args: LegalMovesInput) -> Menu:
        with self.sessions.open(args.game_id) as session:
            seat = authenticate(session, args.credential)
            self.deadlines.enforce(session)
            check_can_act(session, seat)
            return self.presenter.menu(
                session, seat, args.kind, args.contains, args.page, args.page_size
            )

    def log(self, game_id: str, credential: str, **kwargs: Any) -> LogResult:
        args = validated(LogInput, game_id=game_id, credential=credential, **kwargs)
        return self.log_input(args)

    def log_input(self, args: LogInput) -> LogResult:
        with self.sessions.open(args.game_id) as session:
            seat = authenticate(session, args.credential)
            events, cursor = self.presenter.log(session, seat, args.after, args.limit)
            return LogResult(game_id=args.game_id, events=events, cursor=cursor)

    def poll(self, game_id: str, credential: str, after: int | None = 0) -> WaitResult:
        """What `wait` reports, without waiting: ready when the seat must act, the game is over,
        or events the seat may see arrived after `after` (None: after the seat's last view)."""
        return self.poll_seat(game_id, credential, after)[1]

    def poll_seat(
        self, game_id: str, credential: str, after: int | None = None
    ) -> tuple[int, WaitResult]:
        """`poll`, and the seat the credential holds: a `wait` sleeps through changes that
        have no news for that seat."""
        args = validated(WaitInput, game_id=game_id, credential=credential, after=after)
        with self.sessions.open(args.game_id) as session:
            seat = authenticate(session, args.credential)
            self.deadlines.enforce(session)
            record = session.record
            # Without a cursor, what the seat has not seen yet: not the whole game again.
            after = record.seats[seat].seen_seq if args.after is None else args.after
            to_act = session.engine.to_act(session.state)
            your_turn = record.status == "active" and seat in to_act and seat not in record.pending
            items: list[LogEvent] = []
            cursor = after
            if record.event_count > after:
                items, cursor = self.presenter.log(session, seat, after, self.limits.wait_events)
            reason = (
                "game_over"
                if record.status == "over"
                else "your_turn"
                if your_turn
                else "events"
                if items
                else None
            )
            return seat, WaitResult(
                game_id=record.game_id,
                ready=reason is not None,
                reason=reason or "timeout",
                your_turn=your_turn,
                status=record.status,
                decision=record.decision,
                events=items,
                cursor=max(cursor, after),
            )

    def game_ruleset(self, game_id: str) -> tuple[str, Any]:
        """A game's name and ruleset, for the rules of its era (a ruleset is no secret)."""
        with self.sessions.open(game_id) as session:
            return session.record.game, session.engine.ruleset_of(session.state)

    def spectate_with_code(self, code: str, *, image: bool = False) -> View:
        return self.spectate_input(validated(SpectateInput, spectator_code=code, image=image))

    def spectate_input(self, args: SpectateInput) -> View:
        with self._spectating(args.spectator_code) as session:
            self.deadlines.enforce(session)
            return self.presenter.spectator_view(session, args.image)

    def spectator_log(
        self, code: str, after: int, limit: int
    ) -> tuple[list[LogEvent], int, list[str]]:
        """What a spectator may read of the log after `after` (public lines while the game
        runs, everything once it is over), the new cursor, and the seat names."""
        args = validated(SpectateInput, spectator_code=code)
        with self._spectating(args.spectator_code) as session:
            items, cursor = self.presenter.log(session, None, after, limit)
            return items, cursor, [seat.name for seat in session.record.seats]

    @contextmanager
    def _spectating(self, code: str) -> Iterator[Session]:
        bad = BadCredential("That spectator code is not valid.", allowed="a code from new_game")
        try:
            with self.sessions.open(code.split(".", 1)[0]) as session:
                stored = session.record.spectator_hash
                if not stored or stored != hash_secret(code):
                    raise bad
                yield session
        except UnknownGameId:
            raise bad from None

    # ---- acting ----------------------------------------------------------------------------

    def play(
        self,
        game_id: str,
        credential: str,
        submission: Submission,
        *,
        why: str | None = None,
        request_id: str | None = None,
        expect_decision: int | None = None,
        detail: str = "brief",
        image: bool = False,
        raise_rejection: bool = True,
    ) -> PlayResult:
        """A play. Every rejection is in the answer (`error`, `rejected`, `fallback`,
        `tries_left`); with `raise_rejection` one that left nothing applied is raised instead."""
        args = validated(
            PlayInput,
            game_id=game_id,
            credential=credential,
            move=submission.move,
            number=submission.number,
            moves=None if submission.moves is None else list(submission.moves),
            structured=submission.structured,
            why=why,
            request_id=request_id,
            decision=expect_decision,
            detail=detail,
            image=image,
        )
        return self.play_input(args, raise_rejection=raise_rejection)

    def play_input(self, args: PlayInput, *, raise_rejection: bool = True) -> PlayResult:
        """`play` for the tool's input as it was validated: nothing is validated again."""
        return self.desk.play(args, raise_rejection=raise_rejection)

    def talk(
        self, game_id: str, credential: str, text: str, *, to: Sequence[str] | None = None
    ) -> TalkResult:
        args = validated(
            TalkInput,
            game_id=game_id,
            credential=credential,
            text=text,
            to=None if to is None else list(to),
        )
        return self.talk_input(args)

    def talk_input(self, args: TalkInput) -> TalkResult:
        return self.desk.talk(args)

    # ---- host actions and time -------------------------------------------------------------

    def settle(self, game_id: str, reason: str) -> View:
        """Host action: end the game now (deadline, forfeit)."""
        with self.sessions.open(game_id) as session:
            events: list[Any] = []
            self.referee.settle(session, reason, events)
            self.sessions.commit(session, events)
            return self.presenter.spectator_view(session)

    def tick(self) -> int:
        return self.deadlines.tick()

    def start_ticker(self, interval: float = 1.0) -> threading.Event:
        return self.deadlines.start_ticker(interval)


def _client(name: str | None, version: str | None) -> tuple[str | None, str | None]:
    return clean_label(name, MAX_LABEL_CHARS), clean_label(version, MAX_LABEL_CHARS)
