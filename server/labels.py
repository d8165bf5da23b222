"""A seat's labels: who and what played it, kept in the record to score and compare runs.

A call's labels (new_game/join_game: `model`, `prompt`, `labels`) go over the server's defaults
(`serve --label` over the COGS_ARENA_LABELS variable), label by label, so an eval harness can
label every game its server hosts without the model having to say who it is. The client's name
and version (from the MCP handshake) are recorded beside the labels, never as one: a client
name is not a model. Every label is checked here, whichever way it came."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, Field, model_validator

from .errors import BadArgument
from .text_rules import custom_error, shown, text_problem

LABELS_ENV = "COGS_ARENA_LABELS"
"""`key=value` pairs separated by commas, e.g. `model=gpt-x,prompt=v2`."""
MAX_LABELS = 16
"""Labels on one seat, after the server's defaults are merged in."""
MAX_LABEL_KEY_CHARS = 40
MAX_LABEL_CHARS = 200
"""A label's value, `model` and `prompt` included."""
LABEL_KEY_RULE = "a letter, then letters, digits, '_', '-' or '.'"
_LABEL_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
OWN_FIELDS = ("model", "prompt")
"""Labels that have their own argument and their own field in the record."""

LABELS_ALLOWED = (
    f"labels: at most {MAX_LABELS}; keys {LABEL_KEY_RULE}, at most {MAX_LABEL_KEY_CHARS} "
    f"characters; values non-empty, at most {MAX_LABEL_CHARS} characters"
)
LABELS_HELP = (
    'Kept in the record to score and compare runs, e.g. {"variant": "b"}: at most '
    f"{MAX_LABELS}, keys of at most {MAX_LABEL_KEY_CHARS} characters (a letter, then letters, "
    f"digits, _ - .), values of 1 to {MAX_LABEL_CHARS}. They win over the server's `--label` "
    f"flags and {LABELS_ENV}."
)


# ---- the rule ----------------------------------------------------------------------------------


def label_problem(field: str, key: str, value: str) -> str | None:
    """Why the label `key`=`value` cannot be recorded, or None. Keys are plain names, so a
    table, a CSV header or `rate --by` can use them as they are; values are any non-empty text
    the `model` and `prompt` arguments take (score escapes what a terminal must not see)."""
    if not isinstance(key, str) or not isinstance(value, str):
        return f"{field}: keys and values must be text"
    if len(key) > MAX_LABEL_KEY_CHARS or not _LABEL_KEY.fullmatch(key):
        return (
            f"{field}: the key {shown(key)} is not a label name ({LABEL_KEY_RULE}, at most "
            f"{MAX_LABEL_KEY_CHARS} characters)"
        )
    where = f"{field}.{key}"
    if not value.strip():
        return f"{where} is empty"
    if len(value) > MAX_LABEL_CHARS:
        return f"{where} is longer than {MAX_LABEL_CHARS} characters"
    return text_problem(where, value)


def labels_problem(field: str, labels: Mapping[str, str]) -> str | None:
    """Why `labels` cannot be recorded, or None: too many, or a bad key or value."""
    if len(labels) > MAX_LABELS:
        return f"{field} has {len(labels)} labels; at most {MAX_LABELS}"
    for key, value in labels.items():
        problem = label_problem(field, key, value)
        if problem is not None:
            return problem
    return None


def checked(source: str, labels: Mapping[str, str]) -> dict[str, str]:
    """`labels` as a dict, or BadArgument naming `source` and what is wrong."""
    problem = labels_problem(source, labels)
    if problem is not None:
        raise BadArgument(problem + ".", allowed=LABELS_ALLOWED)
    return dict(labels)


# ---- as a tool argument ------------------------------------------------------------------------


def _valid_labels(value: dict[str, str] | None) -> dict[str, str] | None:
    problem = None if value is None else labels_problem("labels", value)
    if problem is not None:
        raise custom_error("bad_label", problem, allowed=LABELS_ALLOWED)
    return value


Labels = Annotated[
    dict[str, str] | None, AfterValidator(_valid_labels), Field(description=LABELS_HELP)
]


class Labelled:
    """Mixed into the inputs of new_game and join_game: `model`, `prompt` and `labels` name one
    set of labels, so a label given twice must agree."""

    @model_validator(mode="after")
    def _labels_agree(self) -> Any:
        labels: dict[str, str] = getattr(self, "labels", None) or {}
        for key in OWN_FIELDS:
            given = _given(getattr(self, key, None))
            if given is not None and key in labels and labels[key] != given:
                raise custom_error(
                    "label_twice",
                    f"{key} and labels.{key} differ",
                    allowed=f"give {key} once: as the {key} argument or in labels",
                )
        return self

    def given_labels(self) -> dict[str, str]:
        """Every label this call gives, `model` and `prompt` included."""
        labels = dict(getattr(self, "labels", None) or {})
        for key in OWN_FIELDS:
            given = _given(getattr(self, key, None))
            if given is not None:
                labels[key] = given
        return labels


def _given(value: str | None) -> str | None:
    # Models fill optional arguments with "": that must not wipe the harness's label.
    return value if value is not None and value.strip() else None


# ---- a server's defaults, and a seat's labels --------------------------------------------------


def parse_pairs(items: Iterable[str], source: str) -> dict[str, str]:
    """`key=value` items as labels (a later key wins), checked as a call's labels are.
    Raises BadArgument naming `source` and the faulty item."""
    labels: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise BadArgument(
                f"{source}: {shown(item.strip())} is not key=value.",
                allowed="key=value, e.g. model=gpt-x",
            )
        labels[key.strip()] = value.strip()
    return checked(source, labels)


def env_labels(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The labels COGS_ARENA_LABELS sets (none when it is unset or blank)."""
    text = (os.environ if environ is None else environ).get(LABELS_ENV, "")
    return parse_pairs([part for part in text.split(",") if part.strip()], LABELS_ENV)


def server_labels(flags: Iterable[str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """A server's default labels: the `--label key=value` flags over the environment's."""
    merged = {**env_labels(environ), **parse_pairs(flags, "--label")}
    return checked(f"--label and {LABELS_ENV}", merged)


@dataclass(frozen=True)
class SeatLabels:
    """What the record keeps of a seat's labels: model and prompt have their own fields."""

    model: str | None
    prompt: str | None
    others: dict[str, str]


def seat_labels(defaults: Mapping[str, str], given: Mapping[str, str]) -> SeatLabels:
    """`given` (a call's labels) over the server's `defaults`. Raises BadArgument when the two
    together hold more labels than a seat may carry."""
    merged = {**defaults, **given}
    if len(merged) > MAX_LABELS:
        raise BadArgument(
            f"labels: {len(merged)} labels with this server's default labels "
            f"({', '.join(sorted(defaults))}).",
            allowed=f"at most {MAX_LABELS} in all; give fewer labels",
        )
    model = merged.pop("model", None)
    prompt = merged.pop("prompt", None)
    return SeatLabels(model=model, prompt=prompt, others=merged)
