"""The families of games behind an optional library, as `list_games` reports them: today
OpenSpiel's, whether it is installed and, where not, how to install it."""

from __future__ import annotations

from ..engines.registry import (
    OPENSPIEL,
    OPENSPIEL_INSTALL,
    family_names,
    openspiel_installed,
)
from .models import GameFamily


def openspiel_family() -> GameFamily:
    return GameFamily(
        name=OPENSPIEL,
        installed=openspiel_installed(),
        install=OPENSPIEL_INSTALL,
        games=[name.split(":", 1)[1] for name in family_names()],
    )
