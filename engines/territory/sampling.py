"""States consistent with one seat's observation, for the search to plan on.

What a seat sees fixes the board (every tile's state, effective yield and owner), every seat's
score, life, walls, last income and raze count, its own paint, report and raze history. What it
does not see is drawn from the stream or left out: the other seats' paint (drawn around what their
score and walls suggest), their reports and private talk, and the base yield of a cracked tile
(twice its effective yield: nothing in the rules reads more than the effective one of a cracked
tile). The state carries its board in its seed (`BoardSeed`), since the game's seed is hidden."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rng import Stream
from .board import ALIAS_INDEX, KEY_INDEX, N_TILES, STATE_NAMES, WALL, Board, BoardSeed
from .ruleset import TerritoryRuleset
from .state import LIFE, RazeRecord, SeatReport, SeatState, TerritoryState

PAINT_SPREAD = 3
"""Another seat's drawn paint lies within this much of its estimate."""
CLAIM_SPEND = 5
"""What one wall beyond the hearth is taken to have cost (claims cost 4 or 6)."""
RAZE_SPEND = 6
"""... and one raze (5, or 10 beside a hearth)."""


def _seat(name: str | None) -> int:
    return -1 if name is None else ALIAS_INDEX[name.lower()]


def _ruleset(obs: Mapping[str, Any]) -> TerritoryRuleset:
    rules: Mapping[str, Any] = obs["rules"]
    return TerritoryRuleset(
        turns=int(obs["turns"]),
        map=obs["map"],
        fling_range=int(rules["flingRange"]),
        raze_from_turn=int(rules["razeFromTurn"]),
        talk_lines=int(rules["talkLines"]),
        talk_chars=int(rules["talkChars"]),
        note_chars=int(rules["noteChars"]),
        transfer_fee=int(rules["transferFee"]),
        max_orders=int(rules["maxOrders"]),
        claim_owned_target=rules["claimOwnedTarget"],
        raze_order=rules["razeOrder"],
    )


def estimated_paint(obs: Mapping[str, Any], seat: Mapping[str, Any]) -> int:
    """Another seat's paint as its public record suggests: the start plus all it earned, less
    what its walls and razes cost, and never below the income it banked last turn."""
    if int(obs["turn"]) == 1:
        return int(obs["paint"])  # every seat starts with the same paint
    start = 12
    spent = CLAIM_SPEND * max(0, int(seat["walls"]) - 1) + RAZE_SPEND * int(seat["razes"])
    return max(int(seat["lastIncome"]), start + int(seat["score"]) - spent)


def _report(obs: Mapping[str, Any]) -> SeatReport | None:
    p: Mapping[str, Any] | None = obs.get("report")
    if p is None:
        return None

    def tiles(name: str) -> tuple[int, ...]:
        return tuple(KEY_INDEX[k] for k in p[name])

    return SeatReport(
        turn=int(p["turn"]),
        claimed=tiles("claimed"),
        smeared=tiles("smeared"),
        voided=tiles("voided"),
        razed=tiles("razed"),
        razed_against=tuple((KEY_INDEX[x["tile"]], _seat(x["by"])) for x in p["razedAgainstYou"]),
        struck_by=tuple(_seat(a) for a in p["struckBy"]),
        salvage=int(p["salvage"]),
        income=int(p["income"]),
        spent=int(p["spent"]),
        life=LIFE.index(p["life"]),
    )


def sample_state(obs: Mapping[str, Any], rng: Stream) -> TerritoryState:
    """One state the seat's observation could have come from, its hidden parts drawn from rng."""
    me = int(obs["seat"])
    rows: list[Any] = list(obs["tiles"])
    states = tuple(STATE_NAMES.index(row[2]) for row in rows)
    yields = tuple(
        int(row[3]) if st == WALL else 2 * int(row[3]) for st, row in zip(states, rows, strict=True)
    )
    assert len(rows) == N_TILES
    seats = []
    for s in obs["seats"]:
        i = int(s["seat"])
        if i == me:
            paint = int(obs["paint"])
        elif s["life"] == "eliminated":
            paint = 0
        else:
            paint = max(0, estimated_paint(obs, s) + rng.below(2 * PAINT_SPREAD + 1) - PAINT_SPREAD)
        seats.append(
            SeatState(
                paint=paint,
                banked=int(s["score"]),
                life=LIFE.index(s["life"]),
                struck=bool(s["struckLastTurn"]),
                razes=int(s["razes"]),
                last_income=int(s["lastIncome"]),
            )
        )
    razes = [
        RazeRecord(int(x["turn"]), _seat(x["by"]), KEY_INDEX[x["tile"]], me)
        for x in obs["razedYou"]
    ] + [
        RazeRecord(int(x["turn"]), me, KEY_INDEX[x["tile"]], _seat(x["owner"]))
        for x in obs["yourRazes"]
    ]
    razes.sort(key=lambda x: x.turn)
    mine = _report(obs)
    reports: tuple[SeatReport, ...] = ()
    if mine is not None:
        reports = tuple(mine if i == me else SeatReport(mine.turn) for i in range(len(seats)))
    return TerritoryState(
        ruleset=_ruleset(obs),
        seed=BoardSeed("sampled", Board(yields, states)),
        turn=int(obs["turn"]),
        tiles=states,
        owner=tuple(_seat(row[4]) for row in rows),
        wet=tuple(bool(row[5]) for row in rows),
        claimed_turn=(0,) * N_TILES,
        seats=tuple(seats),
        pool_start=int(obs["poolStart"]),
        events=tuple(obs["events"]),
        razes=tuple(razes),
        reports=reports,
    )
