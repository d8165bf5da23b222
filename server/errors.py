"""Errors of the host (as opposed to the rules): unknown ids, bad credentials, bad arguments."""

from __future__ import annotations

from ..engines.errors import GameError


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


class StoreUnavailable(ServiceError):
    """The shared store could not be reached: nothing was read or changed."""

    code = "store_unavailable"


class OutcomeUnknown(ServiceError):
    """A step's save was cut off at or after COMMIT and the store could not be asked whether it
    landed: the step may or may not have been applied."""

    code = "outcome_unknown"
