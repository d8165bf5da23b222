"""The Blending game state: typed, copied on every transition, never mutated once returned.

Positions are (x, y) with x east and y south; the start square is (0, 0). A blend is keyed by the
top-left square of the 2x2 block it covers (DECISIONS B1's vertex (x+1, y+1)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .era_state import Duel, Strike, era_from_json, era_json, guardian_extra, guardian_extra_json
from .ruleset import BlendingRules, rules_json
from .tiles import Face

Pos = tuple[int, int]


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
    stats: Stats = field(default_factory=Stats)
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


def _pos(text: str) -> Pos:
    x, y = text.split(",")
    return (int(x), int(y))


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


def from_json(d: Mapping[str, Any]) -> State:
    f = d["fight"]
    st = d["stats"]
    fight = (
        None
        if f is None
        else Fight(
            gid=f["gid"],
            row=tuple(f["row"]),
            laid=tuple((a, b, c) for a, b, c in f["laid"]),
            flipped=tuple(f["flipped"]),
            beaten=tuple(f["beaten"]),
            taken=tuple(f["taken"]),
            passes=f["passes"],
            pending_loss=f["pending_loss"],
            results=tuple(f["results"]),
        )
    )
    faces = []
    for text in d["faces"]:
        c = ["MFP".index(ch) for ch in text]
        faces.append((c[0], c[1], c[2], c[3]))
    return State(
        rules=BlendingRules.model_validate(d["rules"]),
        seed=d["seed"],
        faces=tuple(faces),
        phase=d["phase"],
        seat=d["seat"],
        round=d["round"],
        walks=tuple(d["walks"]),
        reserve=tuple(tuple(r) for r in d["reserve"]),
        hands=tuple(tuple(h) for h in d["hands"]),
        stock=tuple(d["stock"]),
        discard=tuple(d["discard"]),
        squares={_pos(k): v for k, v in d["squares"].items()},
        stacks={_pos(k): tuple(v) for k, v in d["stacks"].items()},
        blends={_pos(k): (v[0], v[1], v[2]) for k, v in d["blends"].items()},
        heroes=tuple((h[0], h[1]) for h in d["heroes"]),
        guardians=tuple(
            Guardian(
                gid=g["gid"],
                owner=g["owner"],
                x=g["at"][0],
                y=g["at"][1],
                land=g["land"],
                pile=tuple((t, b) for t, b in g["pile"]),
                **guardian_extra(g),
            )
            for g in d["guardians"]
        ),
        next_gid=d["next_gid"],
        moves_left=d["moves_left"],
        placed=d["placed"],
        mode=d["mode"],
        main=d["main"],
        pick_for=d["pick_for"],
        picked=tuple(d["picked"]),
        pick_at=(d["pick_at"][0], d["pick_at"][1]),
        fight=fight,
        stock_counter=d["stock_counter"],
        wash_counter=d["wash_counter"],
        flip_counter=d["flip_counter"],
        stats=Stats(
            fights=st["fights"],
            kills=st["kills"],
            bolsters=st["bolsters"],
            guardians=st["guardians"],
            draws_lost=st["draws_lost"],
            limit_discards=st["limit_discards"],
            reshuffles=st["reshuffles"],
            flips=st["flips"],
            round_scores=tuple(tuple(r) for r in st["round_scores"]),
        ),
        ended=d["ended"],
        log=tuple(d["log"]),
        last_fight=tuple(d.get("last_fight", ())),
        **era_from_json(d),
    )
