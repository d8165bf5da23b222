"""The Chemistry ruleset: the variant and every parameter of DECISIONS §2, range-checked with
the reference's ranges (rules.md C24; out of range is refused, where the reference clamps)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from ..protocol import Ruleset

Variant = Literal[
    "two-cycles",
    "two-cycles-distractors",
    "three-cycles",
    "three-cycles-plentiful-distractors",
]

VARIANT_VATS: dict[str, tuple[int, ...]] = {
    "two-cycles": (0, 1),
    "two-cycles-distractors": (0, 1),
    "three-cycles": (0, 1, 2),
    "three-cycles-plentiful-distractors": (0, 1, 2),
}
VARIANT_DISTRACTORS: dict[str, tuple[int, int]] = {
    "two-cycles": (0, 0),
    "two-cycles-distractors": (6, 12),
    "three-cycles": (0, 0),
    "three-cycles-plentiful-distractors": (2, 24),
}

RANGES: dict[str, tuple[int, int]] = {
    "shifts": (1, 24),
    "ticks_per_shift": (10, 120),
    "charge_max": (1, 24),
    "charge0": (0, 24),
    "charge_decay_period": (1, 240),
    "reaction_cooldown": (0, 48),
    "cold_start_cost": (1, 8),
    "food_lifetime": (24, 960),
    "vent_period": (1, 48),
    "vent_ground_cap": (1, 24),
    "distractor_period": (0, 64),
    "distractor_ground_cap": (0, 64),
    "move_cooldown": (1, 8),
    "carry_cap": (1, 2),
}
"""Each setting's range (rules.md C24), both ends allowed. Checked by `_in_range` so that a
refusal names the whole range, not just the end it crossed."""


def _ranged(default: int | None, name: str) -> Any:
    lo, hi = RANGES[name]
    return Field(default, json_schema_extra={"minimum": lo, "maximum": hi})


class ChemistryRuleset(Ruleset):
    variant: Variant = "three-cycles-plentiful-distractors"
    control: Literal["orders", "ticks"] = "orders"
    """`orders`: one standing order per seat per shift, walked by the courier kernel.
    `ticks`: every seat submits a raw action every tick (for reinforcement learning)."""
    shifts: int = _ranged(12, "shifts")
    ticks_per_shift: int = _ranged(60, "ticks_per_shift")
    charge_max: int = _ranged(12, "charge_max")
    charge0: int = _ranged(3, "charge0")
    charge_decay_period: int = _ranged(60, "charge_decay_period")
    reaction_cooldown: int = _ranged(6, "reaction_cooldown")
    cold_start_cost: int = _ranged(3, "cold_start_cost")
    food_lifetime: int = _ranged(240, "food_lifetime")
    vent_period: int = _ranged(8, "vent_period")
    vent_ground_cap: int = _ranged(6, "vent_ground_cap")
    distractor_period: int | None = _ranged(None, "distractor_period")
    """None: the variant's value (0 off, 6, or 2)."""
    distractor_ground_cap: int | None = _ranged(None, "distractor_ground_cap")
    """None: the variant's value (0, 12 or 24)."""
    move_cooldown: int = _ranged(2, "move_cooldown")
    carry_cap: int = _ranged(1, "carry_cap")
    """The reference never reads it (a hand holds one unit); 2 is this project's extension."""

    @field_validator(*RANGES)
    @classmethod
    def _in_range(cls, value: int | None, info: ValidationInfo) -> int | None:
        lo, hi = RANGES[str(info.field_name)]
        if value is not None and not lo <= value <= hi:
            raise ValueError(f"must be in {lo}..{hi}, got {value}")
        return value

    @model_validator(mode="after")
    def _charge0_fits(self) -> ChemistryRuleset:
        if self.charge0 > self.charge_max:
            raise ValueError("charge0 must not exceed charge_max")
        return self

    @property
    def vats(self) -> tuple[int, ...]:
        return VARIANT_VATS[self.variant]

    @property
    def distractors(self) -> tuple[int, int]:
        """(period, ground cap) of the glitter and quartz vents; period 0 means absent."""
        period, cap = VARIANT_DISTRACTORS[self.variant]
        if self.distractor_period is not None:
            period = self.distractor_period
        if self.distractor_ground_cap is not None:
            cap = self.distractor_ground_cap
        return period, cap

    @property
    def species(self) -> tuple[int, ...]:
        """Species present: the three feedstocks, plus the distractors when their vents exist."""
        return (0, 1, 2, 3, 4) if self.distractors[0] > 0 else (0, 1, 2)

    @property
    def total_ticks(self) -> int:
        return self.shifts * self.ticks_per_shift
