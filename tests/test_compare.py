"""Paired comparison: a known difference is found and a null one is not, on real games and on
written ones; data that does not pair up is refused with what is missing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from league_helpers import league_service, llm, play_game, written_game

from cogs_arena.server.cli.main import main
from cogs_arena.transcripts.evaluation.compare import UnpairedData, compare, pair_rows, sign_test
from cogs_arena.transcripts.evaluation.results import read_results

# Seat 0 is the client's; the other eight are the same bots in every game.
OTHERS = ["raider", "diplomat", "homesteader", "random"] * 2
SEEDS = range(1, 7)


def _ab_games(directory: Path, a_bot: str, b_bot: str) -> None:
    service = league_service(directory)
    for seed in SEEDS:
        for bot, prompt in ((a_bot, "A"), (b_bot, "B")):
            play_game(service, seed, [bot, *OTHERS], model="probe", prompt=prompt)


def test_sign_test_is_exact() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert sign_test(8, 0) == pytest.approx(2 / 256)
    assert sign_test(1, 9) == pytest.approx(2 * 11 / 1024)
    assert sign_test(600, 400) < 1e-9


def test_real_games_show_a_known_difference(tmp_path: Path) -> None:
    _ab_games(tmp_path, "homesteader", "random")
    result = compare(read_results([tmp_path]).rows, "prompt", "A", "B", bootstrap=500)
    assert result.pairs == len(SEEDS)
    assert result.a_better == len(SEEDS) and result.sign_p == pytest.approx(2 / 2 ** len(SEEDS))
    assert result.mean_diff > 0 and result.diff_low > 0
    assert result.mean_a > result.mean_b
    assert result.diff_low <= result.mean_diff <= result.diff_high


def test_the_same_bot_under_two_labels_shows_no_difference(tmp_path: Path) -> None:
    _ab_games(tmp_path, "raider", "raider")  # the same seeds and moves: identical games
    result = compare(read_results([tmp_path]).rows, "prompt", "A", "B")
    assert (result.pairs, result.ties, result.mean_diff) == (len(SEEDS), len(SEEDS), 0.0)
    assert (result.diff_low, result.diff_high, result.sign_p) == (0.0, 0.0, 1.0)
    assert result.win_rate_diff == 0.0


def _written_pairs(directory: Path, shift: float, pairs: int = 40) -> Path:
    """Two-seat games: A or B against one opponent, scores noisy around the same mean for both
    (plus `shift` for A), on seeds and seats that pair up."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    for seed in range(pairs):
        luck = rng.gauss(0, 3)  # the deal: shared by A and B on this seed
        for side, bonus in (("A", shift), ("B", 0.0)):
            score = 10 + luck + bonus + rng.gauss(0, 2)
            players = [llm("m", side), llm("opponent")]
            written_game(directory / f"{side}-{seed}.jsonl", players, [score, 10.0], seed=seed)
    return directory


def test_written_games_find_a_shift_and_not_its_absence(tmp_path: Path) -> None:
    shifted = read_results([_written_pairs(tmp_path / "shift", 2.0)]).rows
    found = compare(shifted, "prompt", "A", "B")
    assert found.pairs == 40 and found.diff_low > 0 and found.sign_p < 0.01
    assert found.diff_low < 2.0 < found.diff_high

    null = read_results([_written_pairs(tmp_path / "null", 0.0)]).rows
    same = compare(null, "prompt", "A", "B")
    assert same.diff_low < 0 < same.diff_high and same.sign_p > 0.05
    assert compare(null, "prompt", "A", "B").to_json() == same.to_json()  # seeded


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
    with pytest.raises(UnpairedData, match="unfinished games"):
        pair_rows(read_results([tmp_path]).rows, "prompt", "A", "B")


def test_the_command_prints_the_comparison_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _written_pairs(tmp_path, 3.0, pairs=12)
    args = ["compare", str(directory), "--by", "prompt", "--a", "A", "--b", "B"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "12 pairs" in out and "95% interval" in out and "sign test" in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"] == 12 and data["a"] == "A" and 0 <= data["sign_p"] <= 1
    assert main([*args, "--by", "seat"]) == 2
    assert "use model, prompt or label:<key>" in capsys.readouterr().err
