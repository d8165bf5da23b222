"""Territory bots: stateless functions of a seat's observation (plus the menu and a seeded stream)
returning canonical move text. Whatever they remember comes from the observation: the
`razedYou` / `yourRazes` histories and the last turn's report."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..jsonread import num, obj
from ..protocol import JSON, Bot, LegalMoves
from ..rng import Stream
from .board import KEY_INDEX, KEY_RANK


def _text(orders: list[str], talk: list[str] | None = None) -> str:
    return "\n".join((orders or ["hold"]) + (talk or []))


class _Tiles:
    """Tile rows by key; observations list tiles in board order, so no per-call index is built."""

    __slots__ = ("rows",)

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.rows: Sequence[Sequence[Any]] = obs["tiles"]

    def __getitem__(self, key: str) -> Sequence[Any]:
        return self.rows[KEY_INDEX[key]]


def _tiles(obs: Mapping[str, Any]) -> _Tiles:
    return _Tiles(obs)


@dataclass(frozen=True)
class Ties:
    """How a bot breaks its ties. The reference bots' own: tiles by key (KEY_RANK orders tiles as
    their keys sort, without comparing strings), seats by seat number. The seeded bots
    (seeded.py) give both orders drawn from their stream."""

    tiles: Sequence[int] = KEY_RANK
    """Per tile index, its place in the tie order."""
    seats: Sequence[int] | None = None
    """Per seat, its place in the tie order (lowest first); None: by seat number, and the
    diplomat's grievances in the order it was razed."""

    def seat(self, seat: int) -> int:
        return seat if self.seats is None else self.seats[seat]


REFERENCE = Ties()


def _order(
    tiles: _Tiles, ties: Ties = REFERENCE
) -> Callable[[tuple[str, int]], tuple[int, int, int]]:
    """Sort key for (tile key, cost): richest first, then cheapest, then the tie order."""
    rows = tiles.rows
    rank = ties.tiles

    def key(kc: tuple[str, int]) -> tuple[int, int, int]:
        j = KEY_INDEX[kc[0]]
        return (-rows[j][3], kc[1], rank[j])

    return key


def _homestead(
    obs: Mapping[str, Any],
    tiles: _Tiles,
    paint: int,
    limit: int,
    ties: Ties = REFERENCE,
    skip: frozenset[str] = frozenset(),
) -> tuple[list[str], int]:
    """Richest reachable tiles first, ties by distance (cost) then tile key; never one in skip."""
    # Paint only goes down, so a tile too dear now is never picked and need not be ranked.
    ranked = sorted(
        [kc for kc in obs["reach"].items() if kc[1] <= paint and kc[0] not in skip],
        key=_order(tiles, ties),
    )
    out: list[str] = []
    for key, cost in ranked:
        if len(out) >= limit:
            break
        if cost <= paint:
            out.append(f"claim {key}")
            paint -= cost
    return out, paint


def _raze_target(
    obs: Mapping[str, Any],
    tiles: _Tiles,
    victim: str,
    min_yield: int,
    by_cost: bool = True,
    ties: Ties = REFERENCE,
) -> tuple[str, int] | None:
    """The victim's richest tile in `razeReach` with effYield ≥ min_yield; ties by cost then
    tile key, or (by_cost=False) by tile key alone."""
    rows = tiles.rows
    options = []
    for key, cost in obs["razeReach"].items():
        j = KEY_INDEX[key]
        row = rows[j]
        if row[4] == victim and row[3] >= min_yield:
            options.append((-row[3], cost if by_cost else 0, ties.tiles[j], key, cost))
    if not options:
        return None
    best = min(options)
    return best[3], best[4]


