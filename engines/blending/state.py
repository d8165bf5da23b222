"""The Blending game state: typed, copied on every transition, never mutated once returned.

Positions are (x, y) with x east and y south; the start square is (0, 0). A blend is keyed by the
top-left square of the 2x2 block it covers (DECISIONS B1's vertex (x+1, y+1)).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, TypeVar, cast

from ..jsonread import (
    arr,
    field,
    fixed,
    flag,
    int_tuple,
    ints,
    maybe,
    num,
    obj,
    text,
    texts,
    triples,
)
from ..protocol import JSON
from .era_state import Duel, Strike, era_from_json, era_json, guardian_extra, guardian_extra_json
from .ruleset import BlendingRules, rules_json
from .tiles import LAND_LETTER, Face

Pos = tuple[int, int]
T = TypeVar("T")


@dataclass(frozen=True)
class Guardian:
    gid: int
    owner: int
    x: int
    y: int
    land: int
    pile: tuple[tuple[int, bool], ...]
    """(tile, is_base) from the top; bolsters go to the bottom (B24)."""
    kinds: tuple[tuple[int, int], ...] = ()
    """combat 'three': (tile, kind) of each pile tile, fixed when it entered the pile (BE4)."""
    cursor: int = 0
    """combat 'three': the pile position its next fight starts at (the pile turns over by 3)."""


@dataclass(frozen=True)
class Fight:
    gid: int
    row: tuple[int, ...]
    """This pass's washed row of the guardian's live tiles, left to right."""
    laid: tuple[tuple[int, int, int], ...] = ()
    """(position, tile, kind) in the order laid; positions are 0-based in `row`."""
    flipped: tuple[int, ...] = ()
    beaten: tuple[int, ...] = ()
    """Base tiles set aside (won back by the guardian if it survives)."""
    taken: tuple[int, ...] = ()
    """Bolster tiles already in the attacker's hand."""
    passes: int = 1
    pending_loss: bool = False
    results: tuple[str, ...] = ()
    """Public lines about this fight's flips, for the views."""


@dataclass(frozen=True)
class Stats:
    """Public counters for the fun numbers (simulate)."""

    fights: int = 0
    kills: int = 0
    bolsters: int = 0
    guardians: int = 0
    draws_lost: int = 0
    limit_discards: int = 0
    reshuffles: int = 0
    flips: int = 0
    round_scores: tuple[tuple[int, ...], ...] = ()


@dataclass
class State:
    rules: BlendingRules
    seed: int | str
    faces: tuple[Face, ...]
    """Face of tile t{i+1}; fixed for the game."""
    phase: str
    """walk, turn, fight, loss, pick, discard or over."""
    seat: int
    round: int
    walks: tuple[str, ...]
    reserve: tuple[tuple[int, ...], ...]
    """Each seat's home-land singles for its setup walk (B11)."""
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    """Drawn from the end."""
    discard: tuple[int, ...]
    squares: dict[Pos, int]
    stacks: dict[Pos, tuple[int, ...]]
    """Tile ids on each land square, the first one laid first (later ones are primers)."""
    blends: dict[Pos, tuple[int, int, int]]
    """Top-left square -> (tile, rotation, seat that laid it)."""
    heroes: tuple[Pos, ...]
    guardians: tuple[Guardian, ...]
    next_gid: int = 1
    moves_left: int = 0
    """Movement this turn in 1/native_speed steps (B9)."""
    placed: int = 0
    mode: str = ""
    """'' before the first placement, then 'near' or 'far' (B7)."""
    main: str = ""
    """The main action taken this turn: '', more, fight, bolster, guardian, swap."""
    pick_for: str = ""
    """guardian, swap or rebuild while phase == 'pick'."""
    picked: tuple[int, ...] = ()
    pick_at: Pos = (0, 0)
    fight: Fight | None = None
    stock_counter: int = 0
    wash_counter: int = 0
    flip_counter: int = 0
    stats: Stats = dataclasses.field(default_factory=Stats)
    ended: str = ""
    log: tuple[str, ...] = ()
    """Public event lines of the current and previous turn."""
    last_fight: tuple[str, ...] = ()
    """Public summary of the last fight that ended: a headline, its flip results (and loss
    discards), then how it ended (a kill or the guardian surviving). See odds.summary."""
    last_round: bool = False
    """endgame 'last_tile': the last tile is drawn, this round is the last (BE1)."""
    pick_kinds: tuple[tuple[int, int], ...] = ()
    """combat 'three': the kind each picked pile tile will show (BE4)."""
    strike: Strike | None = None
    duel: Duel | None = None

    def clone(self) -> State:
        """A shallow copy: the caller replaces (never mutates) the containers it changes."""
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        return new


