"""Records one short transcript per game (seat 0 a client that looks, then plays menu entry 1;
the other seats bots) into a folder: the fixtures `tests/test_record_versions.py` replays.

    .venv/bin/python scripts/record_fixtures.py tests/fixtures/record_v1

The fixtures in `tests/fixtures/record_v1` were recorded by the engines before Chemistry's
rules version 2 (DECISIONS C24); keep them as they are: they are the old record that a newer
`replay` must read without calling it corrupt."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from cogs_arena.server.inputs import Submission
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

GAMES: dict[str, dict[str, Any]] = {
    "influence": {"bots": ["greedy"], "ruleset": {"max_turns": 6}},
    "territory": {"bots": ["homesteader"] * 8, "ruleset": {"turns": 3}},
    "chemistry": {"bots": ["courier"] * 7, "ruleset": {"shifts": 2}},
    "blending": {"bots": ["builder"] * 2, "ruleset": {"players": 3, "end_rounds": 2}},
}


def record(game: str, out: Path, decisions: int = 40) -> Path:
    spec = GAMES[game]
    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(MemoryStore(), Path(tmp))
        started = service.new_game(
            game, seed=11, seat=0, bots=spec["bots"], ruleset=spec["ruleset"]
        )
        gid, cred = started.game_id, started.credential
        for _ in range(decisions):
            view = service.show(gid, cred)
            if view.outcome is not None:
                break
            service.play(gid, cred, Submission(number=1))
        else:
            service.settle(gid, "deadline")
        service.show(gid, cred)
        [path] = Path(tmp).rglob("*.jsonl")
        target = out / f"{game}.jsonl"
        shutil.copyfile(path, target)
        return target


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        print(record(game, out))


if __name__ == "__main__":
    main()
