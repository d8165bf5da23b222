"""What a viewer may see of an event: the one place that decides it.

A viewer is a seat index, or `None` for a spectator. Spectators see public events while the game
runs and everything once it is over (`over=True`), as `spectate` shows hidden information only
after the end. A seat sees public events and those whose audience names it; transitions are
public, with the per-viewer texts their `redacted` maps hold (private talk lines and notes are
cut for everyone but their author and recipient).
"""

from __future__ import annotations

from .events import Batch, Event, Move


def may_see(event: Event, viewer: int | None, *, over: bool = False) -> bool:
    if event.audience is None:
        return True
    if viewer is None:
        return over
    return viewer in event.audience


def visible(event: Event, viewer: int | None, *, over: bool = False) -> Event | None:
    """The event as `viewer` sees it, or None when it is not theirs to see."""
    if not may_see(event, viewer, over=over):
        return None
    if viewer is None and over:
        return event
    if isinstance(event, Move):
        if viewer == event.seat or (viewer is None and over):
            return event
        key = "spectator" if viewer is None else str(viewer)
        if key not in event.redacted:
            return event
        shown = event.redacted[key]
        if shown is None:
            return None
        return event.model_copy(update={"move": shown, "redacted": {}})
    if isinstance(event, Batch):
        key = "spectator" if viewer is None else str(viewer)
        moves: dict[str, str] = {}
        for mover, text in event.moves.items():
            if mover == key:
                moves[mover] = text
                continue
            shown = event.redacted.get(mover, {}).get(key, text)
            if shown is not None:
                moves[mover] = shown
        return event.model_copy(update={"moves": moves, "redacted": {}})
    return event


def redactions(
    texts: dict[int, str], shown: dict[int, dict[int | None, str | None]]
) -> dict[str, dict[str, str | None]]:
    """Builds a `redacted` map from each mover's full text and what each viewer is shown;
    only the viewers whose text differs are kept."""
    out: dict[str, dict[str, str | None]] = {}
    for mover, full in texts.items():
        for viewer, text in shown.get(mover, {}).items():
            if text != full:
                key = "spectator" if viewer is None else str(viewer)
                out.setdefault(str(mover), {})[key] = text
    return out
