"""A seat's labels: the server's defaults (from `serve --label` and COGS_ARENA_LABELS) under what
a new_game or join_game call gives, so an eval harness can label every game its server hosts
without the model having to say who it is.

Precedence, first wins, label by label: the call's arguments, the `--label` flags, the
environment variable. The client's name and version (from the MCP handshake) are recorded
beside the labels, never as one: a client name is not a model."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import BadArgument
from .inputs import LABELS_ALLOWED
from .text_rules import MAX_LABELS, labels_problem

LABELS_ENV = "COGS_ARENA_LABELS"
"""`key=value` pairs separated by commas, e.g. `model=gpt-x,prompt=v2`."""


def parse_pairs(items: Iterable[str], source: str) -> dict[str, str]:
    """`key=value` items as labels (a later key wins), checked as a call's labels are.
    Raises BadArgument naming `source` and the faulty item."""
    labels: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise BadArgument(
                f"{source}: {item.strip()!r} is not key=value.",
                allowed="key=value, e.g. model=gpt-x",
            )
        labels[key.strip()] = value.strip()
    return checked(source, labels)


def checked(source: str, labels: Mapping[str, str]) -> dict[str, str]:
    """`labels` as a dict, or BadArgument naming `source` and what is wrong."""
    labels = dict(labels)
    problem = labels_problem(source, labels)
    if problem is not None:
        raise BadArgument(problem + ".", allowed=LABELS_ALLOWED)
    return labels


def env_labels(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The labels COGS_ARENA_LABELS sets (none when it is unset or blank)."""
    text = (os.environ if environ is None else environ).get(LABELS_ENV, "")
    items = [part for part in text.split(",") if part.strip()]
    return parse_pairs(items, LABELS_ENV)


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
