"""Standing orders and raw per-tick actions: their text and JSON forms and checks (the menu is
in `menu.py`).

An order reads `supply resin amber`, `forage`, `forage beryl`, `hoard spark` or `idle`,
optionally followed by a line `say: ...` (at most 80 characters, shown to every seat next shift)
and a line `notes: ...` (at most 320 characters, private; omitted keeps the previous notes).
Reading is lenient where the reference is (rules.md C24): a field the job does not use is dropped
and a line over its limit is cut, and the order carries a notice of each (`Order.notices`).
Under `control: ticks` a move is one action: N, E, S, W, take, drop or wait.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import IllegalMove, MalformedMove
from ..protocol import JSON
from .room import DROP, MOVE_E, MOVE_N, MOVE_S, MOVE_W, SPECIES, TAKE, VATS
from .room import WAIT as WAIT_CODE
from .ruleset import ChemistryRuleset

JOBS = ("supply", "forage", "hoard", "idle")
SAY_MAX = 80
NOTES_MAX = 320

ORDER_SYNTAX = (
    "one line `supply <molecule> <vat>` | `forage [<vat>]` | `hoard <molecule>` | `idle`, "
    "then optionally a line `say: <up to 80 chars>` and a line `notes: <up to 320 chars>` "
    "(longer is cut); e.g. `supply resin amber` or `forage beryl\\nsay: going for food`"
)
ACTION_TEXT = {
    WAIT_CODE: "wait",
    MOVE_N: "N",
    MOVE_E: "E",
    MOVE_S: "S",
    MOVE_W: "W",
    TAKE: "take",
    DROP: "drop",
}
_ACTION_WORDS = {
    "wait": WAIT_CODE,
    "n": MOVE_N,
    "north": MOVE_N,
    "e": MOVE_E,
    "east": MOVE_E,
    "s": MOVE_S,
    "south": MOVE_S,
    "w": MOVE_W,
    "west": MOVE_W,
    "take": TAKE,
    "drop": DROP,
}
ACTION_SYNTAX = "one of N, E, S, W, take, drop, wait"


@dataclass(frozen=True)
class Order:
    job: str
    molecule: int | None = None
    reactor: int | None = None
    say: str = ""
    notes: str | None = None
    """None keeps the seat's previous notes."""
    notices: tuple[str, ...] = field(default=(), compare=False)
    """What reading the order changed without refusing it (a field dropped, a line cut), for
    the answer to the seat. Not part of the order: its text, JSON and equality leave it out."""

    @property
    def head(self) -> str:
        words = [self.job]
        if self.molecule is not None:
            words.append(SPECIES[self.molecule])
        if self.reactor is not None:
            words.append(VATS[self.reactor])
        return " ".join(words)


@dataclass(frozen=True)
class Action:
    code: int


Move = Order | Action


# ---- text ------------------------------------------------------------------------------------

_NOTES_MARK = re.compile(r"(?i)(?:^|(?<=\s))notes\s*:")
_SAY_MARK = re.compile(r"(?i)(?:^|(?<=\s))say\s*:")
_SAY_LINE = re.compile(r"(?im)^\s*say\s*:(.*)$")
_FILLER = {"to", "at", "for", "the", "into", "from", "vat", "reactor", "molecule", "job", "order"}


def order_text(order: Order, *, with_notes: bool = True) -> str:
    lines = [order.head]
    if order.say:
        lines.append(f"say: {order.say}")
    if with_notes and order.notes is not None:
        lines.append(f"notes: {order.notes}")
    return "\n".join(lines)


def move_text(move: Move, *, with_notes: bool = True) -> str:
    if isinstance(move, Action):
        return ACTION_TEXT[move.code]
    return order_text(move, with_notes=with_notes)


CUT_MARK = "…"


