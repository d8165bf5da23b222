"""Golden transcripts: one pinned bot game per game and per Blending era, played as `simulate`
plays it (the host's referee, the record a server writes), must match its file in
`tests/golden/transcripts/` byte for byte apart from the `wall` (clock) fields. An engine or bot
change that alters play is seen here as such, not only as a different score somewhere.

After a deliberate change to play, regenerate them and review the diff:

    COGS_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden_transcripts.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

import pytest

from cogs_arena.engines import get_engine
from cogs_arena.server.series.play import Planned, play
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.events import event_json
from cogs_arena.transcripts.io import read_transcript

GOLDEN = Path(__file__).parent / "golden" / "transcripts"
REGENERATE = os.environ.get("COGS_REGEN_GOLDEN") == "1"

PINNED: dict[str, tuple[str, dict[str, Any], tuple[str, ...]]] = {
    "influence": ("influence", {}, ("greedy", "random")),
    "territory": (
        "territory",
        {"turns": 8},
        ("homesteader", "raider", "diplomat", "random") * 2 + ("homesteader",),
    ),
    "chemistry": ("chemistry", {"shifts": 3}, ("courier",) * 6 + ("freeloader", "random")),
    "blending": ("blending", {}, ("builder", "builder", "random", "builder")),
    "blending-last-tile": (
        "blending",
        {"endgame": "last_tile", "last_tile_reshuffle": "never"},
        ("builder",) * 4,
    ),
    "blending-three": ("blending", {"combat": "three"}, ("builder",) * 4),
    "blending-legacy": ("blending", {"combat": "legacy"}, ("builder",) * 4),
    "blending-territories": ("blending", {"land": "territories"}, ("builder",) * 4),
}
SEED = 20261201


def _record(tmp_path: Path, name: str) -> tuple[Path, str]:
    game, rules, bots = PINNED[name]
    engine = get_engine(game)
    whole = engine.ruleset(rules).model_dump(mode="json")
    play(Planned(game, whole, SEED, bots, transcripts=str(tmp_path)))
    (path,) = tmp_path.glob(f"{game}-*.jsonl")
    lines = []
    for event in read_transcript(path):
        event.wall = None
        lines.append(event_json(event) + "\n")
    return path, "".join(lines)


@pytest.mark.parametrize("name", sorted(PINNED))
def test_a_pinned_bot_game_plays_as_recorded(tmp_path: Path, name: str) -> None:
    path, text = _record(tmp_path, name)
    assert replay(path).complete
    golden = GOLDEN / f"{name}.jsonl"
    if REGENERATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden transcript {golden.name}: run with COGS_REGEN_GOLDEN=1"
    expected = golden.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), "golden", "played", n=0, lineterm=""
        )
        shown = "\n".join(line[:300] for line in list(diff)[:12])
        pytest.fail(
            f"{name}: the pinned game no longer plays as recorded. If play changed on purpose, "
            f"regenerate with COGS_REGEN_GOLDEN=1 and review the diff.\n{shown}"
        )
