"""`search`, `search:1` ... `search:4`: rollouts over sampled states, the builder playing on.

At a decision of its own turn (the `turn` phase) the bot weighs a few candidate moves: the
builder's own choice, ending the turn, every fight, raise, swap and step on the menu, the best
bolsters and the placements the builder values most. For each of `samples` states consistent
with its observation (sampling.py: rivals' hands, the stock and the seed drawn from the
decision's stream) it applies each candidate and lets the builder play every seat for the
level's horizon (1 or 2 rounds past the current one), scoring the candidate by its margin over
the best rival as if the game ended there (a lead worth a bonus).
The same sampled states serve every candidate, so their differences are the moves'. Fights,
picks, discards and the setup walk are the builder's (they follow from the turn's choice).
Work is counted in rollouts (one candidate played out from one sample), never in time.

Older rule eras (`combat` or `territories` in the view) are the builder's alone: the sampler
reads only the current rules' view. The sampled states assume the default ruleset for the fields
a view does not show; a candidate those defaults make illegal is never chosen (the builder's own
choice, always on the real menu, is the first candidate), and a view the sampler cannot account
for at all gets the builder's choice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..errors import IllegalMove
from ..protocol import Bot, LazyLegalMoves, LegalMoves
from ..rng import Stream
from . import views
from .bot_view import BoardView
from .bots import _candidates, builder_bot
from .sampling import sample_state
from .scoring import totals
from .state import State

_NO_DRAWS = Stream(0, "blending/search/builder")
"""The builder draws nothing; it is handed this stream so no decision's draws are spent on it."""

WIN_BONUS = 4.0
"""A rollout's value is its margin over the best rival, plus this when the seat wins outright."""


@dataclass(frozen=True)
class Budget:
    candidates: int
    """At most this many moves are weighed (the builder's choice always among them)."""
    samples: int
    """Sampled states per candidate: rollouts = candidates x samples at most."""
    placements: int
    """Of the candidates, at most this many placements (the builder's best valued)."""
    horizon: int
    """Rounds a rollout plays past the current one before it is scored as if the game ended
    there (the final round always plays out)."""

    @property
    def rollouts(self) -> int:
        return self.candidates * self.samples


LEVELS: dict[int, Budget] = {
    1: Budget(candidates=3, samples=2, placements=1, horizon=1),
    2: Budget(candidates=5, samples=3, placements=2, horizon=1),
    3: Budget(candidates=7, samples=3, placements=2, horizon=2),
    4: Budget(candidates=9, samples=4, placements=3, horizon=2),
}
DEFAULT_LEVEL = 4


@dataclass
class Work:
    """What one decision spent, for tests and benchmarks."""

    rollouts: int = 0
    decisions: int = 0
    """Builder decisions played inside rollouts."""


def candidates(obs: Mapping[str, Any], menu: LegalMoves, budget: Budget) -> list[str]:
    """The moves worth a rollout, the builder's choice first, all on the menu."""
    first = builder_bot(obs, menu, _NO_DRAWS)
    notes = [m.notation for m in menu.moves]
    kinds: dict[str, list[str]] = {}
    for m in menu.moves:
        kinds.setdefault(m.kind, []).append(m.notation)
    out = [first]

    def add(note: str) -> None:
        if note not in out and len(out) < budget.candidates:
            out.append(note)

    for kind in ("fight", "guardian", "end"):
        for note in kinds.get(kind, []):
            add(note)
    v = BoardView(obs)
    legal = set(notes)
    placements = [n for _, n in _candidates(v, bool(obs["turn"]["placed"])) if n in legal]
    for note in placements[: budget.placements]:
        add(note)
    for note in kinds.get("move", []):
        add(note)
    for note in kinds.get("bolster", [])[:2]:
        add(note)
    for note in kinds.get("swap", []):
        add(note)
    return out


def _play_out(engine: Any, state: State, work: Work, horizon: int) -> float:
    """Plays every seat with the builder to the end of round `horizon` past the current one (or
    the game); the seat's margin over the best rival then, scored as if the game ended."""
    me = state.seat
    s = state
    last = state.round + horizon
    while s.phase != "over" and s.round <= last:
        obs = views.view(s, s.seat, full=False)
        note = builder_bot(obs, LazyLegalMoves(partial(engine.legal_moves, s, s.seat)), _NO_DRAWS)
        s = engine.apply(s, s.seat, engine.parse_move(s, s.seat, note))
        work.decisions += 1
    scores = totals(s)
    best = max(x for i, x in enumerate(scores) if i != me)
    return scores[me] - best + (WIN_BONUS if scores[me] > best else 0.0)


def decide(
    engine: Any, obs: Mapping[str, Any], menu: LegalMoves, rng: Stream, budget: Budget
) -> tuple[str, Work]:
    """The move and the work it took; `engine` (the Blending engine) applies the moves."""
    work = Work()
    if obs["phase"] != "turn" or "combat" in obs or "territories" in obs:
        return builder_bot(obs, menu, rng), work
    moves = candidates(obs, menu, budget)
    if len(moves) == 1:
        return moves[0], work
    totals_by_move = [0.0] * len(moves)
    for _ in range(budget.samples):
        try:
            base = sample_state(obs, rng)
        except ValueError:  # a view the sampler cannot account for: the builder's choice
            return moves[0], work
        for i, note in enumerate(moves):
            try:
                s = engine.apply(base, base.seat, engine.parse_move(base, base.seat, note))
            except IllegalMove:
                # a ruleset field the view does not show (spacing, pile size) differs from the
                # default the sample assumes: the move cannot be weighed, so it is not chosen
                totals_by_move[i] = -math.inf
                continue
            totals_by_move[i] += _play_out(engine, s, work, budget.horizon)
            work.rollouts += 1
    # ties keep the earlier candidate: the builder's choice first
    best = max(range(len(moves)), key=lambda i: (totals_by_move[i], -i))
    return moves[best], work


def search_bots(engine: Any) -> dict[str, Bot]:
    """`search` (the strongest level) and `search:1` ... `search:4`, playing through `engine`
    (handed in by engine.py, which registers them, so this module never imports it)."""

    def level_bot(budget: Budget) -> Bot:
        def bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
            return decide(engine, obs, menu, rng, budget)[0]

        return bot

    return {
        "search": level_bot(LEVELS[DEFAULT_LEVEL]),
        **{f"search:{level}": level_bot(budget) for level, budget in LEVELS.items()},
    }
