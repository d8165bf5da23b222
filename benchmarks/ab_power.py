"""The A/B design's sign-flip permutation test on synthetic seat-swapped pairs: the share of
repeats with p < 0.05 when B's scores carry a known shift (0: the level; above: the power), at
10 to 80 pairs. Scores are skewed (gamma, mean 6), rounded (ties), bounded to 0 … 30, and the
first seat carries a 3-point edge, which the seat swap cancels."""

from __future__ import annotations

import sys

import numpy as np

from cogs_arena.transcripts.evaluation.ab import pair_difference, sign_flip_test

SHIFTS = (0.0, 1.0, 2.0, 4.0)
PAIRS = (10, 20, 40, 80)


def scores(rng: np.random.Generator, n: int, edge: float = 0.0) -> np.ndarray:
    return np.clip(np.round(rng.gamma(2.0, 3.0, size=n) + edge), 0, 30)


def differences(rng: np.random.Generator, n: int, shift: float) -> list[float]:
    out = []
    for _ in range(n):
        a1, b2 = scores(rng, 2, edge=3.0)
        b1, a2 = scores(rng, 2)
        out.append(pair_difference((a1, b1 + shift), (a2, b2 + shift)))
    return out


def main(repeats: int = 500) -> None:
    print(f"share of {repeats} repeats with p < 0.05 (sign-flip test, 2000 draws above 16 pairs)")
    print("shift  " + "  ".join(f"{n:>4} pairs" for n in PAIRS))
    for shift in SHIFTS:
        row = []
        for n in PAIRS:
            rng = np.random.default_rng(n)
            hits = sum(
                sign_flip_test(differences(rng, n, shift), draws=2000, seed=r).p_value < 0.05
                for r in range(repeats)
            )
            row.append(f"{hits / repeats:>10.3f}")
        print(f"{shift:>5}  " + "  ".join(row))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
