"""Paired comparison: a known difference is found and a null one is not, on real games and on
written ones; below 10 distinct paired games, from one distinct game, or with no spread it gives
no interval and says why; a label's several seats in one game count as one game; the same games
played again are merged and reported; unfinished games are refused or, when asked, left out and
counted; data that does not pair up is refused with what is missing."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from league_helpers import league_service, llm, play_game, written_game
from scipy import stats

from cogs_arena.server.cli.main import main
from cogs_arena.transcripts.evaluation.chart import svg_paired
from cogs_arena.transcripts.evaluation.compare import UnpairedData, compare, pair_rows, sign_test
from cogs_arena.transcripts.evaluation.results import read_results

# Seat 0 is the client's; the other eight are the same bots in every game.
OTHERS = ["raider", "diplomat", "homesteader", "random"] * 2
SEEDS = range(1, 11)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["compare", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def real_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten seeds of Territory: A = homesteader, B = random, C = random again with its own
    draws (another player of the same strength), against the same eight bots."""
    directory = tmp_path_factory.mktemp("real")
    service = league_service(directory)
    for seed in SEEDS:
        for bot, prompt, stream in (("homesteader", "A", None), ("random", "B", None)):
            play_game(service, seed, [bot, *OTHERS], prompt=prompt, stream_seed=stream)
        play_game(service, seed, ["random", *OTHERS], prompt="C", stream_seed=f"C{seed}")
    return directory


def test_sign_test_is_exact() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert sign_test(8, 0) == pytest.approx(2 / 256)
    assert sign_test(1, 9) == pytest.approx(2 * 11 / 1024)
    assert sign_test(600, 400) < 1e-9
    for plus, minus in ((3, 0), (7, 2), (4, 11)):
        assert sign_test(plus, minus) == pytest.approx(stats.binomtest(plus, plus + minus).pvalue)


@pytest.mark.slow
def test_real_games_show_a_known_difference(real_games: Path) -> None:
    """Homesteader beats random at Territory: ten paired games give an interval above 0."""
    result = compare(read_results([real_games]).rows, "prompt", "A", "B")
    assert (result.pairs, result.distinct, result.merged) == (len(SEEDS), len(SEEDS), 0)
    assert result.a_better == len(SEEDS) and result.sign_p == pytest.approx(2 / 2 ** len(SEEDS))
    assert result.diff_low is not None and result.diff_high is not None
    assert 0 < result.diff_low <= result.mean_diff <= result.diff_high
    assert result.mean_a > result.mean_b and result.effect_size is not None


@pytest.mark.slow
def test_real_games_a_against_a_claims_nothing(real_games: Path) -> None:
    """A vs A on real games: random against random with other draws. The games differ (the
    differences are not all 0) and the interval holds 0."""
    result = compare(read_results([real_games]).rows, "prompt", "B", "C")
    assert result.distinct == len(SEEDS) and any(d != 0 for d in result.differences)
    assert result.diff_low is not None and result.diff_high is not None
    assert result.diff_low < 0 < result.diff_high
    assert result.sign_p > 0.05 and result.signed_rank_p > 0.05


