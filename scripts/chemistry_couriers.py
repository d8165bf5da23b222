"""Food made and each seat's score in an all-courier Chemistry game, one row per variant.

Eight `courier` bots play one whole game of each of the four variants in-process (no host), with
the default settings and the given seed. The table is the figure issue 19 compares before and
after the kernel settled in `engines/chemistry/rules.md` C24. Run:
`python scripts/chemistry_couriers.py [--seed N]`.
"""

from __future__ import annotations

import argparse

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots

VARIANTS = (
    "two-cycles",
    "two-cycles-distractors",
    "three-cycles",
    "three-cycles-plentiful-distractors",
)


def rows(seed: int) -> list[str]:
    engine = get_engine("chemistry")
    out = ["| variant | ending | ticks | food made | food eaten | scores (seats 0..7) |"]
    out.append("|---|---|---|---|---|---|")
    for variant in VARIANTS:
        game = play_bots(engine, engine.ruleset({"variant": variant}), seed, ["courier"] * 8)
        d = game.outcome.details
        scores = " ".join(str(int(s)) for s in game.outcome.scores)
        out.append(
            f"| {variant} | {d['ending']} | {d['ticks']} | {d['food_made']} | {d['food_eaten']} "
            f"| {scores} |"
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("\n".join(rows(args.seed)))


if __name__ == "__main__":
    main()
