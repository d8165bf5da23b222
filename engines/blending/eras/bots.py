"""The builder's play under the older eras' combat (issue 14): it reads only the observation.

Three Strikes: the next 3 tiles of a guardian's pile and the kinds they show are public, so the
builder finds the assignment of 3 hand tiles (each turned to its best kind) that wins most
strikes, fights only when that wins the fight (and, against a bare guardian, kills), and lays
that plan strike by strike. Its own piles show varied kinds, so no single land beats them all.

Legacy: rival piles show only pips. The builder fights a guardian when its hand outweighs the
pile (enough tiles to deal the pile's strength, more pips), plays the cheapest tile that beats
the next pile tile's pips, escapes with its weakest tile when the fight turns against it, and
names the kind that does best against the defender's best answer. With hero fights on, it
attacks an adjacent rival hero holding at most half its tiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from ...protocol import LegalMoves
from ..bot_view import BoardView
from ..tile_choice import pile_pick, sane_discard
from ..tiles import KIND_NAME, Face, beats, face_from_text

Plan = list[tuple[int, int, int]]
"""(strike 0..2, tile, kind)."""


def _power(face: Face, kind: int, other: int, edge: int) -> int:
    bonus = edge if beats(kind, other) else -edge if beats(other, kind) else 0
    return len(set(face)) + bonus


def _answers(g: Mapping[str, Any]) -> list[tuple[Face, int]]:
    pile, kinds = g["pile"], g["kinds"]
    n, start = len(pile), int(g["next"]) - 1
    return [
        (face_from_text(pile[(start + i) % n][1]), KIND_NAME.index(kinds[(start + i) % n]))
        for i in range(3)
    ]


def three_plan(
    hand: Sequence[tuple[int, Face]], answers: list[tuple[Face, int]], slots: list[int], edge: int
) -> tuple[int, int, Plan]:
    """The best (wins, losses, plan) of distinct hand tiles against the given strike slots."""
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for t, face in hand:
        for slot in slots:
            gface, gk = answers[slot]
            top = max(
                (
                    (
                        (_power(face, k, gk, edge) > _power(gface, gk, k, edge))
                        - (_power(face, k, gk, edge) < _power(gface, gk, k, edge)),
                        k,
                    )
                    for k in set(face)
                ),
                key=lambda e: (e[0], -e[1]),
            )
            best[(t, slot)] = top
    chosen: tuple[tuple[int, int], Plan] = ((-9, 0), [])
    cheap = {t: len(set(face)) for t, face in hand}
    for tiles in permutations([t for t, _ in hand], len(slots)):
        results = [best[(t, slot)] for t, slot in zip(tiles, slots, strict=True)]
        won = sum(1 for r, _ in results if r > 0)
        lost = sum(1 for r, _ in results if r < 0)
        key = (won - lost, -sum(cheap[t] for t in tiles))
        if key > chosen[0]:
            plan = [
                (slot, t, k)
                for (t, slot), (_, k) in zip(zip(tiles, slots, strict=True), results, strict=True)
            ]
            chosen = (key, plan)
    plan = chosen[1]
    won = sum(1 for slot, t, k in plan if best[(t, slot)][0] > 0)
    lost = sum(1 for slot, t, k in plan if best[(t, slot)][0] < 0)
    return won, lost, plan


def wants_fight(v: BoardView, g: Mapping[str, Any]) -> bool:
    """Whether the builder would fight this rival guardian now, were its hero next to it."""
    rules = v.obs["combat_rules"]
    if v.obs["combat"] == "three":
        if len(v.hand) < 4:
            return False
        won, lost, _ = three_plan(v.hand, _answers(g), [0, 1, 2], int(rules["edge"]))
        bare = len(g["pile"]) <= int(rules["heal_to"])
        kills = won == 3 or (rules["kill_on"] == "win" and won > lost)
        return won > lost and (kills or not bare)
    mine = sorted((len(set(face)) for _, face in v.hand), reverse=True)
    pile = _pips(g)
    need = len(pile)
    return len(mine) >= need + 2 and sum(mine[: need + 1]) > sum(pile) + 1


def _fight(v: BoardView) -> str | None:
    for owner, at, _, g in v.guardians:
        near = max(abs(at[0] - v.hero[0]), abs(at[1] - v.hero[1])) <= 1
        if owner != v.seat and near and wants_fight(v, g):
            return f"fight {g['id']}"
    if v.obs["combat"] == "legacy" and v.obs["combat_rules"]["pvp"]:
        for p in v.obs["players"]:
            foe, (fx, fy) = int(p["seat"]), p["hero"]
            near = abs(fx - v.hero[0]) + abs(fy - v.hero[1]) == 1 and (fx, fy) != (0, 0)
            if foe != v.seat and near and 0 < int(p["hand_size"]) * 2 <= len(v.hand):
                return f"duel {foe}"
    return None


def _three_lay(v: BoardView, obs: Mapping[str, Any]) -> str:
    st = obs["strike"]
    g = next(x for x in obs["guardians"] if x["id"] == st["guardian"])
    free = [i for i in range(3) if all(slot != i + 1 for slot, _, _ in st["laid"])]
    _, _, plan = three_plan(v.hand, _answers(g), free, int(obs["combat_rules"]["edge"]))
    slot, t, k = plan[0]
    return f"lay t{t}@{slot + 1} {KIND_NAME[k]}"


def _pips(g: Mapping[str, Any]) -> list[int]:
    if g.get("hidden"):
        return [int(p) for p in g["pips"]]
    return [len(set(face)) for _, face, _ in g["pile"]]


def _legacy_strike(v: BoardView, obs: Mapping[str, Any]) -> str:
    d = obs["duel"]
    weakest = min(v.hand, key=lambda tf: (len(set(tf[1])), tf[0]))
    if d["against"].startswith("G"):
        g = next(x for x in obs["guardians"] if x["id"] == d["against"])
        pile = _pips(g)
        next_pips = pile[int(d["rounds"]) % len(pile)]
        left = len(pile) - int(d["damage"])
        winners = sorted((len(set(face)), t) for t, face in v.hand if len(set(face)) > next_pips)
        if winners and len(v.hand) >= left:
            return f"strike t{winners[0][1]}"
        if len(v.hand) < left + 1:
            return f"escape t{weakest[0]}"
    strongest = max(v.hand, key=lambda tf: (len(set(tf[1])), -tf[0]))
    return f"strike t{strongest[0]}"


def _announce(obs: Mapping[str, Any]) -> str:
    d = obs["duel"]
    edge = int(obs["combat_rules"]["edge"])
    mine, theirs = face_from_text(d["played"][1]), face_from_text(d["answer"][1])

    def margin(k: int) -> tuple[int, int]:
        answer = max(
            set(theirs),
            key=lambda a: (_power(theirs, a, k, edge) - _power(mine, k, a, edge), -a),
        )
        return (_power(mine, k, answer, edge) - _power(theirs, answer, k, edge), -k)

    return f"announce {KIND_NAME[max(set(mine), key=margin)]}"


def _pick(v: BoardView, obs: Mapping[str, Any]) -> str:
    choice = pile_pick(v, [f"pick t{t}" for t, _ in v.hand])
    if obs["combat"] != "three":
        return choice
    face = next(f for t, f in v.hand if f"pick t{t}" == choice)
    if len(set(face)) == 1:
        return choice
    want = int(obs["pick"]["count"]) % 3
    kind = want if want in face else face[0]
    return f"{choice} {KIND_NAME[kind]}"


def era_builder(obs: Mapping[str, Any], menu: LegalMoves) -> str | None:
    """The builder's move where the era's combat decides it, else None (the usual builder)."""
    phase, style = obs["phase"], obs.get("combat", "match")
    v = BoardView(obs)
    if phase == "pick" and obs["pick"]["for"] == "tax":  # BE17: pay with the least useful
        return sane_discard(obs).replace("discard", "pick")
    if style == "match":
        return None
    if phase == "pick" and obs["pick"]["for"] in ("guardian", "rebuild") and v.hand:
        return _pick(v, obs)
    if phase == "fight":
        return _three_lay(v, obs) if style == "three" else _legacy_strike(v, obs)
    if phase == "announce":
        return _announce(obs)
    if phase == "turn" and not obs["turn"]["main"] and v.hand:
        return _fight(v)
    return None