@lru_cache(maxsize=4096)
def _pos(text: str) -> Pos:
    # Cached: a load reads each square's key twice (its land, its stack), the same few hundred
    # squares in every game.
    try:
        x, y = text.split(",")
        return (int(x), int(y))
    except ValueError:
        raise TypeError(f"expected a square 'x,y', found {text!r}") from None


def _key(pos: Pos) -> str:
    return f"{pos[0]},{pos[1]}"


def to_json(s: State) -> dict[str, Any]:
    f = s.fight
    st = s.stats
    return {
        "rules": rules_json(s.rules),
        "seed": s.seed,
        "faces": ["".join("MFP"[c] for c in face) for face in s.faces],
        "phase": s.phase,
        "seat": s.seat,
        "round": s.round,
        "walks": list(s.walks),
        "reserve": [list(r) for r in s.reserve],
        "hands": [list(h) for h in s.hands],
        "stock": list(s.stock),
        "discard": list(s.discard),
        "squares": {_key(p): v for p, v in sorted(s.squares.items())},
        "stacks": {_key(p): list(v) for p, v in sorted(s.stacks.items())},
        "blends": {_key(p): list(v) for p, v in sorted(s.blends.items())},
        "heroes": [list(h) for h in s.heroes],
        "guardians": [
            {
                "gid": g.gid,
                "owner": g.owner,
                "at": [g.x, g.y],
                "land": g.land,
                "pile": [[t, b] for t, b in g.pile],
                **guardian_extra_json(g.kinds, g.cursor),
            }
            for g in s.guardians
        ],
        "next_gid": s.next_gid,
        "moves_left": s.moves_left,
        "placed": s.placed,
        "mode": s.mode,
        "main": s.main,
        "pick_for": s.pick_for,
        "picked": list(s.picked),
        "pick_at": list(s.pick_at),
        "fight": None
        if f is None
        else {
            "gid": f.gid,
            "row": list(f.row),
            "laid": [list(x) for x in f.laid],
            "flipped": list(f.flipped),
            "beaten": list(f.beaten),
            "taken": list(f.taken),
            "passes": f.passes,
            "pending_loss": f.pending_loss,
            "results": list(f.results),
        },
        "stock_counter": s.stock_counter,
        "wash_counter": s.wash_counter,
        "flip_counter": s.flip_counter,
        "stats": {
            "fights": st.fights,
            "kills": st.kills,
            "bolsters": st.bolsters,
            "guardians": st.guardians,
            "draws_lost": st.draws_lost,
            "limit_discards": st.limit_discards,
            "reshuffles": st.reshuffles,
            "flips": st.flips,
            "round_scores": [list(r) for r in st.round_scores],
        },
        "ended": s.ended,
        "log": list(s.log),
        "last_fight": list(s.last_fight),
        **era_json(s),
    }


def _seed(v: JSON) -> int | str:
    return v if type(v) is str else num(v)


def _texts(v: JSON) -> tuple[str, ...]:
    return tuple(texts(v))


def _pair(v: JSON) -> tuple[int, int]:
    a, b = ints(fixed(v, 2))
    return (a, b)


def _rows(read: Callable[[JSON], T]) -> Callable[[JSON], tuple[T, ...]]:
    return lambda v: tuple(read(x) for x in arr(v))


def _by_square(read: Callable[[JSON], T]) -> Callable[[JSON], dict[Pos, T]]:
    return lambda v: {_pos(k): read(x) for k, x in obj(v).items()}


def _blend(v: JSON) -> tuple[int, int, int]:
    tile, rotation, seat = ints(fixed(v, 3))
    return (tile, rotation, seat)


