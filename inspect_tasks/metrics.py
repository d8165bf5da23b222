"""The task's metrics: per prompt variant, per model role and per seat, over distinct games, each
mean with its standard error.

A deterministic game with deterministic players plays the same game for every seed; counting it
n times would claim n times the evidence, so samples whose games are the same game played again
(`transcripts.distinct.game_key`, with the Inspect run and sample labels left out, since those
differ for every sample by design) count once, and `repeats` says how many were merged. An
unfinished game is counted (`unfinished`), scores a loss in `win` and has no `score` or `rank`.
A standard error needs two distinct games: with fewer its key is left out rather than shown as 0.

Keys: `<prompt>/<stat>` and `<prompt>/seat<n>/<stat>` for one model; with model roles,
`<prompt>/<role>/<stat>` and `<prompt>/<role>/seat<n>/<stat>`."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, metric

from ..transcripts.evaluation.ab import Pair, arm_result, distinct_pairs
from ..transcripts.evaluation.distinct import game_key
from ..transcripts.events import Event, Header, Join

RUN_LABELS = ("inspect_run", "inspect_sample", "inspect_sample_id")
"""Labels that name the sample, not the player: left out when telling games apart."""
PLAYERS_KEY = "players"
"""Score metadata: one entry per seated model (`role`, `seat`)."""
GAME_KEY = "game_key"
"""Score metadata: the sample's game, as `played_key` gives it."""


def played_key(events: Sequence[Event]) -> str:
    """`game_key` of the game with the labels that name the Inspect sample left out: equal for
    two samples that played the same game."""

    def strip(player: Any) -> Any:
        labels = {k: v for k, v in player.labels.items() if k not in RUN_LABELS}
        return player.model_copy(update={"labels": labels})

    header = events[0]
    if not isinstance(header, Header):
        raise ValueError("a transcript starts with its header")
    seats = [e.model_copy(update={"player": strip(e.player)}) for e in header.seats]
    out: list[Event] = [header.model_copy(update={"seats": seats})]
    for event in events[1:]:
        if isinstance(event, Join):
            event = event.model_copy(update={"player": strip(event.player)})
        out.append(event)
    return game_key(out)


@dataclass(frozen=True)
class Played:
    """One seated model's result in one sample."""

    group: str
    """`<prompt>` or `<prompt>/<role>`."""
    seat: int
    key: str
    values: dict[str, float]


def mean_stderr(numbers: Sequence[float]) -> tuple[float, float | None]:
    """The mean and its standard error (sample standard deviation over √n); no standard error
    from fewer than two numbers."""
    n = len(numbers)
    mean = sum(numbers) / n
    if n < 2:
        return mean, None
    variance = sum((x - mean) ** 2 for x in numbers) / (n - 1)
    return mean, math.sqrt(variance / n)


def _put(out: dict[str, float], name: str, numbers: Sequence[float]) -> None:
    if not numbers:
        return
    mean, stderr = mean_stderr(numbers)
    out[name] = mean
    if stderr is not None:
        out[f"{name}_stderr"] = stderr


def _done(game: Played) -> bool:
    return game.values.get("finished") == 1


def summarise(prefix: str, games: Sequence[Played], full: bool = True) -> dict[str, float]:
    """The stats of one group of games, each distinct game once (the first sample of it)."""
    distinct: dict[str, Played] = {}
    for item in games:
        distinct.setdefault(item.key, item)
    kept = list(distinct.values())
    finished = [g for g in kept if _done(g)]
    out: dict[str, float] = {}
    counts = {
        "games": len(games),
        "distinct": len(kept),
        "repeats": len(games) - len(kept),
        "unfinished": len(kept) - len(finished),
    }
    for name, count in counts.items():
        out[f"{prefix}/{name}"] = float(count)
    # An unfinished game is a loss for the win rate: dropping it would flatter a stuck model.
    _put(out, f"{prefix}/win", [g.values.get("win", 0.0) if _done(g) else 0.0 for g in kept])
    _put(out, f"{prefix}/score", [g.values["score"] for g in finished if "score" in g.values])
    if full:
        _put(out, f"{prefix}/rank", [g.values["rank"] for g in finished if "rank" in g.values])
        for name in ("illegal", "fallbacks", "attempts", "tool_calls"):
            _put(out, f"{prefix}/{name}", [g.values.get(name, 0.0) for g in kept])
    return out


