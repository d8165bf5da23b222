"""Record size per game: transcript bytes and store bytes, per game kind.

Plays whole games in-process through `GameService` (one LLM seat, bots for the rest) the way
a model does: each decision it reads `show` twice, lists `legal_moves`, then plays menu entry
1. Afterwards it measures the game's transcript file(s) and the SQLite store (checkpointed, so
the WAL is folded in; any -wal left is counted too), divided by the number of games.

Each kind gets its own store and transcripts directory, so the store figure is that kind's
alone (it includes the fixed cost of an empty database, a few pages, spread over the games).

Usage: python benchmarks/record_bytes.py [--games 3] [--max-plays 400] [--kinds ...]
Run against another checkout with PYTHONPATH (e.g. PYTHONPATH=/tmp/before_pkg).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cogs_arena
from cogs_arena.engines import GameError
from cogs_arena.server.service import GameService
from cogs_arena.server.store.sqlite import SqliteStore

try:  # the new layout keeps the tool inputs in their own module
    from cogs_arena.server.inputs import Submission
except ImportError:
    from cogs_arena.server.service import Submission

KINDS = ("influence", "territory", "chemistry", "blending")


def play_one(svc: GameService, game: str, seed: int, max_plays: int) -> tuple[str, int, int, bool]:
    """One game to its end (or `max_plays`); returns its id, plays made, refused plays, and
    whether it finished."""
    new = svc.new_game(game, seed=seed, bots=None)
    gid, cred = new.game_id, new.credential
    plays = refused = 0
    while plays < max_plays:
        view = svc.show(gid, cred)
        if view.status == "over":
            return gid, plays, refused, True
        if not view.your_turn:  # bots move inside the service: nothing will change this
            break
        svc.show(gid, cred)  # a model re-reads its view before deciding
        svc.legal_moves(gid, cred)
        try:
            svc.play(gid, cred, Submission(number=1))
        except GameError:  # counted: the next play meets the fallback or the retry
            refused += 1
        plays += 1
    return gid, plays, refused, svc.show(gid, cred).status == "over"


def transcript_bytes(root: Path, game_id: str) -> int:
    """Bytes of every transcript file naming the game (the file name layout may change)."""
    files = [p for p in root.rglob("*.jsonl") if game_id in p.name]
    if not files:  # a layout that does not name files by game id: count them all once
        return -1
    return sum(p.stat().st_size for p in files)


def store_bytes(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    total = path.stat().st_size
    for suffix in ("-wal", "-journal"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            total += extra.stat().st_size
    return total


def measure(game: str, games: int, max_plays: int, seed0: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"bytes-{game}-") as tmp:
        root = Path(tmp)
        store = SqliteStore(root / "arena.sqlite3")
        svc = GameService(store, root / "transcripts")
        ids: list[str] = []
        plays = finished = refused = 0
        started = time.perf_counter()
        for i in range(games):
            gid, n, bad, done = play_one(svc, game, seed0 + i, max_plays)
            ids.append(gid)
            plays += n
            refused += bad
            finished += done
        seconds = time.perf_counter() - started
        store.close()
        per_game = [transcript_bytes(root / "transcripts", gid) for gid in ids]
        if any(b < 0 for b in per_game):
            transcripts = sum(p.stat().st_size for p in (root / "transcripts").rglob("*.jsonl"))
        else:
            transcripts = sum(per_game)
        files = len(list((root / "transcripts").rglob("*.jsonl")))
        return {
            "game": game,
            "games": games,
            "finished": finished,
            "plays": plays,
            "refused": refused,
            "transcript": transcripts / games,
            "store": store_bytes(root / "arena.sqlite3") / games,
            "files": files,
            "seconds": seconds,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per kind (3)")
    parser.add_argument("--max-plays", type=int, default=400, help="plays per game at most")
    parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i")
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    args = parser.parse_args(argv)
    print(f"cogs_arena from {Path(cogs_arena.__file__).parent}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bytes-empty-") as tmp:
        SqliteStore(Path(tmp) / "empty.sqlite3").close()
        empty = store_bytes(Path(tmp) / "empty.sqlite3")
    print(f"(an empty store is {empty:,} bytes; the store column includes it once per kind)")
    header = (
        f"{'game':10} {'games':>5} {'over':>4} {'plays':>6} {'refused':>7} {'plays/game':>10} "
        f"{'transcript B/game':>17} {'store B/game':>12} {'files':>5} {'secs':>6}"
    )
    print(header)
    for game in args.kinds:
        row = measure(game, args.games, args.max_plays, args.seed)
        print(
            f"{row['game']:10} {row['games']:>5} {row['finished']:>4} {row['plays']:>6} "
            f"{row['refused']:>7} "
            f"{row['plays'] / row['games']:>10.1f} {row['transcript']:>17,.0f} "
            f"{row['store']:>12,.0f} {row['files']:>5} {row['seconds']:>6.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
