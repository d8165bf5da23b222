"""Pure game engines: no I/O, no clock, no global random. See `protocol.Engine`."""

from .errors import (
    GameError,
    GameOver,
    IllegalMove,
    InvalidRuleset,
    MalformedMove,
    NotYourTurn,
    UnknownGame,
)
from .protocol import (
    JSON,
    Bot,
    Engine,
    LegalMoves,
    MoveInfo,
    Outcome,
    Ruleset,
    SequentialEngine,
    SeriesNumbers,
    SimultaneousEngine,
)
from .registry import AnyEngine, available, get_engine, names

__all__ = [
    "JSON",
    "AnyEngine",
    "Bot",
    "Engine",
    "GameError",
    "GameOver",
    "IllegalMove",
    "InvalidRuleset",
    "LegalMoves",
    "MalformedMove",
    "MoveInfo",
    "NotYourTurn",
    "Outcome",
    "Ruleset",
    "SequentialEngine",
    "SeriesNumbers",
    "SimultaneousEngine",
    "UnknownGame",
    "available",
    "get_engine",
    "names",
]
