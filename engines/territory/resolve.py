"""One turn's resolution: validate → talk → raze → strikes → claim → transfer → charge → upkeep."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..errors import GameError, IllegalMove
from .board import ALIASES, CRACKED, INDEX, KEYS, RING_OWNER, RUBBLE, STATE_NAMES, WALL
from .moves import HOLD, Talk, TerritoryMove
from .rules import check_move, living
from .state import (
    ELIMINATED,
    STAGGERED,
    STEADY,
    Note,
    RazeRecord,
    SeatReport,
    SeatState,
    TalkLine,
    TerritoryState,
)


def capped_talk(state: TerritoryState, seat: int, talk: tuple[Talk, ...]) -> tuple[Talk, ...]:
    queued = sum(1 for t in state.pending_talk if t.frm == seat)
    return talk[: max(0, state.ruleset.talk_lines - queued)]


def resolve(state: TerritoryState, moves: Mapping[int, TerritoryMove]) -> TerritoryState:
    r = state.ruleset
    turn = state.turn
    n = len(state.seats)
    acting = living(state)

    # 1. validate and budget, per seat in seat order.
    orders: dict[int, TerritoryMove] = {}
    costs: dict[int, list[int]] = {}
    rejected: dict[int, str] = {}
    for seat in acting:
        # Talk over the cap (a line queued after the submission was accepted) is dropped here
        # rather than voiding orders that were validated at submission.
        move = moves[seat]
        move = TerritoryMove(move.orders, capped_talk(state, seat, move.talk), move.note)
        try:
            costs[seat] = check_move(state, seat, move)
            orders[seat] = move
        except GameError as exc:
            rejected[seat] = exc.message
            orders[seat] = TerritoryMove((), move.talk, move.note)
            costs[seat] = []

    # 2. talk: queued lines first, then the submission's; T14 makes a DM to self or to an
    # eliminated seat public.
    posted = list(state.talk_log)
    for line in state.pending_talk:
        posted.append(line)
    for seat in acting:
        for t in orders[seat].talk:
            to = t.to
            if to is not None and (to == seat or state.seats[to].life == ELIMINATED):
                to = None
            posted.append(TalkLine(turn, seat, to, t.text))
    notes = list(state.notes)
    notes.extend(Note(turn, s, orders[s].note or "") for s in acting if orders[s].note)

    tiles = list(state.tiles)
    owner = list(state.owner)
    wet = list(state.wet)
    claimed_turn = list(state.claimed_turn)
    yields = state.board.yields
    owner0 = state.owner
    tiles0 = state.tiles

    salvage = [0] * n
    struck_by: list[set[int]] = [set() for _ in range(n)]
    razed_against: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    razed: list[list[int]] = [[] for _ in range(n)]
    events: list[str] = []
    records: list[RazeRecord] = []
    razes_made = [0] * n

    # 3. raze.
    razers: dict[int, list[int]] = {}
    for seat in acting:
        for o in orders[seat].orders:
            if o.kind == "raze":
                tile = _tile(o.q, o.r)
                razers.setdefault(tile, []).append(seat)
                razes_made[seat] += 1
                razed[seat].append(tile)
                records.append(RazeRecord(turn, seat, tile, owner0[tile]))
                if owner0[tile] >= 0 and owner0[tile] != seat:
                    razed_against[owner0[tile]].append((tile, seat))
    if r.raze_order == "simultaneous":
        for tile in sorted(razers):
            who = razers[tile]
            start, own = tiles0[tile], owner0[tile]
            # T8: count the razes, move that many steps down the ladder, extra ones are paid no-ops.
            tiles[tile] = min(RUBBLE, start + len(who))
            owner[tile] = -1
            wet[tile] = False
            if start == WALL and own >= 0 and own in who:
                salvage[own] += r.salvage_multiplier * yields[tile]
            if own >= 0 and RING_OWNER[tile] == own:
                struck_by[own].update(s for s in who if s != own)
    else:
        for seat in acting:
            for o in orders[seat].orders:
                if o.kind != "raze":
                    continue
                tile = _tile(o.q, o.r)
                if tiles[tile] == RUBBLE:
                    continue
                own = owner0[tile]
                if tiles[tile] == WALL and own == seat and owner[tile] == seat:
                    salvage[seat] += r.salvage_multiplier * yields[tile]
                tiles[tile] += 1
                owner[tile] = -1
                wet[tile] = False
                if own >= 0 and own != seat and RING_OWNER[tile] == own:
                    struck_by[own].add(seat)
    for tile in sorted(razers):
        names = ", ".join(ALIASES[s] for s in razers[tile])
        own = owner0[tile]
        whose = f"{ALIASES[own]}'s" if own >= 0 else "unowned"
        events.append(
            f"T{turn}: {names} razed {KEYS[tile]} ({whose} {STATE_NAMES[tiles0[tile]]}, "
            f"yield {yields[tile]}) → {STATE_NAMES[tiles[tile]]}"
        )

    # 4. strike bookkeeping happens above: strikes need the start-of-Resolve owners only.

    # 5. claim, simultaneously, on the post-raze board.
    claimants: dict[int, list[int]] = {}
    for seat in acting:
        for o in orders[seat].orders:
            if o.kind == "claim":
                claimants.setdefault(_tile(o.q, o.r), []).append(seat)
    won: list[list[int]] = [[] for _ in range(n)]
    smeared: list[list[int]] = [[] for _ in range(n)]
    voided: list[list[int]] = [[] for _ in range(n)]
    for tile in sorted(claimants):
        who = claimants[tile]
        if tiles[tile] == RUBBLE or owner[tile] >= 0:
            for s in who:
                voided[s].append(tile)
        elif len(who) > 1:
            for s in who:
                smeared[s].append(tile)
            events.append(f"T{turn}: {KEYS[tile]} smeared by {', '.join(ALIASES[s] for s in who)}")
        else:
            owner[tile] = who[0]
            wet[tile] = True
            claimed_turn[tile] = turn
            won[who[0]].append(tile)

    # 6. transfer, 7. charge.
    credit = list(salvage)
    t_in: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    t_out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for seat in acting:
        for o in orders[seat].orders:
            if o.kind == "transfer":
                credit[o.to] += o.amount
                t_in[o.to].append((seat, o.amount))
                t_out[seat].append((o.to, o.amount))
                events.append(f"T{turn}: {ALIASES[seat]} transferred {o.amount} to {ALIASES[o.to]}")
    paint = [s.paint for s in state.seats]
    for seat in acting:
        paint[seat] -= sum(costs[seat])

    # 8. upkeep: dry, income (not this turn's claims), credit, life, advance.
    wet = [False] * len(wet)
    income = [0] * n
    for tile, holder in enumerate(owner):
        if holder >= 0 and claimed_turn[tile] != turn:
            st = tiles[tile]
            income[holder] += (
                yields[tile] if st == WALL else yields[tile] // 2 if st == CRACKED else 0
            )
    seats: list[SeatState] = []
    reports: list[SeatReport] = []
    for i, old in enumerate(state.seats):
        if old.life == ELIMINATED:
            seats.append(replace(old, struck=False, last_income=0))
            reports.append(SeatReport(turn, life=ELIMINATED))
            continue
        struck = bool(struck_by[i])
        life = (STAGGERED if old.life == STEADY else ELIMINATED) if struck else STEADY
        seat_paint = paint[i] + income[i] + credit[i]
        banked = old.banked + income[i] + salvage[i]
        if struck:
            names = ", ".join(ALIASES[s] for s in sorted(struck_by[i]))
            events.append(f"T{turn}: {ALIASES[i]} struck by {names} → {_life_name(life)}")
        elif old.life == STAGGERED:
            events.append(f"T{turn}: {ALIASES[i]} recovered → steady")
        if life == ELIMINATED:
            seat_paint = 0
            for tile, holder in enumerate(owner):
                if holder == i:
                    owner[tile] = -1
                    wet[tile] = False
            events.append(f"T{turn}: {ALIASES[i]} eliminated; its tiles revert, score frozen")
        seats.append(
            SeatState(
                paint=seat_paint,
                banked=banked,
                life=life,
                struck=struck,
                razes=old.razes + razes_made[i],
                last_income=income[i],
                salvage=old.salvage + salvage[i],
                eliminated_turn=turn if life == ELIMINATED else old.eliminated_turn,
            )
        )
        reports.append(
            SeatReport(
                turn=turn,
                rejected=rejected.get(i),
                claimed=tuple(won[i]),
                smeared=tuple(smeared[i]),
                voided=tuple(voided[i]),
                razed=tuple(razed[i]),
                razed_against=tuple(razed_against[i]),
                struck_by=tuple(sorted(struck_by[i])),
                salvage=salvage[i],
                income=income[i],
                spent=sum(costs[i]),
                transfers_in=tuple(t_in[i]),
                transfers_out=tuple(t_out[i]),
                life=life,
            )
        )
    alive = sum(1 for s in seats if s.life != ELIMINATED)
    ended = "elimination" if alive <= 1 else "complete" if turn >= r.turns else None
    return TerritoryState(
        ruleset=r,
        seed=state.seed,
        turn=turn + 1 if ended is None else turn,
        tiles=tuple(tiles),
        owner=tuple(owner),
        wet=tuple(wet),
        claimed_turn=tuple(claimed_turn),
        seats=tuple(seats),
        pool_start=state.pool_start,
        pending_talk=(),
        talk_log=tuple(posted),
        notes=tuple(notes),
        events=state.events + tuple(events),
        razes=state.razes + tuple(records),
        reports=tuple(reports),
        ended=ended,
    )


def _life_name(life: int) -> str:
    return ("steady", "staggered", "eliminated")[life]


def _tile(q: int, r: int) -> int:
    return INDEX[(q, r)]


def hold_keeping_talk(
    state: TerritoryState, seat: int, rejected: TerritoryMove | None
) -> TerritoryMove:
    if rejected is None:
        return HOLD
    return TerritoryMove((), capped_talk(state, seat, rejected.talk), rejected.note)


def queue_talk(state: TerritoryState, seat: int, text: str, to: int | None) -> TerritoryState:
    r = state.ruleset
    queued = sum(1 for t in state.pending_talk if t.frm == seat)
    if queued >= r.talk_lines:
        raise IllegalMove(
            f"{ALIASES[seat]} already has {queued} talk lines this turn; at most {r.talk_lines} "
            f"lines per seat per turn (queued and submitted together).",
            allowed="no more talk until the next turn",
        )
    if to is not None and (to == seat or state.seats[to].life == ELIMINATED):
        to = None
    line = TalkLine(state.turn, seat, to, text)
    return replace(state, pending_talk=(*state.pending_talk, line))