def played(scores: Iterable[SampleScore]) -> list[Played]:
    """Each seated model's result in each scored sample."""
    out = []
    for item in scores:
        value = item.score.value
        meta = item.score.metadata or {}
        players = meta.get(PLAYERS_KEY) or []
        if not isinstance(value, dict) or not players:
            continue
        prompt = str((item.sample_metadata or {}).get("prompt", meta.get("prompt", "")))
        single = len(players) == 1
        for player in players:
            role = player.get("role")
            values = side_values(value, None if single else role)
            group = player.get("group") or (prompt if single else f"{prompt}/{role}")
            out.append(Played(group, int(player["seat"]), str(meta[GAME_KEY]), values))
    return out


def side_values(value: dict[str, Any], role: str | None) -> dict[str, float]:
    """One seated model's values out of a sample's (prefixed by its role when there are
    several)."""
    prefix = "" if role is None else f"{role}_"
    return {
        k[len(prefix) :]: float(v)
        for k, v in value.items()
        if k.startswith(prefix) and isinstance(v, int | float) and not isinstance(v, bool)
    }


@metric
def by_variant() -> Metric:
    """Per prompt variant (and model role), and per seat within each: distinct games, repeats
    merged, unfinished games, win rate, score and rank, each with its standard error."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        results = played(scores)
        out: dict[str, float] = {}
        for group in dict.fromkeys(r.group for r in results):
            mine = [r for r in results if r.group == group]
            out.update(summarise(group, mine))
            for seat in sorted({r.seat for r in mine}):
                at = [r for r in mine if r.seat == seat]
                out.update(summarise(f"{group}/seat{seat}", at, full=False))
        return out

    return compute


def _ab_difference(value: dict[str, Any], stat: str) -> float | None:
    """B minus A in one game of the A/B design; None for a score of an unfinished game (a win
    rate counts it a loss on both sides)."""
    a, b = side_values(value, "a"), side_values(value, "b")
    if "finished" not in a or "finished" not in b:
        return None  # a side that never got its seat: no comparison, not a tie
    if stat == "win":
        return (b.get("win", 0.0) if b.get("finished") == 1 else 0.0) - (
            a.get("win", 0.0) if a.get("finished") == 1 else 0.0
        )
    if stat not in a or stat not in b:
        return None
    return b[stat] - a[stat]


def ab_pairs_of(scores: Iterable[SampleScore], arm: str, stat: str) -> tuple[list[Pair], int]:
    """The seat-swapped pairs of one arm of the A/B design, and how many were left out (a game
    of the pair missing or with a side unseated, or a score from an unfinished game)."""
    games: dict[Any, dict[int, tuple[dict[str, Any], str]]] = {}
    for item in scores:
        sample = item.sample_metadata or {}
        ab = sample.get("ab")
        value = item.score.value
        if not ab or ab["arm"] != arm or not isinstance(value, dict):
            continue
        key = str((item.score.metadata or {}).get(GAME_KEY, ""))
        games.setdefault(sample["seed"], {})[int(ab["swap"])] = (value, key)
    pairs: list[Pair] = []
    left_out = 0
    for seed in sorted(games, key=str):
        both = games[seed]
        diffs = [_ab_difference(both[s][0], stat) if s in both else None for s in (0, 1)]
        if diffs[0] is None or diffs[1] is None:
            left_out += 1
            continue
        key = both[0][1] + "+" + both[1][1]
        pairs.append(Pair(key=key, difference=(diffs[0] + diffs[1]) / 2))
    return pairs, left_out


@metric
def ab_pairs() -> Metric:
    """The A/B design (`-T ab=true`): per arm (`ab.arm`: B against A; `ab.null`: A's copy
    against A, the noise floor), the seat-swapped pairs, the distinct ones, the repeats
    merged, and per statistic (`win`, `score`) the pairs left out (`_left_out`), the mean
    pair difference B − A (`_diff`) and the sign-flip permutation p-value (`_p`), the latter
    only from `MIN_PAIRS` distinct pairs on. Nothing outside the A/B design."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        if not any((s.sample_metadata or {}).get("ab") for s in scores):
            return out
        for arm in ("arm", "null"):
            for stat in ("win", "score"):
                pairs, left_out = ab_pairs_of(scores, arm, stat)
                result = arm_result(arm, pairs)
                prefix = f"ab.{arm}"
                if stat == "win":
                    out[f"{prefix}/pairs"] = float(result.pairs)
                    out[f"{prefix}/distinct"] = float(result.distinct)
                    out[f"{prefix}/repeats"] = float(result.repeats)
                out[f"{prefix}/{stat}_left_out"] = float(left_out)
                kept, _ = distinct_pairs(pairs)
                if kept:
                    out[f"{prefix}/{stat}_diff"] = sum(p.difference for p in kept) / len(kept)
                if result.test is not None:
                    out[f"{prefix}/{stat}_p"] = result.test.p_value
        return out

    return compute
