"""Ratings: a bot league's strong bots rate above its weak one, intervals narrow as games grow,
the same transcripts give the same table, and the command prints a table, JSON, CSV and a
PNG chart. The fit itself, distinct games, seats and anchors: tests/test_rating_fit.py."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from league_helpers import bot_league, llm, written_game

from cogs_arena.server.cli.main import main
from cogs_arena.transcripts.evaluation.plackett_luce import Ranking
from cogs_arena.transcripts.evaluation.rating import LabelRating, bootstrap_intervals, fit, rate
from cogs_arena.transcripts.evaluation.results import label_value, parse_by, read_results

STRONG = ("bot:homesteader", "bot:raider", "bot:diplomat")


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("league")
    bot_league(directory, 12)  # MIN_GAMES distinct games or more, for an interval
    return directory


def _given(value: float | None) -> float:
    """A rating or bound the test expects to be there (it is None only with no finished game)."""
    assert value is not None
    return value


def _rated(directory: Path, rounds: int = 100) -> dict[str, LabelRating]:
    table = rate(read_results([directory]).rows, "model", rounds, seed=1)
    return {r.label: r for r in table.rows}


def test_the_league_rates_every_strong_bot_above_random(league: Path) -> None:
    rows = _rated(league)
    assert set(rows) == {*STRONG, "bot:random"}
    weak = rows["bot:random"]
    for label in STRONG:
        strong = rows[label]
        assert _given(strong.rating) > _given(weak.rating)
        assert _given(strong.low) > _given(weak.high), label
        assert strong.games == 12 and _given(strong.mean_score) > _given(weak.mean_score)
    assert weak.win_rate == 0.0


def _plackett_luce_games(strengths: dict[str, float], games: int, seed: int) -> list[Ranking]:
    """Rankings drawn from known strengths: each place goes to one of the seats left with
    probability proportional to its strength."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        left = list(strengths)
        order = []
        while left:
            pick = rng.choices(left, weights=[strengths[x] for x in left])[0]
            left.remove(pick)
            order.append(pick)
        out.append([(label, rank) for rank, label in enumerate(order, start=1)])
    return out


def test_intervals_narrow_as_games_grow_and_the_order_is_recovered() -> None:
    strengths = {"a": 8.0, "b": 4.0, "c": 2.0, "d": 1.0}
    widths = []
    for games in (15, 60, 240):
        matches = _plackett_luce_games(strengths, games, seed=games)
        fitted = fit(matches)
        assert sorted(fitted, key=lambda k: -fitted[k]) == ["a", "b", "c", "d"]
        intervals, used, why = bootstrap_intervals(matches, 40, seed=0)
        assert why is None and used == 40
        widths.append({k: hi - lo for k, (lo, hi) in intervals.items()})
    for label in strengths:
        assert widths[0][label] > widths[1][label] > widths[2][label], label


@pytest.mark.slow
def test_a_bigger_league_has_narrower_intervals(tmp_path: Path) -> None:
    # Past the first few dozen games, where the prior still holds the ratings together.
    bot_league(tmp_path / "small", 27)
    bot_league(tmp_path / "big", 162, first_seed=1000)
    small, big = _rated(tmp_path / "small"), _rated(tmp_path / "big")
    for label in (*STRONG, "bot:random"):
        width = {
            n: _given(t[label].high) - _given(t[label].low) for n, t in (("s", small), ("b", big))
        }
        assert width["b"] < width["s"], label
    assert min(_given(big[x].low) for x in STRONG) > _given(big["bot:random"].high)


def test_the_same_transcripts_give_the_same_table(league: Path) -> None:
    rows = read_results([league]).rows
    first = rate(rows, "model", 40, seed=3).to_json()
    assert rate(list(reversed(rows)), "model", 40, seed=3).to_json() == first
    assert rate(rows, "model", 40, seed=4).to_json() != first