# Every face a tile can have, by its text: a load reads a hundred faces, and a look-up each is
# several times faster than decoding the letters.
_FACES: dict[str, Face] = {
    "".join(LAND_LETTER[c] for c in face): cast("Face", face)
    for face in product(range(3), repeat=4)
}


def _face(v: str) -> Face:
    face = _FACES.get(v)
    if face is None:
        raise TypeError(f"expected four of the letters {LAND_LETTER}, found {v!r}")
    return face


def _faces(v: JSON) -> tuple[Face, ...]:
    return tuple(_face(face) for face in texts(v))


def _pile_tile(v: JSON) -> tuple[int, bool]:
    tile, base = fixed(v, 2)
    return (num(tile), flag(base))


def _guardian(g: JSON) -> Guardian:
    x, y = field(g, "at", _pair)
    return Guardian(
        gid=field(g, "gid", num),
        owner=field(g, "owner", num),
        x=x,
        y=y,
        land=field(g, "land", num),
        pile=field(g, "pile", _rows(_pile_tile)),
        **guardian_extra(obj(g)),
    )


def _fight(f: JSON) -> Fight:
    return Fight(
        gid=field(f, "gid", num),
        row=field(f, "row", int_tuple),
        laid=field(f, "laid", triples),
        flipped=field(f, "flipped", int_tuple),
        beaten=field(f, "beaten", int_tuple),
        taken=field(f, "taken", int_tuple),
        passes=field(f, "passes", num),
        pending_loss=field(f, "pending_loss", flag),
        results=field(f, "results", _texts),
    )


def _stats(st: JSON) -> Stats:
    return Stats(
        fights=field(st, "fights", num),
        kills=field(st, "kills", num),
        bolsters=field(st, "bolsters", num),
        guardians=field(st, "guardians", num),
        draws_lost=field(st, "draws_lost", num),
        limit_discards=field(st, "limit_discards", num),
        reshuffles=field(st, "reshuffles", num),
        flips=field(st, "flips", num),
        round_scores=field(st, "round_scores", _rows(int_tuple)),
    )


def from_json(d: Mapping[str, JSON]) -> State:
    """The state `to_json` wrote; a value of another type anywhere (`true` or `1.0` for an
    integer, a number for a flag or a text) is refused with a TypeError naming where it is."""
    rules = BlendingRules.model_validate(d["rules"])
    try:
        return State(
            rules=rules,
            seed=field(d, "seed", _seed),
            faces=field(d, "faces", _faces),
            phase=field(d, "phase", text),
            seat=field(d, "seat", num),
            round=field(d, "round", num),
            walks=field(d, "walks", _texts),
            reserve=field(d, "reserve", _rows(int_tuple)),
            hands=field(d, "hands", _rows(int_tuple)),
            stock=field(d, "stock", int_tuple),
            discard=field(d, "discard", int_tuple),
            squares=field(d, "squares", _by_square(num)),
            stacks=field(d, "stacks", _by_square(int_tuple)),
            blends=field(d, "blends", _by_square(_blend)),
            heroes=field(d, "heroes", _rows(_pair)),
            guardians=field(d, "guardians", _rows(_guardian)),
            next_gid=field(d, "next_gid", num),
            moves_left=field(d, "moves_left", num),
            placed=field(d, "placed", num),
            mode=field(d, "mode", text),
            main=field(d, "main", text),
            pick_for=field(d, "pick_for", text),
            picked=field(d, "picked", int_tuple),
            pick_at=field(d, "pick_at", _pair),
            fight=field(d, "fight", maybe(_fight)),
            stock_counter=field(d, "stock_counter", num),
            wash_counter=field(d, "wash_counter", num),
            flip_counter=field(d, "flip_counter", num),
            stats=field(d, "stats", _stats),
            ended=field(d, "ended", text),
            log=field(d, "log", _texts),
            # States stored before the last fight was summarised have no key for it.
            last_fight=field(d, "last_fight", _texts) if "last_fight" in d else (),
            **era_from_json(d),
        )
    except TypeError as e:
        raise TypeError(f"blending state: {e}") from None
