"""Territory's settings (DECISIONS §1). The lattice (radius 7, nine seats, hearths on ring 5) is
fixed by the rules and the hearth list, so it is a constant of `board.py`, not a setting."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ..protocol import Ruleset


class TerritoryRuleset(Ruleset):
    turns: int = Field(18, ge=1, le=200)
    starting_paint: int = Field(12, ge=0, le=10_000)
    yield_thresholds: tuple[float, float, float] = (0.45, 0.75, 0.92)
    map: Literal["open", "rooms", "inside_out"] = "open"
    fling_range: int = Field(2, ge=1, le=14)
    claim_base_cost: int = Field(2, ge=0, le=1000)
    claim_cost_per_distance: int = Field(2, ge=0, le=1000)
    raze_from_turn: int = Field(4, ge=1, le=201)
    raze_cost: int = Field(5, ge=0, le=1000)
    raze_cost_near_hearth: int = Field(10, ge=0, le=1000)
    salvage_multiplier: int = Field(4, ge=0, le=1000)
    transfer_fee: int = Field(1, ge=0, le=1000)
    max_orders: int = Field(8, ge=1, le=64)
    talk_lines: int = Field(3, ge=0, le=20)
    talk_chars: int = Field(200, ge=1, le=4000)
    note_chars: int = Field(120, ge=1, le=4000)
    claim_owned_target: Literal["void", "reject"] = "void"
    """T6: a claim on a tile another seat owns at validation is voided if still owned after the
    razes ("void"), or rejects the whole set as the reference does ("reject")."""
    raze_order: Literal["simultaneous", "seat"] = "simultaneous"
    """T8: count razes per tile order-independently, or apply them in (seat, order) order."""

    @model_validator(mode="after")
    def _thresholds_increase(self) -> TerritoryRuleset:
        t = self.yield_thresholds
        if not 0.0 <= t[0] <= t[1] <= t[2] <= 1.0:
            raise ValueError("yield_thresholds must be non-decreasing within [0, 1]")
        return self
