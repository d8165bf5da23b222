"""Chemistry benchmark: full 720-tick episodes with eight courier bots, in-process.

Prints the median milliseconds per episode over 20+ seeds for each variant (target <= 100 ms for
the league default), and the size of one episode's frame record as canonical JSON.
"""

from __future__ import annotations

import statistics
import sys
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.canonical import canonical_json
from cogs_arena.engines.runner import play_bots

VARIANTS = (
    "three-cycles-plentiful-distractors",
    "three-cycles",
    "two-cycles-distractors",
    "two-cycles",
)


def main(runs: int = 21) -> None:
    engine = get_engine("chemistry")
    for variant in VARIANTS:
        ruleset = engine.ruleset({"variant": variant})
        play_bots(engine, ruleset, 0, ["courier"] * 8)  # warm the distance-field caches
        times = []
        game = None
        for seed in range(1, runs + 1):
            start = time.perf_counter()
            game = play_bots(engine, ruleset, seed, ["courier"] * 8)
            times.append((time.perf_counter() - start) * 1000)
        assert game is not None
        frames = engine.frames(game.state)  # type: ignore[attr-defined]
        size = len(canonical_json(frames).encode())
        state_size = len(canonical_json(engine.state_to_json(game.state)).encode())
        print(
            f"{variant:36s} median {statistics.median(times):6.1f} ms/episode "
            f"(min {min(times):.1f}, max {max(times):.1f}, {runs} runs); "
            f"ticks {game.state.tick}, food eaten {game.outcome.details['food_eaten']}; "
            f"frame record {size / 1024:.1f} KiB, final state JSON {state_size / 1024:.1f} KiB"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
