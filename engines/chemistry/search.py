"""The `search` bots: the seat's standing order for the shift chosen by rollouts.

The room is in plain sight (C20); what a seat cannot see is the others' orders for this shift.
Each rollout samples them: every other seat is played by one of the game's bots, drawn from the
decision's stream among those that could have given the order that seat gave last shift for the
present room (the courier, freeloader and porter, and the seeded courier and freeloader, whose
ties each sample draws from a stream of its own); with none fitting, among those giving the same
job; on the first shift, among all. Every candidate order (forage at each vat, supply each lane,
idle, hoard each feedstock) is played against the same samples through `horizon` shifts of the
room's own kernel (after the first shift the seat forages as a freeloader would), and scored by
what the seat eats less what the best other seat eats: a win is the top score. A level's budget
is counted in rollouts (one a candidate and sample) of at most `horizon` shifts each.

Measured (docs/benchmarks.md): a horizon of one shift, or no idle and hoard orders, played about
as well as the freeloader among seeded couriers; three shifts with them out-ate it in 72% of 160
games. Under `control: ticks` a decision is one tick, too short to search: the seat plays the
freeloader's order through the kernel, and says so in its docstring."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .bots import _as_action, courier_order, freeloader_order, lane_table
from .moves import Order, parse_order
from .porter import porter_order
from .room import SPECIES, VAT_TAKES, VATS
from .rules import Room
from .seeded import courier_seeded_order, freeloader_seeded_order
from .state import ChemState
from .views import state_from_view

RIVAL_SHARE = 1.0
"""Weight of the best other seat's food against the seat's own: a win is the top score (half
weight, tried before, played no better than the freeloader)."""

OrderRule = Callable[[Mapping[str, Any], int], str]
SeededRule = Callable[[Mapping[str, Any], int, Stream], str]
RULES: tuple[OrderRule, ...] = (courier_order, freeloader_order, porter_order)
SEEDED_RULES: tuple[SeededRule, ...] = (courier_seeded_order, freeloader_seeded_order)
PROBES = 8
"""Draws of a seeded rule tried when asking whether it could have given an order."""


@dataclass(frozen=True)
class Level:
    samples: int
    """Samples of the other seats' orders; every candidate is rolled out against each."""
    horizon: int
    """Shifts each rollout plays at most."""

    def budget(self, candidates: int) -> int:
        """Rollouts a decision may spend."""
        return self.samples * candidates


LEVELS: dict[int, Level] = {
    1: Level(samples=1, horizon=1),
    2: Level(samples=2, horizon=2),
    3: Level(samples=3, horizon=3),
    4: Level(samples=4, horizon=3),
}
DEFAULT_LEVEL = 3
MAX_CANDIDATES = 13
"""Three forage orders, six lanes, idle and three hoards: the most a room offers."""


@dataclass
class Work:
    rollouts: int = 0
    shifts: int = 0
    """Shifts played over all rollouts: at most `horizon` a rollout."""
    candidates: list[str] = field(default_factory=list)


def candidates(view: Mapping[str, Any]) -> list[str]:
    """Forage at each present vat, supply each lane, idle, then hoard each feedstock a present
    vat takes (the inert distractors feed nothing, so holding them denies nobody)."""
    out = [f"forage {v['name']}" for v in view["vats"]]
    out += [f"supply {SPECIES[sp]} {VATS[v]}" for (v, sp), _, _ in lane_table(view)]
    out.append("idle")
    fed = {sp for v in view["vats"] for sp in VAT_TAKES[VATS.index(v["name"])]}
    out += [f"hoard {SPECIES[sp]}" for sp in sorted(fed)]
    return out


def _seeded(rule: SeededRule, seed: int) -> OrderRule:
    """A seeded bot's rule with its ties drawn from this sample's own stream, afresh at each
    tick it is asked at, so that every candidate meets the same draws."""

    def order(here: Mapping[str, Any], s: int) -> str:
        return rule(here, s, Stream(seed, f"search/twin/{here['tick']}"))

    return order


def _could(rule: SeededRule, view: Mapping[str, Any], s: int, last: str) -> bool:
    probe = Stream(s, "search/probe")
    return any(rule(view, s, probe) == last for _ in range(PROBES))


Fit = tuple[list[OrderRule], list[SeededRule]] | None
"""The plain and seeded rules a seat's last order fits; None for the searching seat."""


