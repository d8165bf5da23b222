"""Synthetic paired games for calibrating `transcripts.paired` (tests/test_paired_calibration.py)
and for benchmarks/compare_power.py: seeded numpy draws, no games played.

Each repeat is `pairs` paired games. A seed's deal is shared by A's and B's game (it is what
pairing cancels); each game has its own luck, shared by the label's `seats` seats in it so that
two of them correlate by `within`; each seat adds its own noise. The latent value becomes a score
in the way the games' scores are shaped:

- `skewed`: a long right tail with a floor at 0 (Territory's land counts: a few big winners,
  seats wiped out), whole numbers, capped at 40;
- `tied`: a few whole values 0..3 that A and B often share on one seed (Chemistry's shifts);
- `bounded`: a share in [0, 1] with mass at both ends (Influence's cells owned at the end).

A seat wins when its latent value clears a bar that about one seat in four clears.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FAMILIES = ("skewed", "tied", "bounded")
DEAL = 1.0
"""Standard deviation of the seed's deal, shared by A and B."""


@dataclass(frozen=True)
class Draw:
    """Arrays of shape (repeats, pairs, seats)."""

    score_a: np.ndarray
    score_b: np.ndarray
    win_a: np.ndarray
    win_b: np.ndarray


def _shape(family: str, deal: np.ndarray, play: np.ndarray) -> np.ndarray:
    latent = deal + play
    shaped: np.ndarray
    if family == "skewed":
        shaped = np.clip(np.round(9 + 3 * deal + 8 * (np.exp(0.4 * play) - 1.1)), 0, 40)
    elif family == "tied":
        shaped = np.clip(np.round(1.2 + 0.9 * latent), 0, 3)
    elif family == "bounded":
        shaped = np.clip(0.5 + 0.35 * latent, 0, 1)
    else:
        raise ValueError(f"family {family!r}: one of {', '.join(FAMILIES)}")
    return shaped


def draw(
    rng: np.random.Generator,
    family: str,
    repeats: int,
    pairs: int,
    seats: int = 1,
    within: float = 0.0,
    shift: float = 0.0,
) -> Draw:
    """A vs B where B is A moved by `shift` (in latent standard deviations) on every seat."""
    deal = rng.normal(0, DEAL, (repeats, pairs, seats))

    def side(bonus: float) -> tuple[np.ndarray, np.ndarray]:
        game = rng.normal(0, 1, (repeats, pairs, 1))
        own = rng.normal(0, 1, (repeats, pairs, seats))
        play = np.sqrt(within) * game + np.sqrt(1 - within) * own + bonus
        return _shape(family, deal, play), (deal + play > 1.0).astype(np.float64)

    score_a, win_a = side(shift)
    score_b, win_b = side(0.0)
    return Draw(score_a, score_b, win_a, win_b)
