"""Influence bot-vs-bot speed in-process (no host): games per second and ms per game.

Run: python benchmarks/bench_influence.py [--seeds N]
Prints, per pairing, the median and p90 ms per game over the seeds, games per second at the
median, decisions per game and µs per decision (observe + menu + bot + parse + apply).
"""

from __future__ import annotations

import argparse
import statistics
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots

PAIRINGS = (("greedy", "random"), ("random", "greedy"), ("random", "random"), ("greedy", "greedy"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=30, help="games per pairing (≥ 20)")
    args = parser.parse_args()
    seeds = max(20, args.seeds)
    engine = get_engine("influence")
    ruleset = engine.ruleset()
    play_bots(engine, ruleset, 0, ["greedy", "random"])  # warm the caches and imports
    print(f"influence, default ruleset (11×11), {seeds} seeds per pairing")
    print(
        f"{'White':>7} {'Black':>7} {'median ms':>10} {'p90 ms':>8} {'games/s':>8} "
        f"{'decisions':>10} {'µs/dec':>7} {'White wins':>10} {'draws':>6}"
    )
    for white, black in PAIRINGS:
        times: list[float] = []
        decisions: list[int] = []
        white_wins = draws = 0
        for seed in range(seeds):
            start = time.perf_counter()
            game = play_bots(engine, ruleset, seed, [white, black])
            times.append(time.perf_counter() - start)
            decisions.append(len(game.moves))
            white_wins += game.outcome.winners == (0,)
            draws += len(game.outcome.winners) == 2
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        per_decision = sum(times) / sum(decisions)
        print(
            f"{white:>7} {black:>7} {median * 1e3:>10.1f} {p90 * 1e3:>8.1f} {1 / median:>8.1f} "
            f"{statistics.median(decisions):>10.0f} {per_decision * 1e6:>7.0f} "
            f"{white_wins:>10} {draws:>6}"
        )


if __name__ == "__main__":
    main()
