"""The online openskill fit `rate --method openskill` keeps: labels rated game by game in a fixed
order (ruleset, seed, file), on openskill's own scale (every label starts at mu 25). Its result
depends on the order of the games and its prior holds ratings near 25 while games are few; the
batch Plackett–Luce fit (`plackett_luce`) is the default."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from .plackett_luce import Ranking

START = (25.0, 25.0 / 3.0)
"""openskill's default (mu, sigma): where every label starts."""


def _model() -> PlackettLuce:
    # tau=0: a bot or a model does not change between games, so no drift is added to sigma and
    # more games keep narrowing the estimate.
    return PlackettLuce(tau=0.0)


def fit(matches: Sequence[Ranking]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per label after rating every match in order.

    A label holding several seats of one game is rated once per seat from the same prior; its
    mu moves by the sum of the seats' moves and its precision (1/sigma²) gains what each seat
    gained, as if the seats were games of their own."""
    model = _model()
    state: dict[str, tuple[float, float]] = {}
    for match in matches:
        priors = [state.get(label, (model.mu, model.sigma)) for label, _ in match]
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
        rated = model.rate(teams, ranks=[float(rank) for _, rank in match])
        moved: dict[str, tuple[float, float]] = {}
        for (label, _), (mu, sigma), team in zip(match, priors, rated, strict=True):
            after = team[0]
            dmu, dprec = moved.get(label, (0.0, 0.0))
            moved[label] = (dmu + after.mu - mu, dprec + after.sigma**-2 - sigma**-2)
        for label, (dmu, dprec) in moved.items():
            mu, sigma = state.get(label, (model.mu, model.sigma))
            state[label] = (mu + dmu, (sigma**-2 + max(dprec, 0.0)) ** -0.5)
    return state
