"""Per-decision CPU of every Chemistry `search` level.

Run: python benchmarks/bench_search_chemistry.py [--games N]
Plays each level in one seat beside a freeloader and six couriers (the seat rotating game by
game) and times each of the level's decisions (one a shift) with time.process_time(); prints
the median and max ms per decision and the rollouts (its work units) per decision.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cogs_arena.engines import get_engine
from cogs_arena.engines.chemistry import search
from cogs_arena.engines.runner import bot_stream, seat_bots


def _game(level: int, game: int) -> tuple[list[float], list[int]]:
    engine = get_engine("chemistry")
    bots = engine.bots()
    names = seat_bots(["search", "freeloader", *["courier"] * 6], game, True)
    me = names.index("search")
    state = engine.new_game(engine.ruleset(), game)
    times: list[float] = []
    work: list[int] = []
    decision = 0
    while engine.to_act(state):
        moves = {}
        for seat in range(8):
            view = engine.observe(state, seat)
            rng = bot_stream(game, seat, decision)
            if seat == me:
                counter = search.Work()
                start = time.process_time()
                text = search.decide(view, level, rng, counter)
                times.append(time.process_time() - start)
                work.append(counter.rollouts)
            else:
                text = bots[names[seat]](view, engine.legal_moves(state, seat), rng)
            moves[seat] = engine.parse_move(state, seat, text)
        state = engine.apply_batch(state, moves)
        decision += 1
    return times, work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per level")
    args = parser.parse_args()
    print("chemistry search levels beside a freeloader and six couriers; CPU per decision")
    print(f"{'level':>8} {'decisions':>9} {'median ms':>10} {'max ms':>8} {'rollouts':>9}")
    for level in sorted(search.LEVELS):
        times: list[float] = []
        work: list[int] = []
        for game in range(args.games):
            t, w = _game(level, game)
            times += t
            work += w
        budget = search.LEVELS[level].budget(search.MAX_CANDIDATES)
        print(
            f"search:{level} {len(times):>9} {statistics.median(times) * 1000:>10.1f} "
            f"{max(times) * 1000:>8.1f} {max(work):>5}/{budget}"
        )


if __name__ == "__main__":
    main()