def _cut(text: str, limit: int, name: str, notices: list[str]) -> str:
    """C24: a line over `limit` characters keeps its first limit - 1 and ends in CUT_MARK
    (Python slices by code point, so a character is never split)."""
    if len(text) <= limit:
        return text
    notices.append(
        f"`{name}` was {len(text)} characters; it was cut to {limit} (the first {limit - 1} "
        f"and {CUT_MARK!r}). The order stands."
    )
    return text[: limit - 1] + CUT_MARK


def _clean_say(say: str, notices: list[str]) -> str:
    # Newlines and runs of spaces become one space: `say` is one line.
    say = " ".join(say.split())
    if _NOTES_MARK.search(say):
        raise MalformedMove("`say` may not contain `notes:`.", allowed=ORDER_SYNTAX)
    return _cut(say, SAY_MAX, "say", notices)


def _clean_notes(notes: str | None, notices: list[str]) -> str | None:
    if notes is None:
        return None
    return _cut(notes.strip(), NOTES_MAX, "notes", notices) or None


def _split_fields(text: str) -> tuple[str, str, str | None]:
    notes: str | None = None
    mark = _NOTES_MARK.search(text)
    if mark:
        head, notes = text[: mark.start()], text[mark.end() :]
        line = _SAY_LINE.search(notes)
        if line and not _SAY_MARK.search(head):
            head = head + "\nsay:" + line.group(1)
            notes = notes[: line.start()] + notes[line.end() :]
    else:
        head = text
    say = ""
    mark = _SAY_MARK.search(head)
    if mark:
        head, say = head[: mark.start()], head[mark.end() :]
    return head, say, notes


def parse_order(text: str) -> Order:
    """Reads an order's text. Raises MalformedMove on unknown words or bad lengths."""
    head, say, notes = _split_fields(text)
    words = [
        w for w in head.lower().replace(",", " ").replace(":", " ").split() if w not in _FILLER
    ]
    if not words:
        raise MalformedMove("Empty order.", allowed=ORDER_SYNTAX)
    job = words[0]
    if job not in JOBS:
        raise MalformedMove(f"Unknown job {words[0]!r}.", allowed=ORDER_SYNTAX)
    molecule: int | None = None
    reactor: int | None = None
    for word in words[1:]:
        if word in SPECIES:
            if molecule is not None:
                raise MalformedMove("An order names at most one molecule.", allowed=ORDER_SYNTAX)
            molecule = SPECIES.index(word)
        elif word in VATS:
            if reactor is not None:
                raise MalformedMove("An order names at most one vat.", allowed=ORDER_SYNTAX)
            reactor = VATS.index(word)
        else:
            raise MalformedMove(
                f"Unknown word {word!r}; molecules are {', '.join(SPECIES)} and vats are "
                f"{', '.join(VATS)}.",
                allowed=ORDER_SYNTAX,
            )
    notices: list[str] = []
    say = _clean_say(say, notices)
    return Order(job, molecule, reactor, say, _clean_notes(notes, notices), tuple(notices))


def parse_action(text: str) -> Action:
    word = " ".join(text.lower().replace("_", " ").split())
    word = word.removeprefix("move ")
    code = _ACTION_WORDS.get(word)
    if code is None:
        raise MalformedMove(f"Unknown action {text.strip()!r}.", allowed=ACTION_SYNTAX)
    return Action(code)


# ---- JSON -----------------------------------------------------------------------------------


def move_json(move: Move) -> dict[str, JSON]:
    if isinstance(move, Action):
        return {"action": ACTION_TEXT[move.code]}
    out: dict[str, JSON] = {"job": move.job}
    if move.molecule is not None:
        out["molecule"] = SPECIES[move.molecule]
    if move.reactor is not None:
        out["reactor"] = VATS[move.reactor]
    if move.say:
        out["say"] = move.say
    if move.notes is not None:
        out["notes"] = move.notes
    return out


def _name(data: Mapping[str, Any], key: str, names: tuple[str, ...]) -> int | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value.strip().lower() not in names:
        raise MalformedMove(f"`{key}` must be one of {', '.join(names)}.", allowed=ORDER_SYNTAX)
    return names.index(value.strip().lower())