def _fits(view: Mapping[str, Any], seat: int) -> list[Fit]:
    """Per seat, the bots that could give its last order for this room, else those giving the
    same job, else all. It depends on the view only, so a decision works it out once."""
    out: list[Fit] = []
    for entry in view["orders"]:
        s = int(entry["seat"])
        if s == seat:
            out.append(None)
            continue
        last = entry["order"]
        plain: list[OrderRule] = list(RULES)
        seeded: list[SeededRule] = list(SEEDED_RULES)
        if last is not None:
            plain_fit = [rule for rule in plain if rule(view, s) == last]
            seeded_fit = [rule for rule in seeded if _could(rule, view, s, last)]
            if plain_fit or seeded_fit:
                plain, seeded = plain_fit, seeded_fit
            else:
                job = last.split()[0]
                plain = [rule for rule in plain if rule(view, s).split()[0] == job] or plain
        out.append((plain, seeded))
    return out


def _draw(fits: Sequence[Fit], rng: Stream) -> list[OrderRule | None]:
    """One sample: a bot per other seat drawn among those its fit allows."""
    out: list[OrderRule | None] = []
    for fit in fits:
        if fit is None:
            out.append(None)
            continue
        plain, seeded = fit
        options = plain + [_seeded(rule, rng.next_u64()) for rule in seeded]
        out.append(rng.choice(options))
    return out


def _sample_rules(view: Mapping[str, Any], seat: int, rng: Stream) -> list[OrderRule | None]:
    """One bot per other seat, drawn among those that could give that seat's last order for
    this room, else among those giving the same job, else among all."""
    return _draw(_fits(view, seat), rng)


def _rules_view(room: Room, view: Mapping[str, Any], last: Sequence[str]) -> dict[str, Any]:
    """What the bots' order rules read (vats, ruleset, tick, last orders), from the room."""
    return {
        "vats": [
            {"name": VATS[v], "charge": room.charge[v], "stock": list(room.stock[v])}
            for v in room.present
        ],
        "ruleset": view["ruleset"],
        "tick": room.tick,
        "orders": [{"seat": s, "order": text} for s, text in enumerate(last)],
    }


def _roll(
    view: Mapping[str, Any],
    state: ChemState,
    seat: int,
    first: str,
    rules: Sequence[OrderRule | None],
    horizon: int,
    work: Work,
) -> float:
    room = Room(state)
    per_shift = state.ruleset.ticks_per_shift
    total = state.ruleset.total_ticks
    here: Mapping[str, Any] = view
    for shift in range(horizon):
        mine = first if shift == 0 else freeloader_order(here, seat)
        texts = [mine if rule is None else rule(here, s) for s, rule in enumerate(rules)]
        orders: list[Order | None] = [parse_order(text) for text in texts]
        work.shifts += 1
        while True:
            room.run_tick(orders, None)
            if room.tick % per_shift == 0 or room.tick >= total:
                break
        if room.tick >= total:
            break
        here = _rules_view(room, view, texts)
    best_other = max(n for s, n in enumerate(room.eaten) if s != seat)
    return room.eaten[seat] - RIVAL_SHARE * best_other


def decide(view: Mapping[str, Any], level: int, rng: Stream, work: Work | None = None) -> str:
    """The standing order of `search:<level>` for this view (orders control)."""
    lv = LEVELS[level]
    work = work if work is not None else Work()
    seat = int(view["seat"])
    options = candidates(view)
    work.candidates = list(options)
    fits = _fits(view, seat)
    samples = [_draw(fits, rng) for _ in range(lv.samples)]
    state = state_from_view(view)
    best, best_value = options[0], float("-inf")
    for text in options:
        value = 0.0
        for rules in samples:
            value += _roll(view, state, seat, text, rules, lv.horizon, work)
            work.rollouts += 1
        if value > best_value:
            best, best_value = text, value
    return best


def _bot(level: int) -> Bot:
    def bot(view: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
        seat = int(view["seat"])
        if view["control"] == "ticks":
            return _as_action(view, seat, freeloader_order(view, seat))
        return decide(view, level, rng)

    bot.__doc__ = f"search level {level}: {LEVELS[level]}"
    return bot


SEARCH_BOTS: dict[str, Bot] = {"search": _bot(DEFAULT_LEVEL)} | {
    f"search:{k}": _bot(k) for k in LEVELS
}
