"""Building Territory positions for tests: tile owners and states, seats' paint, score and life,
and the turn, set on a real game's state."""

from __future__ import annotations

from dataclasses import replace

from cogs_arena.engines.territory.board import KEY_INDEX
from cogs_arena.engines.territory.state import TerritoryState


def arrange(
    state: TerritoryState,
    *,
    owner: dict[str, int] | None = None,
    tiles: dict[str, int] | None = None,
    paint: dict[int, int] | None = None,
    score: dict[int, int] | None = None,
    life: dict[int, int] | None = None,
    turn: int | None = None,
) -> TerritoryState:
    """A position for a test: tile owners/states, seat paint, banked score and life, the turn."""
    own = list(state.owner)
    for key, seat in (owner or {}).items():
        own[KEY_INDEX[key]] = seat
    st = list(state.tiles)
    for key, value in (tiles or {}).items():
        st[KEY_INDEX[key]] = value
    seats = list(state.seats)
    for seat, value in (paint or {}).items():
        seats[seat] = replace(seats[seat], paint=value)
    for seat, value in (score or {}).items():
        seats[seat] = replace(seats[seat], banked=value)
    for seat, value in (life or {}).items():
        seats[seat] = replace(seats[seat], life=value)
    return replace(
        state,
        owner=tuple(own),
        tiles=tuple(st),
        seats=tuple(seats),
        turn=state.turn if turn is None else turn,
    )
