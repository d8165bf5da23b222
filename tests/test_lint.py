"""The project's own checks, run by the test command so CI enforces them: ruff (lint and format)
over the tree, mypy strict over the package and tests/ (the one way: scripts/typecheck.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_ruff_lint_and_format() -> None:
    lint = _run("ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = _run("ruff", "format", "--check", ".")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


@pytest.mark.slow
def test_mypy_strict() -> None:
    """scripts/typecheck.py, exactly as a contributor runs it: the package's rooms and every
    module of tests/, strict."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "typecheck.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # Guards against a configuration that silently checks less than the package and tests.
    rooms = _typecheck().PACKAGES
    package = sum(len(list((ROOT / room).rglob("*.py"))) for room in rooms) + 2
    tests = len(list((ROOT / "tests").glob("*.py")))
    assert f"no issues found in {package + tests} source files" in result.stdout, result.stdout


def _typecheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_typecheck_names_every_room_and_test_module() -> None:
    """The typecheck's targets: the package's rooms as `cogs_arena.<room>` (so the tests' imports
    resolve to the same files, not a second copy) and every module of tests/ by the top-level
    name pytest imports it under; the lint test used to check no test at all."""
    command = _typecheck().mypy_command([])
    assert "--explicit-package-bases" in command
    pairs = set(pairwise(command))
    for room in ("engines", "server", "transcripts", "inspect_tasks", "prompts"):
        assert ("-p", f"cogs_arena.{room}") in pairs
    for module in (ROOT / "tests").glob("*.py"):
        assert ("-m", module.stem) in pairs, module.name
