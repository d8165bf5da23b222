"""What the older eras add to a view and its text. Under the current rules they add nothing, so
default views (and their recorded digests) are unchanged. Hidden information stays hidden: a
legacy pile shows rivals only its pips (§4.2), a Three Strikes commit only its count."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..state import State

JSON = Any


def era_view(s: State, seat: int | None) -> dict[str, JSON]:
    r = s.rules
    out: dict[str, JSON] = {}
    if r.endgame != "rounds" or r.last_tile_reshuffle != "always":
        out["endgame"] = {
            "kind": r.endgame,
            "reshuffle": r.last_tile_reshuffle,
            "last_round": s.last_round,
        }
    return out


def era_head(v: Mapping[str, JSON]) -> str:
    """The words after 'round N of M' in the text's first line."""
    end = v.get("endgame")
    if not end or end["kind"] == "rounds":
        return ""
    if end["last_round"]:
        return " (the last tile is drawn: this round is the last)"
    return " at most (the game ends with the round in which the last tile is drawn)"


def era_lines(v: Mapping[str, JSON]) -> list[str]:
    """Lines the text adds under the stock line."""
    end = v.get("endgame")
    out = []
    if end and end["reshuffle"] == "never":
        out.append("The discard pile is never shuffled back into the stock.")
    return out
