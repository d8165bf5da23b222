"""Legacy combat (blending.md §4.2, `combat: "legacy"`; BE8-BE13), round by round.

The attacker plays a hand tile face down (`strike tID`, or `escape tID`); the defender answers (a
guardian with the next tile of its face-down pile, which cycles; a hero with a tile of its hand);
both are revealed and the attacker names its tile's kind (`announce KIND`), the defender the best
answer. Power is pips plus or minus the edge; the higher deals damage (1, or the difference). A
hero pays damage in tiles of its hand; a guardian dies when this fight's damage reaches its pile
size, and a surviving guardian wears down. Every tile a hero plays is discarded (BE9).
"""

from __future__ import annotations

from dataclasses import replace

from ...errors import IllegalMove
from ..edits import bump, home, lose_to_discard, set_hand, take_from_hand, tile_name, with_log
from ..era_state import Duel
from ..match import fight_problem as match_fight_problem
from ..moves import Move
from ..rules import guardian_by_id
from ..state import State
from ..tile_choice import worst_tile
from ..tiles import KIND_NAME, beats, pips
from .guardians import kill, power, send_home, shed


def fight_problem(s: State, gid: int) -> str:
    """The match's conditions (a rival guardian within 1 square, a tile in hand) hold."""
    return match_fight_problem(s, gid)


def duel_problem(s: State, foe: int) -> str:
    """§4.2: a rival hero within 1 square up, down, left or right, not on the start square;
    BE13: with at least one tile to answer with."""
    if not s.rules.combat_pvp:
        return "hero fights are off in this game (combat_pvp)"
    if s.main:
        return f"you already took your main action ({s.main}) this turn"
    if not 0 <= foe < s.rules.players or foe == s.seat:
        return f"seat {foe} is not a rival seat"
    (x, y), (fx, fy) = s.heroes[s.seat], s.heroes[foe]
    if abs(x - fx) + abs(y - fy) != 1:
        return f"seat {foe}'s hero is not next to yours (up, down, left or right)"
    if (fx, fy) == (0, 0):
        return "a hero on the start square cannot be fought"
    if not s.hands[foe]:
        return f"seat {foe} holds no tiles to answer with"
    if not s.hands[s.seat]:
        return "you have no tiles to fight with"
    return ""


def _start(s: State, duel: Duel, line: str) -> State:
    s = s.clone()
    s.main, s.phase, s.duel = "fight", "fight", duel
    bump(s, fights=1)
    with_log(s, line)
    return s


def do_fight(s: State, move: Move) -> State:
    if why := fight_problem(s, move.gid):
        raise IllegalMove(f"Cannot fight: {why}.", allowed="a 'fight' entry of your menu")
    g = guardian_by_id(s, move.gid)
    assert g is not None
    return _start(s, Duel(g.gid), f"seat {s.seat} attacked G{g.gid} (seat {g.owner})")


def do_duel(s: State, move: Move) -> State:
    if why := duel_problem(s, move.pos):
        raise IllegalMove(f"Cannot fight that hero: {why}.", allowed="a 'duel' entry")
    return _start(s, Duel(0, foe=move.pos), f"seat {s.seat} attacked seat {move.pos}'s hero")


def defender_tile(s: State, foe: int, want: int) -> int:
    """§"Choices made for you": a defending hero plays the cheapest tile that matches the
    attacker's pips, else the cheapest; among equals the one it needs least (BE12)."""
    hand = s.hands[foe]
    least = min(pips(s.faces[t - 1]) for t in hand)
    same = [t for t in hand if pips(s.faces[t - 1]) == want]
    pool = same or [t for t in hand if pips(s.faces[t - 1]) == least]
    return worst_tile(s.faces, pool, home(foe))


def do_strike(s: State, move: Move) -> State:
    d = s.duel
    assert d is not None
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(f"t{move.tile} is not in your hand.", allowed="a tile of your hand")
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    want = pips(s.faces[move.tile - 1])
    if d.gid:
        g = guardian_by_id(s, d.gid)
        assert g is not None
        answer = g.pile[d.next % len(g.pile)][0]
        who = f"G{d.gid}"
    else:
        answer = defender_tile(s, d.foe, want)
        foe_hand = list(s.hands[d.foe])
        foe_hand.remove(answer)
        set_hand(s, d.foe, foe_hand)
        who = f"seat {d.foe}"
    escape = move.verb == "escape"
    s.duel = replace(d, tile=move.tile, escape=escape, answer=answer, rounds=d.rounds + 1)
    s.phase = "announce"
    aim = "to escape" if escape else "to attack"
    with_log(
        s,
        f"seat {s.seat} played {tile_name(s, move.tile)} {aim}; {who} answered "
        f"{tile_name(s, answer)}",
    )
    return s


def best_answer(s: State, answer: int, tile: int, kind: int) -> int:
    """The defender's kind: the one of its tile's lands that does best against the attacker's
    announced kind (the guardian's owner or the defending hero would always name it; BE11)."""

    def margin(k: int) -> tuple[int, int]:
        return (power(s, answer, k, kind) - power(s, tile, kind, k), -k)

    return max(set(s.faces[answer - 1]), key=margin)


