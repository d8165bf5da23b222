"""What Three Strikes and legacy combat share: pile orientation, stripping and wear-down, the
kill and its rebuild, and sending a hero home (blending.md §4.1/§4.2, B31, B38, BE3-BE8)."""

from __future__ import annotations

from dataclasses import replace

from ..board import land_in_box
from ..edits import bump, draw, set_hand, with_log
from ..rules import guardians_of
from ..state import Guardian, Pos, State
from ..tiles import beats, pips
from .territories import territory_of


def kind_of(s: State, g: Guardian, tile: int) -> int:
    """The kind a pile tile shows under 'three': fixed when it entered the pile (BE4); a tile
    without a recorded kind shows its top-left land as it lies in the supply."""
    for t, k in g.kinds:
        if t == tile:
            return k
    return s.faces[tile - 1][0]


def power(s: State, tile: int, kind: int, other: int) -> int:
    """Pips, plus the edge for the kind that beats the other's, minus it for the beaten one."""
    edge = s.rules.combat_edge
    bonus = edge if beats(kind, other) else -edge if beats(other, kind) else 0
    return pips(s.faces[tile - 1]) + bonus


def put_guardian(s: State, g: Guardian) -> None:
    s.guardians = tuple(g if x.gid == g.gid else x for x in s.guardians)


def shed(s: State, g: Guardian, count: int) -> tuple[Guardian, tuple[int, ...]]:
    """Takes up to `count` tiles off the bottom of the pile (bolsters first: the last added),
    never below heal_to; the tiles go to the discard pile (BE5). Mutates a cloned state."""
    room = max(0, len(g.pile) - s.rules.heal_to)
    k = min(count, room)
    if k <= 0:
        return g, ()
    kept, gone = g.pile[: len(g.pile) - k], tuple(t for t, _ in g.pile[len(g.pile) - k :])
    new = replace(
        g,
        pile=kept,
        kinds=tuple(e for e in g.kinds if e[0] not in gone),
        cursor=g.cursor % len(kept),
    )
    put_guardian(s, new)
    s.discard = (*s.discard, *gone)
    return new, gone


def kill(s: State, g: Guardian, line: str) -> str:
    """The whole pile and victory_tiles from the stock go to the killer (§4.1 "pays as before",
    §4.2); then the rebuild, required where the killer can make it (BE6). Mutates; returns the
    log line."""
    s.guardians = tuple(x for x in s.guardians if x.gid != g.gid)
    reward = draw(s, s.rules.victory_tiles)
    set_hand(s, s.seat, (*s.hands[s.seat], *(t for t, _ in g.pile), *reward))
    bump(s, kills=1)
    line = f"{line}: took its {len(g.pile)} tiles and drew {len(reward)}"
    with_log(s, line)
    r = s.rules
    s.picked, s.pick_kinds = (), ()
    if len(guardians_of(s, s.seat)) < r.guardians_per_player and (
        len(s.hands[s.seat]) >= r.guardian_pile
    ):
        s.phase, s.pick_for, s.pick_at = "pick", "rebuild", (g.x, g.y)
    else:
        s.phase = "turn"
    return line


def rebuild_required(s: State) -> bool:
    """BE6: under 'three' and 'legacy' the killer keeps 3 tiles on a new guardian (the text's
    "then you keep 3" / "you choose 3 tiles … to stay"); only the match's rebuild is a "may"."""
    return s.rules.combat != "match"


def worth(s: State, g: Guardian) -> int:
    """How much a guardian's land is worth to its owner now (for sending a hero home, B38)."""
    if s.rules.land == "territories":
        return len(territory_of(s, (g.x, g.y)))
    return land_in_box(s.squares, (g.x, g.y), g.land)


def send_home(s: State, seat: int, why: str) -> None:
    """B38, BE7: a hero sent home goes to its player's guardian whose land is worth most (ties:
    the oldest), or to the start square if it has none. Mutates a cloned state."""
    mine = guardians_of(s, seat)
    best = max(mine, key=lambda g: (worth(s, g), -g.gid), default=None)
    at: Pos = (0, 0) if best is None else (best.x, best.y)
    heroes = list(s.heroes)
    heroes[seat] = at
    s.heroes = tuple(heroes)
    with_log(s, f"seat {seat} {why}: sent home to {at[0]},{at[1]}")
