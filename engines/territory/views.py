"""Observations and spectator views (the menu is in `menu.py`, the text in `render.py`)."""

from __future__ import annotations

from typing import Any

from ..jsonread import arr, edit, objs
from ..protocol import JSON
from .board import (
    ALIASES,
    COORDS,
    HEARTH_COORDS,
    HEARTH_OF,
    KEY_RANK,
    KEYS,
    STATE_NAMES,
    WALL,
    bits,
    effective,
    mask_keys,
)
from .moves import talk_was_cut
from .rules import derived, owned_by_seat, pool, reach, talk_count
from .state import ELIMINATED, LIFE, RazeRecord, SeatReport, TalkLine, TerritoryState

RECENT_EVENTS = 12
TILE_FIELDS = ["q", "r", "state", "yield", "owner", "wet", "hearth"]
"""One yield per tile, the effective one (what it pays): a cracked tile's base yield matters to
no rule, so showing it beside the effective one only invited misreading."""


def _alias(seat: int | None) -> str | None:
    return None if seat is None or seat < 0 else ALIASES[seat]


_ROWS: dict[tuple[int, int, int, int, bool], tuple[Any, ...]] = {}
"""Tile rows are immutable and recur from state to state, so each is built once."""

_TILE_IDS = range(len(COORDS))
_HEARTH_KEYS = tuple(f"{q},{r}" for q, r in HEARTH_COORDS)


def _row(j: int, st: int, y: int, o: int, w: bool) -> tuple[Any, ...]:
    row = _ROWS.get((j, st, y, o, w))
    if row is None:
        q, r = COORDS[j]
        row = (q, r, STATE_NAMES[st], effective(st, y), _alias(o), w, _alias(HEARTH_OF[j]))
        _ROWS[(j, st, y, o, w)] = row
    return row


def _public(state: TerritoryState) -> dict[str, Any]:
    """The part every seat and spectator sees, built once per state."""
    cached = state.cache.get("public")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    columns = (_TILE_IDS, state.tiles, state.board.yields, state.owner, state.wet)
    # Nearly every row is already known, so the lookups run without a Python-level loop and
    # only the new rows go through `_row`.
    found: list[tuple[Any, ...] | None] = list(map(_ROWS.get, zip(*columns, strict=True)))
    if None in found:
        found = [
            row or _row(*key) for row, key in zip(found, zip(*columns, strict=True), strict=True)
        ]
    tiles = tuple(found)
    owned = owned_by_seat(state)
    by = _raze_index(state)[1]
    seats = [
        {
            "seat": i,
            "alias": ALIASES[i],
            "life": LIFE[s.life],
            "walls": len(owned[i]),
            "lastIncome": s.last_income,
            "score": s.banked,
            "razes": s.razes,
            # Razes of its own tiles (salvage), inside `razes`: a salvager is no aggressor.
            "ownRazes": sum(1 for x in by[i] if x.owner == i),
            "struckLastTurn": s.struck,
            "hearth": _HEARTH_KEYS[i],
        }
        for i, s in enumerate(state.seats)
    ]
    r = state.ruleset
    cached = {
        "tiles": tiles,
        "seats": seats,
        "pool": pool(state),
        "events": list(state.events[-RECENT_EVENTS:]),
        "rules": {
            "maxOrders": r.max_orders,
            "flingRange": r.fling_range,
            "razeFromTurn": r.raze_from_turn,
            "talkLines": r.talk_lines,
            "talkChars": r.talk_chars,
            "noteChars": r.note_chars,
            "transferFee": r.transfer_fee,
            "claimOwnedTarget": r.claim_owned_target,
            "razeOrder": r.raze_order,
        },
    }
    state.cache["public"] = cached
    return cached


def _last_turn(state: TerritoryState) -> int:
    return state.reports[0].turn if state.reports else 0


def _raze_index(
    state: TerritoryState,
) -> tuple[list[list[RazeRecord]], list[list[RazeRecord]]]:
    """Per seat: razes by others on its tiles, and its own razes (built once per state)."""
    cached: tuple[list[list[RazeRecord]], list[list[RazeRecord]]] | None = state.cache.get(
        "raze_index"
    )
    if cached is None:
        against: list[list[RazeRecord]] = [[] for _ in state.seats]
        by: list[list[RazeRecord]] = [[] for _ in state.seats]
        for x in state.razes:
            by[x.razer].append(x)
            if x.owner >= 0 and x.owner != x.razer:
                against[x.owner].append(x)
        cached = (against, by)
        state.cache["raze_index"] = cached
    return cached


def _last_lines(log: tuple[TalkLine, ...], turn: int) -> tuple[TalkLine, ...]:
    """The lines posted in `turn`, which are the tail of the log."""
    start = len(log)
    while start and log[start - 1].turn == turn:
        start -= 1
    return log[start:]


def _talk_json(t: TalkLine, limit: int) -> dict[str, JSON]:
    line: dict[str, JSON] = {
        "turn": t.turn,
        "from": ALIASES[t.frm],
        "to": _alias(t.to),
        "text": t.text,
    }
    if talk_was_cut(t.text, limit):
        line["cut"] = True
    return line


