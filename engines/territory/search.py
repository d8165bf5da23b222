"""Territory's search bot: a flat Monte Carlo over a few candidate order sets.

Each decision it draws states consistent with its observation (`sampling.sample_state`), gives
every other living seat one of the game's heuristic bots, and plays each candidate from each
drawn state for a few turns (itself as the settler after the first), scoring what it banked plus
what its walls would still pay and a little for stored paint. The candidates: the settler's and
the homesteader's claims, claims that dodge the tiles the others were seen to claim in the drawn
states, holding, a raider's raze, and near the end razing its own walls for salvage. It plans
from the observation only and draws only from the stream it is handed, so a seed repeats it.
Its work is counted in rollouts (one candidate played from one drawn state), at most
`Level.rollouts` per decision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..errors import GameError
from ..protocol import JSON, Bot, LazyLegalMoves, LegalMoves
from ..rng import Stream
from .board import HEARTHS, HOME_RINGS, KEY_INDEX, bits
from .bots import BOTS as HEURISTIC
from .bots import REFERENCE, _homestead, _text, _tiles, play_raider, play_settler, smear_skips
from .menu import menu
from .moves import HOLD, TerritoryMove, parse_text
from .resolve import resolve
from .rules import derived, living, reach
from .sampling import sample_state
from .state import ELIMINATED, TerritoryState
from .views import observe

OPPONENTS = ("settler", "homesteader", "raider", "diplomat")
"""The bots the others are played with, one drawn per seat and drawn state."""
PAINT_VALUE = 0.3
"""What one stored paint is worth at the horizon while turns remain (about a claim's return)."""
SALVAGE_TURNS = 4
"""Razing its own walls for salvage is a candidate only in the game's last turns."""
PROSPECT_TILES, PROSPECT_TURNS, PROSPECT_SHARE = 3, 6, 0.6
"""The richest free tiles in reach count for a share of what they would pay over a few turns."""
MAX_CANDIDATES = 10
RIVALS_WEIGHT = 1.0
"""How much the others' mean worth counts against its own: a strong seat is measured against
the rest of the table."""


@dataclass(frozen=True)
class Level:
    rollouts: int
    """The work budget per decision: candidate × drawn state pairs played out."""
    depth: int
    """Turns played per rollout, the candidate's own turn included."""


LEVELS: dict[int, Level] = {
    1: Level(rollouts=10, depth=1),
    2: Level(rollouts=30, depth=1),
    3: Level(rollouts=60, depth=1),
    4: Level(rollouts=150, depth=1),
}
"""Deeper rollouts measured weaker than more drawn states (the settler it plays itself with in
later turns is the weak link), so the levels differ in draws."""
DEFAULT_LEVEL = 2


@dataclass
class Plan:
    text: str
    rollouts: int = 0
    values: dict[str, float] = field(default_factory=dict)
    """Candidate text → its mean value over the drawn states."""


def _play(bot: Bot, state: TerritoryState, seat: int, rng: Stream) -> TerritoryMove:
    obs: dict[str, JSON] = observe(state, seat, None)
    table: LegalMoves = LazyLegalMoves(partial(menu, state, seat))
    return _parse(state, bot(obs, table, rng))


def _parse(state: TerritoryState, text: str) -> TerritoryMove:
    r = state.ruleset
    try:
        return parse_text(text, r.talk_chars, r.note_chars)
    except GameError:
        return HOLD


def value(state: TerritoryState, seat: int) -> float:
    """What the seat banked, what its walls would pay in the turns left, and its stored paint."""
    own = _worth(state, seat)
    others = [_worth(state, s) for s in range(len(state.seats)) if s != seat]
    return own - RIVALS_WEIGHT * sum(others) / max(1, len(others))


def _worth(state: TerritoryState, seat: int) -> float:
    me = state.seats[seat]
    left = 0 if state.ended is not None else state.ruleset.turns - state.turn + 1
    if left <= 0 or me.life == ELIMINATED:
        return float(me.banked)
    info = derived(state)
    income = sum(info.eff[j] for j in info.owned[seat])
    # A poor wall is still a projection origin: what it brings into reach counts too.
    near = sorted((info.eff[j] for m in reach(state, seat).claim for j in bits(m)), reverse=True)
    prospect = sum(near[:PROSPECT_TILES]) * min(left - 1, PROSPECT_TURNS) * PROSPECT_SHARE
    return me.banked + income * left + PAINT_VALUE * me.paint + prospect


def _salvage_razes(obs: Mapping[str, Any], paint: int, most: int) -> list[str]:
    """Its own walls richest in salvage first, as many as paint and `most` allow."""
    costs: Mapping[str, int] = obs["razeReach"]
    own = sorted(
        ((-v, KEY_INDEX[k], k) for k, v in obs.get("razeSalvage", {}).items() if v > 0),
    )
    out: list[str] = []
    for _, _, key in own:
        if len(out) >= most:
            break
        cost = int(costs[key])
        if cost <= paint:
            out.append(f"raze {key}")
            paint -= cost
    return out


def _strike(obs: Mapping[str, Any], paint: int) -> list[str]:
    """One raze on a rival's own home-ring wall (a strike: two on consecutive turns eliminate
    it, and its walls revert to free ground), a staggered rival first, then the richest tile."""
    me = obs["alias"]
    seats = {s["alias"]: s for s in obs["seats"]}
    rows = obs["tiles"]
    best: tuple[int, int, int, str, int] | None = None
    for key, cost in obs["razeReach"].items():
        row = rows[KEY_INDEX[key]]
        owner = row[4]
        if owner is None or owner == me or cost > paint:
            continue
        ring = HOME_RINGS[HEARTHS.index(KEY_INDEX[seats[owner]["hearth"]])]
        if KEY_INDEX[key] not in ring:
            continue
        option = (
            0 if seats[owner]["struckLastTurn"] else 1,
            -int(row[3]),
            KEY_INDEX[key],
            key,
            cost,
        )
        best = option if best is None or option < best else best
    return [] if best is None else [f"raze {best[3]}"]


def candidates(obs: Mapping[str, Any], taken: frozenset[str]) -> list[str]:
    """The order sets weighed this decision, first-listed first on equal value; `taken`: tiles
    the others were seen to claim in most drawn states."""
    tiles = _tiles(obs)
    paint = int(obs["paint"])
    skip = smear_skips(obs)
    out = [play_settler(obs, REFERENCE), HEURISTIC["homesteader"](obs, _NO_MENU, _NO_STREAM)]
    for limit in (3, 2, 1, 8):
        out.append(_text(_homestead(obs, tiles, paint, limit, REFERENCE, skip | taken)[0]))
    out.append("hold")
    turn, rules = int(obs["turn"]), obs["rules"]
    if turn >= int(rules["razeFromTurn"]):
        out.append(play_raider(obs, REFERENCE))
        strike = _strike(obs, paint)
        if strike:
            cost = int(obs["razeReach"][strike[0].split(" ")[1]])
            claims = _homestead(obs, tiles, paint - cost, 3, REFERENCE, skip | taken)[0]
            out.append(_text(strike + claims))
        if int(obs["turns"]) - turn < SALVAGE_TURNS:
            most = int(rules["maxOrders"])
            out.append(_text(_salvage_razes(obs, paint, most)))
            out.append(_text(_salvage_razes(obs, paint, 1)))
    unique = list(dict.fromkeys(out))
    return unique[:MAX_CANDIDATES]


_NO_MENU = LegalMoves(())
_NO_STREAM = Stream(0, "unused")


def _draw(obs: Mapping[str, Any], rng: Stream) -> tuple[TerritoryState, dict[int, Bot]]:
    state = sample_state(obs, rng)
    me = int(obs["seat"])
    bots = {s: HEURISTIC[rng.choice(OPPONENTS)] for s in living(state) if s != me}
    return state, bots


def plan(obs: Mapping[str, Any], rng: Stream, level: Level) -> Plan:
    """The best candidate by mean rollout value, using at most level.rollouts rollouts."""
    if not obs.get("toAct") or "reach" not in obs:
        return Plan("hold")
    me = int(obs["seat"])
    samples = max(1, level.rollouts // MAX_CANDIDATES)
    drawn = []
    for _ in range(samples):
        state, bots = _draw(obs, rng)
        seed = rng.next_u64()
        first = {s: _play(b, state, s, Stream(seed, f"first/{s}")) for s, b in bots.items()}
        drawn.append((state, bots, first, seed))
    counts: dict[str, int] = {}
    for _, _, first, _ in drawn:
        for key in {f"{o.q},{o.r}" for m in first.values() for o in m.orders if o.kind == "claim"}:
            counts[key] = counts.get(key, 0) + 1
    taken = frozenset(k for k, n in counts.items() if 2 * n >= samples)
    options = candidates(obs, taken)
    result = Plan(options[0])
    totals = dict.fromkeys(options, 0.0)
    for state, bots, first, seed in drawn:
        for text in options:
            if result.rollouts >= level.rollouts:
                break
            result.rollouts += 1
            totals[text] += _rollout(state, me, _parse(state, text), bots, first, level, seed)
    runs = max(1, result.rollouts // len(options))
    result.values = {t: v / runs for t, v in totals.items()}
    result.text = max(options, key=lambda t: totals[t])
    return result


def _rollout(
    state: TerritoryState,
    me: int,
    mine: TerritoryMove,
    bots: Mapping[int, Bot],
    first: Mapping[int, TerritoryMove],
    level: Level,
    seed: int,
) -> float:
    moves = {**first, me: mine}
    for step in range(level.depth):
        state = resolve(state, moves)
        if state.ended is not None or step + 1 == level.depth:
            break
        stream = Stream(seed, f"turn/{step}")
        moves = {}
        for s in living(state):
            bot = bots.get(s, _SETTLER)
            moves[s] = _play(bot, state, s, stream)
    return value(state, me)


def _settler(obs: Mapping[str, JSON], table: LegalMoves, rng: Stream) -> str:
    return play_settler(obs, REFERENCE)


_SETTLER: Bot = _settler


def _level_bot(level: int) -> Bot:
    def bot(obs: Mapping[str, JSON], table: LegalMoves, rng: Stream) -> str:
        return plan(obs, rng, LEVELS[level]).text

    bot.__doc__ = f"search level {level}: {LEVELS[level]}"
    return bot


SEARCH_BOTS: dict[str, Bot] = {
    "search": _level_bot(DEFAULT_LEVEL),
    **{f"search:{n}": _level_bot(n) for n in LEVELS},
}
