"""The match (blending.md §4.0, DECISIONS B26-B31): a fight against a rival guardian."""

from __future__ import annotations

from dataclasses import replace

from ..errors import IllegalMove
from ..rng import Stream
from .board import cheb
from .edits import bump, draw, lose_to_discard, set_hand, take_from_hand, tile_name, with_log
from .moves import Move
from .odds import summary
from .rules import guardian_by_id, guardians_of
from .state import Fight, Guardian, State
from .tiles import KIND_NAME, beats, pips


def fight_problem(s: State, gid: int) -> str:
    if s.main:
        return f"you already took your main action ({s.main}) this turn"
    g = guardian_by_id(s, gid)
    if g is None:
        return f"there is no guardian G{gid}"
    if g.owner == s.seat:
        return "you cannot fight your own guardian"
    if cheb((g.x, g.y), s.heroes[s.seat]) > 1:
        return f"G{gid} is not within 1 square of your hero"
    if not s.hands[s.seat]:
        return "you have no tiles to fight with"
    return ""


def live_tiles(g: Guardian, f: Fight) -> list[int]:
    return [t for t, _ in g.pile if t not in f.beaten]


def _wash(s: State, tiles: list[int]) -> tuple[int, ...]:
    stream = Stream(s.seed, "wash", s.wash_counter)
    row = tuple(stream.shuffled(tiles))
    s.wash_counter = stream.counter
    return row


def do_fight(s: State, move: Move) -> State:
    why = fight_problem(s, move.gid)
    if why:
        raise IllegalMove(f"Cannot fight: {why}.", allowed="a 'fight' entry of your menu")
    g = guardian_by_id(s, move.gid)
    assert g is not None
    s = s.clone()
    s.main = "fight"
    s.phase = "fight"
    s.fight = Fight(gid=g.gid, row=_wash(s, [t for t, _ in g.pile]))
    bump(s, fights=1)
    with_log(s, f"seat {s.seat} attacked G{g.gid} (seat {g.owner})")
    return s


def lay_problem(s: State, move: Move) -> str:
    f = s.fight
    assert f is not None
    if f.flipped:
        return "the flips of this pass have begun; flip or stop"
    if move.tile not in s.hands[s.seat]:
        return f"t{move.tile} is not in your hand"
    if not 1 <= move.pos <= len(f.row):
        return f"the row has positions 1 to {len(f.row)}"
    if any(p == move.pos - 1 for p, _, _ in f.laid):
        return f"position {move.pos} already has a tile against it"
    if move.kind not in s.faces[move.tile - 1]:
        return f"t{move.tile} shows no {KIND_NAME[move.kind]} land"
    return ""


def do_lay(s: State, move: Move) -> State:
    why = lay_problem(s, move)
    if why:
        raise IllegalMove(f"Cannot lay: {why}.", allowed="a 'lay' entry of your menu, flip or stop")
    assert s.fight is not None
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    f = s.fight
    assert f is not None
    s.fight = Fight(**{**f.__dict__, "laid": (*f.laid, (move.pos - 1, move.tile, move.kind))})
    return s


def next_pair(f: Fight) -> tuple[int, int, int] | None:
    best = None
    for pair in f.laid:
        if pair[0] not in f.flipped and (best is None or pair[0] < best[0]):
            best = pair
    return best


def do_flip(s: State) -> State:
    f = s.fight
    assert f is not None
    pair = next_pair(f)
    if pair is None:
        raise IllegalMove("No laid tile is waiting to flip.", allowed="lay tID@POS KIND or stop")
    pos, tile, kind = pair
    s = s.clone()
    g = guardian_by_id(s, f.gid)
    assert g is not None
    target = f.row[pos]
    face = s.faces[target - 1]
    stream = Stream(s.seed, "flip", s.flip_counter)
    theirs = stream.choice(face)
    s.flip_counter = stream.counter
    hand = [*s.hands[s.seat], tile]
    beaten, taken, pile = f.beaten, f.taken, g.pile
    pending = False
    if beats(kind, theirs):
        base = dict(g.pile)[target]
        if base:
            beaten = (*beaten, target)
            result = "win: set aside"
        else:
            taken = (*taken, target)
            pile = tuple(e for e in g.pile if e[0] != target)
            hand.append(target)
            result = "win: bolster taken"
    elif beats(theirs, kind):
        result = "loss: discard 1"
        pending = True
    else:
        result = "same kind: nothing"
    set_hand(s, s.seat, hand)
    if pile is not g.pile:
        s.guardians = tuple(replace(x, pile=pile) if x.gid == g.gid else x for x in s.guardians)
    line = (
        f"pos {pos + 1}: t{tile} {KIND_NAME[kind]} vs {tile_name(s, target)} "
        f"turned {KIND_NAME[theirs]}: {result}"
    )
    s.fight = Fight(
        gid=f.gid,
        row=f.row,
        laid=f.laid,
        flipped=(*f.flipped, pos),
        beaten=beaten,
        taken=taken,
        passes=f.passes,
        pending_loss=pending,
        results=(*f.results, line),
    )
    bump(s, flips=1)
    with_log(s, f"seat {s.seat} flipped {line}")
    _after_flip(s)
    return s