def homesteader(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    return play_homesteader(obs, REFERENCE)


def play_homesteader(obs: Mapping[str, Any], ties: Ties) -> str:
    orders, _ = _homestead(obs, _tiles(obs), int(obs["paint"]), 3, ties)
    return _text(orders)


def settler(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    """The homesteader mended: it leaves alone a tile its claim smeared last turn while a seat
    that smeared it too can still claim it, so two of them stop paying for the same tile every
    turn; once nobody who smeared it can reach it any more, it claims the tile again."""
    return play_settler(obs, REFERENCE)


def play_settler(obs: Mapping[str, Any], ties: Ties) -> str:
    orders, _ = _homestead(obs, _tiles(obs), int(obs["paint"]), 3, ties, smear_skips(obs))
    return _text(orders)


def smear_skips(obs: Mapping[str, Any]) -> frozenset[str]:
    """The tiles this seat smeared last turn that a seat which smeared them too can claim now.
    Who smeared a tile is in the turn's public events; when that line has scrolled out of the
    events, any other seat that can claim the tile counts."""
    report: Mapping[str, Any] = obs.get("report") or {}
    smeared: list[str] = report.get("smeared", [])
    if not smeared:
        return frozenset()
    detail: Mapping[str, Any] = obs.get("reachDetail") or {}
    at = list(obs.get("reachFields") or []).index("contested") if detail else 0
    prefix = f"T{report['turn']}: "
    skip: set[str] = set()
    for key in smeared:
        row = detail.get(key)
        if row is None:
            continue
        rivals = set(row[at])
        line = f"{prefix}{key} smeared by "
        who = next((e[len(line) :] for e in obs.get("events", []) if e.startswith(line)), None)
        if who is not None:
            rivals &= set(who.split(", "))
        if rivals:
            skip.add(key)
    return frozenset(skip)


RAIDER_MIN_YIELD = 3
"""The raider razes only tiles of effective yield 3 or more (the corrected DECISIONS text)."""


def raider(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    return play_raider(obs, REFERENCE)


def play_raider(obs: Mapping[str, Any], ties: Ties) -> str:
    tiles = _tiles(obs)
    paint = int(obs["paint"])
    rules: Mapping[str, Any] = obs["rules"]
    if int(obs["turn"]) < int(rules["razeFromTurn"]):
        return play_homesteader(obs, ties)
    orders: list[str] = []
    me = obs["alias"]
    rivals = [s for s in obs["seats"] if s["alias"] != me and s["life"] != "eliminated"]
    if rivals:
        # DECISIONS 1(a) raider: the leading rival (highest score, ties to the lower seat); its
        # richest tile in razeReach with effYield ≥ 3, ties by tile key in string order (not by
        # cost), razed only if that tile is affordable.
        leader = max(rivals, key=lambda s: (s["score"], -ties.seat(s["seat"])))
        target = _raze_target(
            obs, tiles, leader["alias"], RAIDER_MIN_YIELD, by_cost=False, ties=ties
        )
        if target is not None and target[1] <= paint:
            orders.append(f"raze {target[0]}")
            paint -= target[1]
    claims, _ = _homestead(obs, tiles, paint, 4, ties)
    return _text(orders + claims)


PROPOSAL = (
    "{me} here. I propose non-aggression to every seat: I will never raze the walls of anyone "
    "who leaves mine alone. Raze me and I raze you back, once for each raze."
)


ANSWER = "I never raze first: leave my walls alone and I leave yours alone."
"""The diplomat's private answer to a seat that wrote to it and owes it no raze."""
ANSWER_OWED = "You razed my walls; I raze yours once for each raze, then peace resumes."
"""... and to one that has razed it more often than it has razed back."""


def _addressed_by(obs: Mapping[str, Any]) -> list[str]:
    """The living seats that sent this seat a private line last turn, in the order they wrote."""
    me = obs["alias"]
    living = {s["alias"] for s in obs["seats"] if s["life"] != "eliminated"}
    out: list[str] = []
    for line in obs.get("inbox", []):
        name = line["from"]
        if line["to"] == me and name != me and name in living and name not in out:
            out.append(name)
    return out


def diplomat(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    """Tit-for-tat: proposes peace in public, never razes first, answers each raze against it with
    one raze against the aggressor, and returns to peace once the score is even. Each seat that
    wrote to it privately last turn gets one private answer (while its three lines last): ANSWER,
    or ANSWER_OWED to a seat it still owes a raze back."""
    return play_diplomat(obs, REFERENCE)


def play_diplomat(obs: Mapping[str, Any], ties: Ties) -> str:
    tiles = _tiles(obs)
    paint = int(obs["paint"])
    turn = int(obs["turn"])
    me = str(obs["alias"])
    talk: list[str] = []
    if turn == 1 or turn % 6 == 1:
        talk.append("say: " + PROPOSAL.format(me=me))
    living = {s["alias"] for s in obs["seats"] if s["life"] != "eliminated"}
    owed: dict[str, int] = {}
    for x in obs["razedYou"]:
        owed[x["by"]] = owed.get(x["by"], 0) + 1
    for x in obs["yourRazes"]:
        if x["owner"] in owed:
            owed[x["owner"]] -= 1
    report: Mapping[str, Any] = obs.get("report") or {}
    fresh = sorted({x["by"] for x in report.get("razedAgainstYou", [])})
    for name in fresh:
        if len(talk) < 2:
            talk.append(
                f"say: {name} razed my walls. I answer in kind, one raze for each; "
                f"stop and peace resumes."
            )
    orders: list[str] = []
    seat_of = {s["alias"]: int(s["seat"]) for s in obs["seats"]}
    for name in _addressed_by(obs):
        if len(talk) < 3:
            talk.append(f"say {name}: " + (ANSWER_OWED if owed.get(name, 0) > 0 else ANSWER))

    def grievance(name: str) -> tuple[int, int]:
        # With the reference order, equal grievances keep the order the razes came in.
        return (-owed[name], 0 if ties.seats is None else ties.seat(seat_of[name]))

    grievances = sorted((n for n, k in owed.items() if k > 0 and n in living), key=grievance)
    for name in grievances:
        target = _raze_target(obs, tiles, name, 0, ties=ties)
        if target is not None and target[1] <= paint:
            orders.append(f"raze {target[0]}")
            paint -= target[1]
            if len(talk) < 3:
                talk.append(f"say {name}: Stop razing me and I stop too. Peace is on the table.")
            break
    claims, _ = _homestead(obs, tiles, paint, 3, ties)
    return _text(orders + claims, talk)


def random_bot(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
    """Up to three random single orders from the menu that fit the budget together."""
    paint = num(obs["paint"])
    options = [m for m in menu.moves if m.kind != "hold"]
    wanted = rng.below(4)
    chosen: list[str] = []
    tries = 0
    while options and len(chosen) < wanted and tries < 3 * wanted:
        tries += 1
        entry = options[rng.below(len(options))]
        table = menu.hints["reach" if entry.kind == "claim" else "razeReach"]
        cost = num(obj(table)[entry.notation.split(" ", 1)[1]])
        if cost <= paint and entry.notation not in chosen:
            chosen.append(entry.notation)
            paint -= cost
    return _text(chosen)


BOTS: dict[str, Bot] = {
    "homesteader": homesteader,
    "raider": raider,
    "diplomat": diplomat,
    "settler": settler,
    "random": random_bot,
}
