"""mypy --strict over the package and its tests, from the checkout.

The repository root is the package `cogs_arena`, and the editable install's import hook is
invisible to mypy. So mypy is given a temporary directory holding one symlink,
`cogs_arena -> <repo root>`, plus `tests/` (whose helpers are imported as top-level modules) on
MYPYPATH. The symlink lives outside the tree because pytest and ruff walk it.

Usage: `.venv/bin/python scripts/typecheck.py [extra mypy arguments]`; exits with mypy's code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engines", "server", "transcripts", "inspect_tasks", "prompts")


def mypy_command(extra: list[str]) -> list[str]:
    """The mypy invocation, every target by module name (mypy takes names or paths, not both):
    the package's rooms as `cogs_arena.…`, so the tests' imports resolve to the same files, and
    each test module as the top-level module pytest imports it as."""
    targets = ["-m", "cogs_arena", "-m", "cogs_arena.__main__"]
    for package in PACKAGES:
        targets += ["-p", f"cogs_arena.{package}"]
    for module in sorted((ROOT / "tests").glob("*.py")):
        targets += ["-m", module.stem]
    return [sys.executable, "-m", "mypy", "--explicit-package-bases", *targets, *extra]


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="cogs-arena-mypy-") as base:
        (Path(base) / "cogs_arena").symlink_to(ROOT, target_is_directory=True)
        env = dict(os.environ, MYPYPATH=os.pathsep.join([base, str(ROOT / "tests")]))
        result = subprocess.run(
            mypy_command(argv), cwd=ROOT, env=env, capture_output=True, text=True, check=False
        )
        # Name the package's files as the checkout does, not by the temporary symlink.
        link = f"{base}{os.sep}cogs_arena{os.sep}"
        sys.stdout.write(result.stdout.replace(link, ""))
        sys.stderr.write(result.stderr.replace(link, ""))
        return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
