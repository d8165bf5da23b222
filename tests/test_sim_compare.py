"""`cogs-arena simulate blending --compare`: the same games under several rulesets (Blending's
rule eras), the numbers side by side in one table; bad rulesets refused by name."""

from __future__ import annotations

import json

import pytest

from cogs_arena.server.cli.main import main


def test_compare_prints_one_column_per_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    eras = ["{}", '{"combat": "three"}', '{"land": "territories", "endgame": "last_tile"}']
    code = main(["simulate", "blending", "--games", "2", "--jobs", "1", "--compare", *eras])
    out = capsys.readouterr().out
    assert code == 0
    assert "(1) defaults" in out and "(2) combat=three" in out
    assert "(3) land=territories, endgame=last_tile" in out
    kills = next(line for line in out.splitlines() if line.startswith("kills per game"))
    assert len(kills.split()) == 3 + 3  # the label's words, then one number per ruleset
    assert "ended by last_tile" in out or "ended by round_cap" in out


def test_compare_json_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "blending", "--games", "1", "--jobs", "1", "--json"]
    assert (
        main([*base, "--rules", '{"players": 3}', "--compare", "{}", '{"combat": "legacy"}']) == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert [r["rules"] for r in rows] == ["players=3", "players=3, combat=legacy"]
    assert all(len(r["win_rate_by_seat"]) == 3 for r in rows)
    assert main([*base, "--compare", '{"combat": "dragon"}']) == 2
    assert "combat" in capsys.readouterr().err
    assert main([*base, "--compare", "[1]"]) == 2
