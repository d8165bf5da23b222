"""The JSON Schema of a move's structured form (`Engine.move_json`, `move_from_json`)."""

from __future__ import annotations

from ..protocol import JSON
from .moves import DIRECTIONS, NO_ARG
from .tiles import KIND_NAME

MOVE_SCHEMA: dict[str, JSON] = {
    "title": "blending",
    "type": "object",
    "description": 'One step of a turn by its verb, e.g. {"verb": "place", "tile": "t12", '
    '"at": [1, 0], "rot": 90}, {"verb": "fight", "guardian": "G3"}, {"verb": "lay", "tile": '
    '"t7", "pos": 1, "kind": "slice"}, {"verb": "end"}.',
    "properties": {
        "verb": {
            "enum": [
                "walk",
                "move",
                "place",
                "more",
                "pick",
                "discard",
                "fight",
                "bolster",
                "lay",
                *NO_ARG,
            ]
        },
        "dir": {"enum": list(DIRECTIONS)},
        "tile": {"type": "string", "pattern": "^t[0-9]+$"},
        "at": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "rot": {"enum": [0, 90, 180, 270]},
        "guardian": {"type": "string", "pattern": "^G[0-9]+$"},
        "pos": {"type": "integer", "minimum": 1},
        "kind": {"enum": list(KIND_NAME)},
    },
    "required": ["verb"],
}