def order_from_json(data: Any) -> Order:
    if isinstance(data, str):
        return parse_order(data)
    if not isinstance(data, Mapping):
        raise MalformedMove("An order is an object or a text.", allowed=ORDER_SYNTAX)
    unknown = set(data) - {"job", "molecule", "reactor", "say", "notes"}
    if unknown:
        raise MalformedMove(f"Unknown keys {sorted(unknown)}.", allowed=ORDER_SYNTAX)
    job = data.get("job")
    if not isinstance(job, str) or job.strip().lower() not in JOBS:
        raise MalformedMove(f"`job` must be one of {', '.join(JOBS)}.", allowed=ORDER_SYNTAX)
    say = data.get("say") or ""
    notes = data.get("notes")
    if not isinstance(say, str) or not (notes is None or isinstance(notes, str)):
        raise MalformedMove("`say` and `notes` are texts.", allowed=ORDER_SYNTAX)
    notices: list[str] = []
    clean_say = _clean_say(say, notices)
    return Order(
        job.strip().lower(),
        _name(data, "molecule", SPECIES),
        _name(data, "reactor", VATS),
        clean_say,
        _clean_notes(notes, notices),
        tuple(notices),
    )


def action_from_json(data: Any) -> Action:
    if isinstance(data, Mapping) and set(data) == {"action"} and isinstance(data["action"], str):
        return parse_action(data["action"])
    if isinstance(data, str):
        return parse_action(data)
    raise MalformedMove('An action is {"action": "N"} or a text.', allowed=ACTION_SYNTAX)


# ---- checks and the menu --------------------------------------------------------------------


UNUSED: dict[str, tuple[str, ...]] = {
    "idle": ("molecule", "vat"),
    "forage": ("molecule",),
    "hoard": ("vat",),
    "supply": (),
}
"""The fields each job does not use; C24 drops them rather than refuse the order."""


def drop_unused(order: Order) -> Order:
    """The order without the fields its job does not use, with a notice naming each."""
    unused = UNUSED[order.job]
    dropped = []
    if "molecule" in unused and order.molecule is not None:
        dropped.append(f"molecule {SPECIES[order.molecule]}")
    if "vat" in unused and order.reactor is not None:
        dropped.append(f"vat {VATS[order.reactor]}")
    if not dropped:
        return order
    molecule = None if "molecule" in unused else order.molecule
    reactor = None if "vat" in unused else order.reactor
    kept = Order(order.job, molecule, reactor)
    notice = (
        f"`{order.job}` uses no {' and no '.join(w.split()[0] for w in dropped)}: "
        f"{' and '.join(dropped)} ignored; the order was read as `{kept.head}`."
    )
    return replace(order, molecule=molecule, reactor=reactor, notices=(notice, *order.notices))


def check_order(ruleset: ChemistryRuleset, order: Order) -> None:
    """Raises IllegalMove when the order's job, molecule and vat do not fit together or the
    variant. A vat absent from the variant is not an error here: it is clamped. Fields the job
    does not use are dropped before this (`drop_unused`)."""
    present = ruleset.species
    names = ", ".join(SPECIES[s] for s in present)
    vats = ", ".join(VATS[v] for v in ruleset.vats)
    if order.molecule is not None and order.molecule not in present:
        raise IllegalMove(
            f"{SPECIES[order.molecule]} is not in this variant ({ruleset.variant}).",
            allowed=f"molecules {names}",
        )
    if order.job == "supply" and (order.molecule is None or order.reactor is None):
        raise IllegalMove(
            "supply needs a molecule and a vat, e.g. `supply resin amber`.",
            allowed=f"molecules {names}; vats {vats}",
        )
    if order.job == "hoard" and order.molecule is None:
        raise IllegalMove(
            "hoard needs a molecule, e.g. `hoard resin`.", allowed=f"molecules {names}"
        )
