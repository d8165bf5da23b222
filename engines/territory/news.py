"""What one resolved turn did, in lines every seat may read: the public events the resolve
wrote (razes, smears, transfers, strikes, eliminations) and the claims seen on the board."""

from __future__ import annotations

from .board import ALIASES, KEYS
from .state import TerritoryState


def news(before: TerritoryState, after: TerritoryState) -> tuple[str, ...]:
    gained: dict[int, list[str]] = {}
    for tile, (was, now) in enumerate(zip(before.owner, after.owner, strict=True)):
        if now >= 0 and now != was:
            gained.setdefault(now, []).append(KEYS[tile])
    turn = before.turn
    claims = tuple(
        f"T{turn}: {ALIASES[seat]} took {', '.join(tiles)}"
        for seat, tiles in sorted(gained.items())
    )
    return claims + after.events[len(before.events) :]