def _written_pairs(
    directory: Path, shift: float, pairs: int = 40, repeat: int = 0, same: bool = False
) -> Path:
    """Two-seat games: A or B against one opponent, scores noisy around the same mean for both
    (plus `shift` for A), on seeds and seats that pair up. The last `repeat` seeds replay the
    first ones' games, in turn; `same` gives B A's score."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    drawn: list[tuple[float, float]] = []
    for _ in range(pairs):
        luck = rng.gauss(0, 3)  # the deal: shared by A and B on this seed
        a, b = 10 + luck + shift + rng.gauss(0, 2), 10 + luck + rng.gauss(0, 2)
        drawn.append((a, a if same else b))
    for seed in range(pairs):
        a, b = drawn[seed % (pairs - repeat)]
        for side, score in (("A", a), ("B", b)):
            players = [llm("m", side), llm("opponent")]
            written_game(directory / f"{side}-{seed}.jsonl", players, [score, 10.0], seed=seed)
    return directory


def test_written_games_find_a_shift_and_not_its_absence(tmp_path: Path) -> None:
    shifted = read_results([_written_pairs(tmp_path / "shift", 2.0)]).rows
    found = compare(shifted, "prompt", "A", "B")
    assert found.pairs == found.distinct == 40 and found.sign_p < 0.01
    assert found.diff_low is not None and found.diff_high is not None
    assert 0 < found.diff_low < 2.0 < found.diff_high

    null = read_results([_written_pairs(tmp_path / "null", 0.0)]).rows
    same = compare(null, "prompt", "A", "B")
    assert same.diff_low is not None and same.diff_high is not None
    assert same.diff_low < 0 < same.diff_high and same.sign_p > 0.05
    assert compare(null, "prompt", "A", "B").to_json() == same.to_json()


def test_the_interval_is_the_t_interval_over_paired_games(tmp_path: Path) -> None:
    """The score interval is Student's t over the per-game differences (scipy's own)."""
    result = compare(read_results([_written_pairs(tmp_path, 1.0, 15)]).rows, "prompt", "A", "B")
    expected = stats.ttest_1samp(result.differences, 0.0).confidence_interval(0.95)
    assert (result.diff_low, result.diff_high) == pytest.approx((expected.low, expected.high))
    assert result.effect_size == pytest.approx(
        np.mean(result.differences) / np.std(result.differences, ddof=1)
    )
    assert result.signed_rank_p == pytest.approx(
        stats.wilcoxon(result.differences, method="exact").pvalue
    )


def test_below_ten_pairs_it_refuses_to_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nine pairs with a big shift: no interval, a plain statement why, the sign test kept.
    (The old compare printed an interval from one pair, and [-1, -1] from three.)"""
    directory = _written_pairs(tmp_path / "nine", 5.0, pairs=9)
    args = [str(directory), "--by", "prompt", "--a", "A", "--b", "B"]
    code, out, _ = _cli(capsys, *args)
    assert code == 0
    assert "no interval: too few pairs for an interval: 9 distinct paired games" in out
    assert "at least 10" in out and "95% interval [" not in out
    assert "sign test        A better 9, B better 0" in out
    code, out, _ = _cli(capsys, *args, "--json")
    data = json.loads(out)
    assert data["pairs"] == 9 and data["diff_low"] is None and data["diff_high"] is None
    assert data["win_diff_low"] is None and data["no_win_interval"] == data["no_interval"]
    assert data["sign_p"] == pytest.approx(2 / 2**9)

    one = _written_pairs(tmp_path / "one", 1.0, pairs=1)
    code, out, _ = _cli(capsys, str(one), "--by", "prompt", "--a", "A", "--b", "B")
    assert code == 0 and "no interval: one distinct paired game" in out


def test_no_interval_without_spread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A and B score alike in every game (the same bot, the same moves): every difference is
    0, so a t-interval would be [0, 0]; there is none, and the reason is given. The win-rate
    interval does not collapse."""
    directory = _written_pairs(tmp_path, 0.0, pairs=12, same=True)
    code, out, _ = _cli(capsys, str(directory), "--by", "prompt", "--a", "A", "--b", "B")
    assert code == 0
    assert "no interval: every paired game has the same score difference (+0.000)" in out
    result = compare(read_results([directory]).rows, "prompt", "A", "B")
    assert result.diff_low is None and result.effect_size is None and result.ties == 12
    assert result.win_diff_low is not None and result.win_diff_high is not None
    assert result.win_diff_low < 0 < result.win_diff_high


def test_identical_games_are_merged_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Twelve seeds whose last six replay the first six's games: six distinct paired games,
    six repeats merged, so too few for an interval though there are twelve pairs. Twelve
    replays of one game are one distinct game: no interval, and that is why."""
    directory = _written_pairs(tmp_path, 3.0, pairs=12, repeat=6)
    result = compare(read_results([directory]).rows, "prompt", "A", "B")
    assert (result.pairs, result.games, result.distinct, result.merged) == (12, 12, 6, 6)
    assert len(result.differences) == 6 and result.a_better + result.b_better + result.ties == 6
    assert result.diff_low is None and result.no_interval is not None
    assert "6 distinct paired games" in result.no_interval
    code, out, _ = _cli(capsys, str(directory), "--by", "prompt", "--a", "A", "--b", "B")
    assert code == 0
    assert "12 seat pairs" in out and "in 12 paired game(s), 6 distinct, 6 repeat(s)" in out

    every = _written_pairs(tmp_path / "every", 3.0, pairs=12, repeat=11)
    code, out, _ = _cli(capsys, str(every), "--by", "prompt", "--a", "A", "--b", "B", "--json")
    data = json.loads(out)
    assert (data["pairs"], data["distinct"], data["merged"]) == (12, 1, 11)
    assert data["diff_low"] is None and data["no_interval"].startswith("one distinct paired game")


