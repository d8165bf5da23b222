"""Territory benchmark: full 18-turn games with nine bots in-process, through the same loop the
host runs (observe, legal_moves, bot, parse_move, apply_batch for every seat and turn).

Run: python benchmarks/bench_territory.py [games]
"""

from __future__ import annotations

import statistics
import sys
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots

LINEUP = [
    "homesteader",
    "raider",
    "diplomat",
    "random",
    "homesteader",
    "raider",
    "diplomat",
    "random",
    "raider",
]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    engine = get_engine("territory")
    ruleset = engine.ruleset()
    play_bots(engine, ruleset, 0, LINEUP)  # warm the per-board and menu caches once
    wall: list[float] = []
    cpu: list[float] = []
    turns: list[int] = []
    for seed in range(1, games + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        game = play_bots(engine, ruleset, seed, LINEUP)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        turns.append(len(game.batches))
    print(f"territory: {games} games of nine bots ({', '.join(sorted(set(LINEUP)))})")
    print(f"  turns per game: {statistics.mean(turns):.1f}")
    print(f"  median ms per game (wall): {statistics.median(wall):.1f}")
    print(f"  median ms per game (cpu):  {statistics.median(cpu):.1f}")
    print(f"  min / max ms (wall): {min(wall):.1f} / {max(wall):.1f}")
    calib = []
    for _ in range(20):
        t0 = time.perf_counter()
        sum(range(100_000))
        calib.append((time.perf_counter() - t0) * 1000)
    # The machine's speed, so figures from loaded or slow hosts can be compared: a typical
    # desktop CPython 3.11 sums range(100_000) in about 1 ms.
    print(f"  calibration: sum(range(100_000)) takes {statistics.median(calib):.2f} ms here")
    print("  target: <= 25 ms per game")


if __name__ == "__main__":
    main()