def test_labels_by_prompt_or_any_key_and_bots_keep_their_names(tmp_path: Path) -> None:
    bot = llm("x").model_copy(update={"kind": "bot", "bot": "greedy", "model": None})
    assert label_value(llm("m", "terse", variant="b"), "prompt") == "terse"
    assert label_value(llm("m", variant="b"), "label:variant") == "b"
    assert label_value(llm("m"), "label:variant") == "(none)"
    assert label_value(bot, "prompt") == "bot:greedy"
    assert label_value(bot, "model") == "bot:greedy"
    assert parse_by("label: variant ") == "label:variant"
    for bad in ("seat", "label:", "labels:x"):
        with pytest.raises(ValueError, match="model, prompt or label:<key>"):
            parse_by(bad)
    for i in range(4):
        players = [llm("m", "long"), llm("m", "short"), bot]
        written_game(tmp_path / f"g{i}.jsonl", players, [9.0, 5.0 + i, 1.0], seed=i)
    table = rate(read_results([tmp_path]).rows, "prompt", 20)
    assert [r.label for r in table.rows] == ["long", "short", "bot:greedy"]
    short = table.rows[1]
    assert (short.games, short.seats, short.finished, short.mean_score) == (4, 4, 4, 6.5)
    assert short.illegal_rate is None and short.fallback_rate is None  # no attempts, no moves


def test_unfinished_games_count_but_are_not_rated(tmp_path: Path) -> None:
    written_game(tmp_path / "done.jsonl", [llm("a"), llm("b")], [2.0, 1.0])
    written_game(tmp_path / "open.jsonl", [llm("a"), llm("c")], None)
    rows = {r.label: r for r in rate(read_results([tmp_path]).rows, "model", 10).rows}
    assert rows["a"].games == 2 and rows["a"].finished == 1 and rows["a"].win_rate == 1.0
    assert rows["c"].rating is None and rows["c"].finished == 0 and rows["c"].low is None
    assert _given(rows["a"].rating) > _given(rows["b"].rating)
    only_open = rate(read_results([tmp_path / "open.jsonl"]).rows, "model", 10)
    assert [r.rating for r in only_open.rows] == [None, None]
    assert only_open.games[0].no_interval == "no finished game with two seats or more"


def test_the_command_prints_table_json_csv_and_draws_the_chart(
    league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "ratings.png"
    assert main(["rate", str(league), "--bootstrap", "30", "--chart", str(chart)]) == 0
    out, err = capsys.readouterr()
    assert "bot:homesteader" in out and "95% interval" in out and "Plackett" in out
    assert "expanded percentile bootstrap" in out and "the labels' mean at 0" in out
    assert "territory: 12 transcript(s), 12 distinct game(s) (0 repeat(s) merged)" in err
    assert f"chart written to {chart}" in err
    png = chart.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") == 820  # the IHDR width
    assert len(png) > 5_000  # bars and text, not an empty canvas

    assert main(["rate", str(league), "--bootstrap", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["by"] == "model" and data["bootstrap"] == 30 and data["anchor"] == "mean"
    assert data["games"][0]["distinct"] == 12 and data["games"][0]["no_interval"] is None
    assert [r["label"] for r in data["labels"]][-1] == "bot:random"
    assert {"rating", "low", "high", "win_rate", "illegal_rate", "fallback_rate"} <= set(
        data["labels"][0]
    )

    assert main(["rate", str(league), "--bootstrap", "30", "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 4 and rows[0]["game"] == "territory"
    assert sum(int(pair.split(":")[1]) for pair in rows[0]["by_seat"].split()) == int(
        rows[0]["seats"]
    )


def test_the_command_refuses_bad_arguments_and_names_unreadable_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = written_game(tmp_path / "g.jsonl", [llm("a"), llm("b")], [2.0, 1.0])
    assert main(["rate", str(good), "--by", "colour"]) == 2
    assert "use model, prompt or label:<key>" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["rate", str(good), str(bad), str(empty), "--json"]) == 1
    captured = capsys.readouterr()
    assert f"skipped {bad}: line 1" in captured.err
    assert f"skipped {empty}: a directory with no *.jsonl files" in captured.err
    assert len(json.loads(captured.out)["labels"]) == 2
    assert main(["rate", str(bad)]) == 1
    assert "no games to rate" in capsys.readouterr().err
