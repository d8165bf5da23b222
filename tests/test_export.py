"""Export: one row per seat per game with fixed columns and one column per label key, as CSV
or Parquet; Parquet without pyarrow is a clear error naming the install."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from league_helpers import league_service, llm, play_game, written_game

from cogs_arena.server.cli.main import main
from cogs_arena.transcripts import read_transcript
from cogs_arena.transcripts.evaluation.export import COLUMNS, ExportError, export
from cogs_arena.transcripts.evaluation.results import read_results
from cogs_arena.transcripts.events import Footer

BOTS = ["homesteader", "raider", "diplomat", "random", "homesteader", "raider", "random"]


@pytest.fixture
def real_game(tmp_path: Path) -> Path:
    service = league_service(tmp_path / "games")
    return play_game(
        service,
        5,
        ["homesteader", "random", *BOTS],
        client_seat=1,
        model="probe-model",
        prompt="terse",
        labels={"variant": "b", "harness": "ci"},
    )


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_csv_has_one_row_per_seat_with_the_game_s_numbers(
    real_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "seats.csv"
    assert main(["export", str(real_game.parent), "-o", str(out)]) == 0
    assert "9 rows from 1 transcript(s)" in capsys.readouterr().err
    rows = _csv(out)
    header = list(rows[0])
    assert header == [name for name, _ in COLUMNS] + ["label.harness", "label.variant"]
    assert [r["seat"] for r in rows] == [str(i) for i in range(9)]
    footer = read_transcript(real_game)[-1]
    assert isinstance(footer, Footer)
    assert [float(r["score"]) for r in rows] == footer.outcome["scores"]
    assert [int(r["rank"]) for r in rows] == footer.outcome["ranks"]
    assert sum(float(r["win"]) for r in rows) == pytest.approx(1.0)
    client = rows[1]
    assert (client["kind"], client["model"], client["prompt"]) == ("llm", "probe-model", "terse")
    assert (client["label.variant"], client["label.harness"]) == ("b", "ci")
    assert client["attempts"] == client["moves"] == "18" and client["illegal"] == "0"
    bot = rows[0]
    assert (bot["kind"], bot["bot"], bot["model"], bot["label.variant"]) == (
        "bot",
        "homesteader",
        "",
        "",
    )
    assert bot["attempts"] == "0" and bot["moves"] == "18"
    assert {r["game"] for r in rows} == {"territory"} and {r["seed"] for r in rows} == {"5"}
    assert rows[0]["game_id"] == real_game.stem and len(rows[0]["ruleset_digest"]) == 16
    assert float(rows[0]["wall_seconds"]) > 0 and rows[0]["finished"] == "True"


def test_parquet_keeps_types_and_big_seeds(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    seed = 2**127 + 1  # a 128-bit seed does not fit int64: seeds are text
    written_game(tmp_path / "g.jsonl", [llm("a", variant="x"), llm("b")], [3.0, 1.0], seed=seed)
    written_game(tmp_path / "u.jsonl", [llm("a"), llm("c")], None, seed=7)
    out = tmp_path / "seats.parquet"
    export(read_results([tmp_path]).rows, out)
    table = pq.read_table(out)
    assert table.num_rows == 4
    assert table.column_names[-1] == "label.variant"
    types = {field.name: str(field.type) for field in table.schema}
    assert (types["seed"], types["seat"], types["score"], types["finished"]) == (
        "string",
        "int64",
        "double",
        "bool",
    )
    data = table.to_pylist()
    assert data[0]["seed"] == str(seed) and data[0]["label.variant"] == "x"
    unfinished = data[2]
    assert unfinished["finished"] is False
    assert unfinished["score"] is None and unfinished["rank"] is None and unfinished["win"] is None


def test_parquet_without_pyarrow_names_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = written_game(tmp_path / "g.jsonl", [llm("a"), llm("b")], [1.0, 0.0])
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now raises ImportError
    with pytest.raises(ExportError, match="pip install pyarrow"):
        export(read_results([game]).rows, tmp_path / "x.parquet")
    assert main(["export", str(game), "-o", str(tmp_path / "x.parquet")]) == 2
    assert "pip install pyarrow" in capsys.readouterr().err
    assert not (tmp_path / "x.parquet").exists()


def test_bad_targets_and_unreadable_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = written_game(tmp_path / "g.jsonl", [llm("a"), llm("b")], [1.0, 0.0])
    assert main(["export", str(game), "-o", str(tmp_path / "x.xlsx")]) == 2
    assert "must end in .csv or .parquet" in capsys.readouterr().err
    assert main(["export", str(game), "-o", str(tmp_path / "nowhere" / "x.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    out = tmp_path / "x.csv"
    assert main(["export", str(game), str(bad), "-o", str(out)]) == 1
    assert f"skipped {bad}: line 1" in capsys.readouterr().err
    assert len(_csv(out)) == 2
