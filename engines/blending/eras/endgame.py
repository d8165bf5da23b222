"""The end of the game and the empty stock (blending.md §6, DECISIONS B17/B19, BE1/BE2).

'rounds' (the default) ends after `end_rounds` rounds. 'last_tile' is the old way: when the last
tile is drawn and nothing can refill the stock (the discard pile is empty, or it is never
reshuffled), the round is finished and the game ends (BE1); `last_tile_cap` rounds is the
termination guard (BE2).
"""

from __future__ import annotations

from ..state import State


def may_reshuffle(s: State) -> bool:
    """Whether an empty stock takes the discard pile now (B19 'always', or 'never')."""
    return s.rules.last_tile_reshuffle == "always" and bool(s.discard)


def note_draw(s: State) -> None:
    """After any draw (turn, kill reward, swap): the last tile drawn starts the last round (BE1).
    Mutates the already cloned state."""
    if s.rules.endgame != "last_tile" or s.last_round or s.stock or may_reshuffle(s):
        return
    s.last_round = True
    s.log = (*s.log[-15:], "the last tile is drawn: this round is the last")


def ended(s: State) -> str:
    """'' while play goes on after a round ends, else the game's end reason."""
    r = s.rules
    if r.endgame == "rounds":
        return "rounds" if s.round > r.end_rounds else ""
    if s.last_round:
        return "last_tile"
    return "round_cap" if s.round > r.last_tile_cap else ""


def rounds_shown(s: State) -> int:
    """The round count a view shows as 'of N': the ending round, or the cap under last_tile."""
    r = s.rules
    return r.end_rounds if r.endgame == "rounds" else r.last_tile_cap
