"""The Inspect metrics on scores made by hand: per prompt variant, role and seat; distinct games
counted once with the repeats reported; unfinished games counted and scored as losses in the
win rate; standard errors only where two distinct games allow one; and the game key that
ignores the Inspect sample labels but not the players."""

from __future__ import annotations

import math
from typing import Any

import pytest
from inspect_ai.scorer import SampleScore, Score

from cogs_arena.engines import get_engine
from cogs_arena.inspect_tasks.metrics import ab_pairs, by_variant, mean_stderr, played_key
from cogs_arena.transcripts.events import Header, Player, SeatEntry


def sample(
    prompt: str, key: str, seat: int, value: dict[str, Any], role: str | None = None
) -> SampleScore:
    return SampleScore(
        score=Score(
            value=value,
            metadata={"game_key": key, "players": [{"role": role, "seat": seat}]},
        ),
        sample_metadata={"prompt": prompt},
    )


def won(score: float, win: float) -> dict[str, float]:
    return {"finished": 1, "score": score, "rank": 1 if win else 2, "win": win, "illegal": 0}


UNFINISHED = {"finished": 0, "illegal": 2}


def compute(scores: list[SampleScore]) -> dict[str, float]:
    measure: Any = by_variant()
    result = measure(scores)
    assert isinstance(result, dict)
    return result


def test_each_variant_gets_its_own_means_and_standard_errors() -> None:
    """Two variants are never pooled: each has its win rate and score with a standard error
    over its own distinct games."""
    scores = [
        sample("a", "g1", 0, won(10, 1)),
        sample("a", "g2", 1, won(4, 0)),
        sample("a", "g3", 0, won(7, 1)),
        sample("b", "h1", 0, won(2, 0)),
        sample("b", "h2", 1, won(3, 0)),
    ]
    out = compute(scores)
    assert out["a/win"] == pytest.approx(2 / 3) and out["b/win"] == 0
    _, stderr = mean_stderr([10, 4, 7])
    assert out["a/score"] == 7 and out["a/score_stderr"] == pytest.approx(stderr)
    assert stderr == pytest.approx(math.sqrt(9 / 3))
    assert out["a/win_stderr"] == pytest.approx(math.sqrt((1 / 3) / 3))
    assert out["b/score"] == 2.5 and out["b/games"] == 2
    # Per seat within a variant.
    assert out["a/seat0/games"] == 2 and out["a/seat0/win"] == 1
    assert out["a/seat1/score"] == 4 and "a/seat1/score_stderr" not in out


def test_repeats_count_once_and_are_reported() -> None:
    """Three samples of one game played again are one distinct game: the means weigh it once,
    `repeats` says two were merged, and one distinct game gives no standard error."""
    scores = [sample("a", "g1", 0, won(10, 1)) for _ in range(3)]
    scores.append(sample("a", "g2", 1, won(4, 0)))
    out = compute(scores)
    assert (out["a/games"], out["a/distinct"], out["a/repeats"]) == (4, 2, 2)
    assert out["a/score"] == 7 and out["a/win"] == 0.5
    lone = compute([sample("a", "g1", 0, won(10, 1)) for _ in range(4)])
    assert (lone["a/distinct"], lone["a/repeats"]) == (1, 3)
    assert "a/score_stderr" not in lone and "a/win_stderr" not in lone and lone["a/win"] == 1


def test_unfinished_games_are_counted_and_lose() -> None:
    """An unfinished game is its own count, a loss in the win rate and no score."""
    out = compute([sample("a", "g1", 0, won(10, 1)), sample("a", "g2", 0, UNFINISHED)])
    assert out["a/unfinished"] == 1 and out["a/win"] == 0.5
    assert out["a/score"] == 10 and "a/score_stderr" not in out
    assert out["a/illegal"] == 1  # over every game, unfinished ones included


def test_roles_are_grouped_apart() -> None:
    """With model roles the value keys carry the role's prefix; each role is its own group."""
    score = SampleScore(
        score=Score(
            value={
                "red_finished": 1,
                "red_score": 5,
                "red_win": 1,
                "blue_finished": 1,
                "blue_score": 1,
                "blue_win": 0,
            },
            metadata={
                "game_key": "g",
                "players": [{"role": "red", "seat": 3}, {"role": "blue", "seat": 4}],
            },
        ),
        sample_metadata={"prompt": "default"},
    )
    out = compute([score])
    assert out["default/red/score"] == 5 and out["default/blue/score"] == 1
    assert out["default/red/seat3/win"] == 1 and out["default/blue/seat4/win"] == 0


