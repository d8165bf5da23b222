"""Per-decision CPU (time.process_time) of every Blending search level, median and max over the
search seat's turn decisions in builders' games (the rollouts counted too).

    PYTHONPATH=... python benchmarks/bench_search_blending.py [decisions per level, default 40]

The positions come from games of four builders (seeds 0, 1, ...); every 3rd turn decision of
the seat to act is searched, from round 1 (the costliest: the longest rollouts) to the end.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterator
from functools import partial
from typing import Any

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.search import LEVELS, decide
from cogs_arena.engines.protocol import LazyLegalMoves
from cogs_arena.engines.rng import Stream

E = get_engine("blending")


def positions(count: int) -> Iterator[Any]:
    bot = E.bots()["builder"]
    seed, found = 0, 0
    while True:
        s = E.new_game(E.ruleset(), seed)
        turn = 0
        while s.phase != "over":
            if s.phase == "turn":
                turn += 1
                if turn % 3 == 0:
                    yield s
                    found += 1
                    if found >= count:
                        return
            obs = E.observe(s, s.seat)
            menu = LazyLegalMoves(partial(E.legal_moves, s, s.seat))
            s = E.apply(s, s.seat, E.parse_move(s, s.seat, bot(obs, menu, Stream(0, "b"))))
        seed += 1


def main(count: int = 40) -> None:
    states = list(positions(count))
    print(f"{len(states)} decisions per level (process CPU seconds)")
    print("level  budget(rollouts)  median    max  max rollouts")
    for level, budget in LEVELS.items():
        times, work = [], []
        for i, s in enumerate(states):
            obs, menu = E.observe(s, s.seat), E.legal_moves(s, s.seat)
            t = time.process_time()
            _, spent = decide(E, obs, menu, Stream(i, "bench"), budget)
            times.append(time.process_time() - t)
            work.append(spent.rollouts)
        print(
            f"search:{level}  {budget.rollouts:>16}  {statistics.median(times):6.3f}  "
            f"{max(times):6.3f}  {max(work):>12}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
