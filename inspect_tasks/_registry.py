"""Inspect's entry point (`[project.entry-points.inspect_ai]`): importing this module registers
the tasks, so Inspect finds `cogs_arena/<game>` by name, and the offline model provider
(`--model cogs_arena/first-legal`)."""

from .offline import OfflineModel
from .tasks import any_game, blending, chemistry, influence, openspiel, territory

__all__ = [
    "OfflineModel",
    "any_game",
    "blending",
    "chemistry",
    "influence",
    "openspiel",
    "territory",
]
