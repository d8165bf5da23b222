"""`talk`: a line to every seat or to named ones, as the game's rules take it (queued for the
turn in Territory, refused in Chemistry, a chat beside the game elsewhere), and the checks that
keep a private line private, shared with `play`'s submissions."""

from __future__ import annotations

from typing import Any

from ..engines import GameOver, IllegalMove, NotYourTurn
from ..transcripts.events import Event, StateTalk, Talk
from .errors import BadArgument, LimitReached
from .inputs import TalkInput
from .limits import Limits
from .models import TalkResult
from .seats import OUT_ALLOWED, authenticate, seat_index
from .sessions import Session, Sessions


def talk(sessions: Sessions, limits: Limits, args: TalkInput) -> TalkResult:
    with sessions.open(args.game_id) as session:
        seat = authenticate(session, args.credential)
        record, engine = session.record, session.engine
        names = [s.name for s in record.seats]
        if record.status == "over":
            raise GameOver("The game is over; nobody is listening.")
        if engine.talk_refused is not None:
            # Refused before anything is counted or written: the game, store and
            # transcript stay as they were.
            raise IllegalMove(engine.talk_refused, allowed="talk as part of your move, with play")
        targets = None if not args.to else tuple(sorted({seat_index(names, t) for t in args.to}))
        if targets is not None and seat in targets:
            raise BadArgument("You cannot talk to yourself.", allowed="other seats' names")
        clean = " ".join(args.text.split())
        seat_rec = record.seats[seat]
        events: list[Event] = []
        if engine.supports_talk:
            out = engine.out(session.state, seat)
            if out is not None:
                raise NotYourTurn(f"{out}: an eliminated seat cannot talk.", allowed=OUT_ALLOWED)
            check_talk_left(session, seat)
            heard_by = engine.talk_audience(session.state, seat, targets)
            if targets is not None and heard_by != targets:
                raise BadArgument(
                    "A private line to " + ", ".join(names[i] for i in targets) + " would be"
                    " read by every seat (the rules make it public), so it was not sent.",
                    allowed="talk to everyone (omit `to`), or to a seat still in the game",
                )
            session.state = engine.talk(session.state, seat, clean, targets)
            events.append(
                StateTalk(
                    seat=seat,
                    to=None if targets is None else list(targets),
                    text=clean,
                    digest=engine.digest(session.state),
                    decision=record.decision,
                    audience=[seat],
                )
            )
            note = (
                "Queued for this turn: its readers get it (view, log, wait) when the turn"
                " resolves, not before."
            )
        else:
            if seat_rec.talk_this_decision >= limits.talk_per_decision:
                raise LimitReached(
                    f"{seat_rec.name} has said {seat_rec.talk_this_decision} lines since the"
                    " last move.",
                    allowed=f"at most {limits.talk_per_decision} lines per seat per"
                    " decision; talk again after the next move",
                )
            events.append(
                Talk(
                    seat=seat,
                    to=None if targets is None else list(targets),
                    text=clean,
                    audience=None if targets is None else sorted({seat, *targets}),
                )
            )
            note = "Delivered now: it appears in their views and logs."
        seat_rec.counters.talk_lines += 1
        seat_rec.talk_this_decision += 1
        sessions.commit(session, events)
        delivered = (
            [n for i, n in enumerate(names) if i != seat]
            if targets is None
            else [names[i] for i in targets]
        )
        return TalkResult(game_id=record.game_id, delivered_to=delivered, text=clean, note=note)


def check_talk_left(session: Session, seat: int) -> None:
    """Lines in a submitted turn count against the turn's talk cap like queued ones, so a
    queued line never pushes an accepted one out at resolve."""
    engine, record = session.engine, session.record
    submitted = record.pending.get(seat)
    if submitted is None:
        return
    move = engine.parse_move(session.state, seat, submitted)
    if engine.talk_left(session.state, seat, move) == 0:
        raise LimitReached(
            f"{record.seats[seat].name} has no talk lines left this turn: the submitted"
            " orders and the lines queued with talk use them all.",
            allowed="talk again once the turn resolves",
        )


class LeakyLine(IllegalMove):
    """A private line the rules would post publicly (to an eliminated seat, in Territory)."""


def check_private_lines(session: Session, seat: int, move: Any) -> None:
    engine = session.engine
    for heard in engine.private_lines(move):
        if engine.talk_audience(session.state, seat, heard) != heard:
            names = ", ".join(session.record.seats[i].name for i in heard)
            raise LeakyLine(
                f"A private line to {names} would be read by every seat (the rules post a line"
                " to an eliminated seat publicly), so the submission was not taken.",
                allowed="a public line (`say: ...`), or a private one to a seat still in the game",
            )
