"""Reading a submitted move the forgiving way, without guessing: a line copied from the menu
(`1. 9,1>8,1`, with or without its description) is taken when its number and notation agree; an
unreadable move is answered with the nearest legal moves; and a batch that reaches a required
discard stops there. A move is never pulled out of prose: only the exact menu-line shape counts."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import Any

from ..engines import MalformedMove
from ..engines.protocol import LegalMoves, MoveInfo
from ..engines.registry import AnyEngine
from .models import Rejection

NEAREST = 5

# Optional spaces, a number, ".", the notation, and optionally the menu's "  - description".
_MENU_LINE = re.compile(r"(\d+)\.[ \t]*(\S(?:[^\n]*?\S)?)(?:[ \t]{2,}-(?:[ \t][^\n]*)?)?")

Menu = Callable[[], Sequence[MoveInfo]]
Legal = Callable[[Any, int], LegalMoves]
"""A seat's legal moves at a state: the engine's, or a session's kept copy of them."""


class Opening:
    """The seat's menu at the decision the call was made for, built on first use: a copied
    menu line refers to it, even in the middle of a batch."""

    def __init__(self, legal: Legal, state: Any, seat: int) -> None:
        self.legal, self.state, self.seat = legal, state, seat
        self.moves: Sequence[MoveInfo] | None = None

    def __call__(self) -> Sequence[MoveInfo]:
        if self.moves is None:
            self.moves = self.legal(self.state, self.seat).moves
        return self.moves


def _squash(text: str) -> str:
    return " ".join(text.split())


def copied_line(text: str, menu: Menu) -> str:
    """The notation a copied menu line stands for, or the text unchanged when it is not in the
    menu-line shape. Raises MalformedMove when the number and the notation disagree."""
    found = _MENU_LINE.fullmatch(text.strip())
    if found is None:
        return text
    number, notation = int(found.group(1)), _squash(found.group(2))
    moves = menu()
    if not 1 <= number <= len(moves):
        raise MalformedMove(
            f"The menu line {text.strip()!r} names entry {number}, but the menu has"
            f" {len(moves)} entries at this decision.",
            allowed=f"the notation alone (e.g. {notation!r}), or number=1..{len(moves)}",
        )
    entry = moves[number - 1].notation
    if _squash(entry) != notation:
        raise MalformedMove(
            f"The menu line {text.strip()!r} does not agree with the menu: it says"
            f" {number}. {notation}, but entry {number} at this decision is {entry!r}."
            " Nothing was applied.",
            allowed=f"number={number} for {entry!r}, or the notation alone for the move you mean",
        )
    return entry


def nearest(text: str, moves: Sequence[MoveInfo]) -> str:
    """Up to NEAREST menu entries most like the text (SequenceMatcher ratio on the notation,
    ties in menu order), as `Nearest legal moves: 3. 9,1>8,1; 7. 9,1>9,2.`; "" if none."""
    given = _squash(text).lower()
    scored = [
        (SequenceMatcher(None, given, m.notation.lower()).ratio(), i, m.notation)
        for i, m in enumerate(moves)
    ]
    best = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))[:NEAREST]
    if not best:
        return ""
    return "Nearest legal moves: " + "; ".join(f"{i + 1}. {n}" for _, i, n in best) + "."


def with_nearest(exc: MalformedMove, text: str, moves: Sequence[MoveInfo]) -> MalformedMove:
    """The engine's error, first and whole, followed by the nearest legal moves."""
    hint = nearest(text, moves)
    if not hint:
        return exc
    return MalformedMove(f"{exc} {hint}")


def discard_required(moves: Sequence[MoveInfo]) -> bool:
    """True when the menu offers nothing but discards (Blending's `loss` and `discard` phases,
    whose every entry is of kind "discard")."""
    return bool(moves) and all(m.kind == "discard" for m in moves)


def is_discard(text: str) -> bool:
    """True when the text is a discard, as notation or as a copied menu line."""
    found = _MENU_LINE.fullmatch(text.strip())
    words = (found.group(2) if found else text).split()
    return bool(words) and words[0].lower() == "discard"


def batch_stop(
    engine: AnyEngine,
    legal: Legal,
    state: Any,
    seat: int,
    index: int,
    form: str,
    batch: Sequence[str] | None,
) -> Rejection | None:
    """Where a sequential batch stops, uncounted, because the seat must discard first and the
    next move is not a discard; None to read the move as usual. The first move of a call is
    always read (a non-discard there is an ordinary rejection)."""
    if not index or batch is None or form != "move" or engine.simultaneous:
        return None
    if is_discard(batch[index]) or seat not in engine.to_act(state):
        return None
    if not discard_required(legal(state, seat).moves):
        return None
    reason = _not_applied_reason(batch[index:])
    return Rejection(index=index, move=batch[index][:200], reason=reason, code="not_applied")


def ended_stop(index: int, batch: Sequence[str], *, over: bool) -> Rejection:
    """Where a batch stops, uncounted, because its earlier moves ended the game (or the seat's
    turn): the moves after them were never the seat's to play."""
    rest = batch[index:]
    shown = ", ".join(repr(v) for v in rest)
    ended = "the game ended" if over else "your turn ended"
    count = f"{len(rest)} move{'' if len(rest) == 1 else 's'} not applied"
    reason = (
        f"Not applied: {shown}; {ended} after move {index}, so {count}. This is not a"
        " rejection: nothing was counted against you."
    )
    return Rejection(index=index, move=batch[index][:200], reason=reason, code="not_applied")


def _not_applied_reason(rest: Sequence[str]) -> str:
    shown = ", ".join(repr(v) for v in rest)
    return (
        f"Not applied: {shown}; a discard is required first (the menu offers only discards)."
        " This is not a rejection: nothing was counted against you. Discard, then send the rest."
    )


def read_move(
    engine: AnyEngine,
    legal: Legal,
    state: Any,
    seat: int,
    form: str,
    value: Any,
    opening: Menu,
) -> Any:
    """One submitted move, read as text (a copied menu line counts as its notation), as a menu
    number, or as structured JSON."""
    if form == "move":
        text = "\n".join(copied_line(line, opening) for line in value.split("\n"))
        try:
            return engine.parse_move(state, seat, text)
        except MalformedMove as exc:
            raise with_nearest(exc, text, legal(state, seat).moves) from None
    if form == "number":
        menu = legal(state, seat)
        if not 1 <= value <= len(menu.moves):
            raise MalformedMove(
                f"Number {value} is not on the menu.",
                allowed=f"1..{len(menu.moves)} (see legal_moves)",
            )
        return engine.parse_move(state, seat, menu.moves[value - 1].notation)
    return engine.move_from_json(state, seat, value)
