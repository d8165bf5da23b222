"""Per-decision CPU of every Influence `search` level.

Run: python benchmarks/bench_search_influence.py [--games N]
Plays each level against `greedy` on seeded openings (colours alternating) and times each of
the level's decisions with time.process_time(); prints the median and max ms per decision and
the rollouts (its work units) per decision.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

from cogs_arena.engines import get_engine
from cogs_arena.engines.influence import search
from cogs_arena.engines.protocol import LazyLegalMoves
from cogs_arena.engines.runner import bot_stream


def _game(level: int, seed: int, seat: int) -> tuple[list[float], list[int]]:
    engine = get_engine("influence")
    ruleset = engine.ruleset_model.model_validate({"opening": "seeded"})
    greedy = engine.bots()["greedy"]
    state = engine.new_game(ruleset, seed)
    times: list[float] = []
    work: list[int] = []
    decision = 0
    while engine.to_act(state):
        mover = engine.to_act(state)[0]
        obs: Mapping[str, Any] = engine.observe(state, mover)
        rng = bot_stream(seed, mover, decision)
        if mover == seat:
            counter = search.Work()
            start = time.process_time()
            text = search.decide(obs, level, rng, counter)
            times.append(time.process_time() - start)
            work.append(counter.rollouts)
        else:
            text = greedy(obs, LazyLegalMoves(partial(engine.legal_moves, state, mover)), rng)
        state = engine.apply(state, mover, engine.parse_move(state, mover, text))
        decision += 1
    return times, work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2, help="games per level (colours alternate)")
    args = parser.parse_args()
    print("influence search levels vs greedy, seeded openings; CPU per decision (process_time)")
    print(f"{'level':>8} {'decisions':>9} {'median ms':>10} {'max ms':>8} {'rollouts':>9}")
    for level in sorted(search.LEVELS):
        times: list[float] = []
        work: list[int] = []
        for game in range(args.games):
            t, w = _game(level, 500 + game, game % 2)
            times += t
            work += w
        print(
            f"search:{level} {len(times):>9} {statistics.median(times) * 1000:>10.1f} "
            f"{max(times) * 1000:>8.1f} {max(work):>5}/{search.LEVELS[level].budget}"
        )


if __name__ == "__main__":
    main()
