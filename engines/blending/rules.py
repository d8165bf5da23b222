"""Setup, the turn dialog and every transition except the match (see match.py).

Each public function takes a state and returns a new one; the old state is never changed.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import IllegalMove
from ..rng import Stream
from .board import (
    KING,
    blend_near,
    cheb,
    guardian_site_problem,
    single_near,
    single_ok,
    spot_pattern,
)
from .edits import bump, draw, home, set_hand, take_from_hand, tile_name, with_log
from .eras import ended, territory_site_problem
from .moves import DIRECTIONS, Move
from .ruleset import BlendingRules
from .scoring import totals
from .state import Guardian, Pos, State, Stats
from .tiles import START, Face, build_supply, fit_problem, pips

CARDINAL = ("N", "E", "S", "W")
DIAGONAL = ("NE", "SE", "SW", "NW")


# ---- setup ---------------------------------------------------------------------------------


def new_game(rules: BlendingRules, seed: int | str) -> State:
    faces: list[Face] = build_supply(rules.supply_total, seed)
    n = rules.players
    used: set[int] = set()
    reserve: list[tuple[int, ...]] = []
    for seat in range(n):
        land = home(seat)
        mine: list[int] = []
        if rules.walk_tiles_from_supply:
            for i, face in enumerate(faces):
                if len(mine) == rules.walk_length:
                    break
                if i + 1 not in used and face == (land, land, land, land):
                    mine.append(i + 1)
                    used.add(i + 1)
        reserve.append(tuple(mine))
    extra: list[Face] = []
    for seat in range(n):
        land = home(seat)
        short = rules.walk_length - len(reserve[seat])
        added = []
        for _ in range(short):
            extra.append((land, land, land, land))
            added.append(len(faces) + len(extra))
            used.add(added[-1])
        reserve[seat] = reserve[seat] + tuple(added)
    faces.extend(extra)
    pool = [i + 1 for i in range(len(faces)) if i + 1 not in used]
    stream = Stream(seed, "stock", 0)
    stock = stream.shuffled(pool)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(rules.starting_hand):
        for seat in range(n):
            if stock:
                hands[seat].append(stock.pop())
    return State(
        rules=rules,
        seed=seed,
        faces=tuple(faces),
        phase="walk",
        seat=0,
        round=0,
        walks=("",) * n,
        reserve=tuple(reserve),
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(stock),
        discard=(),
        squares={(0, 0): START},
        stacks={},
        blends={},
        heroes=((0, 0),) * n,
        guardians=(),
        stock_counter=stream.counter,
    )


def walk_choices(s: State) -> list[str]:
    pool = CARDINAL if s.seat < 4 else DIAGONAL
    return [d for d in pool if d not in s.walks]


def do_walk(s: State, move: Move) -> State:
    choices = walk_choices(s)
    if move.dir not in choices:
        raise IllegalMove(f"You cannot walk {move.dir}.", allowed=" ".join(choices))
    s = s.clone()
    dx, dy = DIRECTIONS[move.dir]
    squares = dict(s.squares)
    stacks = dict(s.stacks)
    land = home(s.seat)
    pos = (0, 0)
    for step, tile in enumerate(s.reserve[s.seat], start=1):
        pos = (dx * step, dy * step)
        squares[pos] = land
        stacks[pos] = (tile,)
    s.squares, s.stacks = squares, stacks
    heroes = list(s.heroes)
    heroes[s.seat] = pos
    s.heroes = tuple(heroes)
    walks = list(s.walks)
    walks[s.seat] = move.dir
    s.walks = tuple(walks)
    with_log(s, f"seat {s.seat} walked {move.dir} to {pos[0]},{pos[1]}")
    if s.seat + 1 < s.rules.players:
        s.seat += 1
        return s
    s.seat = 0
    s.round = 1
    start_turn(s)
    return s


# ---- the turn ------------------------------------------------------------------------------


def start_turn(s: State) -> None:
    r = s.rules
    hand = s.hands[s.seat]
    want = r.draw
    room = max(0, r.hand_limit - len(hand))
    got = draw(s, min(want, room))
    set_hand(s, s.seat, (*hand, *got))
    if len(got) < want:
        bump(s, draws_lost=want - len(got))
    s.phase = "turn"
    s.moves_left = r.free_moves * r.native_speed
    s.placed = 0
    s.mode = ""
    s.main = ""
    s.picked = ()
    s.pick_for = ""
    s.fight = None
    with_log(s, f"round {s.round}: seat {s.seat} drew {len(got)}")


def next_turn(s: State) -> None:
    s.seat += 1
    if s.seat >= s.rules.players:
        s.seat = 0
        st = s.stats
        s.stats = Stats(**{**st.__dict__, "round_scores": (*st.round_scores, totals(s))})
        s.round += 1
        if reason := ended(s):
            s.round -= 1
            s.phase, s.ended = "over", reason
            with_log(s, "the last round is over")
            return
    start_turn(s)


def step_cost(s: State, dest: Pos) -> int:
    return 1 if s.squares.get(dest) == home(s.seat) else s.rules.native_speed


def step_options(s: State) -> list[tuple[Pos, int]]:
    hx, hy = s.heroes[s.seat]
    out = []
    for dx, dy in KING:
        dest = (hx + dx, hy + dy)
        if dest in s.squares:
            cost = step_cost(s, dest)
            if cost <= s.moves_left:
                out.append((dest, cost))
    out.sort(key=lambda pc: (pc[0][1], pc[0][0]))
    return out


def do_step(s: State, move: Move) -> State:
    dest = (move.x, move.y)
    hero = s.heroes[s.seat]
    if cheb(hero, dest) != 1:
        raise IllegalMove(
            f"{dest[0]},{dest[1]} is not one step from your hero at {hero[0]},{hero[1]}.",
            allowed="a move to one of the 8 squares around your hero",
        )
    if dest not in s.squares:
        raise IllegalMove("Heroes walk only over placed squares.", allowed=_steps_text(s))
    cost = step_cost(s, dest)
    if cost > s.moves_left:
        raise IllegalMove(
            f"That step costs {cost}/{s.rules.native_speed} of a move; you have "
            f"{s.moves_left}/{s.rules.native_speed} left.",
            allowed=_steps_text(s) + " (or 'more tID' to pay a tile for another move)",
        )
    s = s.clone()
    s.moves_left -= cost
    heroes = list(s.heroes)
    heroes[s.seat] = dest
    s.heroes = tuple(heroes)
    return s


def _steps_text(s: State) -> str:
    opts = step_options(s)
    return ", ".join(f"move {p[0]},{p[1]}" for p, _ in opts) or "no step now"


def placement_mode(s: State) -> str:
    """'' (nothing placed: near or anywhere), 'near' (only near), or 'none'."""
    if s.placed == 0:
        return ""
    if s.mode == "near" and s.placed < s.rules.near_count:
        return "near"
    return "none"


def placement_problem(s: State, move: Move) -> str:
    """'' if the placement is legal now, else why not."""
    seat = s.seat
    if move.tile not in s.hands[seat]:
        return f"t{move.tile} is not in your hand"
    mode = placement_mode(s)
    if mode == "none":
        return "you have placed all the tiles you may this turn"
    face = s.faces[move.tile - 1]
    hero = s.heroes[seat]
    pos = (move.x, move.y)
    if pips(face) == 1:
        if move.rot >= 0:
            return "a single takes no rotation"
        why = single_ok(s.squares, s.blends, pos, face[0])
        if why:
            return why
        if mode == "near" and not single_near(hero, pos):
            return "after a placement near your hero, the next ones must be near it too"
        return ""
    if move.rot < 0:
        return "a double or triple needs a rotation r0, r90, r180 or r270"
    if pos in s.blends:
        return "that corner already holds a blend (one blend per corner)"
    spot = spot_pattern(s.squares, pos)
    if spot is None:
        return "a blend needs four land squares under it"
    if why := fit_problem(face, spot, move.rot, s.rules.triple_match):
        return why
    if mode == "near" and not blend_near(hero, pos):
        return "after a placement near your hero, the next ones must be near it too"
    return ""


def is_near(s: State, move: Move) -> bool:
    hero = s.heroes[s.seat]
    pos = (move.x, move.y)
    return blend_near(hero, pos) if move.rot >= 0 else single_near(hero, pos)


def do_place(s: State, move: Move) -> State:
    why = placement_problem(s, move)
    if why:
        raise IllegalMove(
            f"Cannot place t{move.tile} at {move.x},{move.y}: {why}.",
            allowed="a 'placement' entry of your menu",
        )
    near = is_near(s, move)
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    pos = (move.x, move.y)
    if move.rot < 0:
        stacks = dict(s.stacks)
        stacks[pos] = (*stacks.get(pos, ()), move.tile)
        s.stacks = stacks
        if pos not in s.squares:
            squares = dict(s.squares)
            squares[pos] = s.faces[move.tile - 1][0]
            s.squares = squares
    else:
        blends = dict(s.blends)
        blends[pos] = (move.tile, move.rot, s.seat)
        s.blends = blends
    if s.placed == 0:
        s.mode = "near" if near else "far"
    s.placed += 1
    return s


# ---- main actions --------------------------------------------------------------------------


def guardians_of(s: State, seat: int) -> list[Guardian]:
    return [g for g in s.guardians if g.owner == seat]


def guardian_by_id(s: State, gid: int) -> Guardian | None:
    for g in s.guardians:
        if g.gid == gid:
            return g
    return None


def guardian_problem(s: State) -> str:
    r = s.rules
    if len(guardians_of(s, s.seat)) >= r.guardians_per_player:
        return f"all your {r.guardians_per_player} guardians are on the map"
    if len(s.hands[s.seat]) < r.guardian_pile:
        return f"a guardian needs {r.guardian_pile} tiles from your hand"
    if r.land == "territories":  # BE14: claim an unclaimed patch
        return territory_site_problem(s)
    hero, spacing = s.heroes[s.seat], r.estate_spacing
    return guardian_site_problem(s.squares, s.guardians, hero, spacing, r.estate_min_land)


def main_problem(s: State) -> str:
    if s.main:
        return f"you already took your main action ({s.main}) this turn"
    return ""


def do_more(s: State, move: Move) -> State:
    if s.main not in ("", "more"):
        raise IllegalMove(
            f"Your main action this turn was {s.main}; you cannot also move more.",
            allowed="moves, placements or 'end'",
        )
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(f"t{move.tile} is not in your hand.", allowed="a tile of your hand")
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    s.discard = (*s.discard, move.tile)
    s.moves_left += s.rules.native_speed
    s.main = "more"
    with_log(s, f"seat {s.seat} paid {tile_name(s, move.tile)} for an extra move")
    return s


def bolster_problem(s: State, move: Move) -> str:
    why = main_problem(s)
    if why:
        return why
    if move.tile not in s.hands[s.seat]:
        return f"t{move.tile} is not in your hand"
    g = guardian_by_id(s, move.gid)
    if g is None:
        return f"there is no guardian G{move.gid}"
    if cheb((g.x, g.y), s.heroes[s.seat]) > 1:
        return f"G{g.gid} is not within 1 square of your hero"
    if len(g.pile) >= s.rules.pile_max:
        return f"G{g.gid} already holds {len(g.pile)} tiles"
    return ""


def do_bolster(s: State, move: Move) -> State:
    why = bolster_problem(s, move)
    if why:
        raise IllegalMove(f"Cannot bolster: {why}.", allowed="a 'bolster' entry of your menu")
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    s.guardians = tuple(
        replace(g, pile=(*g.pile, (move.tile, False))) if g.gid == move.gid else g
        for g in s.guardians
    )
    s.main = "bolster"
    bump(s, bolsters=1)
    with_log(s, f"seat {s.seat} bolstered G{move.gid} with {tile_name(s, move.tile)}")
    return s


def do_guardian(s: State) -> State:
    why = main_problem(s) or guardian_problem(s)
    if why:
        raise IllegalMove(f"Cannot raise a guardian: {why}.", allowed="another entry of your menu")
    s = s.clone()
    s.main = "guardian"
    s.phase = "pick"
    s.pick_for = "guardian"
    s.picked = ()
    s.pick_at = s.heroes[s.seat]
    return s


def do_swap(s: State) -> State:
    why = main_problem(s) or ("" if s.hands[s.seat] else "your hand is empty")
    if why:
        raise IllegalMove(f"Cannot swap: {why}.", allowed="another entry of your menu")
    s = s.clone()
    s.main = "swap"
    s.phase = "pick"
    s.pick_for = "swap"
    s.picked = ()
    return s


def raise_guardian(s: State, at: Pos, pile: tuple[int, ...], inherit: bool) -> None:
    land = s.squares[at]
    g = Guardian(s.next_gid, s.seat, at[0], at[1], land, tuple((t, True) for t in pile))
    s.guardians = (*s.guardians, g)
    s.next_gid += 1
    bump(s, guardians=1)
    how = "rebuilt a guardian" if inherit else "raised a guardian"
    names = ", ".join(tile_name(s, t) for t in pile)
    with_log(s, f"seat {s.seat} {how} G{g.gid} on {at[0]},{at[1]} with {names}")


def do_pick(s: State, move: Move) -> State:
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(f"t{move.tile} is not in your hand.", allowed="pick a tile of your hand")
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    s.picked = (*s.picked, move.tile)
    need = s.rules.guardian_pile
    if s.pick_for in ("guardian", "rebuild") and len(s.picked) == need:
        raise_guardian(s, s.pick_at, s.picked, s.pick_for == "rebuild")
        s.picked = ()
        s.pick_for = ""
        s.phase = "turn"
    return s


def do_done(s: State) -> State:
    if s.pick_for != "swap" or not s.picked:
        raise IllegalMove("Nothing to finish.", allowed="pick tID")
    s = s.clone()
    k = len(s.picked)
    s.discard = (*s.discard, *s.picked)
    names = ", ".join(tile_name(s, t) for t in s.picked)
    s.picked = ()
    got = draw(s, k)
    set_hand(s, s.seat, (*s.hands[s.seat], *got))
    s.pick_for = ""
    s.phase = "turn"
    with_log(s, f"seat {s.seat} swapped {names} for {len(got)} new tiles")
    return s


def do_skip(s: State) -> State:
    if s.pick_for != "rebuild":
        raise IllegalMove("Only a rebuild after a kill can be skipped.", allowed="pick tID")
    s = s.clone()
    set_hand(s, s.seat, (*s.hands[s.seat], *s.picked))
    s.picked = ()
    s.pick_for = ""
    s.phase = "turn"
    with_log(s, f"seat {s.seat} left {s.pick_at[0]},{s.pick_at[1]} unguarded")
    return s


def do_end(s: State) -> State:
    s = s.clone()
    with_log(s, f"seat {s.seat} ended the turn")
    if len(s.hands[s.seat]) > s.rules.hand_limit:
        s.phase = "discard"
        return s
    next_turn(s)
    return s


def do_limit_discard(s: State, move: Move) -> State:
    if move.tile not in s.hands[s.seat]:
        raise IllegalMove(
            f"t{move.tile} is not in your hand.", allowed="discard a tile of your hand"
        )
    s = s.clone()
    take_from_hand(s, s.seat, move.tile)
    s.discard = (*s.discard, move.tile)
    bump(s, limit_discards=1)
    with_log(s, f"seat {s.seat} discarded {tile_name(s, move.tile)} to the hand limit")
    if len(s.hands[s.seat]) <= s.rules.hand_limit:
        next_turn(s)
    return s


def settle(s: State, reason: str) -> State:
    s = s.clone()
    s.phase = "over"
    s.ended = reason
    return s