def _clustered(directory: Path, games: int = 12) -> Path:
    """Eight-seat games, A (or B) at seats 0-3: each game's luck moves all four of the label's
    seats together, and A and B are alike on average."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    for seed in range(games):
        for side in "AB":
            luck = rng.gauss(0, 4)
            scores = [10 + luck + rng.gauss(0, 0.3) for _ in range(4)] + [10.0] * 4
            players = [llm("m", side)] * 4 + [llm("opponent")] * 4
            written_game(directory / f"{side}-{seed}.jsonl", players, scores, seed=seed)
    return directory


def _seat_interval(diffs: Sequence[float]) -> tuple[float, float]:
    ci = stats.ttest_1samp(diffs, 0.0).confidence_interval(0.95)
    return float(ci.low), float(ci.high)


def test_clusters_count_as_one_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A holds four seats a game that share the game's luck: the unit is the game (12), not
    the seat (48): the interval is the t-interval over the 12 per-game means, wider than the
    seats-as-independent one."""
    directory = _clustered(tmp_path)
    rows = read_results([directory]).rows
    result = compare(rows, "prompt", "A", "B")
    assert (result.pairs, result.distinct, result.seats) == (48, 12, 4)
    pairs = pair_rows(rows, "prompt", "A", "B")
    per_seat = [(x.score or 0) - (y.score or 0) for x, y in pairs]
    per_game = [float(np.mean(per_seat[i : i + 4])) for i in range(0, 48, 4)]
    assert sorted(result.differences) == pytest.approx(sorted(per_game))
    low, high = _seat_interval(per_game)
    assert (result.diff_low, result.diff_high) == pytest.approx((low, high))
    naive_low, naive_high = _seat_interval(per_seat)
    assert result.diff_low is not None and result.diff_high is not None
    assert result.diff_high - result.diff_low > 1.5 * (naive_high - naive_low)
    code, out, _ = _cli(capsys, str(directory), "--by", "prompt", "--a", "A", "--b", "B")
    assert code == 0 and "48 seat pairs" in out and "up to 4 seat pairs a paired game" in out
    assert "t over 12 paired games, 11 df" in out


def test_unpaired_data_is_refused_with_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _written_pairs(tmp_path, 1.0, pairs=4)
    (directory / "B-2.jsonl").unlink()
    written_game(directory / "B-9.jsonl", [llm("m", "B"), llm("x")], [1.0, 2.0], seed=9)
    rows = read_results([directory]).rows
    with pytest.raises(UnpairedData) as caught:
        pair_rows(rows, "prompt", "A", "B")
    message = str(caught.value)
    assert "same game, ruleset, seed and seat" in message
    assert "1 of 4 A (prompt = 'A') seat(s) have no B partner: territory seed 2 seat 0" in message
    assert "1 of 4 B (prompt = 'B') seat(s) have no A partner: territory seed 9 seat 0" in message

    have = r"no seat has prompt = 'C'; the transcripts have: \(none\), A, B"
    with pytest.raises(UnpairedData, match=have):
        pair_rows(rows, "prompt", "A", "C")
    with pytest.raises(UnpairedData, match="both 'A'"):
        pair_rows(rows, "prompt", "A", "A")

    assert main(["compare", str(directory), "--by", "prompt", "--a", "A", "--b", "B"]) == 1
    assert "seed 2 seat 0 (S0)" in capsys.readouterr().err


def test_other_rulesets_and_unfinished_games_do_not_pair(tmp_path: Path) -> None:
    players = {side: [llm("m", side), llm("x")] for side in "AB"}
    written_game(tmp_path / "a.jsonl", players["A"], [1.0, 0.0], ruleset={"turns": 5})
    written_game(tmp_path / "b.jsonl", players["B"], [1.0, 0.0], ruleset={"turns": 6})
    with pytest.raises(UnpairedData, match="ruleset"):
        pair_rows(read_results([tmp_path]).rows, "prompt", "A", "B")
    written_game(tmp_path / "b.jsonl", players["B"], None, ruleset={"turns": 5})
    with pytest.raises(UnpairedData, match="in 1 unfinished game"):
        pair_rows(read_results([tmp_path]).rows, "prompt", "A", "B")
    with pytest.raises(UnpairedData, match="no seat pairs are left"):
        pair_rows(read_results([tmp_path]).rows, "prompt", "A", "B", skip_unfinished=True)


