"""The wheel installs one import package, `cogs_arena`, and the `cogs-arena` console script;
never top-level `server` or `engines`. Built and installed offline from this checkout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE_THE_PACKAGE = {"tests", "build", "dist", ".venv", ".git", ".cache"}


def test_every_package_of_the_tree_is_listed_for_the_wheel() -> None:
    """`pyproject.toml` lists the packages by hand: a new folder must not be left out."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(("cogs_arena", *init.parent.relative_to(ROOT).parts))
        for init in ROOT.rglob("__init__.py")
        if not OUTSIDE_THE_PACKAGE & set(init.relative_to(ROOT).parts)
    }
    assert found == listed, f"missing: {sorted(found - listed)}, stale: {sorted(listed - found)}"


@pytest.mark.slow
def test_build_gives_a_wheel_and_an_sdist_with_the_license_and_the_linked_docs(
    tmp_path: Path,
) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "-o", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("cogs_arena-*.tar.gz")
    (wheel,) = tmp_path.glob("cogs_arena-*.whl")
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[^)#]+)", readme))
    assert linked, "the README links pages under docs/"
    assert {"LICENSE", "README.md", "pyproject.toml"} <= members
    assert linked <= members, f"the sdist lacks {sorted(linked - members)}"
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "cogs_arena/py.typed" in names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text and "Classifier: Typing :: Typed" in text


@pytest.mark.slow
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
        "cogs_arena/server/adapter/app.py",
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
        "import importlib.util, cogs_arena.engines, cogs_arena.server.adapter.app;"
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
