"""The Chemistry ruleset: the variant and every parameter of DECISIONS §2, range-checked."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

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


class ChemistryRuleset(Ruleset):
    variant: Variant = "three-cycles-plentiful-distractors"
    control: Literal["orders", "ticks"] = "orders"
    """`orders`: one standing order per seat per shift, walked by the courier kernel.
    `ticks`: every seat submits a raw action every tick (for reinforcement learning)."""
    shifts: int = Field(12, ge=1, le=48)
    ticks_per_shift: int = Field(60, ge=1, le=600)
    charge_max: int = Field(12, ge=1, le=24)
    charge0: int = Field(3, ge=0, le=24)
    charge_decay_period: int = Field(60, ge=1, le=720)
    reaction_cooldown: int = Field(6, ge=0, le=60)
    cold_start_cost: int = Field(3, ge=1, le=12)
    food_lifetime: int = Field(240, ge=1, le=1440)
    vent_period: int = Field(8, ge=1, le=60)
    vent_ground_cap: int = Field(6, ge=0, le=24)
    distractor_period: int | None = Field(None, ge=0, le=60)
    """None: the variant's value (0 off, 6, or 2)."""
    distractor_ground_cap: int | None = Field(None, ge=0, le=48)
    """None: the variant's value (0, 12 or 24)."""
    move_cooldown: int = Field(2, ge=1, le=10)
    carry_cap: int = Field(1, ge=1, le=4)

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
