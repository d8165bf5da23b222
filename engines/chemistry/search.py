"""The `search` bots: the seat's standing order for the shift chosen by rollouts.

The room is in plain sight (C20); what a seat cannot see is the others' orders for this shift.
Each rollout samples them: every other seat is played by one of the game's bots (courier,
freeloader, porter), drawn from the decision's stream among those whose order for the present
room equals what that seat ordered last shift (all three when none does, or on the first shift).
Every candidate order (forage at each vat, supply each lane) is played against the same samples
through `horizon` shifts of the room's own kernel (after the first shift the seat forages as a
freeloader would), and scored by what the seat eats less half of what the best other seat eats
(the top score wins). A level's budget is counted in rollouts.

Under `control: ticks` a decision is one tick, too short to search: the seat plays the
freeloader's order through the kernel, and says so in its docstring."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .bots import _as_action, courier_order, freeloader_order, lane_table
from .moves import Order, parse_order
from .porter import porter_order
from .room import SPECIES, VATS
from .rules import Room
from .views import room_view, state_from_view

ROOM_SHARE = 0.0
"""Weight of the whole room's food beside the seat's own (0: the room share misled it)."""
RIVAL_SHARE = 0.5
"""Weight of the best other seat's food, against the seat's own: a win is the top score."""

OrderRule = Callable[[Mapping[str, Any], int], str]
RULES: tuple[tuple[str, OrderRule], ...] = (
    ("courier", courier_order),
    ("freeloader", freeloader_order),
    ("porter", porter_order),
)


@dataclass(frozen=True)
class Level:
    samples: int
    """Samples of the other seats' orders; every candidate is rolled out against each."""
    horizon: int
    """Shifts each rollout plays."""

    def budget(self, candidates: int) -> int:
        return self.samples * candidates


LEVELS: dict[int, Level] = {
    1: Level(samples=1, horizon=1),
    2: Level(samples=2, horizon=1),
    3: Level(samples=3, horizon=1),
    4: Level(samples=4, horizon=1),
}
"""Deeper horizons played worse: after the first shift the seat's stand-in (the freeloader's
order) is not what the search would order, so the second shift misleads."""
DEFAULT_LEVEL = 3
MAX_CANDIDATES = 9
"""Three forage orders and six lanes, the most a room offers."""


@dataclass
class Work:
    rollouts: int = 0
    candidates: list[str] = field(default_factory=list)


def candidates(view: Mapping[str, Any]) -> list[str]:
    """Forage at each present vat, then supply each lane, in vat and lane order."""
    out = [f"forage {v['name']}" for v in view["vats"]]
    out += [f"supply {SPECIES[sp]} {VATS[v]}" for (v, sp), _, _ in lane_table(view)]
    return out


def _sample_rules(view: Mapping[str, Any], seat: int, rng: Stream) -> list[OrderRule | None]:
    """One bot per other seat, drawn among those whose order for this room is the seat's last
    order, else among those giving the same job, else among all."""
    out: list[OrderRule | None] = []
    for entry in view["orders"]:
        s = int(entry["seat"])
        if s == seat:
            out.append(None)
            continue
        last = entry["order"]
        rules = [rule for _, rule in RULES]
        if last is not None:
            same = [rule for rule in rules if rule(view, s) == last]
            job = [rule for rule in rules if rule(view, s).split()[0] == last.split()[0]]
            rules = same or job or rules
        out.append(rng.choice(rules))
    return out


def _roll(
    view: Mapping[str, Any],
    seat: int,
    first: Order,
    rules: Sequence[OrderRule | None],
    horizon: int,
) -> float:
    state = state_from_view(view)
    room = Room(state)
    per_shift = state.ruleset.ticks_per_shift
    total = state.ruleset.total_ticks
    here: Mapping[str, Any] = view
    for shift in range(horizon):
        mine = first if shift == 0 else parse_order(freeloader_order(here, seat))
        orders = [
            mine if rule is None else parse_order(rule(here, s)) for s, rule in enumerate(rules)
        ]
        while True:
            room.run_tick(orders, None)
            if room.tick % per_shift == 0 or room.tick >= total:
                break
        if room.tick >= total or shift == horizon - 1:
            break
        frozen = room.freeze(replace(state, last=tuple(orders)))
        here = {**room_view(frozen), "seat": seat}
    best_other = max(n for s, n in enumerate(room.eaten) if s != seat)
    return room.eaten[seat] + ROOM_SHARE * sum(room.eaten) - RIVAL_SHARE * best_other


def decide(view: Mapping[str, Any], level: int, rng: Stream, work: Work | None = None) -> str:
    """The standing order of `search:<level>` for this view (orders control)."""
    lv = LEVELS[level]
    work = work if work is not None else Work()
    seat = int(view["seat"])
    options = candidates(view)
    work.candidates = list(options)
    samples = [_sample_rules(view, seat, rng) for _ in range(lv.samples)]
    best, best_value = options[0], float("-inf")
    for text in options:
        order = parse_order(text)
        value = 0.0
        for rules in samples:
            value += _roll(view, seat, order, rules, lv.horizon)
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
