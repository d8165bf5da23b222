"""The numbers `cogs-arena simulate` reports: for every game, who wins (per bot and per seat),
mean score and rank per bot, draws, game length and how games end; then each game's own
numbers, read from the outcome's details (Blending keeps the fun numbers of its rules
document). A shared win counts 1/k to each of its k winners."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from ...engines import Outcome
from ...engines.blending import simulate as blending
from ...engines.jsonread import ints, num, obj, texts

Record = Mapping[str, Any]


def _share(scores: Sequence[float]) -> float | None:
    total = sum(scores)
    return round(max(scores) / total, 3) if total > 0 else None


def _influence(state: Any, outcome: Outcome) -> dict[str, Any]:
    details = outcome.details
    area = {k: num(v) for k, v in obj(details["area"]).items()}
    winner = details["winner"]
    total = sum(area.values())
    return {
        "turns": details["turn"],
        "winner_area_share": area[str(winner)] / total if winner is not None and total else None,
        # By colour, not seat: White moves first, which a symmetric (seeded) board cannot offset.
        "colour": "draw" if winner is None else str(winner),
    }


def _territory(state: Any, outcome: Outcome) -> dict[str, Any]:
    details = outcome.details
    start, end = num(details["poolStart"]), num(details["poolEnd"])
    life = texts(details["life"])
    return {
        "turns": details["turnsPlayed"],
        "razes": sum(ints(details["razes"])),
        "eliminated": life.count("eliminated"),
        "pool_lost": 1 - end / start if start else None,
        "winner_share": _share(outcome.scores),
    }


CHEMISTRY_COUNTS = (
    "ticks",
    "shifts",
    "food_made",
    "food_eaten",
    "delivered",
    "misdrops",
    "hoarded",
    "reactions",
    "food_rotted",
    "food_spoiled",
    "cold_events",
)


def _chemistry(state: Any, outcome: Outcome) -> dict[str, Any]:
    details = outcome.details
    numbers: dict[str, Any] = {key: details[key] for key in CHEMISTRY_COUNTS}
    numbers["ending"] = details["ending"]
    numbers["winner_share"] = _share(outcome.scores)
    return numbers


@dataclass(frozen=True)
class GameNumbers:
    of_game: Callable[[Any, Outcome], dict[str, Any]]
    """(final state, outcome) -> the game's own numbers for one game."""
    means: tuple[tuple[str, str], ...] = ()
    """(key, line label): numbers reported as their mean over the games that have one."""
    tallies: tuple[tuple[str, str], ...] = ()
    """(key, line label): categories reported as shares of games."""


GAMES: dict[str, GameNumbers] = {
    "influence": GameNumbers(
        _influence,
        (("turns", "turns per game"), ("winner_area_share", "winner's area share")),
        (("colour", "wins by colour"),),
    ),
    "territory": GameNumbers(
        _territory,
        (
            ("turns", "turns per game"),
            ("razes", "razes per game"),
            ("eliminated", "seats eliminated per game"),
            ("pool_lost", "yield pool lost (share)"),
            ("winner_share", "winner's share of points"),
        ),
    ),
    "chemistry": GameNumbers(
        _chemistry,
        (
            *((key, key.replace("_", " ") + " per game") for key in CHEMISTRY_COUNTS),
            ("winner_share", "winner's share of points"),
        ),
        (("ending", "how the shifts ended"),),
    ),
    "blending": GameNumbers(blending.game_numbers),
}


def game_numbers(game: str, state: Any, outcome: Outcome) -> dict[str, Any]:
    spec = GAMES.get(game)
    return {} if spec is None else spec.of_game(state, outcome)


# ---- over a series ---------------------------------------------------------------------------


def _mean(values: Sequence[float]) -> float | None:
    return round(mean(values), 3) if values else None


def _tally(values: Sequence[Any]) -> dict[str, float]:
    """Each value's share of the games, by value."""
    counts = Counter(str(value) for value in values)
    return {key: round(count / len(values), 3) for key, count in sorted(counts.items())}


