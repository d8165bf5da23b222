"""The "fun numbers" blending.md reports, for `cogs-arena simulate blending`.

`game_numbers` reads one finished game (its final state's public counters and its outcome);
`aggregate` turns the games' records into the numbers; `fun_lines` prints them.

Definitions:
- rounds: rounds played;
- lead change: the sole leader after a round differs from the previous sole leader (rounds with a
  tie for the lead do not count);
- comeback: the (sole) winner was not among the leaders after the middle round;
- hand-limit losses: draws lost to a full hand plus tiles discarded down to the limit at turn end;
- a player "on 0": some player ends the game with 0 points;
- winner's share: the top score over the sum of all scores (games where someone scored);
- win rates by seat, class and bot: a shared win counts 1/k for each of the k winners.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import mean
from typing import Any

from ..protocol import Outcome, SeriesNumbers
from .state import State
from .tiles import CLASS_NAME

FUN_NUMBERS = (
    "rounds",
    "lead_changes",
    "comebacks",
    "fights",
    "kills",
    "bolsters",
    "hand_limit_losses",
    "games_with_a_player_on_0",
    "winner_share_of_points",
    "win_rate_by_seat",
    "win_rate_by_class",
)
"""The numbers blending.md reports, as `aggregate` names them."""


def _leaders(scores: Sequence[int]) -> set[int]:
    top = max(scores)
    return {i for i, x in enumerate(scores) if x == top}


def game_numbers(state: State, outcome: Outcome) -> dict[str, Any]:
    """One finished game's contribution to the fun numbers, however it was played."""
    st = state.stats
    final = [int(x) for x in outcome.scores]
    lead_changes = 0
    last: int | None = None
    for scores in st.round_scores:
        lead = _leaders(scores)
        if len(lead) == 1:
            (who,) = lead
            if last is not None and who != last:
                lead_changes += 1
            last = who
    winners = list(outcome.winners)
    comeback = False
    if len(winners) == 1 and st.round_scores:
        middle = st.round_scores[(len(st.round_scores) - 1) // 2]
        comeback = winners[0] not in _leaders(middle)
    total = sum(final)
    return {
        "scores": final,
        "winners": winners,
        "rounds": len(st.round_scores),
        "lead_changes": lead_changes,
        "comeback": comeback,
        "fights": st.fights,
        "kills": st.kills,
        "bolsters": st.bolsters,
        "guardians": st.guardians,
        "draws_lost": st.draws_lost,
        "limit_discards": st.limit_discards,
        "reshuffles": st.reshuffles,
        "someone_on_zero": min(final) == 0,
        "winner_share": (max(final) / total) if total else None,
    }


def aggregate(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    n = len(records)
    if not n:
        return {"games": 0}
    players = len(records[0]["scores"])

    def avg(key: str) -> float:
        return round(mean(float(r[key]) for r in records), 3)

    seat_wins = [0.0] * players
    class_wins: dict[str, float] = {}
    class_games: dict[str, int] = {}
    bot_wins: dict[str, float] = {}
    bot_games: dict[str, int] = {}
    for r in records:
        share = 1.0 / len(r["winners"])
        for seat in range(players):
            cls = CLASS_NAME[seat % 3]
            bot = r["bots"][seat]
            class_games[cls] = class_games.get(cls, 0) + 1
            bot_games[bot] = bot_games.get(bot, 0) + 1
            won = share if seat in r["winners"] else 0.0
            seat_wins[seat] += won
            class_wins[cls] = class_wins.get(cls, 0.0) + won
            bot_wins[bot] = bot_wins.get(bot, 0.0) + won
    shares = [r["winner_share"] for r in records if r["winner_share"] is not None]
    return {
        "games": n,
        "rounds": avg("rounds"),
        "rounds_max": max(r["rounds"] for r in records),
        "lead_changes": avg("lead_changes"),
        "lead_changes_max": max(r["lead_changes"] for r in records),
        "comebacks": round(sum(1 for r in records if r["comeback"]) / n, 3),
        "fights": avg("fights"),
        "kills": avg("kills"),
        "bolsters": avg("bolsters"),
        "guardians_raised": avg("guardians"),
        "hand_limit_losses": round(mean(r["draws_lost"] + r["limit_discards"] for r in records), 3),
        "draws_lost": avg("draws_lost"),
        "limit_discards": avg("limit_discards"),
        "reshuffles": avg("reshuffles"),
        "games_with_a_player_on_0": round(sum(1 for r in records if r["someone_on_zero"]) / n, 3),
        "winner_share_of_points": round(mean(shares), 3) if shares else None,
        "winner_over_half": round(sum(1 for x in shares if x > 0.5) / n, 3),
        "win_rate_by_seat": [round(w / n, 3) for w in seat_wins],
        "win_rate_by_class": {
            c: round(class_wins[c] / class_games[c], 3) for c in sorted(class_games)
        },
        "win_rate_by_bot": {b: round(bot_wins[b] / bot_games[b], 3) for b in sorted(bot_games)},
        "mean_score": avg_scores(records),
        "decisions": avg("decisions"),
    }


def avg_scores(records: Sequence[Mapping[str, Any]]) -> float:
    return round(mean(float(mean(r["scores"])) for r in records), 3)


def fun_lines(stats: Mapping[str, Any]) -> list[str]:
    """The lines only Blending has (a host prints games and win rates its own way)."""
    return [
        f"rounds per game            {stats['rounds']} (max {stats['rounds_max']})",
        f"lead changes per game      {stats['lead_changes']} (max {stats['lead_changes_max']})",
        f"comebacks                  {stats['comebacks']:.0%} of games",
        f"fights per game            {stats['fights']}",
        f"kills per game             {stats['kills']}",
        f"bolsters per game          {stats['bolsters']}",
        f"guardians raised per game  {stats['guardians_raised']}",
        f"hand-limit losses per game {stats['hand_limit_losses']} "
        f"({stats['draws_lost']} draws lost, {stats['limit_discards']} discards)",
        f"games with a player on 0   {stats['games_with_a_player_on_0']:.0%}",
        f"winner's share of points   {stats['winner_share_of_points']} "
        f"(over half in {stats['winner_over_half']:.0%} of games)",
        "win rate by class          "
        + " ".join(f"{c}:{w:.0%}" for c, w in stats["win_rate_by_class"].items()),
    ]


NUMBERS = SeriesNumbers(game_numbers, aggregate=aggregate, lines=fun_lines)
