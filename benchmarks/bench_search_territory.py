"""Territory search benchmark: the CPU (time.process_time) of one decision at every search level,
median and max over N decisions taken from positions of settler games (turns spread over the
game, seats rotated). Each level must stay within about one second of one core per decision.

Run: python benchmarks/bench_search_territory.py [decisions]
"""

from __future__ import annotations

import statistics
import sys
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots

LEVELS = ["search:1", "search:2", "search:3", "search:4"]


def positions(n: int) -> list[tuple[object, int]]:
    engine = get_engine("territory")
    out: list[tuple[object, int]] = []
    seed = 0
    while len(out) < n:
        game = play_bots(engine, engine.ruleset(), seed, ["settler"] * 9)
        state = engine.new_game(engine.ruleset(), seed)
        for turn, batch in enumerate(game.batches):
            if turn % 3 == seed % 3 and len(out) < n:
                out.append((state, (seed + turn) % 9))
            state = engine.apply_batch(
                state, {s: engine.parse_move(state, s, t) for s, t in batch.items()}
            )
        seed += 1
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    engine = get_engine("territory")
    table = engine.bots()
    spots = positions(n)
    print(f"territory search: CPU per decision over {n} decisions (ms, time.process_time)")
    for name in LEVELS:
        cpu = []
        for i, (state, seat) in enumerate(spots):
            obs = engine.observe(state, seat)
            menu = engine.legal_moves(state, seat)
            c0 = time.process_time()
            table[name](obs, menu, Stream(i, "bench"))
            cpu.append((time.process_time() - c0) * 1000)
        print(f"  {name:9} median {statistics.median(cpu):7.1f}   max {max(cpu):7.1f}")
    print("  target: <= 1000 ms per decision at every level")


if __name__ == "__main__":
    main()
