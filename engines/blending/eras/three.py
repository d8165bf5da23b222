"""Three Strikes (blending.md §4.1, `combat: "three"`; BE3-BE5): exactly 3 rounds against the
next 3 tiles of a face-up pile whose tiles show the kind they were turned to when they entered it.

The attacker commits 3 hand tiles face down, in order (`lay tID@1..3 KIND`: a hand tile may be
turned to show any of its lands); the fight resolves when the third is laid. Each pair: pips,
plus the edge for the kind that beats the other's (minus it for the beaten one); the higher wins
the round. More rounds won wins the fight; the attacker's 3 tiles are spent either way, and the
pile turns over by 3 (its cursor moves on).
"""

from __future__ import annotations

from dataclasses import replace

from ...errors import IllegalMove
from ..edits import bump, set_hand, take_from_hand, tile_name, with_log
from ..era_state import Strike
from ..match import fight_problem as match_fight_problem
from ..moves import Move
from ..rules import guardian_by_id
from ..state import Guardian, State
from ..tiles import KIND_NAME
from .guardians import kill, kind_of, power, put_guardian, send_home, shed

STRIKES = 3


def fight_problem(s: State, gid: int) -> str:
    """The match's conditions, and 3 tiles in hand (§4.1)."""
    if why := match_fight_problem(s, gid):
        return why
    if len(s.hands[s.seat]) < STRIKES:
        return f"a Three Strikes fight needs {STRIKES} tiles in your hand"
    return ""


def answers(s: State, g: Guardian) -> list[tuple[int, int]]:
    """The guardian's next 3 tiles from its cursor, in pile order, with their kinds (§4.1)."""
    n = len(g.pile)
    tiles = [g.pile[(g.cursor + i) % n][0] for i in range(STRIKES)]
    return [(t, kind_of(s, g, t)) for t in tiles]


def do_fight(s: State, move: Move) -> State:
    if why := fight_problem(s, move.gid):
        raise IllegalMove(f"Cannot fight: {why}.", allowed="a 'fight' entry of your menu")
    g = guardian_by_id(s, move.gid)
    assert g is not None
    s = s.clone()
    s.main, s.phase = "fight", "fight"
    s.strike = Strike(g.gid)
    bump(s, fights=1)
    with_log(s, f"seat {s.seat} attacked G{g.gid} (seat {g.owner}): Three Strikes")
    return s


def lay_problem(s: State, move: Move) -> str:
    st = s.strike
    assert st is not None
    if move.tile not in s.hands[s.seat]:
        return f"t{move.tile} is not in your hand"
    if not 1 <= move.pos <= STRIKES:
        return f"strikes are numbered 1 to {STRIKES}"
    if any(slot == move.pos - 1 for slot, _, _ in st.laid):
        return f"strike {move.pos} is already laid"
    if move.kind not in s.faces[move.tile - 1]:
        return f"t{move.tile} shows no {KIND_NAME[move.kind]} land"
    return ""


def do_lay(s: State, move: Move) -> State:
    if why := lay_problem(s, move):
        raise IllegalMove(f"Cannot lay: {why}.", allowed="a 'lay' entry of your menu, or stop")
    st = s.strike
    assert st is not None
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    st = replace(st, laid=(*st.laid, (move.pos - 1, move.tile, move.kind)))
    s.strike = st
    if len(st.laid) == STRIKES:
        _resolve(s, st)
    return s


def do_stop(s: State) -> State:
    """Withdraw before the third strike is laid: the laid tiles come back, the main action is
    spent (BE3)."""
    st = s.strike
    assert st is not None
    s = s.clone()
    set_hand(s, s.seat, (*s.hands[s.seat], *(t for _, t, _ in st.laid)))
    s.strike, s.phase = None, "turn"
    line = f"seat {s.seat} withdrew from G{st.gid} before the strikes were revealed"
    s.last_fight = (line,)
    with_log(s, line)
    return s


def _resolve(s: State, st: Strike) -> None:
    g = guardian_by_id(s, st.gid)
    assert g is not None
    theirs = answers(s, g)
    lines = []
    won = lost = 0
    for slot, tile, kind in sorted(st.laid):
        gt, gk = theirs[slot]
        mine, other = power(s, tile, kind, gk), power(s, gt, gk, kind)
        result = "won" if mine > other else "lost" if other > mine else "even"
        won += result == "won"
        lost += result == "lost"
        lines.append(
            f"strike {slot + 1}: t{tile} {KIND_NAME[kind]} ({mine}) vs {tile_name(s, gt)} "
            f"{KIND_NAME[gk]} ({other}): {result}"
        )
    spent = tuple(t for _, t, _ in st.laid)
    s.discard = (*s.discard, *spent)
    g = replace(g, cursor=(g.cursor + STRIKES) % len(g.pile))
    put_guardian(s, g)
    s.strike, s.phase = None, "turn"
    bump(s, flips=STRIKES)
    head = f"round {s.round}: seat {s.seat} fought G{g.gid} (seat {g.owner}): {won}-{lost}"
    if won > lost:
        bare = len(g.pile) <= s.rules.heal_to
        if bare and (s.rules.kill_on == "win" or won == STRIKES):
            end = kill(s, g, f"seat {s.seat} killed G{g.gid} (seat {g.owner})")
            s.last_fight = (head, *lines, end)
            return
        g, gone = shed(s, g, STRIKES)
        end = (
            f"G{g.gid} survives bare (a kill needs a 3-0 sweep)"
            if not gone
            else f"G{g.gid} is stripped of {len(gone)} tiles to the discard pile"
        )
    elif lost > won:
        end = f"G{g.gid} wins; seat {s.seat} is sent home"
    else:
        end = f"a draw: nothing happens to G{g.gid}"
    line = f"seat {s.seat} struck G{g.gid}: {won}-{lost}; {end}"
    s.last_fight = (head, *lines, line)
    with_log(s, line)
    if lost > won:
        send_home(s, s.seat, "lost a Three Strikes fight")
