"""The ruleset (OpenSpiel's game parameters) and the state: OpenSpiel's own state, never changed
once made (every transition works on a clone), with the count of chance draws taken from the
seeded stream and the reason if a host settled the game early."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import Field

from ..errors import InvalidRuleset
from ..protocol import Ruleset

Param = bool | int | float | str


class OpenSpielRules(Ruleset):
    """OpenSpiel's parameters of the game (`{"num_cards": 6}` for `goofspiel(num_cards=6)`);
    empty: the game's defaults."""

    params: dict[str, Param] = Field(default_factory=dict)


def pyspiel() -> Any:
    """The `pyspiel` module, imported on first use: the core package never needs it."""
    import pyspiel as module

    return module


@lru_cache(maxsize=256)
def _load(name: str, params: tuple[tuple[str, Param], ...]) -> Any:
    return pyspiel().load_game(name, dict(params))


@lru_cache(maxsize=256)
def game_from_string(text: str) -> Any:
    """A game by OpenSpiel's own string form (`goofspiel(num_cards=6)`), as views carry it."""
    return pyspiel().load_game(text)


def action_description(action: int) -> str:
    """A menu entry's description: the action id, the move's structured form."""
    return f"action {action}"


def load_game(name: str, rules: OpenSpielRules) -> Any:
    """The OpenSpiel game (loaded once per name and parameters); InvalidRuleset with OpenSpiel's
    own words for parameters it does not take."""
    try:
        return _load(name, tuple(sorted(rules.params.items())))
    except Exception as exc:  # pyspiel.SpielError, raised for unknown or ill-typed parameters
        raise InvalidRuleset(
            f"OpenSpiel refuses {name} with params {rules.params}: {exc}",
            allowed=f"the parameters OpenSpiel's {name} takes (its defaults: {{}})",
        ) from None


@dataclass(frozen=True)
class OpenSpielState:
    rules: OpenSpielRules
    seed: int | str
    game: Any
    """pyspiel.Game"""
    inner: Any
    """pyspiel.State: never applied to after this wrapper is made."""
    chance_draws: int = 0
    """Chance outcomes drawn so far from the game's seeded stream."""
    settled: str | None = None
    """Why a host ended the game before OpenSpiel did."""
