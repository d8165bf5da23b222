"""One turn's resolution: validate → talk → raze → strikes → claim → transfer → charge → upkeep."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

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


@dataclass
class _Turn:
    """The work of one resolution: the board as it changes and what each seat did, phase by
    phase (each phase a function below, in the rules' order)."""

    state: TerritoryState
    acting: tuple[int, ...]
    orders: dict[int, TerritoryMove]
    costs: dict[int, list[int]]
    rejected: dict[int, str]
    tiles: list[int]
    owner: list[int]
    wet: list[bool]
    claimed_turn: list[int]
    salvage: list[int]
    struck_by: list[set[int]]
    razed_against: list[list[tuple[int, int]]]
    razed: list[list[int]]
    razes_made: list[int]
    events: list[str] = field(default_factory=list)
    records: list[RazeRecord] = field(default_factory=list)
    won: list[list[int]] = field(default_factory=list)
    smeared: list[list[int]] = field(default_factory=list)
    voided: list[list[int]] = field(default_factory=list)
    credit: list[int] = field(default_factory=list)
    t_in: list[list[tuple[int, int]]] = field(default_factory=list)
    t_out: list[list[tuple[int, int]]] = field(default_factory=list)
    paint: list[int] = field(default_factory=list)
    income: list[int] = field(default_factory=list)

    @property
    def turn(self) -> int:
        return self.state.turn


def resolve(state: TerritoryState, moves: Mapping[int, TerritoryMove]) -> TerritoryState:
    work = _validate(state, moves)
    posted, notes = _talk(work)
    _raze(work)
    # 4. strike bookkeeping happens in _raze: strikes need the start-of-Resolve owners only.
    _claim(work)
    _transfer_and_charge(work)
    seats, reports = _upkeep(work)
    r = state.ruleset
    turn = state.turn
    alive = sum(1 for s in seats if s.life != ELIMINATED)
    ended = "elimination" if alive <= 1 else "complete" if turn >= r.turns else None
    return TerritoryState(
        ruleset=r,
        seed=state.seed,
        turn=turn + 1 if ended is None else turn,
        tiles=tuple(work.tiles),
        owner=tuple(work.owner),
        wet=tuple(work.wet),
        claimed_turn=tuple(work.claimed_turn),
        seats=tuple(seats),
        pool_start=state.pool_start,
        pending_talk=(),
        talk_log=tuple(posted),
        notes=tuple(notes),
        events=state.events + tuple(work.events),
        razes=state.razes + tuple(work.records),
        reports=tuple(reports),
        ended=ended,
    )


def _validate(state: TerritoryState, moves: Mapping[int, TerritoryMove]) -> _Turn:
    """1. Validate and budget, per seat in seat order."""
    n = len(state.seats)
    acting = living(state)
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
    return _Turn(
        state=state,
        acting=acting,
        orders=orders,
        costs=costs,
        rejected=rejected,
        tiles=list(state.tiles),
        owner=list(state.owner),
        wet=list(state.wet),
        claimed_turn=list(state.claimed_turn),
        salvage=[0] * n,
        struck_by=[set() for _ in range(n)],
        razed_against=[[] for _ in range(n)],
        razed=[[] for _ in range(n)],
        razes_made=[0] * n,
    )


def _talk(work: _Turn) -> tuple[list[TalkLine], list[Note]]:
    """2. Talk: queued lines first, then the submission's; T14 makes a DM to self or to an
    eliminated seat public."""
    state, turn = work.state, work.turn
    posted = list(state.talk_log)
    posted.extend(state.pending_talk)
    for seat in work.acting:
        for t in work.orders[seat].talk:
            to = t.to
            if to is not None and (to == seat or state.seats[to].life == ELIMINATED):
                to = None
            posted.append(TalkLine(turn, seat, to, t.text))
    notes = list(state.notes)
    orders = work.orders
    notes.extend(Note(turn, s, orders[s].note or "") for s in work.acting if orders[s].note)
    return posted, notes


def _raze(work: _Turn) -> None:
    """3. Raze (and the strikes it deals, from the start-of-Resolve owners)."""
    turn, owner0 = work.turn, work.state.owner
    razers: dict[int, list[int]] = {}
    for seat in work.acting:
        for o in work.orders[seat].orders:
            if o.kind == "raze":
                tile = _tile(o.q, o.r)
                razers.setdefault(tile, []).append(seat)
                work.razes_made[seat] += 1
                work.razed[seat].append(tile)
                work.records.append(RazeRecord(turn, seat, tile, owner0[tile]))
                if owner0[tile] >= 0 and owner0[tile] != seat:
                    work.razed_against[owner0[tile]].append((tile, seat))
    if work.state.ruleset.raze_order == "simultaneous":
        _raze_together(work, razers)
    else:
        _raze_in_seat_order(work)
    yields, tiles0 = work.state.board.yields, work.state.tiles
    for tile in sorted(razers):
        names = ", ".join(ALIASES[s] for s in razers[tile])
        own = owner0[tile]
        whose = f"{ALIASES[own]}'s" if own >= 0 else "unowned"
        work.events.append(
            f"T{turn}: {names} razed {KEYS[tile]} ({whose} {STATE_NAMES[tiles0[tile]]}, "
            f"yield {yields[tile]}) → {STATE_NAMES[work.tiles[tile]]}"
        )


def _raze_together(work: _Turn, razers: dict[int, list[int]]) -> None:
    r, yields = work.state.ruleset, work.state.board.yields
    for tile in sorted(razers):
        who = razers[tile]
        start, own = work.state.tiles[tile], work.state.owner[tile]
        # T8: count the razes, move that many steps down the ladder, extra ones are paid no-ops.
        work.tiles[tile] = min(RUBBLE, start + len(who))
        work.owner[tile] = -1
        work.wet[tile] = False
        if start == WALL and own >= 0 and own in who:
            work.salvage[own] += r.salvage_multiplier * yields[tile]
        if own >= 0 and RING_OWNER[tile] == own:
            work.struck_by[own].update(s for s in who if s != own)


def _raze_in_seat_order(work: _Turn) -> None:
    r, yields, tiles = work.state.ruleset, work.state.board.yields, work.tiles
    for seat in work.acting:
        for o in work.orders[seat].orders:
            if o.kind != "raze":
                continue
            tile = _tile(o.q, o.r)
            if tiles[tile] == RUBBLE:
                continue
            own = work.state.owner[tile]
            if tiles[tile] == WALL and own == seat and work.owner[tile] == seat:
                work.salvage[seat] += r.salvage_multiplier * yields[tile]
            tiles[tile] += 1
            work.owner[tile] = -1
            work.wet[tile] = False
            if own >= 0 and own != seat and RING_OWNER[tile] == own:
                work.struck_by[own].add(seat)


def _claim(work: _Turn) -> None:
    """5. Claim, simultaneously, on the post-raze board."""
    n, turn = len(work.state.seats), work.turn
    claimants: dict[int, list[int]] = {}
    for seat in work.acting:
        for o in work.orders[seat].orders:
            if o.kind == "claim":
                claimants.setdefault(_tile(o.q, o.r), []).append(seat)
    work.won = [[] for _ in range(n)]
    work.smeared = [[] for _ in range(n)]
    work.voided = [[] for _ in range(n)]
    for tile in sorted(claimants):
        who = claimants[tile]
        if work.tiles[tile] == RUBBLE or work.owner[tile] >= 0:
            for s in who:
                work.voided[s].append(tile)
        elif len(who) > 1:
            for s in who:
                work.smeared[s].append(tile)
            work.events.append(
                f"T{turn}: {KEYS[tile]} smeared by {', '.join(ALIASES[s] for s in who)}"
            )
        else:
            work.owner[tile] = who[0]
            work.wet[tile] = True
            work.claimed_turn[tile] = turn
            work.won[who[0]].append(tile)


def _transfer_and_charge(work: _Turn) -> None:
    """6. Transfer, 7. charge."""
    n, turn = len(work.state.seats), work.turn
    work.credit = list(work.salvage)
    work.t_in = [[] for _ in range(n)]
    work.t_out = [[] for _ in range(n)]
    for seat in work.acting:
        for o in work.orders[seat].orders:
            if o.kind == "transfer":
                work.credit[o.to] += o.amount
                work.t_in[o.to].append((seat, o.amount))
                work.t_out[seat].append((o.to, o.amount))
                work.events.append(
                    f"T{turn}: {ALIASES[seat]} transferred {o.amount} to {ALIASES[o.to]}"
                )
    work.paint = [s.paint for s in work.state.seats]
    for seat in work.acting:
        work.paint[seat] -= sum(work.costs[seat])


def _upkeep(work: _Turn) -> tuple[list[SeatState], list[SeatReport]]:
    """8. Upkeep: dry, income (not this turn's claims), credit, life, advance."""
    turn, yields, tiles = work.turn, work.state.board.yields, work.tiles
    work.wet = [False] * len(work.wet)
    work.income = [0] * len(work.state.seats)
    for tile, holder in enumerate(work.owner):
        if holder >= 0 and work.claimed_turn[tile] != turn:
            st = tiles[tile]
            work.income[holder] += (
                yields[tile] if st == WALL else yields[tile] // 2 if st == CRACKED else 0
            )
    seats: list[SeatState] = []
    reports: list[SeatReport] = []
    for i, old in enumerate(work.state.seats):
        if old.life == ELIMINATED:
            seats.append(replace(old, struck=False, last_income=0))
            reports.append(SeatReport(turn, life=ELIMINATED))
            continue
        seat, report = _seat_upkeep(work, i, old)
        seats.append(seat)
        reports.append(report)
    return seats, reports


def _seat_upkeep(work: _Turn, i: int, old: SeatState) -> tuple[SeatState, SeatReport]:
    turn, income, salvage = work.turn, work.income, work.salvage
    struck = bool(work.struck_by[i])
    life = (STAGGERED if old.life == STEADY else ELIMINATED) if struck else STEADY
    seat_paint = work.paint[i] + income[i] + work.credit[i]
    banked = old.banked + income[i] + salvage[i]
    if struck:
        names = ", ".join(ALIASES[s] for s in sorted(work.struck_by[i]))
        work.events.append(f"T{turn}: {ALIASES[i]} struck by {names} → {_life_name(life)}")
    elif old.life == STAGGERED:
        work.events.append(f"T{turn}: {ALIASES[i]} recovered → steady")
    if life == ELIMINATED:
        seat_paint = 0
        for tile, holder in enumerate(work.owner):
            if holder == i:
                work.owner[tile] = -1
                work.wet[tile] = False
        work.events.append(f"T{turn}: {ALIASES[i]} eliminated; its tiles revert, score frozen")
    seat = SeatState(
        paint=seat_paint,
        banked=banked,
        life=life,
        struck=struck,
        razes=old.razes + work.razes_made[i],
        last_income=income[i],
        salvage=old.salvage + salvage[i],
        eliminated_turn=turn if life == ELIMINATED else old.eliminated_turn,
    )
    report = SeatReport(
        turn=turn,
        rejected=work.rejected.get(i),
        claimed=tuple(work.won[i]),
        smeared=tuple(work.smeared[i]),
        voided=tuple(work.voided[i]),
        razed=tuple(work.razed[i]),
        razed_against=tuple(work.razed_against[i]),
        struck_by=tuple(sorted(work.struck_by[i])),
        salvage=salvage[i],
        income=income[i],
        spent=sum(work.costs[i]),
        transfers_in=tuple(work.t_in[i]),
        transfers_out=tuple(work.t_out[i]),
        life=life,
    )
    return seat, report


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
