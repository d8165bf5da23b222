"""Seats: credentials, who may act now, and reading a seat name."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from ..engines import AnyEngine, GameOver, NotYourTurn
from .errors import AlreadySubmitted, BadArgument, BadCredential
from .sessions import Session

OPEN_SEAT = "open"
OUT_ALLOWED = "show, log and wait, to read the game until it ends"
"""What a seat out of the game (eliminated) may still do."""


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def new_secret() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def authenticate(session: Session, credential: str) -> int:
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


def check_can_act(session: Session, seat: int) -> None:
    record, engine = session.record, session.engine
    if record.status == "waiting":
        open_seats = ", ".join(s.name for s in record.seats if s.kind == "open")
        raise NotYourTurn(
            f"The game waits for invited seats to join: {open_seats}.",
            allowed="show, log, talk until every seat has joined",
        )
    to_act = engine.to_act(session.state)
    if not to_act or record.status == "over":
        raise GameOver("The game is over.", allowed="show or log to read the result")
    if seat not in to_act:
        out = engine.out(session.state, seat)
        if out is not None:
            raise NotYourTurn(
                f"{out}: it is out of the game, never to act or talk again.",
                allowed=OUT_ALLOWED,
            )
        names = ", ".join(record.seats[i].name for i in to_act)
        raise NotYourTurn(
            f"{record.seats[seat].name} is not to act now; waiting for {names}.",
            allowed="show, log, wait, talk (legal_moves once it is your turn)",
        )
    if engine.simultaneous and seat in record.pending:
        raise AlreadySubmitted(
            f"{record.seats[seat].name} has already submitted for this turn; a submission is"
            " final (this is not counted as a rejection).",
            allowed="wait for the other seats (wait, show or log)",
        )


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


def default_bot(engine: AnyEngine) -> str:
    names = list(engine.bots())
    return next((n for n in names if n != "random"), names[0])
