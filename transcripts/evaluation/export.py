"""One row per seat per game as CSV, or Parquet when `pyarrow` is installed, for pandas users.

Columns are fixed, then one `label.<key>` column per label key found in the rows (sorted), so
two exports of the same transcripts have the same header. Seeds are text: they may be 128-bit.
"""

from __future__ import annotations

import csv
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .results import SeatResult

# (column, pyarrow type name); the values come from `_row`.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("game_id", "string"),
    ("game", "string"),
    ("ruleset_digest", "string"),
    ("seed", "string"),
    ("seat", "int64"),
    ("seat_name", "string"),
    ("kind", "string"),
    ("bot", "string"),
    ("model", "string"),
    ("prompt", "string"),
    ("client_name", "string"),
    ("client_version", "string"),
    ("finished", "bool_"),
    ("score", "float64"),
    ("rank", "int64"),
    ("win", "float64"),
    ("attempts", "int64"),
    ("illegal", "int64"),
    ("fallbacks", "int64"),
    ("moves", "int64"),
    ("tool_calls", "int64"),
    ("wall_seconds", "float64"),
    ("path", "string"),
)

FORMATS = (".csv", ".parquet")
PYARROW_MISSING = "writing Parquet needs pyarrow: pip install pyarrow (or write .csv)"


class ExportError(ValueError):
    pass


def label_keys(rows: Sequence[SeatResult]) -> list[str]:
    return sorted({key for row in rows for key in row.player.labels})


def _row(row: SeatResult, keys: Sequence[str]) -> dict[str, Any]:
    player = row.player
    values: dict[str, Any] = {
        "game_id": row.game_id,
        "game": row.game,
        "ruleset_digest": row.ruleset_digest,
        "seed": row.seed,
        "seat": row.seat,
        "seat_name": row.seat_name,
        "kind": player.kind,
        "bot": player.bot,
        "model": player.model,
        "prompt": player.prompt,
        "client_name": player.client_name,
        "client_version": player.client_version,
        "finished": row.finished,
        "score": row.score,
        "rank": row.rank,
        "win": row.win,
        "attempts": row.attempts,
        "illegal": row.illegal,
        "fallbacks": row.fallbacks,
        "moves": row.moves,
        "tool_calls": row.tool_calls,
        "wall_seconds": row.wall_seconds,
        "path": row.path,
    }
    for key in keys:
        values[f"label.{key}"] = player.labels.get(key)
    return values


def records(rows: Sequence[SeatResult]) -> tuple[list[str], list[dict[str, Any]]]:
    """The header and one dict per row, in the order of `rows`."""
    keys = label_keys(rows)
    header = [name for name, _ in COLUMNS] + [f"label.{key}" for key in keys]
    return header, [_row(row, keys) for row in rows]


def write_csv(rows: Sequence[SeatResult], path: Path) -> None:
    header, data = records(rows)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        for item in data:
            writer.writerow({k: "" if v is None else v for k, v in item.items()})


def write_parquet(rows: Sequence[SeatResult], path: Path) -> None:
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ExportError(PYARROW_MISSING) from None
    header, data = records(rows)
    types = dict(COLUMNS)
    schema = pa.schema([(name, getattr(pa, types.get(name, "string"))()) for name in header])
    table = pa.Table.from_pylist(data, schema=schema)
    pq.write_table(table, str(path))


def export(rows: Sequence[SeatResult], path: str | Path) -> None:
    """Writes `rows` to `path`, the format chosen by its suffix (.csv or .parquet)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise ExportError(f"{target}: the file name must end in {' or '.join(FORMATS)}")
    if not target.parent.is_dir():
        raise ExportError(f"{target}: the directory {target.parent} does not exist")
    if suffix == ".csv":
        write_csv(rows, target)
    else:
        write_parquet(rows, target)