def header(labels: dict[str, str], bot: str = "greedy") -> Header:
    engine = get_engine("influence")
    llm = Player(kind="llm", model="m", prompt="p", labels=labels)
    return Header(
        server_version="x",
        game="influence",
        ruleset=engine.ruleset(None).model_dump(),
        seed=1,
        seats=[
            SeatEntry(index=0, name="White", player=llm),
            SeatEntry(index=1, name="Black", player=Player(kind="bot", bot=bot)),
        ],
    )


def test_the_game_key_ignores_the_sample_labels_only() -> None:
    """Two samples of the same game differ only in their run and sample labels: one key. A
    different opponent or role label is a different game."""
    first = played_key([header({"inspect_run": "r1", "inspect_sample": "s1", "role": "x"})])
    again = played_key([header({"inspect_run": "r2", "inspect_sample_id": "7", "role": "x"})])
    assert first == again
    assert played_key([header({"role": "y"})]) != first
    assert played_key([header({"role": "x"}, bot="random")]) != first


def ab_sample(arm: str, seed: int, swap: int, a: dict[str, Any], b: dict[str, Any]) -> SampleScore:
    value = {f"a_{k}": v for k, v in a.items()} | {f"b_{k}": v for k, v in b.items()}
    return SampleScore(
        score=Score(
            value=value,
            metadata={
                "game_key": f"{arm}-{seed}-{swap}",
                "players": [
                    {"role": "a", "seat": swap, "group": "A"},
                    {"role": "b", "seat": 1 - swap, "group": "B"},
                ],
            },
        ),
        sample_metadata={"prompt": "A", "seed": seed, "ab": {"arm": arm, "swap": swap}},
    )


def test_the_ab_metric_tests_seat_swapped_pairs_beside_the_null_arm() -> None:
    """B beats A on both seats in every one of 20 pairs: the arm's win difference is +1 with
    p far below 0.05; the null arm, even, has difference 0 and p = 1. With fewer than 20
    distinct pairs the p-value is left out. The sides also count in the per-prompt metrics."""
    scores = []
    for seed in range(20):
        for swap in (0, 1):
            scores.append(ab_sample("arm", seed, swap, won(1, 0), won(9, 1)))
            even = (won(5, 1), won(4, 0)) if swap == 0 else (won(4, 0), won(5, 1))
            scores.append(ab_sample("null", seed, swap, even[0], even[1]))
    ab: Any = ab_pairs()
    out = ab(scores)
    assert (out["ab.arm/pairs"], out["ab.arm/distinct"], out["ab.arm/repeats"]) == (20, 20, 0)
    assert out["ab.arm/win_diff"] == 1 and out["ab.arm/win_p"] < 0.001
    assert out["ab.arm/score_diff"] == 8
    assert out["ab.null/win_diff"] == 0 and out["ab.null/win_p"] == 1
    few = ab(scores[:40])  # ten seeds
    assert few["ab.arm/pairs"] == 10 and "ab.arm/win_p" not in few and "ab.arm/win_diff" in few
    assert compute(scores)["B/games"] == 80 and ab([sample("a", "g", 0, won(1, 1))]) == {}


def test_the_ab_metric_merges_repeated_pairs_and_drops_unfinished_scores() -> None:
    """Pairs that are the same two games count once; a pair with an unfinished game has no
    score difference (it is counted as left out) but its win difference counts both as
    losses; a pair with a side that was never seated is left out of both."""
    scores = []
    for seed in range(3):
        for swap in (0, 1):
            item = ab_sample("arm", seed, swap, won(1, 0), won(9, 1))
            assert item.score.metadata is not None
            item.score.metadata["game_key"] = f"same-{swap}"
            scores.append(item)
    scores.append(ab_sample("arm", 9, 0, UNFINISHED, UNFINISHED))
    scores.append(ab_sample("arm", 9, 1, won(1, 0), won(9, 1)))
    ab: Any = ab_pairs()
    out = ab(scores)
    assert (out["ab.arm/pairs"], out["ab.arm/distinct"], out["ab.arm/repeats"]) == (4, 2, 2)
    assert out["ab.arm/score_left_out"] == 1 and out["ab.arm/win_left_out"] == 0
    assert out["ab.arm/win_diff"] == pytest.approx((1 + 0.5) / 2)
    # A game where side b never got its seat (its values are unprefixed) is no tie: left out.
    lone = ab_sample("arm", 11, 0, won(1, 0), won(9, 1))
    lone.score.value = {"finished": 1, "win": 1}
    out = ab([*scores, lone, ab_sample("arm", 11, 1, won(1, 0), won(9, 1))])
    assert out["ab.arm/win_left_out"] == 1 and out["ab.arm/pairs"] == 4
