"""The games this server knows, by name. Engines register lazily so importing one game does not
import the others.

Three kinds of name: the project's four games; games that installed packages bring through the
`cogs_arena.games` entry-point group (`name = "package.module:EngineClass"`), found once, on first
use, and never fatal (a plugin that fails to import, is not an engine, or takes a taken name is
skipped and listed in `plugin_problems()`); and families of games behind one optional library
(`openspiel:<game>`, listed without importing it)."""

from __future__ import annotations

from importlib import import_module, metadata
from typing import Any

from .errors import UnknownGame
from .protocol import Engine

AnyEngine = Engine[Any, Any, Any]
"""An engine whose ruleset, state and move types are erased: what the registry hands out by
name. Hosts, the record and the harness take this one alias (the erasure lives here, once);
a game's own code keeps its `Engine[R, S, M]`."""

PLUGIN_GROUP = "cogs_arena.games"

_ENGINES: dict[str, str] = {
    "influence": "cogs_arena.engines.influence.engine:InfluenceEngine",
    "territory": "cogs_arena.engines.territory.engine:TerritoryEngine",
    "chemistry": "cogs_arena.engines.chemistry.engine:ChemistryEngine",
    "blending": "cogs_arena.engines.blending.engine:BlendingEngine",
}
_BUILT_IN = tuple(_ENGINES)
_CACHE: dict[str, AnyEngine] = {}
_PROBLEMS: dict[str, str] = {}
_PLUGINS: list[str] = []
_FOUND = False

OPENSPIEL = "openspiel"
OPENSPIEL_INSTALL = "pip install '.[openspiel]' (from a checkout)"


def _find_plugins() -> None:
    """Reads the entry points once. Loading a plugin's module waits for its first use, but a
    broken one is found here by `load_plugins`, which hosts call at start."""
    global _FOUND
    if _FOUND:
        return
    _FOUND = True
    for point in sorted(metadata.entry_points(group=PLUGIN_GROUP), key=lambda p: p.name):
        name = point.name
        if name in _ENGINES or name.startswith(f"{OPENSPIEL}:") or ":" not in point.value:
            why = "the name is taken" if ":" in point.value else "not a module:Class reference"
            _PROBLEMS[name] = f"{point.value}: {why}"
            continue
        _ENGINES[name] = point.value
        _PLUGINS.append(name)


def load_plugins() -> dict[str, str]:
    """Imports every plugin now; those that fail are dropped from the games and returned as
    name -> why (also kept for `plugin_problems`)."""
    _find_plugins()
    for name in list(_PLUGINS):
        try:
            get_engine(name)
        except Exception as exc:  # a plugin's own code may raise anything: never fatal
            _drop(name, f"{type(exc).__name__}: {exc}")
    return dict(_PROBLEMS)


def _drop(name: str, why: str) -> None:
    _PROBLEMS[name] = f"{_ENGINES.pop(name, '?')}: {why}"
    if name in _PLUGINS:
        _PLUGINS.remove(name)


def plugin_problems() -> dict[str, str]:
    """Plugins found but not loaded, each with why."""
    _find_plugins()
    return dict(_PROBLEMS)


def plugins() -> tuple[str, ...]:
    _find_plugins()
    return tuple(_PLUGINS)


def names() -> tuple[str, ...]:
    """Every registered game's name (the project's, then plugins'), in registration order,
    installed or not (`available` says which import here). Family games are `family_names`."""
    _find_plugins()
    return tuple(_ENGINES)


def built_in() -> tuple[str, ...]:
    return _BUILT_IN


def family_names() -> tuple[str, ...]:
    """`openspiel:<game>` for every OpenSpiel game offered (from the catalog: no import of
    OpenSpiel), installed or not; `openspiel_installed` says which."""
    from .openspiel.catalog import OFFERED

    return tuple(f"{OPENSPIEL}:{game}" for game in OFFERED)


def openspiel_installed() -> bool:
    try:
        import_module("pyspiel")
    except ImportError:
        return False
    return True


def available() -> list[str]:
    """Names of the engines whose modules import on this install (family games included)."""
    load_plugins()
    found = []
    for name in names():
        try:
            get_engine(name)
        except (ImportError, UnknownGame):
            continue
        found.append(name)
    if openspiel_installed():
        found.extend(family_names())
    return found


def get_engine(name: str) -> AnyEngine:
    if name in _CACHE:
        return _CACHE[name]
    if name.startswith(f"{OPENSPIEL}:"):
        return _family_engine(name)
    _find_plugins()
    target = _ENGINES.get(name)
    if target is None:
        raise UnknownGame(
            f"Unknown game {name!r}.",
            allowed=", ".join(sorted(_ENGINES)) + f", or {OPENSPIEL}:<game> (list_games)",
        )
    module_name, class_name = target.split(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name) and name in _BUILT_IN:
            raise UnknownGame(
                f"Game {name!r} is not installed.", allowed=", ".join(available_fast())
            ) from None
        raise
    engine = getattr(module, class_name)()
    if not isinstance(engine, Engine):
        raise TypeError(f"{target} is not a cogs_arena Engine")
    _CACHE[name] = engine
    return engine


def _family_engine(name: str) -> AnyEngine:
    game = name.split(":", 1)[1]
    if name not in family_names():
        from .openspiel.catalog import NOT_OFFERED

        why = NOT_OFFERED.get(game)
        raise UnknownGame(
            f"OpenSpiel's {game!r} is not offered" + (f": {why}." if why else ": no such game."),
            allowed="the openspiel:<game> names list_games gives",
        )
    if not openspiel_installed():
        raise UnknownGame(
            f"{name} needs OpenSpiel, which is not installed: {OPENSPIEL_INSTALL}.",
            allowed=", ".join(available_fast()),
        )
    from .openspiel.engine import engine_for

    engine: AnyEngine = engine_for(game)
    _CACHE[name] = engine
    return engine


def available_fast() -> list[str]:
    return sorted(n for n in _CACHE if ":" not in n) or ["influence"]
