"""Blending benchmark: full 4-player builder games in-process through the bot runner (observe,
menu, bot, parse, apply at every decision). Prints the median ms per game over the seeds, by
wall clock and by process CPU time (the machine may be shared). Target: <= 50 ms per game."""

from __future__ import annotations

import statistics
import sys
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots


def main(seeds: int = 30) -> None:
    engine = get_engine("blending")
    ruleset = engine.ruleset()
    play_bots(engine, ruleset, "warm-up", ["builder"] * 4)
    wall: list[float] = []
    cpu: list[float] = []
    decisions: list[int] = []
    for seed in range(seeds):
        w, c = time.perf_counter(), time.process_time()
        game = play_bots(engine, ruleset, seed, ["builder"] * 4)
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
        decisions.append(len(game.moves))
    print(f"blending: 4-player builder game, {seeds} seeds")
    print(f"  median wall ms per game: {statistics.median(wall):.1f} (min {min(wall):.1f})")
    print(f"  median CPU ms per game:  {statistics.median(cpu):.1f} (min {min(cpu):.1f})")
    print(f"  decisions per game:      {statistics.median(decisions):.0f}")
    print(f"  target: <= 50 ms per game -> {'met' if statistics.median(cpu) <= 50 else 'not met'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
