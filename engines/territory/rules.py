"""Legality, costs and reach: everything decided against the pre-turn state (T5: every seat is
validated against the same state, and a seat's own orders never extend its reach)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalMove
from .board import (
    ALIASES,
    BIT,
    CRACKED,
    DIST,
    HEARTHS,
    HOME_MASKS,
    INDEX,
    KEYS,
    RUBBLE,
    WALL,
    effective,
    grow,
)
from .moves import Order, TerritoryMove, order_text
from .ruleset import TerritoryRuleset
from .state import ELIMINATED, TerritoryState


@dataclass(frozen=True, slots=True)
class Reach:
    """One seat's targets this turn as tile masks (bit j = tile j)."""

    layers: tuple[int, ...]
    """layers[d]: tiles at exactly distance d from the seat's origins, d = 0..fling range."""
    claim: tuple[int, ...]
    """claim[d]: unowned wall/cracked tiles at distance d. claim[0] can only be the hearth of a
    seat that owns nothing (T4: it projects from its hearth coordinate, so a freed hearth is at
    distance 0)."""
    claim_cost: tuple[int, ...]
    """claim_cost[d]: base + per-distance × d, so 2 at d = 0, 4 at d = 1, 6 at d = 2."""
    raze_plain: int
    """Wall/cracked tiles in reach at the plain raze cost (0 before the raze turn)."""
    raze_near: int
    """... and those at the surcharged cost, next to another living seat's hearth."""

    def distance(self, tile: int) -> int | None:
        for d, layer in enumerate(self.layers):
            if layer & BIT[tile]:
                return d
        return None


_EFFECTIVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(effective(st, y) for y in range(4)) for st in (WALL, CRACKED, RUBBLE)
)
"""_EFFECTIVE[state][base yield]: `effective` as a table, read once per tile per state."""


class _Derived:
    """Per-state masks shared by every seat's reach."""

    __slots__ = ("alive", "eff", "free", "guarded", "owned", "owned_masks", "rubble")

    def __init__(self, state: TerritoryState) -> None:
        n = len(state.seats)
        owned: list[list[int]] = [[] for _ in range(n)]
        masks = [0] * n
        rubble = 0
        free = 0
        tiles = state.tiles
        for j, o in enumerate(state.owner):
            if o >= 0:
                owned[o].append(j)
                masks[o] |= BIT[j]
            elif tiles[j] == RUBBLE:
                rubble |= BIT[j]
            else:
                free |= BIT[j]
        self.owned = owned
        self.owned_masks = masks
        self.rubble = rubble
        self.free = free
        self.alive = [s.life != ELIMINATED for s in state.seats]
        guarded = 0
        for seat, alive in enumerate(self.alive):
            if alive:
                guarded |= HOME_MASKS[seat]
        # Home rings never overlap, so a seat drops its own ring with `& ~HOME_MASKS[seat]`.
        self.guarded = guarded
        self.eff = [_EFFECTIVE[st][y] for st, y in zip(tiles, state.board.yields, strict=True)]


def derived(state: TerritoryState) -> _Derived:
    cached: _Derived | None = state.cache.get("derived")
    if cached is None:
        cached = _Derived(state)
        state.cache["derived"] = cached
    return cached


def owned_by_seat(state: TerritoryState) -> list[list[int]]:
    return derived(state).owned


def living(state: TerritoryState) -> tuple[int, ...]:
    return tuple(i for i, s in enumerate(state.seats) if s.life != ELIMINATED)


def reach(state: TerritoryState, seat: int) -> Reach:
    key = ("reach", seat)
    cached: Reach | None = state.cache.get(key)
    if cached is not None:
        return cached
    r = state.ruleset
    info = derived(state)
    inner = info.owned_masks[seat] or BIT[HEARTHS[seat]]
    free = info.free
    layers = [inner]
    claim = [inner & free]
    costs = [r.claim_base_cost]
    for d in range(1, r.fling_range + 1):
        within = grow(inner)
        layer = within & ~inner
        layers.append(layer)
        claim.append(layer & free)
        costs.append(r.claim_base_cost + r.claim_cost_per_distance * d)
        inner = within
    plain = near = 0
    if state.turn >= r.raze_from_turn:
        targets = inner & ~info.rubble
        guarded = info.guarded & ~HOME_MASKS[seat]
        # T10: the surcharge applies next to any other living seat's hearth, whatever the owner.
        near = targets & guarded
        plain = targets & ~guarded
    result = Reach(tuple(layers), tuple(claim), tuple(costs), plain, near)
    state.cache[key] = result
    return result


