"""What one move did, in a line every seat may read: an attack's result (captured, emptied,
repelled) with the strengths before and after; reinforcements need no more than their text."""

from __future__ import annotations

from .history import AttackRecord
from .state import SEAT_NAMES, InfluenceState


def news(before: InfluenceState, after: InfluenceState) -> tuple[str, ...]:
    """`captured (was Black 7) at 1`, `emptied (was Black 8)`, `repelled (was Black 8, now
    3)`: the target is in the move's own text, which goes beside this."""
    attack = _new_attack(before, after)
    if attack is None:
        return ()
    _, _, source_before, target_before, source_after, target_after = attack
    was = _cell(target_before)
    if target_after == 0:
        text = f"emptied (was {was})"
    elif (target_after > 0) == (source_before > 0):
        text = f"captured (was {was}) at {abs(target_after)}"
    else:
        text = f"repelled (was {was}, now {abs(target_after)})"
    if abs(source_after) != 1:
        text += f", source keeps {abs(source_after)}"
    return (text,)


def _cell(value: int) -> str:
    return "empty" if value == 0 else f"{SEAT_NAMES[0 if value > 0 else 1]} {abs(value)}"


def _new_attack(before: InfluenceState, after: InfluenceState) -> AttackRecord | None:
    if before.phase != "attack":
        return None
    made = after.turn_attacks
    record = after.last_turns[before.mover]
    if record is not None and record != before.last_turns[before.mover]:
        # The move closed the turn (an elimination, or `end` with nowhere to reinforce): its
        # attacks are in the record it wrote. A record from an earlier turn says nothing of
        # this move: `end` after fewer attacks than last turn attacked nothing.
        made = record.attacks
    return made[-1] if len(made) > len(before.turn_attacks) else None
