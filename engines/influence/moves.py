"""Moves and their notation.

Canonical text (cells are `row,col`):
- attack: `9,1>8,1` (source>target);
- end the attack phase: `end`;
- reinforce: `+9,1` (one point) or a whole allocation `+8,2:2 +9,1:3` (cells in (row, col)
  order, `:k` left out when k = 1).

The parser also takes `(9,1) -> (8,1)`, `9, 1 > 8, 1`, `END`, `end_attack`, `done`, `pass`,
`+9,1:3; +8,2:2` and a JSON object `{"9,1": 3, "8,2": 2}` as an allocation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import MalformedMove
from ..protocol import JSON
from .board import Cell, cell_text

SYNTAX = (
    "attack `row,col>row,col` (e.g. `9,1>8,1`), `end` to end the attack phase, reinforce one "
    "point `+row,col` (e.g. `+9,1`) or all points at once `+row,col:k ...` (e.g. `+9,1:3 +8,2:2`)"
)
END_WORDS = frozenset(
    {
        "end",
        "end attack",
        "end attacks",
        "end_attack",
        "end_attacks",
        "end-attack",
        "end phase",
        "done",
        "pass",
    }
)
MAX_POINTS_DIGITS = 5

_CELL = r"\(?\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)?"
_ATTACK = re.compile(rf"^{_CELL}\s*(?:->|=>|>|→)\s*{_CELL}$")
_POINT = re.compile(rf"\+\s*{_CELL}(?:\s*[:x×*]\s*(\d+))?")
_SEPARATORS = re.compile(r"[\s;,]*")


@dataclass(frozen=True)
class Attack:
    source: Cell
    target: Cell


@dataclass(frozen=True)
class EndAttacks:
    pass


@dataclass(frozen=True)
class Reinforce:
    allocation: tuple[tuple[Cell, int], ...]
    """(cell, points) sorted by cell, each cell once, points ≥ 1."""

    @property
    def total(self) -> int:
        return sum(k for _, k in self.allocation)

    @property
    def single(self) -> bool:
        return len(self.allocation) == 1 and self.allocation[0][1] == 1


Move = Attack | EndAttacks | Reinforce
END = EndAttacks()


def make_reinforce(points: Mapping[Cell, int]) -> Reinforce:
    return Reinforce(tuple(sorted((cell, k) for cell, k in points.items() if k > 0)))


def move_text(move: Move) -> str:
    if isinstance(move, Attack):
        return f"{cell_text(move.source)}>{cell_text(move.target)}"
    if isinstance(move, EndAttacks):
        return "end"
    return " ".join(
        f"+{cell_text(cell)}" if k == 1 else f"+{cell_text(cell)}:{k}"
        for cell, k in move.allocation
    )


def move_json(move: Move) -> dict[str, JSON]:
    if isinstance(move, Attack):
        return {"kind": "attack", "from": list(move.source), "to": list(move.target)}
    if isinstance(move, EndAttacks):
        return {"kind": "end"}
    return {"kind": "reinforce", "cells": {cell_text(cell): k for cell, k in move.allocation}}


def _malformed(what: str) -> MalformedMove:
    return MalformedMove(f"Cannot read the move: {what}.", allowed=SYNTAX)


def parse_move(text: str) -> Move:
    if not isinstance(text, str):
        raise _malformed(f"expected text, got {type(text).__name__}")
    cleaned = text.strip().strip("`'\"").strip().lower()
    if not cleaned:
        raise _malformed("the move is empty")
    if " ".join(cleaned.split()) in END_WORDS:
        return END
    if cleaned.startswith("{"):
        try:
            data = json.loads(cleaned)
        except ValueError:
            raise _malformed(f"{text!r} starts with '{{' but is not a JSON object") from None
        return _allocation_from_mapping(data)
    if cleaned.startswith("+"):
        return _parse_reinforce(cleaned, text)
    match = _ATTACK.match(cleaned)
    if match:
        r1, c1, r2, c2 = (int(g) for g in match.groups())
        return Attack((r1, c1), (r2, c2))
    if re.search(r"->|=>|>|→", cleaned):
        raise _malformed(f"{text!r} is not one attack; give exactly one `row,col>row,col` per move")
    if re.fullmatch(_CELL, cleaned):
        raise _malformed(f"{text!r} is a cell, not a move; prefix `+` to reinforce it")
    raise _malformed(f"{text!r} is not a known move")


def _parse_reinforce(cleaned: str, original: str) -> Reinforce:
    points: dict[Cell, int] = {}
    pos = 0
    while pos < len(cleaned):
        match = _POINT.match(cleaned, pos)
        if match is None:
            raise _malformed(
                f"in {original!r}, {cleaned[pos:]!r} is not of the form `+row,col` or `+row,col:k`"
            )
        r, c, k_text = match.groups()
        if k_text is not None and len(k_text) > MAX_POINTS_DIGITS:
            raise _malformed(f"{k_text} points is far too many")
        k = 1 if k_text is None else int(k_text)
        if k < 1:
            raise _malformed(f"`+{r},{c}:{k}` gives {k} points; each entry needs at least 1")
        cell = (int(r), int(c))
        points[cell] = points.get(cell, 0) + k
        sep = _SEPARATORS.match(cleaned, match.end())
        pos = sep.end() if sep else match.end()
    return make_reinforce(points)


def _cell_from_json(value: object, what: str) -> Cell:
    if isinstance(value, str):
        match = re.fullmatch(_CELL, value.strip())
        if match:
            return (int(match.group(1)), int(match.group(2)))
    elif (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    ):
        return (int(value[0]), int(value[1]))
    raise _malformed(f'{what} must be a cell as [row, col] or "row,col", got {value!r}')


def _allocation_from_mapping(data: object) -> Reinforce:
    points: dict[Cell, int] = {}
    if isinstance(data, Mapping):
        items = list(data.items())
    elif isinstance(data, list) and all(isinstance(x, list) and len(x) == 3 for x in data):
        items = [((x[0], x[1]), x[2]) for x in data]
    else:
        raise _malformed('an allocation must be an object {"row,col": points}')
    if not items:
        raise _malformed("the allocation is empty")
    for key, k in items:
        cell = _cell_from_json(list(key) if isinstance(key, tuple) else key, "allocation key")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise _malformed(f"points for {cell_text(cell)} must be an integer ≥ 1, got {k!r}")
        points[cell] = points.get(cell, 0) + k
    return make_reinforce(points)


def move_from_json(data: JSON) -> Move:
    if isinstance(data, str):
        return parse_move(data)
    if not isinstance(data, Mapping):
        raise _malformed(
            'expected an object such as {"kind": "attack", "from": [9, 1], "to": [8, 1]}'
        )
    kind = data.get("kind")
    if kind == "end":
        return END
    if kind == "attack":
        return Attack(
            _cell_from_json(data.get("from"), "from"), _cell_from_json(data.get("to"), "to")
        )
    if kind == "reinforce":
        return _allocation_from_mapping(data.get("cells"))
    raise _malformed(
        f'unknown kind {kind!r}; use {{"kind": "attack", "from": [r, c], "to": [r, c]}}, '
        '{"kind": "end"} or {"kind": "reinforce", "cells": {"r,c": k}}'
    )
