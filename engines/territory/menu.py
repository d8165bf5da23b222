"""The legal-move menu: single affordable orders with what each costs, pays and risks."""

from __future__ import annotations

from ..protocol import JSON, LegalMoves, MoveInfo
from .board import ALIASES, HOME_MASKS, KEY_INDEX, KEYS, STATE_NAMES, bits, effective
from .moves import SYNTAX
from .rules import derived, reach, talk_count
from .state import TerritoryState
from .views import claimers, reach_keys, salvage_of, seat_names

_INFO_CACHE: dict[tuple[int, ...], MoveInfo] = {}
"""Menu entries are immutable and recur turn after turn, so they are built once."""


def _claim_info(j: int, st: int, y: int, d: int, cost: int, rivals: int) -> MoveInfo:
    """`rivals` is a bit mask of the other seats that can also claim the tile this turn."""
    key = (0, j, st, y, d, cost, rivals)
    info = _INFO_CACHE.get(key)
    if info is None:
        text = (
            f"claim {KEYS[j]}: {STATE_NAMES[st]}, yield {effective(st, y)}/turn from next turn, "
            f"distance {d}, cost {cost}"
        )
        if rivals:
            names = ", ".join(seat_names(rivals))
            text += (
                f"; contested: {names} can claim it too (two claims smear it: "
                f"nobody gets it and both pay)"
            )
        info = MoveInfo(f"claim {KEYS[j]}", text, "claim")
        _INFO_CACHE[key] = info
    return info


def _raze_info(j: int, st: int, y: int, whose: int, cost: int, salvage: int) -> MoveInfo:
    key = (1, j, st, y, whose, cost, salvage)
    info = _INFO_CACHE.get(key)
    if info is None:
        owner = "your" if whose == -2 else "unowned" if whose < 0 else f"{ALIASES[whose]}'s"
        after = 2 if st == 1 else 1
        text = (
            f"raze {KEYS[j]}: {owner} {STATE_NAMES[st]}, yield {effective(st, y)} → "
            f"{STATE_NAMES[after]}, yield {effective(after, y)}, cost {cost}"
        )
        if whose == -2:
            text += (
                f", salvage {salvage} (next-turn paint, counts as score)"
                if salvage
                else ", no salvage (salvage pays only for the first raze of a wall)"
            )
        info = MoveInfo(f"raze {KEYS[j]}", text, "raze")
        _INFO_CACHE[key] = info
    return info


_HOLD_INFO = MoveInfo("hold", "hold: no orders this turn (talk lines may still be added)", "hold")


def menu(state: TerritoryState, seat: int) -> LegalMoves:
    r = state.ruleset
    here = reach(state, seat)
    paint = state.seats[seat].paint
    yields = state.board.yields
    tiles = state.tiles
    info = derived(state)
    reachers = claimers(state)
    not_me = ~(1 << seat)
    moves = [_HOLD_INFO]
    # Richest first, then nearest, then board order: one integer sort key per tile.
    eff = info.eff
    keys: list[int] = []
    for d in range(len(here.claim)):
        if here.claim_cost[d] <= paint and here.claim[d]:
            keys += [(3 - eff[j]) << 12 | d << 8 | j for j in bits(here.claim[d])]
    keys.sort()
    costs = here.claim_cost
    contested: dict[str, JSON] = {}
    for k in keys:
        j = k & 255
        d = (k >> 8) & 15
        rivals = reachers.get(j, 0) & not_me
        moves.append(_claim_info(j, tiles[j], yields[j], d, costs[d], rivals))
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
                _raze_info(j, tiles[j], yields[j], owner[j], cost, 0) for j in bits(mask & ~special)
            )
            for j in bits(mask & special):
                o = owner[j]
                mine = o == seat
                moves.append(
                    _raze_info(
                        j,
                        tiles[j],
                        yields[j],
                        -2 if mine else o,
                        cost,
                        salvage_of(state, seat, j) if mine else 0,
                    )
                )
    claim_keys, raze_keys = reach_keys(state, seat)
    for key in claim_keys:
        rivals = reachers.get(KEY_INDEX[key], 0) & not_me
        if rivals:
            contested[key] = seat_names(rivals)
    others = [ALIASES[i] for i, s in enumerate(state.seats) if i != seat and s.life != 2]
    left = max(0, r.talk_lines - talk_count(state, seat))
    hints: dict[str, JSON] = {
        "paint": paint,
        "maxOrders": r.max_orders,
        "reach": claim_keys,
        "razeReach": raze_keys,
        "contested": contested,
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
        f"(at most {r.talk_chars} characters each; a longer line is cut and ends in '…') "
        f"and an optional private note. Combine menu entries one per line or separated by ';', "
        f"e.g. 'claim 4,0; claim 3,1' then 'say: TEXT' or 'say ALIAS: TEXT'. Costs are measured "
        f"from the tiles you own now (claims in this turn do not extend reach). Any illegal or "
        f"unaffordable order rejects the whole set. 'transfer ALIAS N' costs N+{r.transfer_fee}. "
        f"A claim on a tile another seat owns is voided (paint spent) unless a raze frees it "
        f"this turn; a tile two seats claim in one turn smears (nobody gets it, both pay): "
        f"hints.contested names who else can claim each tile. The menu lists single affordable "
        f"orders; hints.reach and hints.razeReach give every target with its cost."
    )
    return LegalMoves(tuple(moves), complete=False, hints=hints, instructions=instructions)
