"""GameService: sessions, seat credentials, bots, retries and fallbacks, the store and the
transcripts. It knows nothing of MCP; the adapter in `mcp_app` is a thin layer over it."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .. import __version__
from ..engines import Engine, GameError, GameOver, IllegalMove, MalformedMove, NotYourTurn
from ..engines.protocol import LazyLegalMoves, LegalMoves
from ..engines.registry import _ENGINES, get_engine
from ..engines.runner import bot_stream
from ..transcripts.format import SCHEMA_VERSION
from ..transcripts.io import TranscriptFile
from .errors import AlreadySubmitted, BadArgument, BadCredential, StaleDecision, UnknownGameId
from .models import (
    GameInfo,
    GameList,
    LogEvent,
    LogResult,
    Menu,
    MenuEntry,
    NewGame,
    PlayResult,
    Rejection,
    TalkResult,
    View,
    WaitResult,
)
from .records import GameRecord, SeatRecord
from .store import Store

log = logging.getLogger("cogs_arena.service")

MAX_MOVE_CHARS = 4000
MAX_MOVES_PER_CALL = 500
MAX_WHY_CHARS = 2000
MAX_TALK_CHARS = 1000
MAX_LABEL_CHARS = 200
MAX_ID_CHARS = 100
CHAT_IN_VIEW = 10
REQUEST_IDS_KEPT = 16
ABSENT_AFTER_MISSES = 3
MAX_FALLBACK_STEPS = 200
OPEN_SEAT = "open"
Event = dict[str, Any]


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def check_length(name: str, value: str | None, limit: int) -> None:
    if value is not None and len(value) > limit:
        raise BadArgument(
            f"{name} is {len(value)} characters long.", allowed=f"at most {limit} characters"
        )


@dataclass
class Session:
    record: GameRecord
    engine: Engine[Any, Any]
    state: Any
    lock: threading.RLock = field(default_factory=threading.RLock)
    transcript: TranscriptFile = field(init=False)
    chat: list[Event] | None = None
    """Host-kept talk events, loaded from the store on first use (not rescanned per view)."""

    def __post_init__(self) -> None:
        self.transcript = TranscriptFile(self.record.transcript_path)


@dataclass
class Submission:
    """One `play` call's move(s), in whichever form the seat gave them."""

    move: str | None = None
    number: int | None = None
    moves: Sequence[str] | None = None
    structured: Any = None

    def items(self) -> list[tuple[str, Any]]:
        given = [
            ("move", self.move),
            ("number", self.number),
            ("moves", self.moves),
            ("structured", self.structured),
        ]
        present = [(k, v) for k, v in given if v is not None]
        if len(present) != 1:
            raise BadArgument(
                "Give exactly one of move, number, moves or structured "
                f"(got {', '.join(k for k, _ in present) or 'none'}).",
                allowed="move='<notation>' | number=<menu number> | moves=[...] | structured={...}",
            )
        kind, value = present[0]
        if kind == "moves":
            if not value:
                raise BadArgument("moves is empty.", allowed="a list of 1 or more move notations")
            if len(value) > MAX_MOVES_PER_CALL:
                raise BadArgument(
                    f"{len(value)} moves in one call.", allowed=f"at most {MAX_MOVES_PER_CALL}"
                )
            for text in value:
                check_length("a move", text, MAX_MOVE_CHARS)
            return [("move", text) for text in value]
        if kind == "move":
            check_length("move", value, MAX_MOVE_CHARS)
        if kind == "structured":
            check_length("structured", repr(value), MAX_MOVE_CHARS)
        return [(kind, value)]


