"""The few error classes every engine raises for bad input.

Each message says what was wrong and what is allowed, because the reader is usually an LLM that
will try again with the message as its only guide.
"""

from __future__ import annotations


class GameError(Exception):
    """Base class: bad input to a game. The state it was given is left unchanged."""

    code = "game_error"

    def __init__(self, message: str, *, allowed: str | None = None) -> None:
        self.message = message
        self.allowed = allowed
        super().__init__(message if allowed is None else f"{message} Allowed: {allowed}")


class MalformedMove(GameError):
    """The move text or structure could not be parsed at all."""

    code = "malformed_move"


class IllegalMove(GameError):
    """The move parsed, but the rules do not allow it now."""

    code = "illegal_move"


class NotYourTurn(GameError):
    """The seat is not one of the seats that must act now."""

    code = "not_your_turn"


class GameOver(GameError):
    """The game has ended; no seat may act."""

    code = "game_over"


class InvalidRuleset(GameError):
    """Ruleset overrides or a custom map were rejected."""

    code = "invalid_ruleset"


class UnknownGame(GameError):
    """No engine of that name is registered."""

    code = "unknown_game"
