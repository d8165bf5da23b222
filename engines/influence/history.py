"""What each seat did on its last complete turn, carried in the state so views can show it.

A turn in progress is kept as its attacks and the points given so far; when the turn ends (after
the reinforce phase, or by an elimination that ends the game) it becomes that seat's `TurnRecord`.
Everything is by cell index and signed value, so it costs a tuple per attack and round-trips
through JSON exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..jsonread import arr
from ..protocol import JSON
from .board import Board

AttackRecord = tuple[int, int, int, int, int, int]
"""(source, target, source before, target before, source after, target after): cell indices,
then signed values (White > 0, Black < 0)."""
Points = tuple[tuple[int, int], ...]
"""(cell index, points) in index order, each cell once."""


@dataclass(frozen=True)
class TurnRecord:
    seat: int
    turn: int
    attacks: tuple[AttackRecord, ...]
    reinforced: Points
    lost: int
    """Points the seat could not place because every own cell was at its cap."""


def add_points(given: Points, more: Sequence[tuple[int, int]]) -> Points:
    merged = dict(given)
    for i, k in more:
        merged[i] = merged.get(i, 0) + k
    return tuple(sorted(merged.items()))


# ---- JSON (the state's stored form) -------------------------------------------------------------


def attacks_json(attacks: Sequence[AttackRecord]) -> list[JSON]:
    return [list(a) for a in attacks]


def points_json(points: Points) -> list[JSON]:
    return [[i, k] for i, k in points]


def record_json(record: TurnRecord | None) -> JSON:
    if record is None:
        return None
    return {
        "seat": record.seat,
        "turn": record.turn,
        "attacks": attacks_json(record.attacks),
        "reinforced": points_json(record.reinforced),
        "lost": record.lost,
    }


def _ints(raw: object, n: int, what: str) -> tuple[int, ...]:
    if (
        not isinstance(raw, list)
        or len(raw) != n
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw)
    ):
        raise ValueError(f"influence state: {what} must be a list of {n} integers")
    return tuple(raw)


def _index(i: int, board: Board, what: str) -> int:
    if not 0 <= i < len(board.cells):
        raise ValueError(f"influence state: {what} has no cell {i}")
    return i


def attacks_from_json(raw: object, board: Board) -> tuple[AttackRecord, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError("influence state: attacks must be a list")
    out: list[AttackRecord] = []
    for item in raw:
        src, dst, a, b, c, d = _ints(item, 6, "an attack record")
        _index(src, board, "an attack record")
        _index(dst, board, "an attack record")
        out.append((src, dst, a, b, c, d))
    return tuple(out)


def points_from_json(raw: object, board: Board) -> Points:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError("influence state: reinforced must be a list")
    pairs = [_ints(item, 2, "a reinforcement record") for item in raw]
    for i, k in pairs:
        _index(i, board, "a reinforcement record")
        if k < 1:
            raise ValueError("influence state: a reinforcement record needs points ≥ 1")
    return add_points((), [(i, k) for i, k in pairs])


def record_from_json(raw: object, board: Board) -> TurnRecord | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ValueError("influence state: a last turn must be an object or null")
    seat, turn, lost = raw.get("seat"), raw.get("turn"), raw.get("lost", 0)
    if seat not in (0, 1):
        raise ValueError("influence state: a last turn's seat must be 0 or 1")
    for name, value in (("turn", turn), ("lost", lost)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"influence state: a last turn's {name} must be an integer ≥ 0")
    assert isinstance(seat, int) and isinstance(turn, int) and isinstance(lost, int)
    return TurnRecord(
        seat=seat,
        turn=turn,
        attacks=attacks_from_json(raw.get("attacks"), board),
        reinforced=points_from_json(raw.get("reinforced"), board),
        lost=lost,
    )


# ---- the view's form ----------------------------------------------------------------------------

SEAT_NAMES = ("White", "Black")


def _owner(v: int) -> str | None:
    return None if v == 0 else SEAT_NAMES[0] if v > 0 else SEAT_NAMES[1]


def _took(a: AttackRecord) -> bool:
    """Whether the attack captured its target (the target now has the attacker's sign)."""
    return a[5] != 0 and (a[5] > 0) == (a[2] > 0)


ATTACK_FIELDS = (
    "from",
    "to",
    "strength",
    "result",
    "owner_before",
    "strength_before",
    "owner_after",
    "strength_after",
    "source_left",
)
"""The columns of `last_turn.attacks`: rows, not objects, because a busy turn has dozens of
attacks and the view travels with every call."""


def attack_row(a: AttackRecord, board: Board) -> list[JSON]:
    src, dst, s0, t0, s1, t1 = a
    if t1 == 0:
        result = "emptied"
    elif (t1 > 0) == (s0 > 0):
        result = "captured"
    else:
        result = "repelled"
    return [
        board.labels[src],
        board.labels[dst],
        abs(s0),
        result,
        _owner(t0),
        abs(t0),
        _owner(t1),
        abs(t1),
        abs(s1),
    ]


def attack_dicts(view: Mapping[str, JSON]) -> list[dict[str, JSON]]:
    """The attack rows of a `last_turn` view as objects keyed by `ATTACK_FIELDS`."""
    rows = view.get("attacks")
    return [dict(zip(ATTACK_FIELDS, arr(row), strict=True)) for row in arr(rows or [])]


def record_view(record: TurnRecord, board: Board) -> dict[str, JSON]:
    return {
        "seat": SEAT_NAMES[record.seat],
        "turn": record.turn,
        "attack_fields": list(ATTACK_FIELDS),
        "attacks": [attack_row(a, board) for a in record.attacks],
        "captured": [
            board.labels[i]
            for i in sorted(
                {a[1] for a in record.attacks if a[5] != 0 and (a[5] > 0) == (a[2] > 0)}
            )
        ],
        "reinforced": {board.labels[i]: k for i, k in record.reinforced},
        "points_spent": sum(k for _, k in record.reinforced),
        "points_lost": record.lost,
    }


def render_record(view: Mapping[str, JSON], you: object) -> str:
    """One line: `Black's last turn (turn 3): 9,1>8,1 captured 8,1 (was yours, 3); ...;
    reinforced +8,1:2 +9,1`."""
    parts: list[str] = []
    for a in attack_dicts(view):
        owner = a["owner_before"]
        was = (
            "empty"
            if owner is None
            else f"{'yours' if owner == you else owner}, {a['strength_before']}"
        )
        move = f"{a['from']}>{a['to']}"
        if a["result"] == "captured":
            text = f"{move} captured {a['to']} (was {was}) at {a['strength_after']}"
        elif a["result"] == "emptied":
            text = f"{move} emptied {a['to']} (was {was})"
        else:
            text = f"{move} repelled ({a['to']} was {was}, now {a['strength_after']})"
        if a["source_left"] != 1:
            text += f", {a['from']} keeps {a['source_left']}"
        parts.append(text)
    if not parts:
        parts.append("no attacks")
    reinforced = view.get("reinforced")
    given = reinforced if isinstance(reinforced, Mapping) else {}
    if given:
        notation = " ".join(f"+{cell}" if k == 1 else f"+{cell}:{k}" for cell, k in given.items())
        parts.append(f"reinforced {notation}")
    elif view.get("points_lost"):
        parts.append("no reinforcement")
    if view.get("points_lost"):
        parts.append(f"{view['points_lost']} point(s) lost (every cell at its cap)")
    return f"{view['seat']}'s last turn (turn {view['turn']}): " + "; ".join(parts)
