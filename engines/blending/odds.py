"""What a fight's choices risk, and what the last fight did (issue 10).

A guardian tile flips to a uniform pick over its 4 corner lands (DECISIONS B27); the laid tile's
kind is the one its layer chose. So a lay's odds are exact counts over the 4 corners of the one row
tile it faces: quarters, computed from public information only (the pile is face up, the row is laid
out face up, the laid tile is the layer's own), never from the stock, the RNG or another hand.
"""

from __future__ import annotations

from fractions import Fraction

from ..protocol import JSON
from .state import Fight, State
from .tiles import KIND_NAME, Face, beats

Odds = tuple[Fraction, Fraction, Fraction]
"""(win, tie, loss) for one pair, summing to 1."""

PASS_TEXT = "pass: end your part of the fight"
"""The label of `stop`, the one move in a fight that passes (blending.md §4.0 'Stop whenever')."""

SUMMARY_FLIPS = 12
"""The last fight's summary keeps at most this many flip lines (with counts of all of them)."""


def lay_odds(target: Face, kind: int) -> Odds:
    """Exact odds of a tile laid as `kind` against a guardian tile showing `target`."""
    n = len(target)
    win = Fraction(sum(1 for land in target if beats(kind, land)), n)
    loss = Fraction(sum(1 for land in target if beats(land, kind)), n)
    return win, 1 - win - loss, loss


def percent(x: Fraction) -> int:
    """Rounded half up to a whole percent (quarters are exact)."""
    return int(x * 100 + Fraction(1, 2))


def odds_text(odds: Odds) -> str:
    win, tie, loss = odds
    return f"win {percent(win)}% / tie {percent(tie)}% / loss {percent(loss)}%"


def lay_hints(s: State) -> dict[str, JSON]:
    """`hints.lay_odds[POS][KIND] = {"win", "tie", "loss"}` (exact fractions as text) for every
    free row position of the pass being laid: one table for every `lay tID@POS KIND` entry, since a
    lay's odds depend only on the position and the kind named."""
    f = s.fight
    if s.phase != "fight" or f is None or f.flipped:
        return {}
    taken = {p for p, _, _ in f.laid}
    table: dict[str, JSON] = {}
    for pos, tile in enumerate(f.row):
        if pos in taken:
            continue
        face = s.faces[tile - 1]
        table[str(pos + 1)] = {
            KIND_NAME[k]: dict(
                zip(("win", "tie", "loss"), map(str, lay_odds(face, k)), strict=True)
            )
            for k in range(3)
        }
    return {
        "lay_odds": table,
        "lay_odds_note": (
            "per row position and kind: the exact chance the guardian tile turns to a kind yours "
            "beats (win), the same kind (tie) or one that beats yours (loss: you discard 1 tile)"
        ),
    }


def flip_text(s: State, f: Fight, pair: tuple[int, int, int]) -> str:
    """The `flip` entry: which pair, its odds, and what comes after it."""
    pos, tile, kind = pair
    target = f.row[pos]
    odds = odds_text(lay_odds(s.faces[target - 1], kind))
    left = sum(1 for p, _, _ in f.laid if p not in f.flipped) - 1
    if left:
        after = f"{left} more laid pair{'s' if left > 1 else ''} to flip in pass {f.passes}"
    elif f.passes >= s.rules.max_passes:
        after = f"the last flip of pass {f.passes}, the last pass allowed"
    else:
        after = f"the last flip of pass {f.passes}; then the live tiles are washed for a new pass"
    return f"flip position {pos + 1}: t{tile} {KIND_NAME[kind]} vs t{target}: {odds} ({after})"


def stop_text(s: State, f: Fight) -> str:
    back = (
        "its set-aside tiles go to the discard pile"
        if s.rules.set_aside == "discard"
        else "it takes back its set-aside tiles"
    )
    laid = [t for p, t, _ in f.laid if p not in f.flipped]
    also = "; your unflipped tiles return to your hand" if laid else ""
    return f"{PASS_TEXT} (stop): G{f.gid} survives ({back}){also}"


def summary(s: State, f: Fight, owner: int, outcome: str) -> tuple[str, ...]:
    """The public lines kept as the state's `last_fight` when a fight ends."""
    lines = [r for r in f.results if r.startswith("pos ")]
    wins = sum(1 for r in lines if ": win" in r)
    losses = sum(1 for r in lines if ": loss" in r)
    ties = len(lines) - wins - losses
    head = (
        f"round {s.round}: seat {s.seat} fought G{f.gid} (seat {owner}), {f.passes} "
        f"pass{'es' if f.passes > 1 else ''}, {len(lines)} flips: {wins} won, {ties} tied, "
        f"{losses} lost"
    )
    shown = f.results[-SUMMARY_FLIPS:]
    skipped = len(f.results) - len(shown)
    more = (f"({skipped} earlier lines left out)",) if skipped else ()
    return (head, *more, *shown, outcome)