def _report_json(p: SeatReport) -> dict[str, JSON]:
    return {
        "turn": p.turn,
        "rejected": p.rejected,
        "claimed": [KEYS[j] for j in p.claimed],
        "smeared": [KEYS[j] for j in p.smeared],
        "voided": [KEYS[j] for j in p.voided],
        "razed": [KEYS[j] for j in p.razed],
        "razedAgainstYou": [{"tile": KEYS[j], "by": ALIASES[s]} for j, s in p.razed_against],
        "struckBy": [ALIASES[s] for s in p.struck_by],
        "salvage": p.salvage,
        "income": p.income,
        "spent": p.spent,
        "transfersIn": [{"from": ALIASES[s], "amount": a} for s, a in p.transfers_in],
        "transfersOut": [{"to": ALIASES[s], "amount": a} for s, a in p.transfers_out],
        "life": LIFE[p.life],
    }


def _ranking(state: TerritoryState, outcome: JSON) -> list[dict[str, JSON]]:
    """The final table in display order (score, then fewer razes, then lower seat)."""
    assert isinstance(outcome, dict)
    ranks: list[Any] = outcome["ranks"]
    winners: list[Any] = outcome["winners"]
    order = sorted(
        range(len(state.seats)), key=lambda i: (-state.seats[i].banked, state.seats[i].razes, i)
    )
    walls = owned_by_seat(state)
    return [
        {
            "rank": ranks[i],
            "seat": i,
            "alias": ALIASES[i],
            "score": state.seats[i].banked,
            "razes": state.seats[i].razes,
            "salvage": state.seats[i].salvage,
            "walls": len(walls[i]),
            "life": LIFE[state.seats[i].life],
            "winner": i in winners,
        }
        for i in order
    ]


def _common(state: TerritoryState, outcome: JSON) -> dict[str, JSON]:
    pub = _public(state)
    r = state.ruleset
    # Every viewer gets its own copies of the mutable parts, so a caller editing one view
    # cannot change another or the cached parts.
    view: dict[str, JSON] = {
        "game": "territory",
        "turn": state.turn,
        "turns": r.turns,
        "over": state.ended is not None,
        "result": outcome,
        "map": r.map,
        "seats": [s.copy() for s in pub["seats"]],
        "tileFields": list(TILE_FIELDS),
        # Rows are shared tuples (immutable), which JSON writes as arrays.
        "tiles": pub["tiles"],
        "pool": pub["pool"],
        "poolStart": state.pool_start,
        "events": list(pub["events"]),
        "rules": pub["rules"].copy(),
    }
    if state.ended is not None and isinstance(outcome, dict):
        view["reason"] = state.ended
        view["ranking"] = _ranking(state, outcome)
        view["winners"] = [ALIASES[i] for i in outcome["winners"]]
    return view


# ---- what a seat can reach ----------------------------------------------------------------


def claimers(state: TerritoryState) -> dict[int, int]:
    """Tile → the living seats that could claim it this turn, as a mask of seats (bit s =
    seat s), built once per state. Reach depends only on public ownership, never on paint, so
    who else can reach a tile is public."""
    cached: dict[int, int] | None = state.cache.get("claimers")
    if cached is None:
        cached = {}
        for s, seat in enumerate(state.seats):
            if seat.life == ELIMINATED:
                continue
            mask = 0
            for layer in reach(state, s).claim:
                mask |= layer
            bit = 1 << s
            for j in bits(mask):
                cached[j] = cached.get(j, 0) | bit
        state.cache["claimers"] = cached
    return cached


_NAMES: dict[int, tuple[str, ...]] = {}


def _names(seats: int) -> tuple[str, ...]:
    """The aliases in a mask of seats (bit s = seat s), in seat order (shared, immutable)."""
    names = _NAMES.get(seats)
    if names is None:
        names = _NAMES[seats] = tuple(a for s, a in enumerate(ALIASES) if seats >> s & 1)
    return names


def seat_names(seats: int) -> list[str]:
    """The aliases in a mask of seats, as a fresh list."""
    return list(_names(seats))


def salvage_of(state: TerritoryState, seat: int, tile: int) -> int:
    """What razing `tile` would pay `seat` as salvage: multiplier × effective yield, for the
    first raze of a wall it owns; 0 otherwise."""
    if state.owner[tile] != seat or state.tiles[tile] != WALL:
        return 0
    return state.ruleset.salvage_multiplier * derived(state).eff[tile]


REACH_FIELDS = ["cost", "yield", "distance", "contested"]
"""The fields of a `reachDetail` row; `contested` lists the other living seats that can claim
the tile this turn (two claims on one tile smear it)."""


def reach_detail(state: TerritoryState, seat: int) -> dict[str, tuple[Any, ...]]:
    """Every claim target, richest first, then nearest, then by tile key → its REACH_FIELDS row
    (rows are immutable tuples, written as JSON arrays; the dict is fresh)."""
    here = reach(state, seat)
    eff = derived(state).eff
    others = claimers(state).get
    not_me = ~(1 << seat)
    ranked = [
        (3 - eff[j]) << 24 | d << 20 | KEY_RANK[j] << 8 | j
        for d, mask in enumerate(here.claim)
        for j in bits(mask)
    ]
    ranked.sort()
    costs = here.claim_cost
    out: dict[str, tuple[Any, ...]] = {}
    for k in ranked:
        j = k & 255
        d = k >> 20 & 15
        out[KEYS[j]] = (costs[d], eff[j], d, _names(others(j, 0) & not_me))
    return out