def do_loss_discard(s: State, move: Move) -> State:
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(
            f"t{move.tile} is not in your hand.", allowed="discard a tile of your hand"
        )
    f = s.fight
    assert f is not None
    s = s.clone()
    line = lose_to_discard(s, move.tile)
    s.fight = Fight(**{**f.__dict__, "pending_loss": False, "results": (*f.results, line)})
    with_log(s, line)
    _after_flip(s)
    return s


def _after_flip(s: State) -> None:
    f = s.fight
    assert f is not None
    if f.pending_loss:
        if s.hands[s.seat]:
            s.phase = "loss"
            return
        s.fight = f = Fight(**{**f.__dict__, "pending_loss": False})
    g = guardian_by_id(s, f.gid)
    assert g is not None
    if not live_tiles(g, f):
        _kill(s, g, f)
        return
    s.phase = "fight"
    if next_pair(f) is not None:
        return
    if f.passes >= s.rules.max_passes or not s.hands[s.seat]:
        end_fight(s, "the fight ends (no more passes)")
        return
    s.fight = Fight(
        gid=f.gid,
        row=_wash(s, live_tiles(g, f)),
        beaten=f.beaten,
        taken=f.taken,
        passes=f.passes + 1,
        results=f.results,
    )


def end_fight(s: State, why: str) -> None:
    """The attacker stops or runs out: the guardian survives (mutates a cloned state)."""
    f = s.fight
    assert f is not None
    waiting = [tile for pos, tile, _ in f.laid if pos not in f.flipped]
    set_hand(s, s.seat, (*s.hands[s.seat], *waiting))
    if s.rules.set_aside == "discard" and f.beaten:
        s.guardians = tuple(
            replace(g, pile=tuple(e for e in g.pile if e[0] not in f.beaten))
            if g.gid == f.gid
            else g
            for g in s.guardians
        )
        s.discard = (*s.discard, *f.beaten)
    g = guardian_by_id(s, f.gid)
    assert g is not None
    s.fight = None
    s.phase = "turn"
    line = f"seat {s.seat}: {why}; G{f.gid} survives"
    s.last_fight = summary(s, f, g.owner, line)
    with_log(s, line)


def do_stop(s: State) -> State:
    s = s.clone()
    end_fight(s, "stopped")
    return s


def _kill(s: State, g: Guardian, f: Fight) -> None:
    s.guardians = tuple(x for x in s.guardians if x.gid != g.gid)
    reward = draw(s, s.rules.victory_tiles)
    set_hand(s, s.seat, (*s.hands[s.seat], *f.beaten, *reward))
    s.fight = None
    bump(s, kills=1)
    line = (
        f"seat {s.seat} killed G{g.gid} (seat {g.owner}): took {len(f.beaten) + len(f.taken)} "
        f"of its tiles and drew {len(reward)}"
    )
    s.last_fight = summary(s, f, g.owner, line)
    with_log(s, line)
    r = s.rules
    if len(guardians_of(s, s.seat)) < r.guardians_per_player and (
        len(s.hands[s.seat]) >= r.guardian_pile
    ):
        s.phase = "pick"
        s.pick_for = "rebuild"
        s.picked = ()
        s.pick_at = (g.x, g.y)
    else:
        s.phase = "turn"


def fight_pips(s: State, g: Guardian) -> list[int]:
    return [pips(s.faces[t - 1]) for t, _ in g.pile]
