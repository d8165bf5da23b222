"""The seeded Territory bots: `homesteader-seeded`, `raider-seeded`, `diplomat-seeded` and
`settler-seeded` play as
their namesakes but break every tie (equally rich and dear tiles, rivals of equal score, equal
grievances) in an order drawn from the decision's seeded stream, so that a seed changes the
game. The namesakes keep the reference's tie order (by tile key, by seat)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..protocol import JSON, Bot, LegalMoves
from ..rng import Stream
from .board import KEY_RANK
from .bots import Ties, play_diplomat, play_homesteader, play_raider, play_settler


def drawn_ties(obs: Mapping[str, Any], rng: Stream) -> Ties:
    """A tie order over the tiles and one over the seats, drawn from the stream."""
    return Ties(
        tiles=rng.shuffled(range(len(KEY_RANK))),
        seats=rng.shuffled(range(len(obs["seats"]))),
    )


def _seeded(play: Callable[[Mapping[str, Any], Ties], str]) -> Bot:
    def bot(obs: Mapping[str, JSON], menu: LegalMoves, rng: Stream) -> str:
        return play(obs, drawn_ties(obs, rng))

    bot.__doc__ = f"{play.__name__.removeprefix('play_')} with ties drawn from the stream."
    return bot


SEEDED_BOTS: dict[str, Bot] = {
    "homesteader-seeded": _seeded(play_homesteader),
    "raider-seeded": _seeded(play_raider),
    "diplomat-seeded": _seeded(play_diplomat),
    "settler-seeded": _seeded(play_settler),
}
