"""Issue 23's Blending target: one `search` seat among three builders wins at least half of the
games (a fair share is a quarter). The search seat visits every seat (game g: seat g % 4); a
shared first place counts as a share of a win.

    PYTHONPATH=... python benchmarks/h2h_search_blending.py [GAMES=16] [BOT=search:4] [SEED=1000]
"""

from __future__ import annotations

import sys
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots


def main(games: int, bot: str, first: int) -> None:
    engine = get_engine("blending")
    share = margin = 0.0
    start = time.process_time()
    for g in range(games):
        seat = g % 4
        bots = ["builder"] * 4
        bots[seat] = bot
        scores = play_bots(engine, engine.ruleset(), first + g, bots).outcome.scores
        best = max(scores)
        if scores[seat] == best:
            share += 1 / sum(1 for x in scores if x == best)
        margin += scores[seat] - max(x for i, x in enumerate(scores) if i != seat)
    cpu = (time.process_time() - start) / games
    print(
        f"{bot} among 3 builders, seeds {first}..{first + games - 1}: win share {share:g} of "
        f"{games} ({share / games:.0%}), mean margin over the best builder {margin / games:+.2f}, "
        f"{cpu:.1f} s CPU per game"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    main(
        int(args[0]) if args else 16,
        args[1] if len(args) > 1 else "search:4",
        int(args[2]) if len(args) > 2 else 1000,
    )
