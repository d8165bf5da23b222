"""The games this server knows, by name. Engines register lazily so importing one game does not
import the others."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .errors import UnknownGame
from .protocol import Engine

AnyEngine = Engine[Any, Any, Any]
"""An engine whose ruleset, state and move types are erased: what the registry hands out by
name. Hosts, the record and the harness take this one alias (the erasure lives here, once);
a game's own code keeps its `Engine[R, S, M]`."""

_ENGINES: dict[str, str] = {
    "influence": "cogs_arena.engines.influence.engine:InfluenceEngine",
    "territory": "cogs_arena.engines.territory.engine:TerritoryEngine",
    "chemistry": "cogs_arena.engines.chemistry.engine:ChemistryEngine",
    "blending": "cogs_arena.engines.blending.engine:BlendingEngine",
}
_CACHE: dict[str, AnyEngine] = {}


def names() -> tuple[str, ...]:
    """Every registered game's name, in registration order, installed or not (`available`
    says which import here)."""
    return tuple(_ENGINES)


def available() -> list[str]:
    """Names of the engines whose modules import on this install."""
    names = []
    for name in _ENGINES:
        try:
            get_engine(name)
        except (ImportError, UnknownGame):
            continue
        names.append(name)
    return names


def get_engine(name: str) -> AnyEngine:
    if name in _CACHE:
        return _CACHE[name]
    target = _ENGINES.get(name)
    if target is None:
        raise UnknownGame(f"Unknown game {name!r}.", allowed=", ".join(sorted(_ENGINES)))
    module_name, class_name = target.split(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UnknownGame(
                f"Game {name!r} is not installed.", allowed=", ".join(available_fast())
            ) from None
        raise
    engine: AnyEngine = getattr(module, class_name)()
    _CACHE[name] = engine
    return engine


def available_fast() -> list[str]:
    return sorted(_CACHE) or ["influence"]
