"""A state consistent with one seat's observation, for the search bot to play forward.

What the seat cannot see is drawn from the decision's stream: the rivals' hands (their counts by
pips are public), the order of the stock, which tiles lie on the map's single squares (their
lands are public, their ids are not), which triple designs got the supply's extra copies
(DECISIONS B6: a seeded choice), and the game's seed for every later wash, flip and reshuffle.
Everything else is read from the observation, so two states that look the same to the seat
give the same samples. Ruleset fields the view does not show (pile sizes, spacing, near_count)
are taken at their defaults: the search plans under the standard rules with the shown fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rng import Stream
from .ruleset import BlendingRules
from .state import Guardian, Pos, State
from .tiles import LANDS, Face, face_from_text


def supply_counts(total: int, lucky: set[int]) -> dict[Face, int]:
    """How many tiles of each face a supply of `total` holds, given which triple designs (by
    index, as build_supply orders them) got an extra copy."""
    tenth = total // 10
    counts: dict[Face, int] = {}
    for land in LANDS:
        counts[(land, land, land, land)] = 2 * tenth
    for a, b in ((0, 1), (0, 2), (1, 2)):
        counts[(a, a, b, b)] = tenth
    base, _ = divmod(tenth, 6)
    for i, design in enumerate(triple_designs()):
        counts[design] = base + (1 if i in lucky else 0)
    return counts


def triple_designs() -> list[Face]:
    out: list[Face] = []
    for d in LANDS:
        a, b = (land for land in LANDS if land != d)
        out.append((d, d, b, a))
        out.append((d, d, a, b))
    return out


def _tile_id(name: str) -> int:
    return int(name[1:])


def _seen(obs: Mapping[str, Any]) -> dict[int, Face]:
    """Every tile whose id and face the observation shows."""
    seen: dict[int, Face] = {}
    for name, face in obs["hand"]:
        seen[_tile_id(name)] = face_from_text(face)
    for b in obs["blends"]:
        seen[_tile_id(b[2])] = face_from_text(b[3])
    for g in obs["guardians"]:
        for name, face, _ in g["pile"]:
            seen[_tile_id(name)] = face_from_text(face)
    for name, face in obs["discard"]:
        seen[_tile_id(name)] = face_from_text(face)
    return seen


def tiles_in_play(obs: Mapping[str, Any]) -> int:
    """All tiles of the game: hands, stock, discard, map (singles and primers), blends, piles."""
    singles = sum(1 for sq in obs["squares"] if sq[2] in LANDS)
    primers = sum(int(p[2]) for p in obs["primers"])
    piles = sum(len(g["pile"]) for g in obs["guardians"])
    hands = sum(int(p["hand_size"]) for p in obs["players"])
    return (
        hands
        + int(obs["stock"])
        + len(obs["discard"])
        + singles
        + primers
        + len(obs["blends"])
        + piles
    )


def sample_state(obs: Mapping[str, Any], rng: Stream) -> State:
    """A turn-phase state the seat could be in, given what it sees (its own turn's decision)."""
    seat = int(obs["seat"])
    players = obs["players"]
    n = len(players)
    total = tiles_in_play(obs)
    rules = BlendingRules(
        players=n,
        supply_total=max(30, min(400, total - total % 10)),
        hand_limit=obs["hand_limit"],
        end_rounds=obs["rounds"],
        native_speed=obs["native_speed"],
        triple_match=obs["triple_match"],
    )
    seen = _seen(obs)
    # which designs got the extra copies: those seen twice over the base must have; the rest of
    # the extras go to designs drawn at random
    tenth = total // 10
    base, extra = divmod(tenth, 6)
    designs = triple_designs()
    seen_count = [sum(1 for f in seen.values() if f == d) for d in designs]
    lucky = {i for i, c in enumerate(seen_count) if c > base}
    others = rng.shuffled([i for i in range(6) if i not in lucky])
    lucky |= set(others[: max(0, extra - len(lucky))])
    left = supply_counts(total, lucky)
    for face in seen.values():
        left[face] = left.get(face, 0) - 1
    on_map: list[tuple[Pos, int]] = [((sq[0], sq[1]), sq[2]) for sq in obs["squares"]]
    primers = {(p[0], p[1]): p[2] for p in obs["primers"]}
    for pos, land in on_map:
        if land in LANDS:
            left[(land, land, land, land)] -= 1 + primers.get(pos, 0)
    unknown_faces: list[Face] = []
    for face, count in sorted(left.items()):
        unknown_faces.extend([face] * max(0, count))
    unknown_ids = [t for t in range(1, total + 1) if t not in seen]
    # a short list (a malformed view) is padded with singles of the first land: never raised
    while len(unknown_faces) < len(unknown_ids):
        unknown_faces.append((0, 0, 0, 0))
    unknown_faces = rng.shuffled(unknown_faces)[: len(unknown_ids)]
    faces: dict[int, Face] = dict(seen)
    pool: dict[Face, list[int]] = {}
    for t, face in zip(rng.shuffled(unknown_ids), unknown_faces, strict=True):
        faces[t] = face
        pool.setdefault(face, []).append(t)

    def take(face: Face) -> int:
        ids = pool.get(face)
        if ids:
            return ids.pop()
        return take_any(lambda f: True)

    def take_any(ok: Any) -> int:
        for face in sorted(pool):
            if pool[face] and ok(face):
                return pool[face].pop()
        raise ValueError("the observation accounts for more tiles than the supply holds")

    squares: dict[Pos, int] = {}
    stacks: dict[Pos, tuple[int, ...]] = {}
    for pos, land in on_map:
        squares[pos] = land
        if land in LANDS:
            single = (land, land, land, land)
            stacks[pos] = tuple(take(single) for _ in range(1 + primers.get(pos, 0)))
    # the rivals' hands: their pip counts are public, the tiles drawn from what is left
    rest = [t for ids in pool.values() for t in ids]
    rest = rng.shuffled(sorted(rest))
    hands: list[tuple[int, ...]] = []
    for p in players:
        if p["seat"] == seat:
            hands.append(tuple(sorted(_tile_id(name) for name, _ in obs["hand"])))
            continue
        mine: list[int] = []
        for size, want in enumerate(p["hand_pips"], start=1):
            got = [t for t in rest if len(set(faces[t])) == size][:want]
            for t in got:
                rest.remove(t)
            mine.extend(got)
        hands.append(tuple(sorted(mine)))
    guardians = tuple(
        Guardian(
            gid=int(g["id"][1:]),
            owner=g["owner"],
            x=g["at"][0],
            y=g["at"][1],
            land="MFP".index(g["land"]),
            pile=tuple((_tile_id(name), bool(b)) for name, _, b in g["pile"]),
        )
        for g in obs["guardians"]
    )
    turn = obs["turn"]
    return State(
        rules=rules,
        seed=rng.next_u64(),
        faces=tuple(faces.get(t, (0, 0, 0, 0)) for t in range(1, total + 1)),
        phase="turn",
        seat=seat,
        round=obs["round"],
        walks=tuple(p["walk"] for p in players),
        reserve=tuple(() for _ in players),
        hands=tuple(hands),
        stock=tuple(rest),
        discard=tuple(_tile_id(name) for name, _ in obs["discard"]),
        squares=squares,
        stacks=stacks,
        blends={(b[0], b[1]): (_tile_id(b[2]), int(b[4]), int(b[5])) for b in obs["blends"]},
        heroes=tuple((p["hero"][0], p["hero"][1]) for p in players),
        guardians=guardians,
        next_gid=max((g.gid for g in guardians), default=0) + 1,
        moves_left=turn["moves_left"],
        placed=turn["placed"],
        mode=turn["placement_mode"],
        main=turn["main"],
    )
