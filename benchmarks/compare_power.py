"""Power of `compare` for a known difference: how often its 95% interval for A − B lies wholly
above 0 when A is better, at 10, 20, 40, 80 and 160 distinct paired games, and how often it
leaves out 0 when A is B (the false-claim rate, 5% promised). Synthetic paired games from
tests/paired_synthetic.py (seeded), through the same functions `compare` uses
(transcripts/paired.py): the per-game mean over the label's seats, the t-interval, Newcombe's
paired win-rate interval.

The difference: A's every seat is moved up by `--shift` latent standard deviations (0.5 by
default: for one seat a game that is an effect size d_z of about 0.35, a modest but real gain).

Run: python benchmarks/compare_power.py [--shift 0.5] [--repeats 2000] [--family skewed]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from paired_synthetic import FAMILIES, draw

from cogs_arena.transcripts.evaluation.paired import by_game, newcombe_paired, t_interval

SIZES = (10, 20, 40, 80, 160)
DESIGNS = ((1, 0.0, "1 seat a game"), (4, 0.4, "4 seats a game, within-game r = 0.4"))


def _per_game(values: np.ndarray) -> np.ndarray:
    repeats, pairs, seats = values.shape
    games = np.repeat(np.arange(repeats * pairs), seats)
    return by_game(values.ravel(), games).reshape(repeats, pairs)


def rates(
    rng: np.random.Generator,
    family: str,
    repeats: int,
    pairs: int,
    seats: int,
    within: float,
    shift: float,
) -> tuple[float, float, float]:
    """(score interval above 0, win interval above 0, mean effect size d_z)."""
    d = draw(rng, family, repeats, pairs, seats, within, shift)
    diffs = _per_game(d.score_a - d.score_b)
    low, _ = t_interval(diffs)
    win_low, _ = newcombe_paired(_per_game(d.win_a), _per_game(d.win_b), seats)
    effect = diffs.mean(axis=-1) / diffs.std(axis=-1, ddof=1)
    return float((low > 0).mean()), float((win_low > 0).mean()), float(np.nanmean(effect))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shift", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--family", choices=FAMILIES, default="skewed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    started = time.monotonic()
    print(
        f"{args.family} scores, A shifted by {args.shift} latent SD, {args.repeats} repeats; "
        "power = share of repeats whose 95% interval lies above 0; A vs A = share leaving out 0"
    )
    print("| paired games | design | d_z | power, score | power, win rate | A vs A, score |")
    print("|---:|---|---:|---:|---:|---:|")
    for pairs in SIZES:
        for seats, within, name in DESIGNS:
            score, win, effect = rates(
                rng, args.family, args.repeats, pairs, seats, within, args.shift
            )
            null = draw(rng, args.family, args.repeats, pairs, seats, within)
            null_low, null_high = t_interval(_per_game(null.score_a - null.score_b))
            false = float(((null_low > 0) | (null_high < 0)).mean())
            print(f"| {pairs} | {name} | {effect:.2f} | {score:.0%} | {win:.0%} | {false:.1%} |")
    print(f"({time.monotonic() - started:.1f} s)")


if __name__ == "__main__":
    main()
