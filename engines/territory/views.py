"""Observations, spectator views, the text rendering and the legal-move menu."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..protocol import JSON, LegalMoves, MoveInfo
from .board import (
    ALIASES,
    COORDS,
    HEARTH_COORDS,
    HEARTH_OF,
    HOME_MASKS,
    KEYS,
    RADIUS,
    SHORT,
    STATE_NAMES,
    bits,
    effective,
    mask_keys,
)
from .moves import SYNTAX
from .rules import derived, owned_by_seat, pool, reach, talk_count
from .state import LIFE, RazeRecord, SeatReport, TalkLine, TerritoryState

RECENT_EVENTS = 12
TILE_FIELDS = ["q", "r", "state", "yield", "effYield", "owner", "wet", "hearth"]


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
        row = (q, r, STATE_NAMES[st], y, effective(st, y), _alias(o), w, _alias(HEARTH_OF[j]))
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
    seats = [
        {
            "seat": i,
            "alias": ALIASES[i],
            "life": LIFE[s.life],
            "walls": len(owned[i]),
            "lastIncome": s.last_income,
            "score": s.banked,
            "razes": s.razes,
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


def _talk_json(t: TalkLine) -> dict[str, JSON]:
    return {"turn": t.turn, "from": ALIASES[t.frm], "to": _alias(t.to), "text": t.text}


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


def _common(state: TerritoryState, outcome: JSON) -> dict[str, JSON]:
    pub = _public(state)
    r = state.ruleset
    # Every viewer gets its own copies of the mutable parts, so a caller editing one view
    # cannot change another or the cached parts.
    return {
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


def observe(state: TerritoryState, seat: int, outcome: JSON) -> dict[str, JSON]:
    view = _common(state, outcome)
    me = state.seats[seat]
    claim_keys, raze_keys = reach_keys(state, seat)
    last = _last_turn(state)
    report = state.reports[seat] if state.reports else None
    against, by = _raze_index(state)
    view.update(
        {
            "view": "seat",
            "seat": seat,
            "alias": ALIASES[seat],
            "life": LIFE[me.life],
            "toAct": state.ended is None and me.life != 2,
            "paint": me.paint,
            "reach": claim_keys,
            "razeReach": raze_keys,
            "talkLinesLeft": max(0, state.ruleset.talk_lines - talk_count(state, seat)),
            "queuedTalk": [_talk_json(t) for t in state.pending_talk if t.frm == seat],
            "report": None if report is None else _report_json(report),
            "inbox": [
                _talk_json(t)
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
    return view


def spectate(state: TerritoryState, full: bool, outcome: JSON) -> dict[str, JSON]:
    view = _common(state, outcome)
    last = _last_turn(state)
    view["view"] = "spectator"
    view["full"] = full
    view["talk"] = [
        _talk_json(t) for t in _last_lines(state.talk_log, last) if full or t.to is None
    ]
    if full:
        seats = view["seats"]
        for i, s in enumerate(state.seats):
            seats[i]["paint"] = s.paint
        view["reports"] = [_report_json(p) for p in state.reports]
        view["notes"] = [
            {"turn": n.turn, "seat": ALIASES[n.seat], "text": n.text}
            for n in state.notes
            if n.turn == last
        ]
        view["queuedTalk"] = [_talk_json(t) for t in state.pending_talk]
        view["talkLog"] = [_talk_json(t) for t in state.talk_log]
        view["notesLog"] = [
            {"turn": n.turn, "seat": ALIASES[n.seat], "text": n.text} for n in state.notes
        ]
        view["razeLog"] = [
            {"turn": x.turn, "by": ALIASES[x.razer], "tile": KEYS[x.tile], "owner": _alias(x.owner)}
            for x in state.razes
        ]
    return view


# ---- the legal-move menu ------------------------------------------------------------------


_INFO_CACHE: dict[tuple[int, ...], MoveInfo] = {}
"""Menu entries are immutable and recur turn after turn, so they are built once."""


def _claim_info(j: int, st: int, y: int, d: int, cost: int) -> MoveInfo:
    key = (0, j, st, y, d, cost)
    info = _INFO_CACHE.get(key)
    if info is None:
        info = MoveInfo(
            f"claim {KEYS[j]}",
            f"claim {KEYS[j]}: {STATE_NAMES[st]}, pays {effective(st, y)}/turn from next turn, "
            f"distance {d}, cost {cost}",
            "claim",
        )
        _INFO_CACHE[key] = info
    return info


def _raze_info(j: int, st: int, y: int, whose: int, cost: int) -> MoveInfo:
    key = (1, j, st, y, whose, cost)
    info = _INFO_CACHE.get(key)
    if info is None:
        owner = "your" if whose == -2 else "unowned" if whose < 0 else f"{ALIASES[whose]}'s"
        after = "rubble" if st == 1 else "cracked"
        info = MoveInfo(
            f"raze {KEYS[j]}",
            f"raze {KEYS[j]}: {owner} {STATE_NAMES[st]}, yield {y} → {after}, cost {cost}",
            "raze",
        )
        _INFO_CACHE[key] = info
    return info


_HOLD_INFO = MoveInfo("hold", "hold: no orders this turn (talk lines may still be added)", "hold")


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


def menu(state: TerritoryState, seat: int) -> LegalMoves:
    r = state.ruleset
    here = reach(state, seat)
    paint = state.seats[seat].paint
    yields = state.board.yields
    tiles = state.tiles
    info = derived(state)
    moves = [_HOLD_INFO]
    # Richest first, then nearest, then board order: one integer sort key per tile.
    eff = info.eff
    keys: list[int] = []
    for d in range(len(here.claim)):
        if here.claim_cost[d] <= paint and here.claim[d]:
            keys += [(3 - eff[j]) << 12 | d << 8 | j for j in bits(here.claim[d])]
    keys.sort()
    costs = here.claim_cost
    for k in keys:
        j = k & 255
        d = (k >> 8) & 15
        moves.append(_claim_info(j, tiles[j], yields[j], d, costs[d]))
    if here.raze_plain or here.raze_near:
        owner = state.owner
        special = info.owned_masks[seat] | HOME_MASKS[seat]
        for mask, cost in (
            (here.raze_plain, r.raze_cost),
            (here.raze_near, r.raze_cost_near_hearth),
        ):
            if cost > paint:
                continue
            # Entries only for this seat's targets: building one for every tile of the board
            # costs more than the few seats that read a menu ever use.
            moves.extend(
                _raze_info(j, tiles[j], yields[j], owner[j], cost) for j in bits(mask & ~special)
            )
            for j in bits(mask & special):
                o = owner[j]
                moves.append(_raze_info(j, tiles[j], yields[j], -2 if o == seat else o, cost))
    others = [ALIASES[i] for i, s in enumerate(state.seats) if i != seat and s.life != 2]
    left = max(0, r.talk_lines - talk_count(state, seat))
    claim_keys, raze_keys = reach_keys(state, seat)
    hints: dict[str, JSON] = {
        "paint": paint,
        "maxOrders": r.max_orders,
        "reach": claim_keys,
        "razeReach": raze_keys,
        "razeFromTurn": r.raze_from_turn,
        "transferFee": r.transfer_fee,
        "transferTo": others,
        "talkLinesLeft": left,
        "talkChars": r.talk_chars,
        "noteChars": r.note_chars,
        "syntax": SYNTAX,
    }
    instructions = (
        f"Submit your whole turn at once: up to {r.max_orders} orders (claims, razes, transfers) "
        f"whose costs add up to at most your {paint} stored paint, plus up to {left} talk lines "
        f"and an optional private note. Combine menu entries one per line or separated by ';', "
        f"e.g. 'claim 4,0; claim 3,1' then 'say: TEXT' or 'say ALIAS: TEXT'. Costs are measured "
        f"from the tiles you own now (claims in this turn do not extend reach). Any illegal or "
        f"unaffordable order rejects the whole set. 'transfer ALIAS N' costs N+{r.transfer_fee}. "
        f"A claim on a tile another seat owns is voided (paint spent) unless a raze frees it "
        f"this turn. The menu lists single affordable orders; hints.reach and hints.razeReach "
        f"give every target with its cost."
    )
    return LegalMoves(tuple(moves), complete=False, hints=hints, instructions=instructions)


# ---- rendering ----------------------------------------------------------------------------


def _cell(t: list[Any]) -> str:
    q, _r, st, _y, eff, owner, _wet, hearth = t
    if st == "rubble":
        body = "####"
    else:
        code = SHORT[ALIASES.index(owner)] if owner else ".."
        mark = "H" if hearth else "'" if st == "cracked" else " "
        body = f"{code}{eff}{mark}"
    return f"{q:>2}:{body}"


def render_board(tiles: list[Any]) -> list[str]:
    rows: dict[int, list[Any]] = {}
    for t in tiles:
        rows.setdefault(int(t[1]), []).append(t)
    lines = [
        "Board: pointy-top axial hexes, one line per r; each cell is q:OWNER+YIELD+MARK "
        "(OWNER = two-letter alias or '..' unowned, YIELD = effective yield paid per turn, "
        "MARK = H hearth, ' cracked; #### = rubble).",
        "Aliases: " + ", ".join(f"{s}={a}" for s, a in zip(SHORT, ALIASES, strict=True)),
    ]
    for r in range(-RADIUS, RADIUS + 1):
        cells = sorted(rows.get(r, []), key=lambda t: int(t[0]))
        lines.append(f"r={r:>2} " + " " * (4 * abs(r)) + " ".join(_cell(t) for t in cells))
    return lines


def render(view: Mapping[str, Any]) -> str:
    out: list[str] = []
    head = f"Territory, turn {view['turn']} of {view['turns']}"
    if view.get("over"):
        result = view.get("result") or {}
        head += f" (game over: {result.get('reason', 'ended')})"
    out.append(
        head + f"; map {view.get('map', 'open')}; board pool {view['pool']}/turn "
        f"(started at {view['poolStart']})."
    )
    if view.get("view") == "seat":
        out.append(
            f"You are {view['alias']} (seat {view['seat']}), {view['life']}, with "
            f"{view['paint']} paint stored."
        )
    paint_col = any("paint" in s for s in view["seats"])
    out.append(
        "Seats: alias (hearth) life, walls, last income, score, razes"
        + (", paint" if paint_col else "")
    )
    for s in view["seats"]:
        line = (
            f"  {s['alias']} ({s['hearth']}) {s['life']}, {s['walls']} walls, income "
            f"{s['lastIncome']}, score {s['score']}, razes {s['razes']}"
        )
        if "paint" in s:
            line += f", paint {s['paint']}"
        out.append(line)
    out.extend(render_board(view["tiles"]))
    if view.get("view") == "seat":
        reach_items = sorted(view["reach"].items(), key=lambda kv: (kv[1], kv[0]))
        out.append(
            "Your claim reach (tile=cost): "
            + (" ".join(f"{k}={c}" for k, c in reach_items) or "none")
        )
        out.append(_raze_reach_line(view))
        report = view.get("report")
        if report:
            out.append(f"Last turn (T{report['turn']}): " + _report_line(report))
        out.append(f"Talk lines left this turn: {view['talkLinesLeft']}.")
        talk = view.get("inbox", [])
    else:
        talk = view.get("talk", [])
        for i, report in enumerate(view.get("reports", [])):
            out.append(f"Last turn, {ALIASES[i]}: " + _report_line(report))
        for n in view.get("notes", []):
            out.append(f"Note by {n['seat']} (T{n['turn']}): {n['text']}")
    if talk:
        out.append("Talk from last turn:")
        for t in talk:
            to = f" to {t['to']} (private)" if t["to"] else ""
            out.append(f"  {t['from']}{to}: {t['text']}")
    if view.get("events"):
        out.append("Recent events:")
        out.extend(f"  {e}" for e in view["events"])
    return "\n".join(out)


def _raze_reach_line(view: Mapping[str, Any]) -> str:
    razes: Mapping[str, int] = view["razeReach"]
    if not razes:
        return f"Your raze reach: none (razing opens on turn {view['rules']['razeFromTurn']})."
    owners = {f"{t[0]},{t[1]}": t[5] for t in view["tiles"]}
    groups: dict[str, list[str]] = {}
    for key, cost in sorted(razes.items(), key=lambda kv: (kv[1], kv[0])):
        owner = owners.get(key)
        label = "yours" if owner == view["alias"] else owner or "unowned"
        groups.setdefault(label, []).append(f"{key}={cost}")
    order = ["yours", *[a for a in ALIASES if a in groups], "unowned"]
    parts = [f"{name}: {' '.join(groups[name])}" for name in order if name in groups]
    return "Your raze reach (tile=cost) by owner; " + "; ".join(parts)


def _report_line(p: Mapping[str, Any]) -> str:
    parts = []
    if p["rejected"]:
        parts.append(f"orders rejected ({p['rejected']}), held")
    for name in ("claimed", "smeared", "voided", "razed"):
        if p[name]:
            parts.append(f"{name} {' '.join(p[name])}")
    if p["razedAgainstYou"]:
        parts.append(
            "razed against you: "
            + ", ".join(f"{x['tile']} by {x['by']}" for x in p["razedAgainstYou"])
        )
    if p["struckBy"]:
        parts.append(f"struck by {', '.join(p['struckBy'])}")
    if p["salvage"]:
        parts.append(f"salvage {p['salvage']}")
    for x in p["transfersIn"]:
        parts.append(f"received {x['amount']} from {x['from']}")
    for x in p["transfersOut"]:
        parts.append(f"sent {x['amount']} to {x['to']}")
    parts.append(f"income {p['income']}, spent {p['spent']}, now {p['life']}")
    return "; ".join(parts)
