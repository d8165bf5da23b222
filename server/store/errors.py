"""The store's own errors, which the host passes on to clients as they are (a `[code]` each)."""

from __future__ import annotations

from ...engines.errors import GameError


class StoreUnavailable(GameError):
    """The shared store could not be reached: nothing was read or changed."""

    code = "store_unavailable"


class OutcomeUnknown(GameError):
    """A step's save was cut off at or after COMMIT and the store could not be asked whether it
    landed: the step may or may not have been applied."""

    code = "outcome_unknown"
