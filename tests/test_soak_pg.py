"""The PostgreSQL soak (`scripts/soak_pg.py`) in a tiny configuration: two instances on one
throwaway database through terminated backends, a database restart and a kill -9 of an instance,
and its own checks of the record."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_tiny_postgres_soak_loses_nothing_applies_nothing_twice_and_replays() -> None:
    """Every fault happens at least once, and the soak's figures are what the issue asks: 0
    lost, 0 applied twice, 0 false "nothing changed", 0 stuck, every transcript replaying."""
    command = [sys.executable, str(ROOT / "scripts" / "soak_pg.py"), "--kinds",
               "chemistry,territory", "--games", "6", "--clients", "2", "--max-seconds", "40",
               "--restart-at", "1", "--kill-at", "2", "--terminations", "30"]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=150, env=os.environ.copy(), check=False
    )
    out = done.stdout
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    faults = re.search(r"faults: (\d+) backends terminated, database restarted at (\S+)", out)
    assert faults and int(faults.group(1)) > 0 and faults.group(2) != "never", out
    assert "instance killed -9 at never" not in out, out
    for figure in ("accepted moves lost", "moves applied twice", 'false "nothing changed"',
                   "stuck games"):  # fmt: skip
        found = re.search(re.escape(figure) + r"\s+(\d+)", out)
        assert found and found.group(1) == "0", out
    replaying = re.search(r"transcripts replaying\s+(\d+)/(\d+)", out)
    assert replaying and int(replaying.group(2)) > 0, out
    assert replaying.group(1) == replaying.group(2), out
    accepted = re.search(r"plays answered \d+: (\d+) accepted", out)
    assert accepted and int(accepted.group(1)) > 0, out
