"""The JSON Schema of a move's structured form (`Engine.move_json`, `move_from_json`)."""

from __future__ import annotations

from ..protocol import JSON

CELL: JSON = {
    "type": "array",
    "items": {"type": "integer"},
    "minItems": 2,
    "maxItems": 2,
    "description": "[row, column]",
}

MOVE_SCHEMA: dict[str, JSON] = {
    "title": "influence",
    "type": "object",
    "description": 'An attack {"kind": "attack", "from": [9, 1], "to": [8, 1]}, the end of the '
    'attack phase {"kind": "end"}, or reinforcements {"kind": "reinforce", "cells": '
    '{"9,1": 2, "8,1": 1}}.',
    "properties": {
        "kind": {"enum": ["attack", "end", "reinforce"]},
        "from": CELL,
        "to": CELL,
        "cells": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1},
            "description": '"row,column" -> points',
        },
    },
    "required": ["kind"],
}
