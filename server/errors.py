"""Errors of the host (as opposed to the rules): unknown ids, bad credentials, bad arguments."""

from __future__ import annotations

from ..engines.errors import GameError
from .store.errors import OutcomeUnknown as OutcomeUnknown  # the store's, passed on
from .store.errors import StoreUnavailable as StoreUnavailable


class ServiceError(GameError):
    code = "service_error"


class UnknownGameId(ServiceError):
    code = "unknown_game_id"


class BadCredential(ServiceError):
    code = "bad_credential"


class BadArgument(ServiceError):
    code = "bad_argument"


class AlreadySubmitted(ServiceError):
    code = "already_submitted"


class StaleDecision(ServiceError):
    """The caller acted on a decision the game has already left (another call won the race)."""

    code = "stale_decision"


class LimitReached(ServiceError):
    """A bound of the server (live games, games a minute, talk lines) was reached."""

    code = "limit_reached"
