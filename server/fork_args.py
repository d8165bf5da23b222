"""The arguments that make a `new_game` a fork: `fork_of` (a finished game of this server) and
`at` (the decision to start from). Mixed into new_game's input model."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from .text_rules import MAX_ID_CHARS, custom_error, unpublished

MAX_DECISION = 1_000_000

ForkOf = Annotated[
    str | None,
    Field(
        max_length=MAX_ID_CHARS,
        description="A finished game's id on this server: start from its position (its game, "
        "ruleset and seed; this call's seats). Give `at`.",
        json_schema_extra=unpublished,
    ),
]
At = Annotated[
    int | None,
    Field(
        ge=0,
        le=MAX_DECISION,
        description="With fork_of: the decision to start from (0: the start).",
        json_schema_extra=unpublished,
    ),
]


class Forkable:
    """`fork_of` and `at` go together; a fork takes the parent's seed and ruleset."""

    @model_validator(mode="after")
    def _fork_together(self) -> Any:
        fork_of, at = getattr(self, "fork_of", None), getattr(self, "at", None)
        if (fork_of is None) != (at is None):
            raise custom_error(
                "fork_args",
                "fork_of and at go together",
                allowed="both (fork_of=<finished game id>, at=<decision>) or neither",
            )
        if fork_of is not None:
            given = [k for k in ("seed", "ruleset") if getattr(self, k, None) is not None]
            if given:
                raise custom_error(
                    "fork_args",
                    f"a fork plays its parent's game: {' and '.join(given)} cannot be given",
                    allowed="fork_of and at, with seats, bots, labels and times of your own",
                )
        return self
