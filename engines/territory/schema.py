"""The JSON Schema of a move's structured form (`Engine.move_json`, `move_from_json`)."""

from __future__ import annotations

from ..protocol import JSON
from .board import ALIASES

MOVE_SCHEMA: dict[str, JSON] = {
    "title": "territory",
    "type": "object",
    "description": "One turn's submission: orders (none is a hold), talk lines and a private "
    'note, e.g. {"orders": [{"type": "claim", "tile": "4,0"}], "talk": [{"to": null, '
    '"text": "peace?"}], "note": "watch Ochre"}.',
    "properties": {
        "orders": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "type": {"enum": ["claim", "raze", "transfer", "hold"]},
                    "tile": {"type": "string", "description": '"q,r" (claim, raze)'},
                    "to": {"enum": list(ALIASES), "description": "transfer: who gets it"},
                    "amount": {"type": "integer", "minimum": 1},
                },
                "required": ["type"],
            },
        },
        "talk": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "to": {"enum": [*ALIASES, None], "description": "null: every seat"},
                    "text": {"type": "string"},
                },
                "required": ["text"],
            },
        },
        "note": {"type": ["string", "null"]},
    },
    "additionalProperties": False,
}
