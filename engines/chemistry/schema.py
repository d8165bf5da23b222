"""The JSON Schema of a move's structured form (`Engine.move_json`, `move_from_json`)."""

from __future__ import annotations

from ..protocol import JSON
from .moves import ACTION_TEXT, JOBS, NOTES_MAX, SAY_MAX
from .room import SPECIES, VATS

MOVE_SCHEMA: dict[str, JSON] = {
    "title": "chemistry",
    "type": "object",
    "description": 'A standing order for the shift, e.g. {"job": "supply", "molecule": "resin", '
    '"reactor": "amber", "say": "on my way"}, or (control: ticks) one action {"action": "N"}.',
    "properties": {
        "job": {"enum": list(JOBS)},
        "molecule": {"enum": list(SPECIES)},
        "reactor": {"enum": list(VATS)},
        # Longer lines are cut, not refused (rules.md C24), so the limits are not maxLength.
        "say": {
            "type": "string",
            "description": f"at most {SAY_MAX} characters; longer is cut to {SAY_MAX - 1} + '…'",
        },
        "notes": {
            "type": "string",
            "description": f"at most {NOTES_MAX} characters; longer is cut to {NOTES_MAX - 1} "
            "+ '…'",
        },
        "action": {"enum": list(ACTION_TEXT.values())},
    },
}
