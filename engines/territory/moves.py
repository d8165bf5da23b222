"""A Territory move is one seat's whole turn: orders, talk lines and an optional private note.

Canonical text, one item per line:
    claim 3,-2
    raze 0,1
    transfer Ash 5
    say: hello everyone
    say Ash: a private word
    note: my plan
with `hold` in place of the orders when there are none. Parsing also accepts `;` between orders
(a talk or note line runs to the end of its line). An empty text is no move at all (a client that
sent nothing has not chosen to hold); the structured form's empty list is the rules' hold. A talk
line with no text is skipped in both forms, as the reference does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import MalformedMove
from ..protocol import JSON
from .board import ALIAS_INDEX, ALIASES, COORDS

OrderKind = Literal["claim", "raze", "transfer"]


@dataclass(frozen=True, slots=True)
class Order:
    kind: OrderKind
    q: int = 0
    r: int = 0
    to: int = -1
    amount: int = 0

    @property
    def key(self) -> str:
        return f"{self.q},{self.r}"


@dataclass(frozen=True, slots=True)
class Talk:
    to: int | None
    """Recipient seat, None for public."""
    text: str


@dataclass(frozen=True, slots=True)
class TerritoryMove:
    orders: tuple[Order, ...] = ()
    talk: tuple[Talk, ...] = ()
    note: str | None = None


HOLD = TerritoryMove()

SYNTAX = (
    "one item per line (or orders separated by ';'): 'claim Q,R', 'raze Q,R', "
    "'transfer ALIAS AMOUNT', 'hold' for no orders, 'say: TEXT' (public), "
    "'say ALIAS: TEXT' (private to one seat), 'note: TEXT' (private note). "
    "Example: 'claim 4,0; claim 3,1\\nsay: peace to all\\nsay Ash: let us split the east'"
)

_TILE = r"\(?\s*(-?\d+)\s*[,\s]\s*(-?\d+)\s*\)?"
_CLAIM_RAZE = re.compile(rf"^(claim|raze)\s+{_TILE}$", re.IGNORECASE)
_TRANSFER_A = re.compile(r"^transfer\s+(?:to\s+)?([a-z]+)\s*[:,]?\s*(\d+)$", re.IGNORECASE)
_TRANSFER_B = re.compile(r"^transfer\s+(\d+)\s+(?:paint\s+)?to\s+([a-z]+)$", re.IGNORECASE)
_SAY = re.compile(r"^(?:say|talk)(?:\s+(?:to\s+)?([^\s:]+))?\s*:(.*)$", re.IGNORECASE | re.DOTALL)
_SAY_START = re.compile(r"^(?:say|talk)\b", re.IGNORECASE)
_NOTE = re.compile(r"^note\s*:(.*)$", re.IGNORECASE | re.DOTALL)
_NOTE_START = re.compile(r"^note\b", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


CUT_MARK = "…"
"""Ends a talk line cut at the limit: the line keeps exactly `limit` code points, the last one this
mark, so the cut survives the text form and every reader can tell (`talk_was_cut`)."""


def clean_text(text: str, limit: int) -> str:
    """One line of at most `limit` code points, so it survives the line-based text form."""
    return _CONTROL.sub(" ", text).strip()[:limit].rstrip()


def clean_talk(text: str, limit: int) -> str:
    """A talk line: like `clean_text`, but a line over the limit keeps its first `limit` - 1 code
    points and ends with CUT_MARK, so it says it was cut."""
    line = _CONTROL.sub(" ", text).strip()
    if len(line) <= limit:
        return line
    return line[: limit - 1] + CUT_MARK


def talk_was_cut(text: str, limit: int) -> bool:
    """True for a line `clean_talk` cut (a line typed to exactly the limit ending in the mark
    reads the same)."""
    return len(text) == limit and text.endswith(CUT_MARK)


def _bad(what: str) -> MalformedMove:
    return MalformedMove(f"Cannot read {what}.", allowed=SYNTAX)


def _alias(name: str, what: str) -> int:
    seat = ALIAS_INDEX.get(name.strip().lower())
    if seat is None:
        raise MalformedMove(f"Unknown seat alias {name!r} in {what!r}.", allowed=", ".join(ALIASES))
    return seat


def _fast_tile_order(seg: str) -> Order | None:
    """The canonical `claim Q,R` / `raze Q,R` without regular expressions (bots send these)."""
    kind, _, tile = seg.partition(" ")
    if kind not in ("claim", "raze"):
        return None
    q, comma, r = tile.partition(",")
    if not comma:
        return None
    try:
        return Order("claim" if kind == "claim" else "raze", int(q), int(r))
    except ValueError:
        return None


def parse_order(text: str) -> Order | None:
    """One order; None for `hold`."""
    known = _TILE_ORDERS.get(text)
    if known is not None:
        return known
    seg = " ".join(text.split())
    fast = _fast_tile_order(seg)
    if fast is not None:
        return fast
    low = seg.lower()
    if low == "hold":
        return None
    m = _CLAIM_RAZE.match(seg)
    if m:
        kind: OrderKind = "claim" if m.group(1).lower() == "claim" else "raze"
        return Order(kind, int(m.group(2)), int(m.group(3)))
    m = _TRANSFER_A.match(seg)
    if m:
        return Order("transfer", to=_alias(m.group(1), seg), amount=int(m.group(2)))
    m = _TRANSFER_B.match(seg)
    if m:
        return Order("transfer", to=_alias(m.group(2), seg), amount=int(m.group(1)))
    raise _bad(f"the order {seg!r}")


_TILE_ORDERS: dict[str, Order] = {
    f"{kind} {q},{r}": Order(kind, q, r) for kind in ("claim", "raze") for q, r in COORDS
}
"""Canonical claim/raze lines for every tile, parsed once: bots send exactly these, and orders
are immutable so one value serves every move."""


def _talk_to(name: str | None) -> int | None:
    # T14: an unknown alias is treated as public.
    return None if name is None else ALIAS_INDEX.get(name.strip().lower())


def parse_text(text: str, talk_chars: int, note_chars: int) -> TerritoryMove:
    if not text.strip():
        raise MalformedMove(
            "The move is empty; an empty text is not a move.",
            allowed="'hold' for no orders (or moves=[]), or " + SYNTAX,
        )
    orders: list[Order] = []
    talk: list[Talk] = []
    note: str | None = None
    for raw in text.splitlines():
        rest = raw.strip()
        known = _TILE_ORDERS.get(rest)
        if known is not None:
            # A canonical tile order: no talk, note or ';' to look for.
            orders.append(known)
            continue
        while rest:
            if _SAY_START.match(rest):
                m = _SAY.match(rest)
                if not m:
                    raise _bad(f"the talk line {rest!r} (write 'say: TEXT' or 'say ALIAS: TEXT')")
                line = clean_talk(m.group(2), talk_chars)
                if line:
                    talk.append(Talk(_talk_to(m.group(1)), line))
                break
            if _NOTE_START.match(rest):
                m = _NOTE.match(rest)
                if not m:
                    raise _bad(f"the note {rest!r} (write 'note: TEXT')")
                if note is not None:
                    raise _bad("a second note (at most one note per turn)")
                note = clean_text(m.group(1), note_chars) or None
                break
            seg, _, rest = rest.partition(";")
            rest = rest.strip()
            if seg.strip():
                order = parse_order(seg)
                if order is not None:
                    orders.append(order)
    return TerritoryMove(tuple(orders), tuple(talk), note)


def order_text(o: Order) -> str:
    if o.kind == "transfer":
        return f"transfer {ALIASES[o.to]} {o.amount}"
    return f"{o.kind} {o.q},{o.r}"


def talk_text(t: Talk) -> str:
    return f"say: {t.text}" if t.to is None else f"say {ALIASES[t.to]}: {t.text}"


def move_text(move: TerritoryMove) -> str:
    lines = [order_text(o) for o in move.orders] or ["hold"]
    lines.extend(talk_text(t) for t in move.talk)
    if move.note is not None:
        lines.append(f"note: {move.note}")
    return "\n".join(lines)


def order_json(o: Order) -> dict[str, JSON]:
    if o.kind == "transfer":
        return {"type": "transfer", "to": ALIASES[o.to], "amount": o.amount}
    return {"type": o.kind, "tile": o.key}


def move_json(move: TerritoryMove) -> dict[str, JSON]:
    return {
        "orders": [order_json(o) for o in move.orders],
        "talk": [
            {"to": None if t.to is None else ALIASES[t.to], "text": t.text} for t in move.talk
        ],
        "note": move.note,
    }


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool):
        raise _bad(what)
    if isinstance(v, int):
        return v
    if isinstance(v, str) and re.fullmatch(r"\s*-?\d+\s*", v):
        return int(v)
    raise _bad(what)


def _order_from_json(item: Any) -> Order | None:
    if isinstance(item, str):
        return parse_order(item)
    if not isinstance(item, Mapping):
        raise _bad(f"the order {item!r} (an object or a text order)")
    kind = str(item.get("type", item.get("kind", ""))).lower()
    if kind == "hold":
        return None
    if kind in ("claim", "raze"):
        tile = item.get("tile")
        if isinstance(tile, str):
            order = parse_order(f"{kind} {tile}")
            assert order is not None
            return order
        if isinstance(tile, list | tuple) and len(tile) == 2:
            return Order(
                "claim" if kind == "claim" else "raze",
                _int(tile[0], "q"),
                _int(tile[1], "r"),
            )
        if isinstance(tile, Mapping) and "q" in tile and "r" in tile:
            return Order(
                "claim" if kind == "claim" else "raze",
                _int(tile["q"], "q"),
                _int(tile["r"], "r"),
            )
        if "q" in item and "r" in item:
            return Order(
                "claim" if kind == "claim" else "raze", _int(item["q"], "q"), _int(item["r"], "r")
            )
        raise _bad(f'the tile of {dict(item)!r} (use "tile": "Q,R")')
    if kind == "transfer":
        to = item.get("to")
        if not isinstance(to, str):
            raise _bad(f'the recipient of {dict(item)!r} (use "to": "ALIAS")')
        amount = _int(item.get("amount"), f"the amount of {dict(item)!r}")
        if amount < 0:
            raise _bad(f"the amount of {dict(item)!r} (a whole number ≥ 1)")
        return Order("transfer", to=_alias(to, "transfer"), amount=amount)
    raise _bad(f"the order {dict(item)!r} (type must be claim, raze, transfer or hold)")


def move_from_json(data: Any, talk_chars: int, note_chars: int) -> TerritoryMove:
    if isinstance(data, str):
        return parse_text(data, talk_chars, note_chars)
    if isinstance(data, list):
        data = {"orders": data}
    if not isinstance(data, Mapping):
        raise _bad("the move (an object with orders, talk and note)")
    unknown = set(data) - {"orders", "talk", "note"}
    if unknown:
        raise _bad(f"the move: unknown keys {sorted(unknown)} (use orders, talk, note)")
    raw_orders = data.get("orders") or []
    if not isinstance(raw_orders, list):
        raise _bad("orders (a list)")
    orders = [o for o in (_order_from_json(x) for x in raw_orders) if o is not None]
    raw_talk = data.get("talk") or []
    if isinstance(raw_talk, Mapping | str):
        raw_talk = [raw_talk]
    if not isinstance(raw_talk, list):
        raise _bad('talk (a list of {"to": null or ALIAS, "text": TEXT})')
    talk: list[Talk] = []
    for item in raw_talk:
        if isinstance(item, str):
            to, text = None, item
        elif isinstance(item, Mapping) and isinstance(item.get("text"), str):
            raw_to = item.get("to")
            if raw_to is not None and not isinstance(raw_to, str):
                raise _bad(f"the recipient of {dict(item)!r} (null or an alias)")
            to, text = _talk_to(raw_to), item["text"]
        else:
            raise _bad(f'the talk line {item!r} (use {{"to": null, "text": "..."}})')
        line = clean_talk(text, talk_chars)
        if line:
            talk.append(Talk(to, line))
    raw_note = data.get("note")
    if raw_note is not None and not isinstance(raw_note, str):
        raise _bad("note (a string or null)")
    note = clean_text(raw_note, note_chars) or None if raw_note is not None else None
    return TerritoryMove(tuple(orders), tuple(talk), note)
