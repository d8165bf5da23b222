"""`cogs-arena simulate <game> --compare RULES RULES …`: the same series (seeds, bots, rotation)
under each ruleset, and the numbers side by side in one table, one column per ruleset. Built for
Blending's rule eras (issue 14): e.g. `--compare '{}' '{"combat": "three"}' '{"land":
"territories"}'`. Each RULES is a JSON object of overrides on top of `--rules`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

ROWS: tuple[tuple[str, str], ...] = (
    ("rounds", "rounds per game"),
    ("lead_changes", "lead changes per game"),
    ("comebacks", "comebacks (share of games)"),
    ("fights", "fights per game"),
    ("kills", "kills per game"),
    ("bolsters", "bolsters per game"),
    ("guardians_raised", "guardians raised per game"),
    ("hand_limit_losses", "hand-limit losses per game"),
    ("reshuffles", "reshuffles per game"),
    ("games_with_a_player_on_0", "games with a player on 0"),
    ("winner_share_of_points", "winner's share of points"),
    ("winner_over_half", "winner over half the points"),
    ("mean_score", "mean score"),
    ("draw_rate", "shared wins"),
)
"""The rows shown where a game reports them (Blending's fun numbers first); other numbers that
every game has follow (decisions, endings, win rate by seat)."""


def label(overrides: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in overrides.items()) or "defaults"


def table(labels: Sequence[str], results: Sequence[Mapping[str, Any]]) -> list[str]:
    """The numbers of several series side by side."""
    rows: list[tuple[str, list[str]]] = []
    for key, name in ROWS:
        if any(isinstance(r.get(key), int | float) for r in results):
            rows.append((name, [_num(r.get(key)) for r in results]))
    rows.append(("decisions per game", [_num(r["decisions"]["mean"]) for r in results]))
    rows.append(("seconds per game", [_num(r.get("seconds_per_game")) for r in results]))
    seats = len(results[0]["win_rate_by_seat"])
    for seat in range(seats):
        rows.append(
            (f"win rate seat {seat}", [f"{r['win_rate_by_seat'][seat]:.0%}" for r in results])
        )
    for cls in sorted({c for r in results for c in r.get("win_rate_by_class", {})}):
        rows.append(
            (f"win rate {cls}", [f"{r['win_rate_by_class'].get(cls, 0):.0%}" for r in results])
        )
    endings = sorted({e for r in results for e in r["endings"]})
    for ending in endings:
        rows.append((f"ended by {ending}", [f"{r['endings'].get(ending, 0):.0%}" for r in results]))
    width = max(len(name) for name, _ in rows)
    cols = [max(len(f"({i + 1})"), *(len(v[i]) for _, v in rows)) for i in range(len(results))]
    out = [f"games per ruleset: {results[0]['games']}"]
    out += [f"  ({i + 1}) {text}" for i, text in enumerate(labels)]
    out.append(f"{'':<{width}}  " + "  ".join(f"{f'({i + 1})':>{w}}" for i, w in enumerate(cols)))
    for name, values in rows:
        out.append(
            f"{name:<{width}}  " + "  ".join(f"{v:>{w}}" for v, w in zip(values, cols, strict=True))
        )
    return out


def _num(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"
    return str(value)


def run_compare(args: argparse.Namespace) -> int:
    from .numbers import summary
    from .plan import Refused, plan_series, play_series
    from .ray_backend import RayMissing

    try:
        base = json.loads(args.rules)
        sets = [json.loads(text) for text in args.compare]
    except ValueError as exc:
        print(f"simulate: --compare: each ruleset is a JSON object ({exc})", file=sys.stderr)
        return 2
    if not all(isinstance(s, dict) for s in sets) or not isinstance(base, dict):
        print("simulate: --compare: each ruleset is a JSON object", file=sys.stderr)
        return 2
    plans = []
    for overrides in sets:
        try:
            plans.append(
                plan_series(
                    argparse.Namespace(**{**vars(args), "rules": json.dumps({**base, **overrides})})
                )
            )
        except Refused as exc:
            print(f"simulate: --compare {json.dumps(overrides)}: {exc}", file=sys.stderr)
            return 2
    results = []
    for plan in plans:
        started = time.monotonic()
        try:
            records, jobs = play_series(plan, args)
        except RayMissing as exc:
            print(f"simulate: {exc}", file=sys.stderr)
            return 2
        stats = summary(args.game, records)
        stats["seconds_per_game"] = round((time.monotonic() - started) * jobs / len(plan), 3)
        results.append(stats)
    labels = [label({**base, **s}) for s in sets]
    if args.json:
        print(
            json.dumps(
                [{"rules": lab, **r} for lab, r in zip(labels, results, strict=True)], indent=2
            )
        )
    else:
        print("\n".join(table(labels, results)))
    return 0