class GameService:
    def __init__(
        self,
        store: Store,
        transcripts_dir: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        default_deadline: float | None = None,
        default_join_timeout: float = 300.0,
    ) -> None:
        self.store = store
        self.transcripts_dir = Path(transcripts_dir)
        self.clock = clock
        self.default_deadline = default_deadline
        self.default_join_timeout = default_join_timeout
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._listeners: list[Callable[[str], None]] = []
        self.resume()

    def add_listener(self, listener: Callable[[str], None]) -> None:
        """`listener(game_id)` is called after every write to a game (from the writing
        thread), so adapters can wake waiters and notify subscribers."""
        self._listeners.append(listener)

    # ---- lifecycle -------------------------------------------------------------------------

    def resume(self) -> int:
        """Loads every unfinished game from the store and mends transcripts a crash cut short."""
        count = 0
        for game_id in self.store.game_ids(["waiting", "active"]):
            session = self._session(game_id)
            with session.lock:
                self._reconcile_transcript(session)
                # Deadlines restart: nobody should be defaulted for the time the server was down.
                session.record.decision_started = self.clock()
            count += 1
        return count

    def _reconcile_transcript(self, session: Session) -> None:
        if session.transcript.line_count() != session.record.event_count:
            session.transcript.rewrite(self.store.events(session.record.game_id))

    def _session(self, game_id: str) -> Session:
        check_length("game_id", game_id, MAX_ID_CHARS)
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                return session
            record = self.store.get(game_id)
            if record is None:
                raise UnknownGameId(
                    f"No game with id {game_id!r}.",
                    allowed="a game_id returned by new_game (list_games shows the games to start)",
                )
            engine = get_engine(record.game)
            session = Session(record, engine, engine.state_from_json(record.state))
            self._sessions[game_id] = session
            return session

    # ---- catalogue -------------------------------------------------------------------------

    def list_games(self) -> GameList:
        infos = []
        for name in _ENGINES:
            try:
                engine = get_engine(name)
            except (GameError, ImportError):
                log.exception("game %s is registered but cannot be loaded", name)
                continue
            ruleset = engine.ruleset()
            infos.append(
                GameInfo(
                    name=name,
                    title=engine.title,
                    summary=engine.summary,
                    seats=list(engine.seat_names(ruleset)),
                    simultaneous=engine.simultaneous,
                    bots=list(engine.bots()),
                    default_bot=default_bot(engine),
                    ruleset_defaults=ruleset.model_dump(mode="json"),
                )
            )
        return GameList(games=infos)

    # ---- starting a game -------------------------------------------------------------------

    def new_game(
        self,
        game: str,
        *,
        seed: int | str | None = None,
        ruleset: dict[str, Any] | None = None,
        seat: int | str | None = None,
        bots: Sequence[str] | str | None = None,
        client_name: str | None = None,
        client_version: str | None = None,
        model: str | None = None,
        prompt: str | None = None,
        deadline_seconds: float | None = None,
        join_timeout: float | None = None,
        time_limit: float | None = None,
    ) -> NewGame:
        check_length("game", game, MAX_ID_CHARS)
        for name, number in (
            ("deadline_seconds", deadline_seconds),
            ("join_timeout", join_timeout),
            ("time_limit", time_limit),
        ):
            if number is not None and not 0 < number <= 30 * 24 * 3600:
                raise BadArgument(f"{name}={number}.", allowed="seconds, > 0 and <= 30 days")
        for name, value in (
            ("client_name", client_name),
            ("client_version", client_version),
            ("model", model),
            ("prompt", prompt),
        ):
            check_length(name, value, MAX_LABEL_CHARS)
        if isinstance(seed, str):
            check_length("seed", seed, MAX_ID_CHARS)
        engine = get_engine(game)
        rules = engine.ruleset(ruleset)
        if seed is None:
            seed = secrets.randbelow(2**31)
        names = engine.seat_names(rules)
        own = self._pick_seat(engine, rules, seed, names, seat)
        bot_names = self._pick_bots(engine, names, own, bots)
        state = engine.new_game(rules, seed)
        credential = new_secret()
        now = self.clock()
        seats = []
        for index, name in enumerate(names):
            if index == own:
                seats.append(
                    SeatRecord(
                        index=index,
                        name=name,
                        kind="llm",
                        credential_hash=hash_secret(credential),
                        client_name=client_name,
                        client_version=client_version,
                        model_label=model,
                        prompt_label=prompt,
                    )
                )
            elif bot_names[index] == OPEN_SEAT:
                seats.append(SeatRecord(index=index, name=name, kind="open"))
            else:
                seats.append(SeatRecord(index=index, name=name, kind="bot", bot=bot_names[index]))
        game_id = secrets.token_hex(8)
        invitations: dict[str, str] = {}
        for seat_rec in seats:
            if seat_rec.kind == "open":
                code = f"{game_id}.{new_secret()}"
                seat_rec.invited = True
                seat_rec.invitation_hash = hash_secret(code)
                invitations[seat_rec.name] = code
        spectator_code = f"{game_id}.{new_secret()}"
        path = self.transcripts_dir / f"{game}-{game_id}.jsonl"
        record = GameRecord(
            game_id=game_id,
            game=game,
            seed=seed,
            ruleset=rules.model_dump(mode="json"),
            seats=seats,
            state=engine.state_to_json(state),
            transcript_path=str(path),
            created=now,
            updated=now,
            decision_started=now,
            status="waiting" if invitations else "active",
            spectator_hash=hash_secret(spectator_code),
            deadline_seconds=deadline_seconds if deadline_seconds else self.default_deadline,
            join_deadline=(
                now + (join_timeout or self.default_join_timeout) if invitations else None
            ),
            game_deadline=now + time_limit if time_limit else None,
        )
        session = Session(record, engine, state)
        header: Event = {
            "type": "header",
            "schema": SCHEMA_VERSION,
            "server_version": __version__,
            "game": game,
            "ruleset": record.ruleset,
            "seed": seed,
            "seats": [{"index": s.index, "name": s.name, "player": s.player()} for s in seats],
            "wall": {"created": now},
        }
        with session.lock:
            events: list[Event] = [header]
            self._advance(session, events)
            view = self._view(session, own, events)
            self._commit(session, events)
        with self._lock:
            self._sessions[game_id] = session
        return NewGame(
            game_id=game_id,
            seat=own,
            seat_name=names[own],
            credential=credential,
            seed=seed,
            transcript=str(path),
            seats=[{"index": s.index, "name": s.name, "player": s.player()} for s in seats],
            view=view,
            invitations=invitations,
            spectator_code=spectator_code,
        )

    @staticmethod
    def _pick_seat(
        engine: Engine[Any, Any],
        rules: Any,
        seed: int | str,
        names: Sequence[str],
        seat: int | str | None,
    ) -> int:
        if seat is None:
            return engine.default_seat(rules, seed)
        return seat_index(names, seat)

    @staticmethod
    def _pick_bots(
        engine: Engine[Any, Any], names: Sequence[str], own: int, bots: Sequence[str] | str | None
    ) -> dict[int, str]:
        table = engine.bots()
        others = [i for i in range(len(names)) if i != own]
        if bots is None:
            chosen = [default_bot(engine)] * len(others)
        elif isinstance(bots, str):
            chosen = [bots] * len(others)
        else:
            chosen = list(bots)
            if len(chosen) == 1:
                chosen = chosen * len(others)
            if len(chosen) != len(others):
                raise BadArgument(
                    f"{len(chosen)} bot names for {len(others)} other seats.",
                    allowed=f"one name for all, or exactly {len(others)} names (seats "
                    + ", ".join(names[i] for i in others)
                    + ")",
                )
        for name in chosen:
            if name not in table and name != OPEN_SEAT:
                raise BadArgument(
                    f"Unknown bot {name!r}.",
                    allowed=", ".join(table) + f", or {OPEN_SEAT!r} to invite another client",
                )
        return dict(zip(others, chosen, strict=True))

    def join_game(
        self,
        invitation: str,
        *,
        client_name: str | None = None,
        client_version: str | None = None,
        model: str | None = None,
        prompt: str | None = None,
    ) -> NewGame:
        """Takes the open seat an invitation names; an invitation works once."""
        check_length("invitation", invitation, MAX_ID_CHARS)
        for name, value in (("model", model), ("prompt", prompt)):
            check_length(name, value, MAX_LABEL_CHARS)
        game_id = invitation.split(".", 1)[0]
        bad = BadCredential(
            "That invitation is not valid (unknown, or already used).",
            allowed="an unused invitation code from new_game",
        )
        try:
            session = self._session(game_id)
        except UnknownGameId:
            raise bad from None
        with session.lock:
            record = session.record
            digest = hash_secret(invitation)
            seat_rec = next(
                (
                    s
                    for s in record.seats
                    if s.invitation_hash and hmac.compare_digest(s.invitation_hash, digest)
                ),
                None,
            )
            if seat_rec is None or seat_rec.kind != "open" or record.status == "over":
                raise bad
            credential = new_secret()
            seat_rec.kind = "llm"
            seat_rec.absent = False
            seat_rec.invitation_hash = None
            seat_rec.credential_hash = hash_secret(credential)
            seat_rec.client_name = client_name
            seat_rec.client_version = client_version
            seat_rec.model_label = model
            seat_rec.prompt_label = prompt
            events: list[Event] = [
                {"type": "join", "seat": seat_rec.index, "player": seat_rec.player()}
            ]
            if record.status == "waiting" and all(s.kind != "open" for s in record.seats):
                record.status = "active"
                record.decision_started = self.clock()
            self._advance(session, events)
            view = self._view(session, seat_rec.index, events)
            self._commit(session, events)
            return NewGame(
                game_id=game_id,
                seat=seat_rec.index,
                seat_name=seat_rec.name,
                credential=credential,
                seed=record.seed,
                transcript=record.transcript_path,
                seats=[
                    {"index": s.index, "name": s.name, "player": s.player()} for s in record.seats
                ],
                view=view,
            )

    # ---- reading ---------------------------------------------------------------------------

    def show(self, game_id: str, credential: str) -> View:
        session = self._session(game_id)
        with session.lock:
            seat = self._authenticate(session, credential)
            self._enforce(session)
            events: list[Event] = []
            view = self._view(session, seat, events)
            self._commit(session, events)
            return view

    def legal_moves(
        self,
        game_id: str,
        credential: str,
        *,
        kind: str | None = None,
        contains: str | None = None,
        page: int = 1,
        page_size: int = 50,
    ) -> Menu:
        check_length("kind", kind, MAX_ID_CHARS)
        check_length("contains", contains, MAX_ID_CHARS)
        if page < 1 or not 1 <= page_size <= 500:
            raise BadArgument(
                f"page={page}, page_size={page_size}.", allowed="page >= 1, 1 <= page_size <= 500"
            )
        session = self._session(game_id)
        with session.lock:
            seat = self._authenticate(session, credential)
            self._enforce(session)
            menu = self._menu(session, seat)
            entries = [
                MenuEntry(number=i + 1, notation=m.notation, description=m.description, kind=m.kind)
                for i, m in enumerate(menu.moves)
            ]
            kinds = sorted({e.kind for e in entries})
            if kind is not None:
                entries = [e for e in entries if e.kind == kind]
            if contains is not None:
                needle = contains.lower()
                entries = [
                    e
                    for e in entries
                    if needle in e.notation.lower() or needle in e.description.lower()
                ]
            pages = max(1, -(-len(entries) // page_size))
            chunk = entries[(page - 1) * page_size : page * page_size]
            return Menu(
                game_id=game_id,
                seat=seat,
                decision=session.record.decision,
                complete=menu.complete,
                total=len(menu.moves),
                matching=len(entries),
                page=page,
                pages=pages,
                kinds=kinds,
                moves=chunk,
                hints=dict(menu.hints),
                instructions=menu.instructions,
            )

    def spectate(self, game_id: str) -> View:
        session = self._session(game_id)
        with session.lock:
            return self._spectator_view(session)

    def log(self, game_id: str, credential: str, *, after: int = 0, limit: int = 200) -> LogResult:
        if after < 0 or not 1 <= limit <= 1000:
            raise BadArgument(f"after={after}, limit={limit}.", allowed="after >= 0, 1..1000")
        session = self._session(game_id)
        with session.lock:
            seat = self._authenticate(session, credential)
            out: list[LogEvent] = []
            cursor = after
            for event in self.store.events(game_id, after):
                cursor = event.get("seq", cursor)
                item = self._log_item(session, event, seat)
                if item is not None:
                    out.append(item)
                if len(out) >= limit:
                    break
            return LogResult(game_id=game_id, events=out, cursor=cursor)

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
    ) -> PlayResult:
        check_length("why", why, MAX_WHY_CHARS)
        check_length("request_id", request_id, MAX_ID_CHARS)
        items = submission.items()
        session = self._session(game_id)
        with session.lock:
            started = time.perf_counter()
            seat = self._authenticate(session, credential)
            record = session.record
            seat_rec = record.seats[seat]
            if request_id is not None and request_id in seat_rec.request_results:
                return _replay_result(seat_rec.request_results[request_id])
            self._enforce(session)
            if expect_decision is not None and expect_decision != record.decision:
                raise StaleDecision(
                    f"The game has moved on: it is at decision {record.decision}, your call was "
                    f"for decision {expect_decision}. Nothing was applied.",
                    allowed="show, then play again with the current decision",
                )
            try:
                result = self._play_locked(session, seat, items, submission, why, started)
            except GameError as exc:
                self._remember(session, seat, request_id, {"error": [exc.code, str(exc)]})
                raise
            self._remember(session, seat, request_id, {"result": result.model_dump(mode="json")})
            return result

    def _remember(
        self, session: Session, seat: int, request_id: str | None, outcome: dict[str, Any]
    ) -> None:
        if request_id is None:
            return
        results = session.record.seats[seat].request_results
        results[request_id] = outcome
        while len(results) > REQUEST_IDS_KEPT:
            del results[next(iter(results))]
        self.store.commit(session.record, [])

    def _play_locked(
        self,
        session: Session,
        seat: int,
        items: list[tuple[str, Any]],
        submission: Submission,
        why: str | None,
        started: float,
    ) -> PlayResult:
        record, engine = session.record, session.engine
        game_id = record.game_id
        seat_rec = record.seats[seat]
        seat_rec.counters.attempts += 1
        seat_rec.absent = False
        seat_rec.consecutive_missed = 0
        args = {k: v for k, v in (("why", why),) if v is not None}
        args.update({k: v for k, v in submission.__dict__.items() if v is not None})
        events: list[Event] = []
        accepted: list[str] = []
        rejection: Rejection | None = None
        fallback: str | None = None
        try:
            self._check_can_act(session, seat)
        except GameError as exc:
            seat_rec.counters.out_of_turn += 1
            events.append(self._play_event(seat, args, [], exc, started))
            self._commit(session, events)
            raise
        last_bad: Any = None
        applied: list[Event] = []
        for index, (form, value) in enumerate(items):
            parsed: Any = None
            try:
                self._check_can_act(session, seat)
                parsed = self._read_move(session, seat, form, value)
                text = engine.move_text(parsed)
                if engine.simultaneous:
                    engine.validate(session.state, seat, parsed)
                    record.pending[seat] = text
                else:
                    self._apply(session, seat, parsed, applied)
                accepted.append(text)
            except GameError as exc:
                shown = value if isinstance(value, str) else repr(value)
                rejection = Rejection(index=index, move=shown[:200], reason=str(exc), code=exc.code)
                last_bad = parsed
                break
        events.append(self._play_event(seat, args, accepted, rejection, started))
        events.extend(applied)
        if rejection is not None:
            seat_rec.counters.rejected += 1
            if rejection.code != NotYourTurn.code:
                seat_rec.rejections_this_decision += 1
            if seat_rec.rejections_this_decision >= 2 and seat in engine.to_act(session.state):
                fallback = self._fallback(session, seat, "second_rejection", last_bad, events)
        seat_rec.counters.accepted += len(accepted)
        if accepted or fallback:
            self._advance(session, events)
        view = self._view(session, seat, events)
        self._commit(session, events)
        if rejection is not None and not accepted and fallback is None:
            raise _rejection_error(rejection, retry_left=True)
        return PlayResult(
            game_id=game_id,
            accepted=accepted,
            rejected=rejection,
            fallback=fallback,
            submitted_waiting=engine.simultaneous and seat in record.pending,
            view=view,
        )

    def talk(
        self, game_id: str, credential: str, text: str, *, to: Sequence[str] | None = None
    ) -> TalkResult:
        check_length("text", text, MAX_TALK_CHARS)
        if not text.strip():
            raise BadArgument("The talk line is empty.", allowed="1 or more visible characters")
        session = self._session(game_id)
        with session.lock:
            seat = self._authenticate(session, credential)
            record, engine = session.record, session.engine
            names = [s.name for s in record.seats]
            if record.status == "over":
                raise GameOver("The game is over; nobody is listening.")
            targets = None if not to else tuple(sorted({seat_index(names, t) for t in to}))
            if targets is not None and seat in targets:
                raise BadArgument("You cannot talk to yourself.", allowed="other seats' names")
            events: list[Event] = []
            clean = " ".join(text.split())
            if engine.supports_talk:
                session.state = engine.talk(session.state, seat, clean, targets)
                events.append(
                    {
                        "type": "apply",
                        "kind": "talk",
                        "seat": seat,
                        "to": None if targets is None else list(targets),
                        "text": clean,
                        "digest": engine.digest(session.state),
                        "decision": record.decision,
                        "audience": [seat],
                    }
                )
                note = "Queued for this turn; the others see it from the next turn."
            else:
                events.append(
                    {
                        "type": "talk",
                        "seat": seat,
                        "to": None if targets is None else list(targets),
                        "text": clean,
                        "audience": None if targets is None else sorted({seat, *targets}),
                    }
                )
                note = "Delivered now: it appears in their views and logs."
            record.seats[seat].counters.talk_lines += 1
            self._commit(session, events)
            if not engine.supports_talk and session.chat is not None:
                session.chat.extend(events)
            delivered = (
                [n for i, n in enumerate(names) if i != seat]
                if targets is None
                else [names[i] for i in targets]
            )
            return TalkResult(game_id=game_id, delivered_to=delivered, text=clean, note=note)

    def settle(self, game_id: str, reason: str) -> View:
        """Host action: end the game now (deadline, forfeit)."""
        check_length("reason", reason, MAX_ID_CHARS)
        session = self._session(game_id)
        with session.lock:
            events: list[Event] = []
            self._settle_locked(session, reason, events)
            self._commit(session, events)
            return self._spectator_view(session)

    def _settle_locked(self, session: Session, reason: str, events: list[Event]) -> None:
        if session.record.status == "over":
            return
        session.record.status = "active"  # a waiting game that ends still gets its footer
        session.state = session.engine.settle(session.state, reason)
        events.append(
            {
                "type": "apply",
                "kind": "settle",
                "reason": reason,
                "digest": session.engine.digest(session.state),
                "decision": session.record.decision,
            }
        )
        session.record.pending = {}
        self._next_decision(session)
        self._advance(session, events)

    # ---- time: deadlines, absent seats, join timeouts, game time limits ----------------------

    def tick(self) -> int:
        """Applies every deadline that has passed; returns how many games changed. The server
        calls it about once a second; tests call it after moving a fake clock."""
        with self._lock:
            sessions = list(self._sessions.values())
        changed = 0
        for session in sessions:
            with session.lock:
                if session.record.status != "over" and self._enforce(session):
                    changed += 1
        return changed

    def start_ticker(self, interval: float = 1.0) -> threading.Event:
        """Runs `tick` on a daemon thread until the returned event is set."""
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(interval):
                try:
                    self.tick()
                except Exception:  # a failing tick must not stop the clock for other games
                    log.exception("deadline tick failed")

        threading.Thread(target=run, name="cogs-arena-ticker", daemon=True).start()
        return stop

    def _enforce(self, session: Session) -> bool:
        record, engine = session.record, session.engine
        now = self.clock()
        events: list[Event] = []
        if record.status == "waiting" and record.join_deadline and now >= record.join_deadline:
            empty = [s for s in record.seats if s.kind == "open"]
            if not any(s.invited and s.kind == "llm" for s in record.seats):
                events.append({"type": "join_timeout", "result": "forfeit"})
                self._settle_locked(session, "forfeit", events)
            else:
                for open_seat in empty:
                    open_seat.absent = True
                record.status = "active"
                record.decision_started = now
                events.append(
                    {"type": "join_timeout", "result": "start", "absent": [s.index for s in empty]}
                )
                self._advance(session, events)
        if record.status == "active" and record.game_deadline and now >= record.game_deadline:
            self._settle_locked(session, "deadline", events)
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
                self._fallback(session, seat, "deadline", None, events)
                if rec.consecutive_missed >= ABSENT_AFTER_MISSES and not rec.absent:
                    rec.absent = True
                    events.append({"type": "absent", "seat": seat})
            self._advance(session, events)
        if events:
            self._commit(session, events)
        return bool(events)

    # ---- waiting -----------------------------------------------------------------------------

    def poll(self, game_id: str, credential: str, after: int = 0) -> WaitResult:
        """What `wait` reports, without waiting: ready when the seat must act, the game is over,
        or events the seat may see arrived after `after`."""
        if after < 0:
            raise BadArgument(f"after={after}.", allowed="a cursor >= 0")
        session = self._session(game_id)
        with session.lock:
            seat = self._authenticate(session, credential)
            self._enforce(session)
            record = session.record
            to_act = session.engine.to_act(session.state)
            your_turn = record.status == "active" and seat in to_act and seat not in record.pending
            items: list[LogEvent] = []
            if record.event_count > after:
                for event in self.store.events(game_id, after):
                    item = self._log_item(session, event, seat)
                    if item is not None:
                        items.append(item)
            reason = (
                "game_over"
                if record.status == "over"
                else "your_turn"
                if your_turn
                else "events"
                if items
                else None
            )
            return WaitResult(
                game_id=game_id,
                ready=reason is not None,
                reason=reason or "timeout",
                your_turn=your_turn,
                status=record.status,
                decision=record.decision,
                events=items[-50:],
                cursor=record.event_count,
            )

    def spectate_with_code(self, code: str) -> View:
        check_length("spectator_code", code, MAX_ID_CHARS)
        bad = BadCredential("That spectator code is not valid.", allowed="a code from new_game")
        try:
            session = self._session(code.split(".", 1)[0])
        except UnknownGameId:
            raise bad from None
        with session.lock:
            stored = session.record.spectator_hash
            if not stored or not hmac.compare_digest(stored, hash_secret(code)):
                raise bad
            self._enforce(session)
            return self._spectator_view(session)

    # ---- internals -------------------------------------------------------------------------

    def _authenticate(self, session: Session, credential: str) -> int:
        check_length("credential", credential, MAX_ID_CHARS)
        if not credential:
            raise BadCredential(
                "A seat credential is required.", allowed="the credential new_game returned"
            )
        digest = hash_secret(credential)
        for seat in session.record.seats:
            if seat.credential_hash and hmac.compare_digest(seat.credential_hash, digest):
                return seat.index
        raise BadCredential(
            f"That credential does not hold a seat in game {session.record.game_id}.",
            allowed="the credential new_game (or join_game) returned for this game",
        )

    def _check_can_act(self, session: Session, seat: int) -> None:
        record, engine = session.record, session.engine
        if record.status == "waiting":
            open_seats = ", ".join(s.name for s in record.seats if s.kind == "open")
            raise NotYourTurn(
                f"The game waits for invited seats to join: {open_seats}.",
                allowed="show, log, talk until every seat has joined",
            )
        to_act = engine.to_act(session.state)
        if not to_act:
            raise GameOver("The game is over.", allowed="show or log to read the result")
        if seat not in to_act:
            names = ", ".join(record.seats[i].name for i in to_act)
            raise NotYourTurn(
                f"{record.seats[seat].name} is not to act now; waiting for {names}.",
                allowed="show, legal_moves, log, talk",
            )
        if engine.simultaneous and seat in record.pending:
            raise AlreadySubmitted(
                f"{record.seats[seat].name} has already submitted for this turn.",
                allowed="wait for the other seats (show or log)",
            )

    def _read_move(self, session: Session, seat: int, form: str, value: Any) -> Any:
        engine = session.engine
        if form == "move":
            if not isinstance(value, str):
                raise MalformedMove("A move must be text.", allowed="canonical notation")
            return engine.parse_move(session.state, seat, value)
        if form == "number":
            menu = engine.legal_moves(session.state, seat)
            if not isinstance(value, int) or not 1 <= value <= len(menu.moves):
                raise MalformedMove(
                    f"Number {value} is not on the menu.",
                    allowed=f"1..{len(menu.moves)} (see legal_moves)",
                )
            return engine.parse_move(session.state, seat, menu.moves[value - 1].notation)
        return engine.move_from_json(session.state, seat, value)

    def _menu(self, session: Session, seat: int) -> LegalMoves:
        self._check_can_act(session, seat)
        return session.engine.legal_moves(session.state, seat)

    def _apply(
        self, session: Session, seat: int, move: Any, events: list[Event], after: Any = None
    ) -> None:
        """Applies `move`, or records it when the caller already computed the state `after`."""
        engine, record = session.engine, session.record
        session.state = engine.apply(session.state, seat, move) if after is None else after
        events.append(
            {
                "type": "apply",
                "kind": "move",
                "seat": seat,
                "move": engine.move_text(move),
                "digest": engine.digest(session.state),
                "decision": record.decision,
                **self._redactions(session, {seat: move}),
            }
        )
        self._next_decision(session)

    def _apply_batch(self, session: Session, events: list[Event]) -> None:
        engine, record = session.engine, session.record
        moves = {
            seat: engine.parse_move(session.state, seat, text)
            for seat, text in sorted(record.pending.items())
        }
        session.state = engine.apply_batch(session.state, moves)
        events.append(
            {
                "type": "apply",
                "kind": "batch",
                "moves": {str(s): engine.move_text(m) for s, m in moves.items()},
                "digest": engine.digest(session.state),
                "decision": record.decision,
                **self._redactions(session, moves),
            }
        )
        record.pending = {}
        self._next_decision(session)

    def _redactions(self, session: Session, moves: dict[int, Any]) -> Event:
        """Per-viewer texts where a move reads differently to another seat (private talk,
        notes): the log shows those instead of the full text."""
        engine = session.engine
        out: dict[str, dict[str, str | None]] = {}
        for mover, move in moves.items():
            full = engine.move_text(move)
            for viewer in range(len(session.record.seats)):
                if viewer == mover:
                    continue
                shown = engine.visible_move_text(move, mover, viewer)
                if shown != full:
                    out.setdefault(str(mover), {})[str(viewer)] = shown
        return {"redacted": out} if out else {}

    def _next_decision(self, session: Session) -> None:
        record = session.record
        record.decision += 1
        record.decision_started = self.clock()
        for seat in record.seats:
            seat.rejections_this_decision = 0

    def _fallback(
        self, session: Session, seat: int, reason: str, rejected: Any, events: list[Event]
    ) -> str:
        engine, record = session.engine, session.record
        move = engine.default_move(session.state, seat, rejected)
        text = engine.move_text(move)
        record.seats[seat].counters.fallbacks += 1
        events.append({"type": "fallback", "seat": seat, "reason": reason, "move": text})
        if engine.simultaneous:
            record.pending[seat] = text
            return text
        self._apply(session, seat, move, events)
        texts = [text]
        # DECISIONS 5.3: in Influence and Blending a fallback plays out the rest of the seat's
        # turn (end phase, then the deterministic reinforcement or discard), so a stalled seat
        # never holds the table.
        while engine.fallback_ends_turn and len(texts) < MAX_FALLBACK_STEPS:
            if engine.to_act(session.state) != (seat,):
                break
            move = engine.default_move(session.state, seat, None)
            texts.append(engine.move_text(move))
            events.append(
                {
                    "type": "fallback",
                    "seat": seat,
                    "reason": reason,
                    "move": texts[-1],
                    "continued": True,
                }
            )
            self._apply(session, seat, move, events)
        return "; ".join(texts)

    def _advance(self, session: Session, events: list[Event]) -> None:
        """Lets bots act until a non-bot seat must decide or the game ends."""
        engine, record = session.engine, session.record
        if record.status == "waiting":
            return
        while True:
            to_act = engine.to_act(session.state)
            if not to_act:
                self._finish(session, events)
                return
            if engine.simultaneous:
                for seat in to_act:
                    if seat in record.pending:
                        continue
                    if record.seats[seat].kind == "bot":
                        move, _ = self._bot_move(session, seat, events)
                        record.pending[seat] = engine.move_text(move)
                    elif record.seats[seat].absent:
                        self._fallback(session, seat, "absent", None, events)
                if not all(seat in record.pending for seat in to_act):
                    return
                self._apply_batch(session, events)
            else:
                seat = to_act[0]
                if record.seats[seat].absent and record.seats[seat].kind != "bot":
                    self._fallback(session, seat, "absent", None, events)
                    continue
                if record.seats[seat].kind != "bot":
                    return
                move, after = self._bot_move(session, seat, events)
                self._apply(session, seat, move, events, after)

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
            # A bot bug must not stall the game: record it as the fallback it is.
            record.seats[seat].counters.fallbacks += 1
            events.append(
                {"type": "fallback", "seat": seat, "reason": "bot_error", "move": text[:200]}
            )
            return engine.default_move(session.state, seat, None), None

    def _finish(self, session: Session, events: list[Event]) -> None:
        record, engine = session.record, session.engine
        if record.status == "over":
            return
        outcome = engine.outcome(session.state)
        assert outcome is not None
        record.status = "over"
        events.append(
            {
                "type": "footer",
                "outcome": outcome.to_json(),
                "digest": engine.digest(session.state),
                "counters": {str(s.index): s.counters.model_dump() for s in record.seats},
            }
        )

    def _commit(self, session: Session, events: list[Event]) -> None:
        record = session.record
        for event in events:
            record.event_count += 1
            event["seq"] = record.event_count
        record.state = session.engine.state_to_json(session.state)
        record.updated = self.clock()
        self.store.commit(record, events)
        session.transcript.append(events)
        for listener in self._listeners:
            listener(record.game_id)

    def _play_event(
        self,
        seat: int,
        args: dict[str, Any],
        accepted: list[str],
        problem: Rejection | GameError | None,
        started: float,
    ) -> Event:
        reason = None
        if isinstance(problem, Rejection):
            reason = problem.reason
        elif problem is not None:
            reason = str(problem)
        return {
            "type": "play",
            "seat": seat,
            "args": args,
            "accepted": accepted,
            "ok": problem is None,
            "reason": reason,
            "audience": [seat],
            "wall": {"latency_ms": round((time.perf_counter() - started) * 1000, 3)},
        }

    def _view(self, session: Session, seat: int, events: list[Event]) -> View:
        record, engine = session.record, session.engine
        observation = engine.observe(session.state, seat)
        to_act = engine.to_act(session.state)
        outcome = engine.outcome(session.state)
        chat = self._chat_for(session, seat)
        text = self._view_text(session, seat, engine.render(observation), to_act, chat)
        if record.seats[seat].kind != "bot":
            event = {
                "type": "view",
                "seat": seat,
                "decision": record.decision,
                "text": text,
                "audience": [seat],
            }
            # The footer closes the transcript: the view that ends the game goes before it, and
            # views read after the end are not recorded.
            if record.status != "over":
                events.append(event)
            elif events and events[-1]["type"] == "footer":
                events.insert(len(events) - 1, event)
        return View(
            game_id=record.game_id,
            game=record.game,
            seat=seat,
            seat_name=record.seats[seat].name,
            status=record.status,
            your_turn=seat in to_act and seat not in record.pending,
            to_act=[record.seats[i].name for i in to_act],
            submitted=seat in record.pending,
            decision=record.decision,
            observation=observation,
            text=text,
            chat=chat,
            outcome=None if outcome is None else outcome.to_json(),
            log_cursor=record.event_count + len(events),
        )

    def _spectator_view(self, session: Session) -> View:
        record, engine = session.record, session.engine
        over = record.status == "over"
        view = engine.spectate(session.state, full=over)
        outcome = engine.outcome(session.state)
        to_act = engine.to_act(session.state)
        return View(
            game_id=record.game_id,
            game=record.game,
            seat=None,
            seat_name=None,
            status=record.status,
            your_turn=False,
            to_act=[record.seats[i].name for i in to_act],
            decision=record.decision,
            observation=view,
            text=engine.render(view),
            outcome=None if outcome is None else outcome.to_json(),
            log_cursor=record.event_count,
        )

    def _view_text(
        self,
        session: Session,
        seat: int,
        board: str,
        to_act: tuple[int, ...],
        chat: list[str],
    ) -> str:
        record = session.record
        me = record.seats[seat].name
        # No game id here: the view text is part of the transcript, which must read the same for
        # the same seed and moves.
        lines = [f"{session.engine.title}: you are {me} (seat {seat})."]
        if not to_act:
            outcome = session.engine.outcome(session.state)
            if outcome is not None:
                winners = ", ".join(record.seats[i].name for i in outcome.winners)
                lines.append(f"Game over ({outcome.reason}); winner(s): {winners}.")
        elif seat in record.pending:
            waiting = ", ".join(record.seats[i].name for i in to_act if i not in record.pending)
            lines.append(f"You have submitted this turn; waiting for {waiting}.")
        elif seat in to_act:
            lines.append("It is your turn: call legal_moves, then play.")
        else:
            lines.append("Waiting for " + ", ".join(record.seats[i].name for i in to_act) + ".")
        lines.append("")
        lines.append(board.rstrip())
        if chat:
            lines.append("")
            lines.append("Recent talk:")
            lines.extend(f"  {line}" for line in chat)
        return "\n".join(lines) + "\n"

    def _chat_for(self, session: Session, seat: int) -> list[str]:
        if session.engine.supports_talk:
            return []
        names = [s.name for s in session.record.seats]
        lines: list[str] = []
        if session.chat is None:
            session.chat = [
                e for e in self.store.events(session.record.game_id) if e.get("type") == "talk"
            ]
        for event in session.chat:
            audience = event.get("audience")
            if audience is not None and seat not in audience:
                continue
            to = event.get("to")
            target = "all" if to is None else ", ".join(names[i] for i in to)
            lines.append(f"{names[event['seat']]} to {target}: {event['text']}")
        return lines[-CHAT_IN_VIEW:]

    def _log_item(self, session: Session, event: Event, seat: int) -> LogEvent | None:
        names = [s.name for s in session.record.seats]
        kind = event.get("type")
        audience = event.get("audience")
        if audience is not None and seat not in audience:
            return None
        seq = int(event["seq"])
        if kind == "talk":
            to = event.get("to")
            target = "all" if to is None else ", ".join(names[i] for i in to)
            who = names[event["seat"]]
            return LogEvent(seq=seq, type="talk", seat=who, text=f"to {target}: {event['text']}")
        if kind == "apply":
            redacted = event.get("redacted", {})
            if event["kind"] == "move":
                text = redacted.get(str(event["seat"]), {}).get(str(seat), event["move"])
                if text is None:
                    return None
                return LogEvent(seq=seq, type="move", seat=names[event["seat"]], text=text)
            if event["kind"] == "batch":
                parts = []
                for mover, full in event["moves"].items():
                    shown = redacted.get(mover, {}).get(str(seat), full)
                    if shown is not None:
                        parts.append(f"{names[int(mover)]}: {shown}")
                return LogEvent(seq=seq, type="turn", text="\n".join(parts))
            if event["kind"] == "settle":
                return LogEvent(seq=seq, type="settle", text=f"settled: {event['reason']}")
            if event["kind"] == "talk":
                to = event.get("to")
                target = "all" if to is None else ", ".join(names[i] for i in to)
                return LogEvent(
                    seq=seq,
                    type="talk",
                    seat=names[event["seat"]],
                    text=f"to {target}: {event['text']}",
                )
            return None
        if kind == "fallback":
            return LogEvent(
                seq=seq,
                type="fallback",
                seat=names[event["seat"]],
                text=f"{event['reason']}: the host played {event['move']}",
            )
        if kind == "footer":
            outcome = event["outcome"]
            winners = ", ".join(names[i] for i in outcome["winners"])
            return LogEvent(seq=seq, type="end", text=f"{outcome['reason']}; winner(s): {winners}")
        return None


def _rejection_error(rejection: Rejection, *, retry_left: bool) -> GameError:
    suffix = (
        " You may try once more for this decision; a second rejection plays the default move"
        " for you (recorded as a fallback)."
        if retry_left
        else ""
    )
    cls = {
        MalformedMove.code: MalformedMove,
        NotYourTurn.code: NotYourTurn,
        GameOver.code: GameOver,
    }.get(rejection.code, IllegalMove)
    prefix = (
        f"Move {rejection.index + 1} ({rejection.move!r}) rejected: " if rejection.index else ""
    )
    reason = rejection.reason.rstrip()
    if not reason.endswith((".", "!", "?")):
        reason += "."
    return cls(prefix + reason + suffix)


def _replay_result(stored: dict[str, Any]) -> PlayResult:
    """The answer a request id already got: the same result, or the same error."""
    if "error" in stored:
        code, message = stored["error"]
        error = next(
            (
                cls
                for cls in (MalformedMove, IllegalMove, NotYourTurn, GameOver, AlreadySubmitted)
                if cls.code == code
            ),
            BadArgument,
        )
        raise error(message)
    result = PlayResult.model_validate(stored["result"])
    result.replayed = True
    return result


def seat_index(names: Sequence[str], seat: int | str) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < len(names):
            return seat
    elif isinstance(seat, str):
        for i, name in enumerate(names):
            if name.lower() == seat.strip().lower():
                return i
        if seat.strip().isdigit() and int(seat) < len(names):
            return int(seat)
    raise BadArgument(
        f"Unknown seat {seat!r}.",
        allowed=", ".join(f"{i} or {n}" for i, n in enumerate(names)),
    )


def default_bot(engine: Engine[Any, Any]) -> str:
    names = list(engine.bots())
    return next((n for n in names if n != "random"), names[0])
