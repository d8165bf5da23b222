"""Territory's game state: immutable values, serialised to JSON exactly."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..jsonread import (
    arr,
    field,
    fixed,
    flag,
    flags,
    int_tuple,
    ints,
    maybe,
    num,
    pairs,
    table,
    text,
    texts,
)
from ..protocol import JSON
from .board import Board, BoardSeed, make_board
from .ruleset import TerritoryRuleset

LIFE = ("steady", "staggered", "eliminated")
STEADY, STAGGERED, ELIMINATED = 0, 1, 2
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SeatState:
    paint: int
    banked: int
    """The score: Σ income + Σ salvage."""
    life: int = STEADY
    struck: bool = False
    """Struck in the last resolved turn."""
    razes: int = 0
    last_income: int = 0
    salvage: int = 0
    eliminated_turn: int = 0


@dataclass(frozen=True, slots=True)
class TalkLine:
    turn: int
    frm: int
    to: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Note:
    turn: int
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class RazeRecord:
    turn: int
    razer: int
    tile: int
    owner: int
    """Owner at the start of Resolve, -1 if none."""


@dataclass(frozen=True, slots=True)
class SeatReport:
    """What happened to one seat in the last resolved turn."""

    turn: int
    rejected: str | None = None
    claimed: tuple[int, ...] = ()
    smeared: tuple[int, ...] = ()
    voided: tuple[int, ...] = ()
    razed: tuple[int, ...] = ()
    razed_against: tuple[tuple[int, int], ...] = ()
    """(tile, razer) for razes by others on tiles this seat owned at the start of Resolve."""
    struck_by: tuple[int, ...] = ()
    salvage: int = 0
    income: int = 0
    spent: int = 0
    transfers_in: tuple[tuple[int, int], ...] = ()
    transfers_out: tuple[tuple[int, int], ...] = ()
    life: int = STEADY


@dataclass(frozen=True, slots=True)
class TerritoryState:
    ruleset: TerritoryRuleset
    seed: int | str
    turn: int
    tiles: tuple[int, ...]
    """Tile state per tile index (wall / cracked / rubble)."""
    owner: tuple[int, ...]
    """Owning seat per tile, -1 for none."""
    wet: tuple[bool, ...]
    claimed_turn: tuple[int, ...]
    seats: tuple[SeatState, ...]
    pool_start: int
    pending_talk: tuple[TalkLine, ...] = ()
    """Lines queued by `talk` during the current turn, posted at its Talk step."""
    talk_log: tuple[TalkLine, ...] = ()
    notes: tuple[Note, ...] = ()
    events: tuple[str, ...] = ()
    razes: tuple[RazeRecord, ...] = ()
    reports: tuple[SeatReport, ...] = ()
    ended: str | None = None
    cache: dict[Any, Any] = dataclasses.field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    """Values derived from the fields above (reach masks, view parts); never serialised, and
    `dataclasses.replace` starts a fresh one."""

    @property
    def board(self) -> Board:
        if isinstance(self.seed, BoardSeed):
            return self.seed.board
        r = self.ruleset
        return make_board(self.seed, r.map, r.yield_thresholds)


def _talk_json(t: TalkLine) -> list[JSON]:
    return [t.turn, t.frm, t.to, t.text]


def _talk_from(v: JSON) -> TalkLine:
    turn, frm, to, line = fixed(v, 4)
    return TalkLine(num(turn), num(frm), maybe(num)(to), text(line))


def _report_json(p: SeatReport) -> dict[str, JSON]:
    return {
        "turn": p.turn,
        "rejected": p.rejected,
        "claimed": list(p.claimed),
        "smeared": list(p.smeared),
        "voided": list(p.voided),
        "razed": list(p.razed),
        "razed_against": [list(x) for x in p.razed_against],
        "struck_by": list(p.struck_by),
        "salvage": p.salvage,
        "income": p.income,
        "spent": p.spent,
        "transfers_in": [list(x) for x in p.transfers_in],
        "transfers_out": [list(x) for x in p.transfers_out],
        "life": p.life,
    }


def _report_from(d: JSON) -> SeatReport:
    return SeatReport(
        turn=field(d, "turn", num),
        rejected=field(d, "rejected", maybe(text)),
        claimed=field(d, "claimed", int_tuple),
        smeared=field(d, "smeared", int_tuple),
        voided=field(d, "voided", int_tuple),
        razed=field(d, "razed", int_tuple),
        razed_against=field(d, "razed_against", pairs),
        struck_by=field(d, "struck_by", int_tuple),
        salvage=field(d, "salvage", num),
        income=field(d, "income", num),
        spent=field(d, "spent", num),
        transfers_in=field(d, "transfers_in", pairs),
        transfers_out=field(d, "transfers_out", pairs),
        life=field(d, "life", num),
    )


def state_to_json(s: TerritoryState) -> dict[str, JSON]:
    return {
        "ruleset": s.ruleset.model_dump(mode="json"),
        "seed": s.seed,
        "turn": s.turn,
        "yields": list(s.board.yields),
        "tiles": list(s.tiles),
        "owner": list(s.owner),
        "wet": list(s.wet),
        "claimed_turn": list(s.claimed_turn),
        "seats": [
            [
                x.paint,
                x.banked,
                x.life,
                x.struck,
                x.razes,
                x.last_income,
                x.salvage,
                x.eliminated_turn,
            ]
            for x in s.seats
        ],
        "pool_start": s.pool_start,
        "pending_talk": [_talk_json(t) for t in s.pending_talk],
        "talk_log": [_talk_json(t) for t in s.talk_log],
        "notes": [[n.turn, n.seat, n.text] for n in s.notes],
        "events": list(s.events),
        "razes": [[x.turn, x.razer, x.tile, x.owner] for x in s.razes],
        "reports": [_report_json(p) for p in s.reports],
        "ended": s.ended,
    }


def _seat_from(v: JSON) -> SeatState:
    paint, banked, life, struck, razes, income, salvage, out = fixed(v, 8)
    return SeatState(
        num(paint),
        num(banked),
        num(life),
        flag(struck),
        num(razes),
        num(income),
        num(salvage),
        num(out),
    )


def _rows(read: Callable[[JSON], T]) -> Callable[[JSON], tuple[T, ...]]:
    return lambda v: tuple(read(x) for x in arr(v))


def _note_from(v: JSON) -> Note:
    turn, seat, line = fixed(v, 3)
    return Note(num(turn), num(seat), text(line))


def _razes(v: JSON) -> tuple[RazeRecord, ...]:
    return tuple(RazeRecord(a, b, c, e) for a, b, c, e in table(v, 4))


def state_from_json(d: Mapping[str, JSON]) -> TerritoryState:
    """The state `state_to_json` wrote; a value of another type anywhere (`true` or `1.0` for an
    integer, a number for a flag) is refused with a TypeError naming where it is."""
    ruleset = TerritoryRuleset.model_validate(d["ruleset"])
    seed = d["seed"]
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ValueError("seed must be an int or a string")
    try:
        state = TerritoryState(
            ruleset=ruleset,
            seed=seed,
            turn=field(d, "turn", num),
            tiles=field(d, "tiles", int_tuple),
            owner=field(d, "owner", int_tuple),
            wet=tuple(field(d, "wet", flags)),
            claimed_turn=field(d, "claimed_turn", int_tuple),
            seats=field(d, "seats", _rows(_seat_from)),
            pool_start=field(d, "pool_start", num),
            pending_talk=field(d, "pending_talk", _rows(_talk_from)),
            talk_log=field(d, "talk_log", _rows(_talk_from)),
            notes=field(d, "notes", _rows(_note_from)),
            events=tuple(field(d, "events", texts)),
            razes=field(d, "razes", _razes),
            reports=field(d, "reports", _rows(_report_from)),
            ended=field(d, "ended", maybe(text)),
        )
        yields = field(d, "yields", ints)
    except TypeError as e:
        raise TypeError(f"territory state: {e}") from None
    if list(state.board.yields) != yields:
        raise ValueError("stored yields do not match the board generated from the seed")
    size = len(yields)
    for name in ("tiles", "owner", "wet", "claimed_turn"):
        if len(getattr(state, name)) != size:
            raise ValueError(f"territory state: {name} must hold one entry per tile ({size})")
    return state
