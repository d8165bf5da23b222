"""The Blending ruleset: the current defaults (estates + the match, DECISIONS §4) as fields, and the
switches for the older rule eras (issue 14, rules.md BE1...), each defaulting to the current rule.

Era fields left at their defaults are left out of the state's JSON (`rules_json`), so a game under
the current rules has the same digests as before the switches existed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..protocol import Ruleset
from .tiles import TripleMatch


class BlendingRules(Ruleset):
    players: int = Field(4, ge=2, le=8)
    supply_total: int = Field(100, ge=30, le=400)
    """Tiles in the game, split 6:3:1 (singles : doubles : triples); 200 is the Long game."""
    walk_tiles_from_supply: bool = True
    """B11: the setup walk's home-land singles come out of the supply (False: extra tiles)."""
    starting_hand: int = Field(3, ge=0, le=9)
    walk_length: int = Field(3, ge=1, le=5)
    draw: int = Field(3, ge=1, le=6)
    hand_limit: int = Field(9, ge=3, le=20)
    end_rounds: int = Field(10, ge=1, le=40)
    free_moves: int = Field(1, ge=0, le=3)
    native_speed: int = Field(3, ge=1, le=4)
    """Steps onto home land cost 1/native_speed of a move."""
    near_count: int = Field(3, ge=1, le=9)
    guardians_per_player: int = Field(3, ge=1, le=6)
    guardian_pile: int = Field(3, ge=1, le=6)
    pile_max: int = Field(6, ge=1, le=12)
    estate_spacing: int = Field(2, ge=0, le=4)
    """No guardian within this Chebyshev distance of a new one."""
    estate_min_land: int = Field(3, ge=1, le=9)
    estate_blends: Literal["touching", "personal"] = "touching"
    """'personal': a blend scores only for the player who laid it."""
    victory_tiles: int = Field(3, ge=0, le=9)
    set_aside: Literal["return", "discard"] = "return"
    """What happens to a surviving guardian's beaten base tiles."""
    max_passes: int = Field(10, ge=1, le=50)
    """B29 termination guard: passes per fight."""
    triple_match: TripleMatch = "exact"
    """B5: 'exact', a triple goes only where it covers its own pattern (rotated, never mirrored);
    'side', any triple goes on any 3-land spot whose doubled land is side by side."""
    double_points: int = Field(2, ge=0, le=9)
    triple_points: int = Field(3, ge=0, le=9)
    # ---- era switches (issue 14) ----
    endgame: Literal["rounds", "last_tile"] = "rounds"
    """§6: 'rounds' ends after end_rounds; 'last_tile' finishes the round in which the last tile is
    drawn with nothing left to refill the stock (BE1)."""
    last_tile_reshuffle: Literal["always", "never"] = "always"
    """B19 'always': an empty stock takes the shuffled discard pile; 'never': it stays empty."""
    last_tile_cap: int = Field(40, ge=1, le=200)
    """BE2 termination guard: a 'last_tile' game ends after this many rounds at the latest."""
    combat: Literal["match", "three", "legacy"] = "match"
    """§4.0 the match (default); §4.1 'three', Three Strikes; §4.2 'legacy', face-down piles."""
    combat_edge: int = Field(1, ge=0, le=3)
    """'three' and 'legacy': power + edge for the kind that beats the other's, - edge for it."""
    heal_to: int = Field(3, ge=1, le=6)
    """'three' strips and 'legacy' wear-down never leave a pile below this."""
    kill_on: Literal["sweep", "win"] = "sweep"
    """'three': a bare guardian (heal_to tiles or fewer) dies to a 3-0 sweep, or to any win."""
    damage: Literal["one", "difference"] = "one"
    """'legacy': a won round deals 1 damage, or the whole power difference."""
    escape_rule: Literal["matchup", "win"] = "matchup"
    """'legacy': an escape works unless the answer's kind beats yours, or only if it wins."""
    combat_pvp: bool = False
    """'legacy' only: heroes may fight rival heroes (§4.2 PvP; BE13)."""
    land: Literal["estates", "territories"] = "estates"
    """§3.4 estates (default); §3.4b 'territories': connected same-land patches (BE14-BE18)."""
    territory_min: int = Field(3, ge=1, le=9)
    """'territories': a claim needs an unclaimed patch of at least this many squares."""
    guardians_tie: Literal["split", "full"] = "split"
    """'territories': a tie for most guardians splits the points (rounded down), or pays each."""
    guarded_per_tile: int = Field(0, ge=0, le=3)
    """'territories': points added per tile of a guarded territory (§7 `guardedPerTile`)."""
    merge_tax: int = Field(0, ge=0, le=5)
    """'territories': tiles a single costs on top of itself when it merges claimed territories."""

    @model_validator(mode="after")
    def _pvp_only_legacy(self) -> BlendingRules:
        if self.combat_pvp and self.combat != "legacy":
            raise ValueError("combat_pvp is only described for combat 'legacy' (BE13)")
        return self

    @field_validator("supply_total")
    @classmethod
    def _tens(cls, value: int) -> int:
        if value % 10:
            raise ValueError("supply_total must be a multiple of 10 (a 6:3:1 split)")
        return value


ERA_FIELDS = (
    "endgame",
    "last_tile_reshuffle",
    "last_tile_cap",
    "combat",
    "combat_edge",
    "heal_to",
    "kill_on",
    "damage",
    "escape_rule",
    "combat_pvp",
    "land",
    "territory_min",
    "guardians_tie",
    "guarded_per_tile",
    "merge_tax",
)
"""Fields added for the older eras: left out of the state's JSON while at their defaults."""


def rules_json(rules: BlendingRules) -> dict[str, object]:
    """The ruleset as the state records it: era fields only where they differ from the default."""
    out = rules.model_dump()
    defaults = BlendingRules.model_fields
    for name in ERA_FIELDS:
        if out[name] == defaults[name].default:
            del out[name]
    return out
