"""Influence settings (DECISIONS §3) with their defaults.

`opening` left at "default" is left out of the ruleset's JSON, so the default game's records
and digests are what they were before the option existed; a dump with the context
`{"every_field": True}` (the game list's defaults) shows it."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import (
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..canonical import canonical_json
from ..protocol import Ruleset
from .board import MAX_RHOMBUS, Board, MapError, board_from_json, default_board
from .opening import seeded_board

DEFAULT_SIZE = 11


class InfluenceRuleset(Ruleset):
    size: int = Field(
        DEFAULT_SIZE,
        ge=4,
        le=MAX_RHOMBUS,
        description="N of the default N×N rhombus board (used when no custom map is given).",
    )
    map: dict[str, Any] | None = Field(
        None,
        description='A custom map: {"cells": [[r, c], ...] | "rhombus:N", "big": [[r, c], ...], '
        '"init": {"r,c": v}} (v > 0 White, v < 0 Black). Hexes not listed in cells are walls.',
    )
    opening: Literal["default", "seeded"] = Field(
        "default",
        description='"default": the N×N rhombus with the rules\' starts (or the custom map). '
        '"seeded": a board drawn from the game\'s seed on the N×N rhombus (walls, big cells '
        "and both starts), point-symmetric so it favours neither colour; same seed, same board.",
    )
    max_turns: int = Field(
        100, ge=1, le=10_000, description="Full turns per player before the game is a draw (I1)."
    )
    max_attacks_per_phase: int = Field(
        500, ge=1, le=100_000, description="Technical cap on attacks in one attack phase (I4)."
    )

    @field_validator("map")
    @classmethod
    def _check_map(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            text = canonical_json(value)
            try:
                board_from_json(text)
            except MapError as exc:
                # A custom error keeps pydantic's "Value error," prefix out of the message; the
                # reason goes in as context because map messages contain braces.
                raise PydanticCustomError("invalid_map", "{reason}", {"reason": str(exc)}) from None
            # Kept in its JSON form (lists, sorted keys, a private copy) so a ruleset equals its
            # own round trip through JSON and the caller's dict cannot change it later.
            normal: dict[str, Any] = json.loads(text)
            return normal
        return value

    @model_validator(mode="after")
    def _size_or_map(self) -> InfluenceRuleset:
        # A full dump of a ruleset carries the default size beside a map, so only another
        # size is a contradiction.
        if self.map is not None and self.size != DEFAULT_SIZE:
            raise PydanticCustomError(
                "size_with_map",
                'size applies only to the default board; with a custom map give "cells": '
                '"rhombus:N" or a list of cells instead',
            )
        if self.map is not None and self.opening != "default":
            raise PydanticCustomError(
                "opening_with_map",
                'opening "seeded" draws its own map; give either a map or opening "seeded"',
            )
        return self

    @model_serializer(mode="wrap")
    def _dump(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if out.get("opening") == "default" and not (info.context or {}).get("every_field"):
            del out["opening"]
        return out

    def board(self, seed: int | str | None = None) -> Board:
        """The game's board; a seeded opening needs the game's seed."""
        if self.opening == "seeded":
            if seed is None:
                raise ValueError("a seeded opening needs the game's seed")
            return seeded_board(self.size, seed)
        if self.map is None:
            return default_board(self.size)
        return board_from_json(canonical_json(self.map))
