"""The two acting calls, `play` and `talk` (its rules in `talk`): reading a submission,
rejections and their retry, fallbacks after a second rejection, stale decisions, and request ids
bound to their move."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from ..engines import GameError, GameOver, IllegalMove, MalformedMove, NotYourTurn
from ..transcripts.events import Attempt, Event
from . import repeats
from .deadlines import Deadlines
from .errors import AlreadySubmitted, BadArgument, StaleDecision
from .inputs import PlayInput, TalkInput
from .limits import Limits
from .models import PlayResult, Rejection, TalkResult
from .move_text import Opening, batch_stop, ended_stop, read_move
from .presenter import Presenter
from .referee import Referee
from .rejections import TRIES, rejection_error
from .seats import authenticate, check_can_act
from .sessions import Session, Sessions
from .store.memory import StoredRequest
from .talk import LeakyLine, check_private_lines, talk

ERRORS: dict[str, type[GameError]] = {
    cls.code: cls
    for cls in (MalformedMove, IllegalMove, NotYourTurn, GameOver, AlreadySubmitted, StaleDecision)
}


class Desk:
    def __init__(
        self,
        sessions: Sessions,
        referee: Referee,
        presenter: Presenter,
        deadlines: Deadlines,
        limits: Limits,
    ) -> None:
        self.sessions = sessions
        self.referee = referee
        self.presenter = presenter
        self.deadlines = deadlines
        self.limits = limits

    # ---- play ------------------------------------------------------------------------------

    def play(self, args: PlayInput, *, raise_rejection: bool = True) -> PlayResult:
        """The play's answer. A rejection is in the result (`error`, `rejected`, `fallback`,
        `tries_left`); with `raise_rejection`, one that left nothing applied is raised instead."""
        started = time.perf_counter()
        fingerprint = _fingerprint(args)
        with self.sessions.open(args.game_id) as session:
            seat = authenticate(session, args.credential)
            if args.request_id is not None:
                stored = self.sessions.store.request(args.game_id, seat, args.request_id)
                if stored is not None:
                    return self._answer_again(
                        session, seat, stored, fingerprint, args, raise_rejection
                    )
            self.deadlines.enforce(session)
            record = session.record
            if args.moves == [] and not session.engine.simultaneous:
                raise BadArgument(
                    "moves is empty: a turn-based game has no empty move. Nothing was applied.",
                    allowed="moves with at least one move, or move, number or structured",
                )
            if record.status == "over":
                # Nothing is written after the footer, not even a refused attempt.
                raise GameOver("The game is over.", allowed="show or log to read the result")
            if args.decision is not None and args.decision != record.decision:
                raise StaleDecision(
                    f"The game has moved on: it is at decision {record.decision}, your call was "
                    f"for decision {args.decision}. Nothing was applied.",
                    allowed="show, then play again with the current decision",
                )
            seat_rec = record.seats[seat]
            events: list[Event] = []
            # Any play is the seat acting again: it is no longer absent, even if refused.
            seat_rec.absent = False
            seat_rec.consecutive_missed = 0
            if seat_rec.unseen_fallbacks and args.decision is None:
                told = "; ".join(seat_rec.unseen_fallbacks)
                seat_rec.unseen_fallbacks = []
                return self._refuse(
                    session,
                    args,
                    seat,
                    fingerprint,
                    StaleDecision(
                        f"Your earlier decision was played for you: {told}. Nothing was applied;"
                        f" the game is now at decision {record.decision}.",
                        allowed="show (or legal_moves), then play for the current decision",
                    ),
                    started,
                )
            seat_rec.counters.attempts += 1
            try:
                check_can_act(session, seat)
            except GameError as exc:
                seat_rec.counters.out_of_turn += 1
                # Not bound to the request id: nothing was read or applied, and a retry once
                # the seat may act is a first attempt, not a second answer.
                return self._refuse(session, args, seat, None, exc, started)
            decision = record.decision
            applied: list[Event] = []
            notices: list[str] = []
            dropped: list[str] = []
            accepted, rejection, last_bad, stopped = self._submit(
                session, seat, args, applied, notices, dropped
            )
            fallback: str | None = None
            if rejection is not None:
                seat_rec.counters.rejected += 1
                if rejection.code != NotYourTurn.code:
                    seat_rec.rejections_this_decision += 1
                if (
                    seat_rec.rejections_this_decision >= 2
                    and seat in session.engine.to_act(session.state)
                    and seat not in record.pending
                ):
                    fallback = self.referee.fallback(
                        session, seat, "second_rejection", last_bad, applied
                    )
            seat_rec.counters.accepted += len(accepted)
            if accepted or fallback:
                self.referee.advance(session, applied)
            note = (" ".join(notices) or None) if stopped is None else stopped.reason
            events.append(
                _attempt(
                    args, seat, decision, accepted, rejection, started, counted=True, note=note
                )
            )
            events.extend(applied)
            view = self.presenter.view(session, seat, events, args.detail, args.image)
            error: GameError | None = None
            tries_left: int | None = None
            if rejection is not None:
                tries_left = 0 if fallback else max(0, TRIES - seat_rec.rejections_this_decision)
                error = rejection_error(ERRORS, rejection, accepted, fallback, tries_left)
            result = PlayResult(
                game_id=record.game_id,
                accepted=accepted,
                rejected=rejection,
                not_applied=stopped,
                read_notes=notices,
                fallback=fallback,
                submitted_waiting=session.engine.simultaneous and seat in record.pending,
                dropped=dropped,
                error=None if error is None else f"[{error.code}] {error}",
                tries_left=tries_left,
                view=view,
            )
            answer = {"result": result}
            self.sessions.commit(session, events, _requests(args, seat, fingerprint, answer))
            if raise_rejection and error is not None and _raised(result):
                raise error
            return result

    def _answer_again(
        self,
        session: Session,
        seat: int,
        stored: StoredRequest,
        fingerprint: str,
        args: PlayInput,
        raise_rejection: bool,
    ) -> PlayResult:
        """The answer a request id already got: the same result, or the same error."""
        if stored.fingerprint != fingerprint:
            raise BadArgument(
                f"request_id {stored.request_id!r} was already used for a different move.",
                allowed="a new request_id for a new move (reuse an id only to retry the same call)",
            )
        answer = json.loads(stored.result)
        if "error" in answer:
            code, message = answer["error"]
            raise ERRORS.get(code, BadArgument)(message)
        events: list[Event] = []
        view = self.presenter.view(session, seat, events, args.detail, args.image)
        self.sessions.commit(session, events)
        result = PlayResult.model_validate({**answer["result"], "view": view, "replayed": True})
        if raise_rejection and result.error is not None and _raised(result):
            assert result.rejected is not None
            message = result.error.partition("] ")[2]
            raise ERRORS.get(result.rejected.code, IllegalMove)(message)
        return result

    def _refuse(
        self,
        session: Session,
        args: PlayInput,
        seat: int,
        fingerprint: str | None,
        error: GameError,
        started: float,
    ) -> PlayResult:
        """Records an attempt that was refused before any move was read, then raises. With a
        fingerprint, the refusal is the request id's answer for good; without, the same
        refusal for the same decision again is only counted (`repeats`)."""
        decision, seat_rec = session.record.decision, session.record.seats[seat]
        if fingerprint is None and repeats.counted_again(seat_rec, decision, error):
            self.sessions.commit(session, [], force=True)  # the counters; no event per call
            raise error
        rejection = Rejection(index=0, move="", reason=str(error), code=error.code)
        event = _attempt(args, seat, decision, [], rejection, started, counted=False)
        answer = {"error": [error.code, str(error)]}
        requests = [] if fingerprint is None else _requests(args, seat, fingerprint, answer)
        self.sessions.commit(session, [*repeats.hold(seat_rec, decision, error), event], requests)
        raise error

    def _submit(
        self,
        session: Session,
        seat: int,
        args: PlayInput,
        applied: list[Event],
        notices: list[str],
        dropped: list[str],
    ) -> tuple[list[str], Rejection | None, Any, Rejection | None]:
        """Applies (sequential) or records (simultaneous) the submission; returns the accepted
        texts, the first rejection, the rejected move, and where a batch stopped uncounted
        (before a required discard, or once the game or the turn ended), if any. `notices` gets
        what reading each accepted move changed without refusing it; what the rules dropped of
        an accepted move goes to `dropped`."""
        engine, record = session.engine, session.record
        opening_menu = Opening(session.legal_moves, session.state, seat)
        if engine.simultaneous:
            # A simultaneous turn is one submission: a list is its lines, accepted or refused
            # whole, so a seat never ends up with half of what it meant.
            items: list[tuple[str, Any]] = [
                _single(args)
                if args.moves is None
                # No lines is the rules' empty list (a hold), not an empty text.
                else ("structured", [])
                if not args.moves
                else ("move", "\n".join(args.moves))
            ]
        elif args.moves is not None:
            items = [("move", text) for text in args.moves]
        else:
            items = [_single(args)]
        accepted: list[str] = []
        for index, (form, value) in enumerate(items):
            parsed: Any = None
            stop = batch_stop(
                engine, session.legal_moves, session.state, seat, index, form, args.moves
            )
            if stop is None and index and _turn_over(session, seat):
                # The batch's earlier moves won the game or ended the turn: the rest were
                # never the seat's to play, which is no rejection.
                stop = ended_stop(index, args.moves or (), over=not engine.to_act(session.state))
            if stop is not None:
                return accepted, None, None, stop
            try:
                check_can_act(session, seat)
                parsed = read_move(
                    engine, session.legal_moves, session.state, seat, form, value, opening_menu
                )
                parsed, cut = engine.trimmed(session.state, seat, parsed)
                check_private_lines(session, seat, parsed)
                text = engine.move_text(parsed)
                if engine.simultaneous:
                    engine.validate(session.state, seat, parsed)
                    record.pending[seat] = text
                else:
                    self.referee.apply(session, seat, parsed, applied)
                accepted.append(text)
                notices.extend(engine.move_notices(parsed))
                dropped.extend(cut)
            except LeakyLine as exc:
                # Not kept for the fallback either: the line must not be posted at all.
                return accepted, _rejection(index, value, exc), None, None
            except GameError as exc:
                return accepted, _rejection(index, value, exc), parsed, None
        return accepted, None, None, None

    # ---- talk ------------------------------------------------------------------------------

    def talk(self, args: TalkInput) -> TalkResult:
        return talk(self.sessions, self.limits, args)


def _turn_over(session: Session, seat: int) -> bool:
    try:
        check_can_act(session, seat)
    except GameError:
        return True
    return False


def _rejection(index: int, value: Any, exc: GameError) -> Rejection:
    shown = value if isinstance(value, str) else json.dumps(value)
    return Rejection(index=index, move=shown[:200], reason=str(exc), code=exc.code)


def _single(args: PlayInput) -> tuple[str, Any]:
    if args.move is not None:
        return "move", args.move
    if args.number is not None:
        return "number", args.number
    return "structured", args.structured


def _fingerprint(args: PlayInput) -> str:
    move = {
        "move": args.move,
        "number": args.number,
        "moves": args.moves,
        "structured": args.structured,
    }
    text = json.dumps(move, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _attempt(
    args: PlayInput,
    seat: int,
    decision: int,
    accepted: list[str],
    rejection: Rejection | None,
    started: float,
    *,
    counted: bool,
    note: str | None = None,
) -> Attempt:
    given = {
        k: v
        for k, v in (
            ("move", args.move),
            ("number", args.number),
            ("moves", args.moves),
            ("structured", args.structured),
            ("why", args.why),
            ("decision", args.decision),
        )
        if v is not None
    }
    return Attempt(
        seat=seat,
        decision=decision,
        args=given,
        accepted=accepted,
        ok=rejection is None,
        code=None if rejection is None else rejection.code,
        reason=note if rejection is None else rejection.reason,
        request_id=args.request_id,
        counted=counted,
        audience=[seat],
        wall={"latency_ms": round((time.perf_counter() - started) * 1000, 3)},
    )


def _requests(
    args: PlayInput, seat: int, fingerprint: str, answer: dict[str, Any]
) -> list[StoredRequest]:
    if args.request_id is None:
        return []
    result = answer.get("result")
    if isinstance(result, PlayResult):
        # The view is not kept: a retry gets the seat's view as it is then.
        answer = {"result": result.model_dump(mode="json", exclude={"view"})}
    text = json.dumps(answer, separators=(",", ":"))
    return [StoredRequest(seat, args.request_id, fingerprint, text)]


def _raised(result: PlayResult) -> bool:
    """Whether the plain service raises a rejection: when nothing of the call was applied."""
    return not result.accepted and result.fallback is None