def test_skip_unfinished_leaves_them_out_and_says_how_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One unfinished B game blocks the comparison, naming the way out; --skip-unfinished
    leaves it and A's seat on the same seed out, and says so."""
    directory = _written_pairs(tmp_path, 1.0, pairs=12)
    written_game(directory / "B-5.jsonl", [llm("m", "B"), llm("opponent")], None, seed=5)
    args = [str(directory), "--by", "prompt", "--a", "A", "--b", "B"]
    code, out, err = _cli(capsys, *args)
    assert code == 1 and out == ""
    assert "1 seat(s) of A or B are in 1 unfinished game(s)" in err
    assert "B-5.jsonl seat 0" in err and "--skip-unfinished" in err
    code, out, err = _cli(capsys, *args, "--skip-unfinished")
    assert code == 0
    assert "11 seat pairs" in out
    assert (
        "left out        1 unfinished game(s) and 1 finished seat(s) on their seeds and seats"
        in out
    )
    assert "left out 1 unfinished game(s) and 1 finished seat(s)" in err
    code, out, _ = _cli(capsys, *args, "--skip-unfinished", "--json")
    data = json.loads(out)
    assert (data["pairs"], data["skipped_games"], data["skipped_seats"]) == (11, 1, 1)


def test_the_command_prints_the_comparison_json_and_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _written_pairs(tmp_path / "games", 3.0, pairs=12)
    args = [str(directory), "--by", "prompt", "--a", "A", "--b", "B"]
    code, out, _ = _cli(capsys, *args)
    assert code == 0
    for text in ("12 seat pairs", "95% interval", "effect size", "sign test", "signed-rank"):
        assert text in out
    assert "(Newcombe, paired)" in out and "t over 12 paired games, 11 df" in out
    code, out, _ = _cli(capsys, *args, "--json")
    data = json.loads(out)
    assert data["pairs"] == 12 and data["a"] == "A" and 0 <= data["sign_p"] <= 1
    assert len(data["differences"]) == 12 and data["min_pairs"] == 10
    chart = tmp_path / "diffs.png"
    code, _, err = _cli(capsys, *args, "--chart", str(chart))
    assert code == 0 and f"chart written to {chart}" in err
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert main(["compare", *args, "--by", "seat"]) == 2
    assert "use model, prompt or label:<key>" in capsys.readouterr().err


def test_the_chart_draws_every_paired_difference(tmp_path: Path) -> None:
    """One dot per distinct paired game; the interval's band where there is one, the reason
    where there is none."""
    shown = compare(
        read_results([_written_pairs(tmp_path / "a", 3.0, 12)]).rows, "prompt", "A", "B"
    )
    svg = svg_paired(shown)
    assert svg.count("<circle") == 12 and 'fill-opacity="0.15"' in svg
    assert "95% t-interval" in svg
    few = compare(read_results([_written_pairs(tmp_path / "b", 3.0, 4)]).rows, "prompt", "A", "B")
    svg = svg_paired(few)
    assert svg.count("<circle") == 4 and "fill-opacity" not in svg
    assert "too few pairs for an interval" in svg


def test_seat_swapped_games_make_one_paired_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each seed played twice with A and B swapping seats: the two games are joined through
    both seat pairs into one paired game, so ten seeds are ten paired games (not twenty), and
    seat 0's edge cancels within each."""
    rng = random.Random(2)
    for seed in range(10):
        for name, sides in (("x", "AB"), ("y", "BA")):
            scores = [12 + rng.gauss(0, 1), 8 + rng.gauss(0, 1)]  # seat 0 is worth 4 points
            players = [llm("m", side) for side in sides]
            written_game(tmp_path / f"{name}-{seed}.jsonl", players, scores, seed=seed)
    result = compare(read_results([tmp_path]).rows, "prompt", "A", "B")
    assert (result.pairs, result.games, result.distinct, result.seats) == (20, 10, 10, 2)
    assert result.diff_low is not None and result.diff_high is not None
    assert result.diff_low < 0 < result.diff_high and abs(result.mean_diff) < 1
    code, out, _ = _cli(capsys, str(tmp_path), "--by", "prompt", "--a", "A", "--b", "B")
    assert (
        code == 0 and "20 seat pairs (same game, ruleset, seed, seat) in 10 paired game(s)" in out
    )


def test_several_games_are_named_as_pooled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pairs from two games pool their differences on their own scales: the output says so."""
    for seed in range(6):
        for game in ("territory", "chemistry"):
            for side, score in (("A", 3.0 + seed), ("B", 2.0)):
                players = [llm("m", side), llm("x")]
                path = tmp_path / f"{game}-{side}-{seed}.jsonl"
                written_game(path, players, [score, 1.0], game=game, seed=seed)
    result = compare(read_results([tmp_path]).rows, "prompt", "A", "B")
    assert result.game_names == ["chemistry", "territory"] and result.distinct == 12
    code, out, _ = _cli(capsys, str(tmp_path), "--by", "prompt", "--a", "A", "--b", "B")
    assert code == 0 and "games            chemistry, territory: each paired game's" in out
