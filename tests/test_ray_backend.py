"""`simulate --backend ray`: a series run as Ray tasks on a local Ray instance the test starts
gives the same transcripts, byte for byte apart from the `wall` fields, and the same numbers as
the same series over `--jobs 2`; without Ray, the backend is refused saying how to install it."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest

from cogs_arena.server.cli.main import main as cli_main
from cogs_arena.transcripts import read_transcript, strip_wall


def _series(
    capsys: pytest.CaptureFixture[str], folder: Path, *backend: str
) -> tuple[int, dict[str, Any], str]:
    argv = ["simulate", "territory", "--games", "4", "--seed", "11", "--rules", '{"turns": 4}']
    argv += ["--bots", "homesteader,raider,random,diplomat", "--json", "--jobs", "2"]
    code = cli_main([*argv, "--transcripts", str(folder), *backend])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else {}, err


def _without_wall(folder: Path) -> dict[str, list[dict[str, Any]]]:
    return {p.name: [strip_wall(e) for e in read_transcript(p)] for p in sorted(folder.iterdir())}


@pytest.mark.slow
def test_a_series_on_ray_writes_the_same_transcripts_as_local_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, local, _ = _series(capsys, tmp_path / "jobs")
    assert code == 0
    code, on_ray, _ = _series(capsys, tmp_path / "ray", "--backend", "ray")
    assert code == 0
    local.pop("transcripts"), on_ray.pop("transcripts")
    assert on_ray == local
    assert len(list((tmp_path / "ray").iterdir())) == 4
    assert _without_wall(tmp_path / "ray") == _without_wall(tmp_path / "jobs")


def test_without_ray_the_backend_is_refused_saying_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    code, _, err = _series(capsys, tmp_path / "none", "--backend", "ray")
    assert code == 2
    assert "pip install '.[ray]'" in err
    assert not (tmp_path / "none").exists()
