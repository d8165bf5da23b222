"""The wheel installs one import package, `cogs_arena`, and the `cogs-arena` console script;
never top-level `server` or `engines`. Built and installed offline from this checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_installs_one_package_and_a_working_script(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "-w",
            str(dist),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next(dist.glob("cogs_arena-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"cogs_arena"}
    for needed in (
        "cogs_arena/engines/protocol.py",
        "cogs_arena/engines/influence/rules.md",
        "cogs_arena/prompts/influence.md",
        "cogs_arena/server/mcp_app.py",
        "cogs_arena/transcripts/replay.py",
        "cogs_arena/inspect_tasks/tasks.py",
    ):
        assert needed in names
    # Inspect finds the tasks of the `inspect` extra by this entry point.
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    declared = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[inspect_ai]\ncogs_arena = cogs_arena.inspect_tasks._registry" in declared
    assert not any(n.startswith("cogs_arena/tests/") for n in names)

    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target), "PYTHONNOUSERSITE": "1"}
    probe = (
        "import importlib.util, cogs_arena.engines, cogs_arena.server.mcp_app;"
        "assert importlib.util.find_spec('server') is None;"
        "assert importlib.util.find_spec('engines') is None;"
        "print(cogs_arena.engines.__file__)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {probe}"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith(str(target))
    script = target / "bin" / "cogs-arena"
    helped = subprocess.run(
        [str(script), "--help"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    for command in ("serve", "demo", "replay", "score"):
        assert command in helped.stdout
