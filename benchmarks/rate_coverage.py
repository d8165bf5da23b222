"""Coverage of `rate`'s 95% interval on synthetic leagues of known strengths: for each size, 100
independent subsets of that many games (disjoint parts of 400-game leagues; Plackett–Luce
rankings drawn from six known utilities, four labels a game), the share of intervals that hold
the true rating anchored at the labels' mean, the median width, and the wall time.

Run: python benchmarks/rate_coverage.py [sizes ...] [--bootstrap N]   (default 10 20 40 100)
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from cogs_arena.transcripts.evaluation.plackett_luce import Ranking
from cogs_arena.transcripts.evaluation.rating import bootstrap_intervals

TRUE = {"a": 1.0, "b": 0.6, "c": 0.2, "d": 0.0, "e": -0.5, "f": -1.3}
LEAGUE = 400


def league(games: int, seats: int, seed: int) -> list[Ranking]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        left = rng.sample(sorted(TRUE), seats)
        order = []
        while left:
            pick = rng.choices(left, weights=[math.exp(TRUE[x]) for x in left])[0]
            left.remove(pick)
            order.append(pick)
        out.append([(label, rank) for rank, label in enumerate(order, start=1)])
    return out


def measure(size: int, rounds: int, subsets: int = 100) -> None:
    mean = sum(TRUE.values()) / len(TRUE)
    per_league = LEAGUE // size
    held, widths, skipped = [], [], 0
    started = time.perf_counter()
    number = 0
    while number * per_league < subsets:
        games = league(LEAGUE, 4, seed=10_000 + number)
        for part in range(min(per_league, subsets - number * per_league)):
            subset = games[part * size : (part + 1) * size]
            intervals, _, why = bootstrap_intervals(subset, rounds, seed=number * 100 + part)
            skipped += why is not None
            for label, (low, high) in intervals.items():
                held.append(low <= TRUE[label] - mean <= high)
                widths.append(high - low)
        number += 1
    wall = time.perf_counter() - started
    coverage = sum(held) / len(held) if held else float("nan")
    width = statistics.median(widths) if widths else float("nan")
    print(
        f"  {size:>4} games: coverage {coverage:6.1%} of {len(held)} intervals, median width "
        f"{width:.3f}, {skipped} subset(s) without an interval, {wall:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[10, 20, 40, 100])
    parser.add_argument("--bootstrap", type=int, default=200)
    args = parser.parse_args()
    print(f"rate coverage, {args.bootstrap} resamples, utilities {TRUE}")
    for size in args.sizes:
        measure(size, args.bootstrap)


if __name__ == "__main__":
    main()
