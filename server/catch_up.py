"""What other seats did since a seat last looked, with what each move did (the `news` the
referee keeps beside every transition), for views and log lines."""

from __future__ import annotations

from ..transcripts.events import Batch, Event, Move
from ..transcripts.redact import visible
from .models import SinceEntry
from .sessions import Session
from .store.memory import Store

SINCE_KEPT = 40
"""Entries a view carries at most; older ones are counted, and `log` has them all."""


def move_line(move: str, news: list[str]) -> str:
    """`9,1>8,0: captured 8,0 (was empty) at 4`: the move and what it did."""
    return f"{move}: {'; '.join(news)}" if news else move


def since_last_look(
    store: Store, session: Session, seat: int, events: list[Event]
) -> tuple[list[SinceEntry], int]:
    """Transitions after the seat's last recorded view, as the seat may see them, without its
    own moves (it knows those; their outcome is in its view): every resolve of a simultaneous
    game, and other seats' moves. Returns the newest SINCE_KEPT and how many were left out."""
    record = session.record
    over = record.status == "over"
    seen = record.seats[seat].seen_seq
    found: list[Event] = []
    if seen < record.event_count:  # skip the read when nothing was committed since the look
        found.extend(store.events(record.game_id, seen, viewer=seat, over=over))
    found.extend(events)
    names = [s.name for s in record.seats]
    out: list[SinceEntry] = []
    for event in found:
        shown = visible(event, seat, over=over)
        if isinstance(shown, Move) and shown.seat != seat:
            out.append(SinceEntry(seat=names[shown.seat], move=shown.move, news=shown.news))
        elif isinstance(shown, Batch):
            out.append(SinceEntry(seat=None, move=None, news=shown.news))
    left_out = max(0, len(out) - SINCE_KEPT)
    return out[left_out:], left_out


def since_text(entries: list[SinceEntry], left_out: int) -> list[str]:
    """`Since your last look:`, then each run of one seat's moves under `<seat> played:` and
    each resolved turn under `Turn resolved:`, a move or an outcome a line."""
    if not entries:
        return []
    lines = ["Since your last look:"]
    if left_out:
        lines.append(f"({left_out} earlier moves left out; `log` has them)")
    group: str | None = None
    for entry in entries:
        if entry.move is None:
            group = None
            lines.append("Turn resolved:")
            lines.extend(f"  {line}" for line in entry.news or ["nothing changed hands"])
            continue
        if entry.seat != group:
            group = entry.seat
            lines.append(f"{entry.seat} played:")
        lines.append(f"  {move_line(entry.move, entry.news)}")
    return lines
