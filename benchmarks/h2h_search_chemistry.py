"""Chemistry head-to-head (issue 23's target): one search seat beside a freeloader and six
couriers, seats rotated a seat a game; how often it eats more than the freeloader.

Run: python benchmarks/h2h_search_chemistry.py [games, default 40] [level, default search:4]
"""

from __future__ import annotations

import sys

from cogs_arena.engines import get_engine
from cogs_arena.engines.runner import play_bots, seat_bots


def head_to_head(games: int, top: str) -> None:
    engine = get_engine("chemistry")
    base = [top, "freeloader", *["courier"] * 6]
    more = 0
    for game in range(games):
        bots = seat_bots(base, game, True)
        scores = play_bots(engine, engine.ruleset(), game, bots).outcome.scores
        more += scores[bots.index(top)] > scores[bots.index("freeloader")]
    print(
        f"head-to-head: {top} beside a freeloader and six couriers (seats rotated, seeds "
        f"0..{games - 1}) ate more than the freeloader in {more}/{games} games"
    )


if __name__ == "__main__":
    head_to_head(
        int(sys.argv[1]) if len(sys.argv) > 1 else 40,
        sys.argv[2] if len(sys.argv) > 2 else "search:4",
    )
