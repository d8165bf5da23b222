"""The batch Plackett–Luce fit and what `rate` builds on it: the fit agrees with choix and
recovers known utilities, ties share a place, the order of games changes nothing, repeats of a
game are merged and reported, no interval is claimed where the data cannot support one, seats
are shown per label and an uneven spread over seats is warned of, and the scale is anchored at
the mean or at a named label."""

from __future__ import annotations

import math
import random
from pathlib import Path

import choix
import numpy as np
import pytest
from league_helpers import llm, written_game

from cogs_arena.engines import get_engine
from cogs_arena.server.cli.main import main
from cogs_arena.server.series.play import Planned, play
from cogs_arena.transcripts.evaluation import plackett_luce
from cogs_arena.transcripts.evaluation.plackett_luce import Ranking
from cogs_arena.transcripts.evaluation.rating import LabelRating, RatingTable, rate
from cogs_arena.transcripts.evaluation.rating_fit import MIN_GAMES, expanded_tail
from cogs_arena.transcripts.evaluation.results import read_results

TRUE = {"a": 1.0, "b": 0.6, "c": 0.2, "d": 0.0, "e": -0.5, "f": -1.3}


def league(games: int, seats: int, seed: int) -> list[Ranking]:
    """Rankings drawn from TRUE: each place goes to one of the labels left with probability
    proportional to exp(utility); each game seats `seats` labels drawn at random."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        left = rng.sample(sorted(TRUE), seats)
        order = []
        while left:
            pick = rng.choices(left, weights=[math.exp(TRUE[x]) for x in left])[0]
            left.remove(pick)
            order.append(pick)
        out.append([(label, rank) for rank, label in enumerate(order, start=1)])
    return out


def test_the_fit_agrees_with_choix_and_recovers_known_utilities() -> None:
    """Without the prior's virtual games the fit is the maximum-likelihood one choix finds; with
    them it stays within sampling error of the utilities the games were drawn from."""
    games = league(400, 4, seed=1)
    labels = sorted(TRUE)
    data = [tuple(labels.index(label) for label, _ in sorted(g, key=lambda x: x[1])) for g in games]
    theirs = choix.ilsr_rankings(len(labels), data, alpha=0.0)
    ours = plackett_luce.fit(games, prior=0.0)
    assert [ours[x] for x in labels] == pytest.approx(list(theirs - theirs.mean()), abs=1e-6)
    mean = sum(TRUE.values()) / len(TRUE)
    fitted = plackett_luce.fit(games)
    assert abs(sum(fitted.values())) < 1e-9  # anchored: the mean is 0
    for label, utility in TRUE.items():
        assert fitted[label] == pytest.approx(utility - mean, abs=0.25), label
    assert sorted(fitted, key=lambda x: -fitted[x]) == sorted(TRUE, key=lambda x: -TRUE[x])


def test_ties_share_a_place_and_the_order_of_games_changes_nothing() -> None:
    """Two labels that always tie for first rate alike and above the one they beat; shuffling
    the games, or the seats within a game, gives the same fit."""
    tied = [[("a", 1), ("b", 1), ("c", 3)], [("c", 1), ("a", 2), ("b", 2)]] * 3
    tied.append([("a", 1), ("b", 2), ("c", 3)])
    tied.append([("b", 1), ("a", 2), ("c", 3)])
    fitted = plackett_luce.fit(tied)
    assert fitted["a"] == pytest.approx(fitted["b"], abs=1e-9)
    assert fitted["a"] > fitted["c"]
    games = league(60, 3, seed=2)
    shuffled = [list(reversed(g)) for g in reversed(games)]
    again = plackett_luce.fit(shuffled)
    first = plackett_luce.fit(games)
    assert all(again[x] == pytest.approx(first[x], abs=1e-9) for x in first)


def test_a_label_that_always_wins_keeps_a_finite_rating() -> None:
    """The virtual games keep the maximum-likelihood answer (infinite) from being returned."""
    games = [[("top", 1), ("mid", 2), ("low", 3)]] * 5 + [[("top", 1), ("low", 2), ("mid", 3)]]
    fitted = plackett_luce.fit(games)
    assert all(math.isfinite(v) for v in fitted.values())
    assert fitted["top"] > fitted["mid"] > fitted["low"]


def _rated(directory: Path, **kwargs: object) -> tuple[RatingTable, dict[str, LabelRating]]:
    table = rate(read_results([directory]).rows, "model", 100, seed=0, **kwargs)  # type: ignore[arg-type]
    return table, {r.label: r for r in table.rows}


def test_identical_games_are_merged_and_reported_with_no_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three seeds of one deterministic game are one game: counted once, reported as two
    repeats merged, and given no interval (one distinct game has nothing to resample)."""
    for seed in range(3):
        written_game(tmp_path / f"g{seed}.jsonl", [llm("a"), llm("b")], [2.0, 1.0], seed=seed)
    table, rows = _rated(tmp_path)
    summary = table.games[0]
    assert (summary.records, summary.distinct, summary.repeats_merged, summary.rated) == (
        3,
        1,
        2,
        1,
    )
    assert summary.no_interval is not None and "one distinct finished game" in summary.no_interval
    assert (rows["a"].games, rows["a"].records, rows["a"].seats) == (1, 3, 1)
    assert rows["a"].low is None and rows["a"].high is None
    assert rows["a"].rating is not None and rows["b"].rating is not None
    assert rows["a"].rating > rows["b"].rating
    assert main(["rate", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "3 transcript(s), 1 distinct game(s) (2 repeat(s) merged), 1 rated" in captured.err
    assert "no interval: one distinct finished game" in captured.err


def test_no_interval_when_every_game_ranks_alike_or_games_are_few(tmp_path: Path) -> None:
    """Distinct games that all rank the labels the same way, or fewer than MIN_GAMES distinct
    games, give no interval and say why; MIN_GAMES varied games give one."""
    alike, few, enough = tmp_path / "alike", tmp_path / "few", tmp_path / "enough"
    for folder in (alike, few, enough):
        folder.mkdir()
    for i in range(MIN_GAMES + 2):  # other scores, so other games: the same order every time
        written_game(alike / f"g{i}.jsonl", [llm("a"), llm("b")], [10.0 + i, 1.0])
    for i in range(MIN_GAMES):
        scores = [10.0 + i, 1.0] if i % 3 else [1.0, 10.0 + i]
        if i < MIN_GAMES - 1:
            written_game(few / f"g{i}.jsonl", [llm("a"), llm("b")], scores)
        written_game(enough / f"g{i}.jsonl", [llm("a"), llm("b")], scores)
    table, rows = _rated(alike)
    assert table.games[0].distinct == MIN_GAMES + 2
    assert "ranked the labels alike" in str(table.games[0].no_interval)
    assert rows["a"].low is None
    table, rows = _rated(few)
    assert f"a bootstrap needs {MIN_GAMES} or more" in str(table.games[0].no_interval)
    assert rows["a"].low is None
    table, rows = _rated(enough)
    assert table.games[0].no_interval is None and table.games[0].resamples == 100
    low, high = rows["a"].low, rows["a"].high
    assert low is not None and high is not None and low < high


def _seat_league(folder: Path, rotate: bool) -> None:
    """Seat 0 always wins: `a` sits there every game, or every other game when rotated."""
    folder.mkdir()
    for i in range(MIN_GAMES):
        players = [llm("b"), llm("a")] if rotate and i % 2 else [llm("a"), llm("b")]
        written_game(folder / f"g{i}.jsonl", players, [5.0 + i, 1.0])


def test_seats_are_shown_and_an_uneven_spread_is_warned_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Win rate and mean score by seat for the game and each label, and a warning naming the
    label that held one seat more than its even share; none when the seats rotate."""
    _seat_league(tmp_path / "fixed", rotate=False)
    _seat_league(tmp_path / "rotated", rotate=True)
    table, rows = _rated(tmp_path / "fixed")
    seats = table.games[0].seats
    assert [(s.seat, s.seat_name, s.seats, s.win_rate) for s in seats] == [
        (0, "S0", MIN_GAMES, 1.0),
        (1, "S1", MIN_GAMES, 0.0),
    ]
    assert seats[1].mean_score == 1.0
    assert [(s.seat, s.seats) for s in rows["a"].by_seat] == [(0, MIN_GAMES)]
    warnings = table.games[0].warnings
    assert len(warnings) == 2 and warnings[0].startswith(
        f"territory: a held seat 0 in {MIN_GAMES} of its {MIN_GAMES} seat-games where an even "
        f"spread is {MIN_GAMES / 2:.1f}"
    )
    table, rows = _rated(tmp_path / "rotated")
    assert table.games[0].warnings == []
    half = MIN_GAMES // 2
    assert [(s.seat, s.seats, s.win_rate) for s in rows["a"].by_seat] == [
        (0, half, 1.0),
        (1, half, 0.0),
    ]
    assert main(["rate", str(tmp_path / "fixed")]) == 0
    captured = capsys.readouterr()
    assert "warning: territory: a held seat 0" in captured.err
    assert "By seat" in captured.out and f"0:{MIN_GAMES}" in captured.out


def test_a_reference_label_anchors_the_scale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a reference, its rating is 0 and it has no interval (it is 0 in every refit); the
    other labels move by one constant; an unknown reference is refused, naming the labels."""
    for i, ranking in enumerate(league(30, 3, seed=3)):
        players = [llm(label) for label, _ in ranking]
        scores = [10.0 - rank for _, rank in ranking]
        written_game(tmp_path / f"g{i}.jsonl", players, scores)
    _, mean = _rated(tmp_path)
    table, ref = _rated(tmp_path, reference="c")
    assert table.anchor == "c" and ref["c"].rating == 0.0 and ref["c"].low is None
    shift = {label: (ref[label].rating or 0.0) - (mean[label].rating or 0.0) for label in mean}
    assert max(shift.values()) - min(shift.values()) < 1e-9
    assert all(ref[x].low is not None for x in ref if x != "c")
    assert main(["rate", str(tmp_path), "--anchor", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "--anchor 'nobody' has no finished territory game; rated labels: a, b, c" in err


def test_openskill_stays_as_an_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--method openskill`: openskill's mu and sigma, unanchored, over distinct games."""
    for i, ranking in enumerate(league(12, 3, seed=4)):
        players = [llm(label) for label, _ in ranking]
        written_game(tmp_path / f"g{i}.jsonl", players, [10.0 - r for _, r in ranking])
    table, rows = _rated(tmp_path, method="openskill")
    assert table.method == "openskill" and table.anchor == "none"
    assert all(r.sigma is not None and r.sigma < 25 / 3 for r in rows.values())
    assert np.mean([r.rating for r in rows.values()]) != pytest.approx(0.0, abs=0.5)
    assert main(["rate", str(tmp_path), "--method", "openskill", "--anchor", "a"]) == 2
    assert "--anchor applies to the Plackett–Luce fit" in capsys.readouterr().err


def test_seeds_that_change_nothing_are_one_game(tmp_path: Path) -> None:
    """Chemistry draws nothing from the seed (C19) and its couriers are deterministic: three
    seeds are three records of one game, rated once, with no interval, where the online fit
    used to print a zero-width one over "3 games"."""
    rules = get_engine("chemistry").ruleset({"shifts": 2}).model_dump(mode="json")
    bots = ("freeloader",) + ("courier",) * 7
    for seed in (1, 2, 3):
        play(Planned("chemistry", rules, seed, bots, transcripts=str(tmp_path)))
    for method in ("plackett-luce", "openskill"):
        table, rows = _rated(tmp_path, method=method)
        summary = table.games[0]
        assert (summary.records, summary.distinct, summary.repeats_merged) == (3, 1, 2)
        assert "one distinct finished game" in str(summary.no_interval)
        assert rows["bot:courier"].games == 1 and rows["bot:courier"].records == 3
        assert all(r.low is None and r.high is None for r in rows.values())


def test_the_interval_widens_for_few_games() -> None:
    """Hesterberg's expanded percentile tails: z = sqrt(n/(n-1)) * t(0.975, n-1), so with 10
    games the tails are at Phi(-sqrt(10/9) * 2.2622) = 0.855%, not 2.5%; with many, 2.5%."""
    assert expanded_tail(10) == pytest.approx(0.00855, abs=5e-5)
    assert expanded_tail(100) == pytest.approx(0.02306, abs=5e-5)
    assert expanded_tail(1_000_000) == pytest.approx(0.025, abs=1e-5)
