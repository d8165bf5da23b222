"""Territory's game state: immutable values, serialised to JSON exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..protocol import JSON
from .board import Board, BoardSeed, make_board
from .ruleset import TerritoryRuleset

LIFE = ("steady", "staggered", "eliminated")
STEADY, STAGGERED, ELIMINATED = 0, 1, 2


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
    cache: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
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


def _talk_from(v: Any) -> TalkLine:
    return TalkLine(int(v[0]), int(v[1]), None if v[2] is None else int(v[2]), str(v[3]))


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


def _pairs(v: Any) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in v)


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in v)


def _report_from(d: Mapping[str, Any]) -> SeatReport:
    return SeatReport(
        turn=int(d["turn"]),
        rejected=None if d["rejected"] is None else str(d["rejected"]),
        claimed=_ints(d["claimed"]),
        smeared=_ints(d["smeared"]),
        voided=_ints(d["voided"]),
        razed=_ints(d["razed"]),
        razed_against=_pairs(d["razed_against"]),
        struck_by=_ints(d["struck_by"]),
        salvage=int(d["salvage"]),
        income=int(d["income"]),
        spent=int(d["spent"]),
        transfers_in=_pairs(d["transfers_in"]),
        transfers_out=_pairs(d["transfers_out"]),
        life=int(d["life"]),
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


def state_from_json(d: Mapping[str, Any]) -> TerritoryState:
    ruleset = TerritoryRuleset.model_validate(d["ruleset"])
    seed = d["seed"]
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ValueError("seed must be an int or a string")
    state = TerritoryState(
        ruleset=ruleset,
        seed=seed,
        turn=int(d["turn"]),
        tiles=_ints(d["tiles"]),
        owner=_ints(d["owner"]),
        wet=tuple(bool(x) for x in d["wet"]),
        claimed_turn=_ints(d["claimed_turn"]),
        seats=tuple(
            SeatState(int(a), int(b), int(c), bool(e), int(f), int(g), int(h), int(i))
            for a, b, c, e, f, g, h, i in d["seats"]
        ),
        pool_start=int(d["pool_start"]),
        pending_talk=tuple(_talk_from(t) for t in d["pending_talk"]),
        talk_log=tuple(_talk_from(t) for t in d["talk_log"]),
        notes=tuple(Note(int(a), int(b), str(c)) for a, b, c in d["notes"]),
        events=tuple(str(e) for e in d["events"]),
        razes=tuple(RazeRecord(int(a), int(b), int(c), int(e)) for a, b, c, e in d["razes"]),
        reports=tuple(_report_from(p) for p in d["reports"]),
        ended=None if d["ended"] is None else str(d["ended"]),
    )
    if list(state.board.yields) != list(d["yields"]):
        raise ValueError("stored yields do not match the board generated from the seed")
    return state