def _order_label(i: int, o: Order) -> str:
    return f"order {i + 1} ({order_text(o)})"


def _illegal(i: int, o: Order, reason: str) -> IllegalMove:
    # The label is built only when an order fails, not for every order checked.
    return IllegalMove(f"{_order_label(i, o)}: {reason}")


def order_cost(state: TerritoryState, seat: int, i: int, o: Order, claimed: set[int]) -> int:
    """The cost of one order, raising IllegalMove (naming the order) when it is not legal."""
    r = state.ruleset
    if o.kind == "transfer":
        if o.to == seat:
            raise _illegal(i, o, "you cannot transfer to yourself.")
        if not 0 <= o.to < len(state.seats) or state.seats[o.to].life == ELIMINATED:
            raise _illegal(i, o, f"{ALIASES[o.to]} is eliminated; transfers go to living seats.")
        if o.amount < 1:
            raise _illegal(i, o, "the amount must be a whole number ≥ 1.")
        return o.amount + r.transfer_fee
    tile = INDEX.get((o.q, o.r))
    if tile is None:
        raise _illegal(i, o, f"{o.key} is not on the board (tiles have max(|q|,|r|,|q+r|) ≤ 7).")
    if state.tiles[tile] == RUBBLE:
        raise _illegal(i, o, f"{o.key} is rubble, which can never be claimed or razed.")
    here = reach(state, seat)
    d = here.distance(tile)
    if d is None:
        nearest = min(
            (DIST[tile][j] for j in owned_by_seat(state)[seat] or [HEARTHS[seat]]), default=99
        )
        raise _illegal(
            i,
            o,
            f"{o.key} is {nearest} from your nearest owned tile; orders reach at most "
            f"{r.fling_range} (measured from tiles you owned at the start of the turn).",
        )
    if o.kind == "raze":
        if state.turn < r.raze_from_turn:
            raise _illegal(
                i, o, f"razing is allowed from turn {r.raze_from_turn}; this is turn {state.turn}."
            )
        return r.raze_cost_near_hearth if here.raze_near & BIT[tile] else r.raze_cost
    owner = state.owner[tile]
    if owner == seat:
        raise _illegal(i, o, f"you already own {o.key}.")
    if owner >= 0 and r.claim_owned_target == "reject":
        raise _illegal(i, o, f"{o.key} is owned by {ALIASES[owner]}; claims need an unowned tile.")
    if tile in claimed:
        raise _illegal(
            i, o, f"{o.key} is already claimed earlier in this set (a seat cannot smear itself)."
        )
    claimed.add(tile)
    return here.claim_cost[d]


def talk_count(state: TerritoryState, seat: int) -> int:
    return sum(1 for t in state.pending_talk if t.frm == seat)


def _allowed(r: TerritoryRuleset) -> str:
    return (
        f"at most {r.max_orders} orders: claim/raze tiles within {r.fling_range} of a tile you own "
        f"(see reach and razeReach with costs), transfer ALIAS AMOUNT to a living seat, costing in "
        f"total at most your stored paint; or hold"
    )


def check_move(state: TerritoryState, seat: int, move: TerritoryMove) -> list[int]:
    """The cost of each order; raises IllegalMove with the reason the whole set is rejected."""
    r = state.ruleset
    if len(move.orders) > r.max_orders:
        raise IllegalMove(
            f"The set has {len(move.orders)} orders; at most {r.max_orders} per turn.",
            allowed=_allowed(r),
        )
    # Talk over the cap never refuses a set (T14): `resolve.capped_talk` drops the extra lines.
    claimed: set[int] = set()
    try:
        costs = [order_cost(state, seat, i, o, claimed) for i, o in enumerate(move.orders)]
    except IllegalMove as exc:
        raise IllegalMove(f"Whole set rejected: {exc.message}", allowed=_allowed(r)) from None
    total = sum(costs)
    paint = state.seats[seat].paint
    if total > paint:
        breakdown = ", ".join(
            f"{order_text(o)}={c}" for o, c in zip(move.orders, costs, strict=True)
        )
        raise IllegalMove(
            f"Whole set rejected: it costs {total} paint ({breakdown}) but you have {paint} "
            f"stored; "
            f"income, salvage and transfers received arrive only as next-turn money.",
            allowed=_allowed(r),
        )
    return costs


def pool(state: TerritoryState) -> int:
    return sum(derived(state).eff)


def tile_key(tile: int) -> str:
    return KEYS[tile]
