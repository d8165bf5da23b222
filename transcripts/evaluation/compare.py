"""Paired comparison of two labels: the same game, ruleset, seed and seat played once by A and
once by B, so the luck of the deal and the seat cancel and only the difference is left.

Seat pairs join A's game to B's game; the paired game is the unit (`paired` has the statistics
and says why): a label's several seats in one game are averaged first, the same two games
played again count once (`distinct.game_key`), and below `MIN_PAIRS` distinct paired games there
is no interval. Data that does not pair up is refused with the seats that lack a partner, never
silently trimmed; unfinished games are refused too unless `skip_unfinished` leaves them out
with their partners, and says how many.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .paired import LEVEL, MIN_PAIRS, by_game, paired_stats, sign_test
from .results import SeatResult

__all__ = ["Comparison", "UnpairedData", "compare", "pair_rows", "paired_games", "sign_test"]

INTERVAL = (
    "score: Student t over distinct paired games; win rate: Newcombe's paired square-and-add "
    "with continuity-corrected Wilson intervals"
)

PairKey = tuple[str, str, str, int]
"""(game, ruleset digest, seed, seat)."""

SHOWN_MISSING = 5


class UnpairedData(ValueError):
    """The transcripts do not pair up; the message says which seats lack a partner."""


@dataclass
class Comparison:
    by: str
    a: str
    b: str
    pairs: int
    """Seat pairs: A's seat and B's on the same game, ruleset, seed and seat."""
    games: int
    """Paired games: A's game and B's game joined by their seat pairs."""
    distinct: int
    """Paired games left once repeats (the same two games played again) are merged: the unit
    of every number below."""
    merged: int
    game_names: list[str]
    """The games compared; with more than one, their scores are pooled as they are."""
    seats: int
    """The most seat pairs in one paired game (A's seats in one game, or both halves of a
    seat-swapped pair of games); their values are averaged within it."""
    mean_a: float
    mean_b: float
    mean_diff: float
    """Mean over distinct paired games of A's score minus B's."""
    diff_low: float | None
    diff_high: float | None
    no_interval: str | None
    """Why there is no score interval, else None."""
    effect_size: float | None
    win_rate_a: float
    win_rate_b: float
    win_rate_diff: float
    win_diff_low: float | None
    win_diff_high: float | None
    no_win_interval: str | None
    a_better: int
    b_better: int
    ties: int
    sign_p: float
    """Exact two-sided sign test over the paired games whose difference is not 0."""
    signed_rank_p: float
    """Wilcoxon's two-sided signed-rank test over the same."""
    skipped_games: int
    """Unfinished games left out with --skip-unfinished."""
    skipped_seats: int
    """Finished seats left out with them: those on the unfinished seats' seeds and seats."""
    differences: list[float]
    """A − B per distinct paired game, in pairing order."""
    level: float = LEVEL
    min_pairs: int = MIN_PAIRS
    interval: str = INTERVAL

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Pairing:
    pairs: list[tuple[SeatResult, SeatResult]]
    skipped_games: int = 0
    skipped_seats: int = 0


def _describe(key: PairKey, row: SeatResult) -> str:
    game, digest, seed, seat = key
    return f"{game} seed {seed} seat {seat} ({row.seat_name}), ruleset {digest}"


def _missing(side: str, other: str, keys: list[tuple[PairKey, SeatResult]], total: int) -> str:
    shown = "; ".join(_describe(k, r) for k, r in keys[:SHOWN_MISSING])
    more = f"; and {len(keys) - SHOWN_MISSING} more" if len(keys) > SHOWN_MISSING else ""
    return f"{len(keys)} of {total} {side} seat(s) have no {other} partner: {shown}{more}"


def pair_rows(
    rows: Sequence[SeatResult], by: str, a: str, b: str, *, skip_unfinished: bool = False
) -> list[tuple[SeatResult, SeatResult]]:
    """A's and B's seats matched on (game, ruleset, seed, seat); repeats of one key pair up in
    file order. Raises UnpairedData naming what is missing."""
    return pairing(rows, by, a, b, skip_unfinished=skip_unfinished).pairs


