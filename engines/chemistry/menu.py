"""The legal-move menu: every standing order (with what it does to a molecule already in hand),
or under `control: ticks` the seven raw actions."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..protocol import LegalMoves, MoveInfo
from .moves import ACTION_SYNTAX, NOTES_MAX, SAY_MAX, Order, parse_order
from .room import FEEDSTOCKS, SPECIES, VAT_TAKES, VATS
from .ruleset import ChemistryRuleset
from .state import ChemState
from .trip import hold_note


def menu(state: ChemState, seat: int) -> LegalMoves:
    rs = state.ruleset
    if rs.control == "ticks":
        return LegalMoves(
            action_menu(),
            complete=True,
            instructions="One action for this tick: " + ACTION_SYNTAX + ".",
        )
    held = state.cogs[seat].hand
    entries = order_menu(rs)
    if held:
        entries = tuple(
            replace(m, description=f"{m.description}; {hold_note(parse_order(m.notation), held)}")
            for m in entries
        )
    holding = f"Your cog holds {'+'.join(SPECIES[h] for h in held)}. " if held else ""
    return LegalMoves(
        entries,
        complete=True,
        hints={"say_max": SAY_MAX, "notes_max": NOTES_MAX},
        instructions=(
            f"{holding}Pick the standing order your cog follows for the next "
            f"{rs.ticks_per_shift} ticks. You may add a line `say: ...` (at most 80 "
            "characters, every seat reads it next shift; it is the only way to talk) and a "
            "line `notes: ...` (at most 320 characters, private to you; leave it out to keep "
            "your current notes). Longer lines are cut; a field the job does not use is "
            "ignored."
        ),
    )


def order_menu(ruleset: ChemistryRuleset) -> tuple[MoveInfo, ...]:
    """Every valid order: supply (vat x molecule), forage (any or a vat), hoard, idle."""
    return _order_menu(ruleset.vats, ruleset.species)


@lru_cache(maxsize=16)
def _order_menu(vats: tuple[int, ...], species: tuple[int, ...]) -> tuple[MoveInfo, ...]:
    entries: list[MoveInfo] = []
    for v in vats:
        for s in species:
            fits = s in VAT_TAKES[v]
            if fits:
                what = f"feed {VATS[v]} (it takes {'+'.join(SPECIES[t] for t in VAT_TAKES[v])})"
            elif s < FEEDSTOCKS:
                what = f"MISDROP: {VATS[v]} does not take {SPECIES[s]}, each unit is destroyed"
            else:
                what = f"MISDROP: {SPECIES[s]} is inert, each unit is destroyed"
            entries.append(
                MoveInfo(
                    Order("supply", s, v).head,
                    f"carry {SPECIES[s]} from its vent to the {VATS[v]} pad; {what}",
                    "supply",
                )
            )
    entries.append(
        MoveInfo(
            "forage",
            "walk to the nearest food and eat it; with none, wait on the ring of the "
            "highest-charge vat",
            "forage",
        )
    )
    for v in vats:
        entries.append(
            MoveInfo(
                Order("forage", None, v).head,
                f"walk to the nearest food and eat it; with none, wait on the {VATS[v]} ring",
                "forage",
            )
        )
    for s in species:
        entries.append(
            MoveInfo(
                Order("hoard", s).head,
                f"carry {SPECIES[s]} to your home cell and drop it there (keeps it off the floor "
                "near the vent; scores nothing)",
                "hoard",
            )
        )
    entries.append(MoveInfo("idle", "stand still all shift", "idle"))
    return tuple(entries)


def action_menu() -> tuple[MoveInfo, ...]:
    return (
        MoveInfo("N", "step north (y-1)", "move"),
        MoveInfo("E", "step east (x+1)", "move"),
        MoveInfo("S", "step south (y+1)", "move"),
        MoveInfo("W", "step west (x-1)", "move"),
        MoveInfo("take", "pick up the molecule on your cell", "take"),
        MoveInfo("drop", "drop the molecule you carry last", "drop"),
        MoveInfo("wait", "do nothing this tick", "wait"),
    )
