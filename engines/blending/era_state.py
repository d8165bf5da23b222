"""The state the older eras add (Three Strikes and legacy fights, the last round, kinds picked for
a pile), and its JSON: keys appear only where an era uses them, so a game under the current rules
serialises (and digests) exactly as it did before the eras existed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..jsonread import field, flag, num, pairs, texts, triples
from ..protocol import JSON


@dataclass(frozen=True)
class Strike:
    """A Three Strikes fight being committed (§4.1): the attacker's tiles, face down, in order."""

    gid: int
    laid: tuple[tuple[int, int, int], ...] = ()
    """(strike 0..2, tile, kind) in the order laid."""


@dataclass(frozen=True)
class Duel:
    """A legacy fight (§4.2), round by round."""

    gid: int
    """The guardian fought, or 0 for a hero fight."""
    foe: int = -1
    """The defending hero's seat in a hero fight (combat_pvp), else -1."""
    damage: int = 0
    """Damage dealt to the guardian this fight (its strength is its pile size)."""
    taken: int = 0
    """Damage the attacker took this fight (tiles discarded)."""
    owed: int = 0
    """Tiles the attacker must still discard for damage taken this round."""
    tile: int = 0
    """The attacker's tile this round, played face down (0: none yet)."""
    escape: bool = False
    answer: int = 0
    """The defender's tile this round, revealed once the attacker has played."""
    next: int = 0
    """The guardian's next pile position (its pile cycles, from the top each fight, BE10)."""
    rounds: int = 0
    results: tuple[str, ...] = ()


class EraFields(Protocol):
    """What `era_json` reads of a game state (the state imports this module, not the reverse)."""

    @property
    def last_round(self) -> bool: ...
    @property
    def pick_kinds(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def strike(self) -> Strike | None: ...
    @property
    def duel(self) -> Duel | None: ...


def era_json(s: EraFields) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if s.last_round:
        out["last_round"] = True
    if s.pick_kinds:
        out["pick_kinds"] = [list(p) for p in s.pick_kinds]
    if s.strike is not None:
        out["strike"] = {"gid": s.strike.gid, "laid": [list(x) for x in s.strike.laid]}
    if s.duel is not None:
        d = s.duel
        out["duel"] = {**d.__dict__, "results": list(d.results)}
    return out


def _strike(v: JSON) -> Strike:
    laid = field(v, "laid", triples)
    return Strike(field(v, "gid", num), laid)


def _duel(v: JSON) -> Duel:
    return Duel(
        gid=field(v, "gid", num),
        foe=field(v, "foe", num),
        damage=field(v, "damage", num),
        taken=field(v, "taken", num),
        owed=field(v, "owed", num),
        tile=field(v, "tile", num),
        escape=field(v, "escape", flag),
        answer=field(v, "answer", num),
        next=field(v, "next", num),
        rounds=field(v, "rounds", num),
        results=tuple(field(v, "results", texts)),
    )


def era_from_json(d: Mapping[str, JSON]) -> dict[str, Any]:
    """The era fields `era_json` wrote, read as `state.from_json` reads the rest (a TypeError
    names the field)."""
    out: dict[str, Any] = {}
    if "last_round" in d and field(d, "last_round", flag):
        out["last_round"] = True
    if "pick_kinds" in d:
        out["pick_kinds"] = field(d, "pick_kinds", pairs)
    if d.get("strike") is not None:
        out["strike"] = field(d, "strike", _strike)
    if d.get("duel") is not None:
        out["duel"] = field(d, "duel", _duel)
    return out


def guardian_extra_json(kinds: tuple[tuple[int, int], ...], cursor: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if kinds:
        out["kinds"] = [list(k) for k in kinds]
    if cursor:
        out["cursor"] = cursor
    return out


def guardian_extra(g: Mapping[str, JSON]) -> dict[str, Any]:
    return {
        "kinds": field(g, "kinds", pairs) if "kinds" in g else (),
        "cursor": field(g, "cursor", num) if "cursor" in g else 0,
    }