def summary(game: str, records: Sequence[Record]) -> dict[str, Any]:
    """Every number of a series: the common ones, then the game's own."""
    n = len(records)
    if not n:
        return {"game": game, "games": 0}
    seats = len(records[0]["scores"])
    seat_wins = [0.0] * seats
    per_bot: dict[str, dict[str, list[float]]] = {}
    for r in records:
        share = 1.0 / len(r["winners"])
        for seat, bot in enumerate(r["bots"]):
            won = share if seat in r["winners"] else 0.0
            seat_wins[seat] += won
            row = per_bot.setdefault(bot, {"win": [], "score": [], "rank": []})
            row["win"].append(won)
            row["score"].append(float(r["scores"][seat]))
            row["rank"].append(float(r["ranks"][seat]))
    decisions = [int(r["decisions"]) for r in records]
    stats: dict[str, Any] = {
        "game": game,
        "games": n,
        "endings": _tally([r["reason"] for r in records]),
        "draw_rate": round(sum(1 for r in records if len(r["winners"]) > 1) / n, 3),
        "decisions": {"mean": _mean(decisions), "min": min(decisions), "max": max(decisions)},
        "bot_errors": sum(int(r.get("bot_errors", 0)) for r in records),
        "win_rate_by_seat": [round(w / n, 3) for w in seat_wins],
        "bots": {
            bot: {
                "seats": len(row["win"]),
                "win_rate": _mean(row["win"]),
                "mean_score": _mean(row["score"]),
                "mean_rank": _mean(row["rank"]),
            }
            for bot, row in sorted(per_bot.items())
        },
    }
    if game == "blending":
        fun = blending.aggregate(records)
        stats.update({k: v for k, v in fun.items() if k not in stats})
        return stats
    spec = GAMES.get(game)
    for key, _ in spec.means if spec else ():
        stats[key] = _mean([float(r[key]) for r in records if r.get(key) is not None])
    for key, _ in spec.tallies if spec else ():
        stats[key] = _tally([r[key] for r in records])
    return stats


def report(stats: Mapping[str, Any]) -> str:
    """The summary as aligned lines of text."""
    if not stats.get("games"):
        return "no games"
    n = stats["games"]
    length = stats["decisions"]
    lines = [
        f"games                      {n}",
        "endings                    " + _shares(stats["endings"]),
        f"draws (shared wins)        {stats['draw_rate']:.0%}",
        f"decisions per game         {length['mean']} (min {length['min']}, max {length['max']})",
    ]
    if stats["bot_errors"]:
        lines.append(f"bot errors (fallbacks)     {stats['bot_errors']}")
    lines.append(
        "win rate by seat           "
        + " ".join(f"{i}:{w:.0%}" for i, w in enumerate(stats["win_rate_by_seat"]))
    )
    spec = GAMES.get(str(stats["game"]))
    if stats["game"] == "blending":
        lines.extend(blending.fun_lines(stats))
    elif spec is not None:
        for key, label in spec.means:
            lines.append(f"{label:<26} {stats[key]}")
        for key, label in spec.tallies:
            lines.append(f"{label:<26} " + _shares(stats[key]))
    width = max(len("bot"), *map(len, stats["bots"]))
    lines.append("")
    lines.append(
        f"{'bot':<{width}} {'seats':>6} {'win rate':>9} {'mean score':>11} {'mean rank':>10}"
    )
    for bot, row in stats["bots"].items():
        lines.append(
            f"{bot:<{width}} {row['seats']:>6} {row['win_rate']:>9.1%} "
            f"{row['mean_score']:>11} {row['mean_rank']:>10}"
        )
    return "\n".join(lines)


def _shares(shares: Mapping[str, float]) -> str:
    return " ".join(f"{key}:{value:.0%}" for key, value in shares.items())