def raze_salvage(state: TerritoryState, seat: int) -> dict[str, int]:
    """The seat's own tiles in its raze reach → the salvage razing each would pay (0 for a
    cracked tile or a yield-0 wall), in board order."""
    here = reach(state, seat)
    own = derived(state).owned_masks[seat] & (here.raze_plain | here.raze_near)
    return {KEYS[j]: salvage_of(state, seat, j) for j in bits(own)}


def reach_keys(state: TerritoryState, seat: int) -> tuple[dict[str, int], dict[str, int]]:
    """The seat's claim and raze targets keyed by tile key, cheapest first (fresh dicts)."""
    key = ("reach_keys", seat)
    cached: tuple[dict[str, int], dict[str, int]] | None = state.cache.get(key)
    if cached is None:
        here = reach(state, seat)
        r = state.ruleset
        claims: dict[str, int] = {}
        for d in range(len(here.claim)):
            claims.update(dict.fromkeys(mask_keys(here.claim[d]), here.claim_cost[d]))
        razes = dict.fromkeys(mask_keys(here.raze_plain), r.raze_cost)
        razes.update(dict.fromkeys(mask_keys(here.raze_near), r.raze_cost_near_hearth))
        cached = (claims, razes)
        state.cache[key] = cached
    return dict(cached[0]), dict(cached[1])


# ---- views --------------------------------------------------------------------------------


def observe(state: TerritoryState, seat: int, outcome: JSON) -> dict[str, JSON]:
    view = _common(state, outcome)
    me = state.seats[seat]
    last = _last_turn(state)
    limit = state.ruleset.talk_chars
    report = state.reports[seat] if state.reports else None
    against, by = _raze_index(state)
    view.update(
        {
            "view": "seat",
            "seat": seat,
            "alias": ALIASES[seat],
            "life": LIFE[me.life],
            "toAct": state.ended is None and me.life != ELIMINATED,
            "paint": me.paint,
            "report": None if report is None else _report_json(report),
            "inbox": [
                _talk_json(t, limit)
                for t in _last_lines(state.talk_log, last)
                if t.to is None or t.to == seat or t.frm == seat
            ],
            "razedYou": [
                {"turn": x.turn, "by": ALIASES[x.razer], "tile": KEYS[x.tile]}
                for x in against[seat]
            ],
            "yourRazes": [
                {"turn": x.turn, "tile": KEYS[x.tile], "owner": _alias(x.owner)} for x in by[seat]
            ],
        }
    )
    if state.ended is not None:
        # After the game the view is the final table, not a turn with reach and talk left.
        ranking = objs(view["ranking"])
        view["rank"] = next(x["rank"] for x in ranking if x["seat"] == seat)
        return view
    if me.life == ELIMINATED:
        # T17: never asked to act again; T14: cannot talk. So no reach and no talk left.
        view["eliminatedTurn"] = me.eliminated_turn
        return view
    claim_keys, raze_keys = reach_keys(state, seat)
    view.update(
        {
            "reach": claim_keys,
            "razeReach": raze_keys,
            "reachFields": list(REACH_FIELDS),
            "reachDetail": reach_detail(state, seat),
            "razeSalvage": raze_salvage(state, seat),
            "talkLinesLeft": max(0, state.ruleset.talk_lines - talk_count(state, seat)),
            "queuedTalk": [_talk_json(t, limit) for t in state.pending_talk if t.frm == seat],
        }
    )
    return view


def spectate(state: TerritoryState, full: bool, outcome: JSON) -> dict[str, JSON]:
    view = _common(state, outcome)
    last = _last_turn(state)
    limit = state.ruleset.talk_chars
    view["view"] = "spectator"
    view["full"] = full
    view["talk"] = [
        _talk_json(t, limit) for t in _last_lines(state.talk_log, last) if full or t.to is None
    ]
    if full:
        seats = arr(view["seats"])
        for i, s in enumerate(state.seats):
            edit(seats[i])["paint"] = s.paint
        view["reports"] = [_report_json(p) for p in state.reports]
        view["notes"] = [
            {"turn": n.turn, "seat": ALIASES[n.seat], "text": n.text}
            for n in state.notes
            if n.turn == last
        ]
        view["queuedTalk"] = [_talk_json(t, limit) for t in state.pending_talk]
        view["talkLog"] = [_talk_json(t, limit) for t in state.talk_log]
        view["notesLog"] = [
            {"turn": n.turn, "seat": ALIASES[n.seat], "text": n.text} for n in state.notes
        ]
        view["razeLog"] = [
            {"turn": x.turn, "by": ALIASES[x.razer], "tile": KEYS[x.tile], "owner": _alias(x.owner)}
            for x in state.razes
        ]
    return view