def do_announce(s: State, move: Move) -> State:
    d = s.duel
    assert d is not None
    if move.kind not in s.faces[d.tile - 1]:
        raise IllegalMove(
            f"t{d.tile} shows no {KIND_NAME[move.kind]} land.",
            allowed="announce one of your tile's lands: "
            + ", ".join(KIND_NAME[k] for k in sorted(set(s.faces[d.tile - 1]))),
        )
    s = s.clone()
    ak = move.kind
    dk = best_answer(s, d.answer, d.tile, ak)
    ap, dp = power(s, d.tile, ak, dk), power(s, d.answer, dk, ak)
    rule = s.rules.escape_rule
    escaped = d.escape and (not beats(dk, ak) if rule == "matchup" else ap > dp)
    hit = 1 if s.rules.damage == "one" else abs(ap - dp)
    s.discard = (*s.discard, d.tile, *(() if d.gid else (d.answer,)))
    line = (
        f"round {d.rounds}: t{d.tile} {KIND_NAME[ak]} ({ap}) vs t{d.answer} {KIND_NAME[dk]} ({dp})"
    )
    d = replace(d, tile=0, answer=0, escape=False, next=d.next + (1 if d.gid else 0))
    s.phase = "fight"
    if escaped:
        s.duel = replace(d, results=(*d.results, line + ": escaped"))
        _end(s, f"seat {s.seat} escaped")
        return s
    if ap > dp:
        line += f": {hit} damage to " + (f"G{d.gid}" if d.gid else f"seat {d.foe}")
        d = replace(d, results=(*d.results, line))
        s.duel = d
        if d.gid:
            d = replace(d, damage=d.damage + hit)
            s.duel = d
            g = guardian_by_id(s, d.gid)
            assert g is not None
            if d.damage >= len(g.pile):
                end = kill(s, g, f"seat {s.seat} killed G{g.gid} (seat {g.owner})")
                s.last_fight = (*_head(s, d), *d.results, end)
                s.duel = None
                return s
        else:
            _hero_pays(s, d.foe, hit)
            if not s.hands[d.foe]:
                send_home(s, d.foe, "ran out of tiles")
                _end(s, f"seat {s.seat} defeated seat {d.foe}'s hero")
                return s
    elif dp > ap:
        line += f": {hit} damage to seat {s.seat}"
        owed = min(hit, len(s.hands[s.seat]))
        s.duel = replace(d, owed=owed, results=(*d.results, line))
        if owed:
            s.phase = "loss"
            return s
    else:
        s.duel = replace(d, results=(*d.results, line + ": even"))
    _check_out(s)
    return s


def _hero_pays(s: State, seat: int, hit: int) -> None:
    """A defending hero gives up the tiles it needs least (§"Choices made for you")."""
    hand = list(s.hands[seat])
    gone = []
    for _ in range(min(hit, len(hand))):
        t = worst_tile(s.faces, hand, home(seat))
        hand.remove(t)
        gone.append(t)
    set_hand(s, seat, hand)
    s.discard = (*s.discard, *gone)


def do_damage_discard(s: State, move: Move) -> State:
    d = s.duel
    assert d is not None
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(
            f"t{move.tile} is not in your hand.", allowed="discard a tile of your hand"
        )
    s = s.clone()
    line = lose_to_discard(s, move.tile)
    d = replace(d, owed=d.owed - 1, taken=d.taken + 1, results=(*d.results, line))
    s.duel = d
    with_log(s, line)
    if d.owed and s.hands[s.seat]:
        return s
    s.duel = replace(d, owed=0)
    s.phase = "fight"
    _check_out(s)
    return s


def _check_out(s: State) -> None:
    """A hero who has run out of tiles is defeated and sent home (§4.2)."""
    if s.hands[s.seat]:
        return
    send_home(s, s.seat, "ran out of tiles")
    _end(s, f"seat {s.seat} ran out of tiles")


def _head(s: State, d: Duel) -> tuple[str]:
    foe = f"G{d.gid}" if d.gid else f"seat {d.foe}'s hero"
    return (f"round {s.round}: seat {s.seat} fought {foe}, {d.rounds} rounds",)


def _end(s: State, why: str) -> None:
    """The fight ends without a kill: a guardian wears down by this fight's damage, its bolsters
    first, never below heal_to (§4.2 wear-down). Mutates a cloned state."""
    d = s.duel
    assert d is not None
    line = why
    if d.gid:
        g = guardian_by_id(s, d.gid)
        assert g is not None
        g, gone = shed(s, g, d.damage)
        line += f"; G{g.gid} survives" + (f", worn down by {len(gone)} tiles" if gone else "")
    s.last_fight = (*_head(s, d), *d.results, line)
    with_log(s, line)
    s.duel, s.phase = None, "turn"
