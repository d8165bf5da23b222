"""Inspect's entry point (`[project.entry-points.inspect_ai]`): importing this module registers
the tasks, so Inspect finds `cogs_arena/<game>` by name."""

from .tasks import blending, chemistry, influence, territory

__all__ = ["blending", "chemistry", "influence", "territory"]