def pairing(
    rows: Sequence[SeatResult], by: str, a: str, b: str, *, skip_unfinished: bool = False
) -> Pairing:
    """As `pair_rows`, with what `skip_unfinished` left out: every seat of A or B in an
    unfinished game, and every finished seat of A or B on the same game, ruleset, seed and
    seat (their partners, and any repeat that would pair with them)."""
    if a == b:
        raise UnpairedData(f"--a and --b are both {a!r}: name two different labels")
    sides: dict[str, dict[PairKey, list[SeatResult]]] = {a: defaultdict(list), b: defaultdict(list)}
    unfinished: list[SeatResult] = []
    present: set[str] = set()
    for row in sorted(rows, key=lambda r: (r.path, r.seat)):
        value = row.label(by)
        if value not in sides:
            continue
        present.add(value)
        if not row.finished:
            unfinished.append(row)
            continue
        sides[value][_key(row)].append(row)
    for value in (a, b):
        if value not in present:
            found = sorted({r.label(by) for r in rows})
            raise UnpairedData(
                f"no seat has {by} = {value!r}; the transcripts have: {', '.join(found) or 'none'}"
            )
    skipped_seats = 0
    if unfinished and not skip_unfinished:
        games = len({r.path for r in unfinished})
        raise UnpairedData(
            f"{len(unfinished)} seat(s) of A or B are in {games} unfinished game(s), so they have "
            f"no score: {_shown(unfinished, by)}; --skip-unfinished leaves them out with their "
            "partners"
        )
    for key in {_key(r) for r in unfinished}:
        for side in (a, b):
            skipped_seats += len(sides[side].pop(key, []))

    def rows_of(side: str) -> list[SeatResult]:
        return [r for group in sides[side].values() for r in group]

    pairs: list[tuple[SeatResult, SeatResult]] = []
    lonely: dict[str, list[tuple[PairKey, SeatResult]]] = {a: [], b: []}
    for key in sorted(set(sides[a]) | set(sides[b])):
        ours, theirs = sides[a].get(key, []), sides[b].get(key, [])
        pairs.extend(zip(ours, theirs, strict=False))
        lonely[a].extend((key, r) for r in ours[len(theirs) :])
        lonely[b].extend((key, r) for r in theirs[len(ours) :])
    problems = [
        _missing(f"{name} ({by} = {side!r})", other, lonely[side], len(rows_of(side)))
        for side, name, other in ((a, "A", "B"), (b, "B", "A"))
        if lonely[side]
    ]
    if problems:
        raise UnpairedData(
            "paired comparison needs A and B on the same game, ruleset, seed and seat; "
            + " | ".join(problems)
        )
    if not pairs:
        raise UnpairedData("no seat pairs are left once the unfinished games are left out")
    return Pairing(pairs, len({r.path for r in unfinished}), skipped_seats)


def _key(row: SeatResult) -> PairKey:
    return (row.game, row.ruleset_digest, row.seed, row.seat)


def _shown(rows: list[SeatResult], by: str) -> str:
    shown = "; ".join(f"{r.label(by)}: {r.path} seat {r.seat}" for r in rows[:SHOWN_MISSING])
    more = f"; and {len(rows) - SHOWN_MISSING} more" if len(rows) > SHOWN_MISSING else ""
    return shown + more


def paired_games(
    pairs: Sequence[tuple[SeatResult, SeatResult]],
) -> tuple[list[list[tuple[SeatResult, SeatResult]]], int]:
    """The seat pairs grouped by paired game (A's and B's transcripts joined through their
    pairs), and how many repeats were merged: groups whose A games and B games are the same
    games as an earlier group's (`game_key`) count once."""
    parent: dict[str, str] = {}

    def root(path: str) -> str:
        while parent.setdefault(path, path) != path:
            parent[path] = parent[parent[path]]
            path = parent[path]
        return path

    for x, y in pairs:
        parent[root(x.path)] = root(y.path)
    groups: dict[str, list[tuple[SeatResult, SeatResult]]] = {}
    for pair in pairs:
        groups.setdefault(root(pair[0].path), []).append(pair)
    seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    kept: list[list[tuple[SeatResult, SeatResult]]] = []
    for group in groups.values():
        signature = (
            tuple(sorted({(x.game_key or x.path) for x, _ in group})),
            tuple(sorted({(y.game_key or y.path) for _, y in group})),
        )
        if signature not in seen:
            seen.add(signature)
            kept.append(group)
    return kept, len(groups) - len(kept)


def compare(
    rows: Sequence[SeatResult], by: str, a: str, b: str, *, skip_unfinished: bool = False
) -> Comparison:
    found = pairing(rows, by, a, b, skip_unfinished=skip_unfinished)
    groups, merged = paired_games(found.pairs)
    seats = max(len(group) for group in groups)
    games = [i for i, group in enumerate(groups) for _ in group]
    flat = [pair for group in groups for pair in group]
    columns = [
        by_game([x.score or 0.0 for x, _ in flat], games),
        by_game([y.score or 0.0 for _, y in flat], games),
        by_game([x.win or 0.0 for x, _ in flat], games),
        by_game([y.win or 0.0 for _, y in flat], games),
    ]
    result = paired_stats(*columns, seats=seats)
    return Comparison(
        by=by,
        a=a,
        b=b,
        pairs=len(found.pairs),
        games=len(groups) + merged,
        distinct=len(groups),
        merged=merged,
        game_names=sorted({x.game for x, _ in found.pairs}),
        seats=seats,
        mean_a=result.mean_a,
        mean_b=result.mean_b,
        mean_diff=result.mean_diff,
        diff_low=result.diff_low,
        diff_high=result.diff_high,
        no_interval=result.no_interval,
        effect_size=result.effect_size,
        win_rate_a=result.win_rate_a,
        win_rate_b=result.win_rate_b,
        win_rate_diff=result.win_rate_diff,
        win_diff_low=result.win_diff_low,
        win_diff_high=result.win_diff_high,
        no_win_interval=result.no_win_interval,
        a_better=result.a_better,
        b_better=result.b_better,
        ties=result.ties,
        sign_p=result.sign_p,
        signed_rank_p=result.signed_rank_p,
        skipped_games=found.skipped_games,
        skipped_seats=found.skipped_seats,
        differences=[float(d) for d in columns[0] - columns[1]],
    )
