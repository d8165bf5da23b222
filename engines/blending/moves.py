"""Blending moves: one small frozen dataclass, a canonical text and a JSON form.

Notation (case and extra spaces are forgiven):

    walk N                 setup: walk out north (N E S W; NE SE SW NW for seats 5-8)
    move 2,-1              one step of your hero to the square x=2, y=-1
    place t17 3,-1         lay single t17 on square 3,-1 (blank, or a primer on the same land)
    place t42 2,-2 r90     lay blend t42 over the 2x2 block whose top-left square is 2,-2,
                           turned 90 degrees clockwise
    more t4                main action "move more": pay t4 for one extra move (repeatable)
    fight G2               main action: fight guardian G2 (the match)
    bolster t4 G2          main action: put t4 at the bottom of G2's pile
    guardian               main action: raise a guardian on your hero's square (then pick 3)
    swap                   main action: swap tiles (then pick them, then done)
    pick t4                choose a tile for the guardian pile / swap / rebuild
    done                   finish picking the tiles to swap
    skip                   after a kill: do not rebuild a guardian there
    lay t5@2 slice         in a fight: lay t5 against row position 2 as slice/shoot/cast
    flip                   in a fight: flip the next laid pair
    stop                   in a fight: stop fighting
    discard t4             discard t4 (after a lost pair, or down to the hand limit)
    end                    end your turn (pass)

Older eras (rules.md BE decisions) add:
    pick t4 cast           combat 'three': pick t4 for a pile, turned to show cast (BE4)
    bolster t4 G2 cast     combat 'three': bolster with t4 turned to show cast
    lay t5@1 slice         combat 'three': commit t5 as your 1st of 3 strikes, as slice
    strike t5 / escape t5  combat 'legacy': play t5 face down to attack, or to escape
    announce slice         combat 'legacy': name your tile's kind after the reveal
    duel 2                 combat 'legacy' with combat_pvp: fight seat 2's hero
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import MalformedMove
from ..protocol import JSON
from .tiles import KIND_NAME, LAND_LETTER, LAND_NAME

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "E": (1, 0),
    "S": (0, 1),
    "W": (-1, 0),
    "NE": (1, -1),
    "SE": (1, 1),
    "SW": (-1, 1),
    "NW": (-1, -1),
}

SYNTAX = (
    "walk N | move X,Y | place tID X,Y [rROT] | more tID | fight G# | bolster tID G# | guardian | "
    "swap | pick tID | done | skip | lay tID@POS slice|shoot|cast | flip | stop | discard tID | end"
    " (older eras: pick tID KIND | bolster tID G# KIND | strike tID | escape tID | announce KIND |"
    " duel SEAT)"
)

NO_ARG = ("guardian", "swap", "done", "skip", "flip", "stop", "end")


@dataclass(frozen=True)
class Move:
    verb: str
    tile: int = 0
    x: int = 0
    y: int = 0
    rot: int = -1
    """-1 for a single (no rotation); 0/90/180/270 for a blend."""
    gid: int = 0
    pos: int = 0
    """1-based row position in a fight."""
    kind: int = -1
    dir: str = ""


def text(m: Move) -> str:
    v = m.verb
    if v == "walk":
        return f"walk {m.dir}"
    if v == "move":
        return f"move {m.x},{m.y}"
    if v == "place":
        base = f"place t{m.tile} {m.x},{m.y}"
        return base if m.rot < 0 else f"{base} r{m.rot}"
    kind = f" {KIND_NAME[m.kind]}" if m.kind >= 0 else ""
    if v == "pick":
        return f"pick t{m.tile}{kind}"
    if v in ("more", "discard", "strike", "escape"):
        return f"{v} t{m.tile}"
    if v == "fight":
        return f"fight G{m.gid}"
    if v == "bolster":
        return f"bolster t{m.tile} G{m.gid}{kind}"
    if v == "announce":
        return f"announce {KIND_NAME[m.kind]}"
    if v == "duel":
        return f"duel {m.pos}"
    if v == "lay":
        return f"lay t{m.tile}@{m.pos} {KIND_NAME[m.kind]}"
    return v


def _bad(raw: str, why: str) -> MalformedMove:
    return MalformedMove(
        f"Cannot read {raw!r}: {why}.",
        allowed=f"{SYNTAX} (e.g. 'place t17 3,-1' or 'lay t5@2 slice')",
    )


def _tile(word: str, raw: str) -> int:
    m = re.fullmatch(r"t?(\d+)", word)
    if not m or int(m.group(1)) < 1:
        raise _bad(raw, f"{word!r} is not a tile id like t17")
    return int(m.group(1))


def _gid(word: str, raw: str) -> int:
    m = re.fullmatch(r"g?(\d+)", word)
    if not m:
        raise _bad(raw, f"{word!r} is not a guardian id like G2")
    return int(m.group(1))


def _xy(word: str, raw: str) -> tuple[int, int]:
    m = re.fullmatch(r"\(?(-?\d+),(-?\d+)\)?", word)
    if not m:
        raise _bad(raw, f"{word!r} is not a square like 3,-1")
    return int(m.group(1)), int(m.group(2))


def kind_code(word: str) -> int | None:
    w = word.lower()
    for code in range(3):
        if w in (KIND_NAME[code], LAND_LETTER[code].lower(), LAND_NAME[code].lower()):
            return code
    aliases = {"sword": 0, "arrow": 1, "magic": 2}
    return aliases.get(w)


def _kind(word: str, raw: str) -> int:
    kind = kind_code(word)
    if kind is None:
        raise _bad(raw, "the kind must be slice, shoot or cast")
    return kind


@lru_cache(maxsize=4096)
def parse(raw: str) -> Move:
    """Reads text into a Move (remembered: a game repeats the same few hundred texts, and a Move
    is immutable). Blend rotations left out come back as rot=-2 for the engine to fill
    in from the spot (the only one that matches)."""
    cleaned = re.sub(r"\s*,\s*", ",", raw.strip().lower())
    cleaned = re.sub(r"\s*@\s*", "@", cleaned)
    words = cleaned.split()
    if not words:
        raise _bad(raw, "it is empty")
    verb, args = words[0], words[1:]
    if verb in ("pass",):
        verb = "end"
    if verb in NO_ARG:
        if args:
            raise _bad(raw, f"'{verb}' takes nothing after it")
        return Move(verb)
    if verb == "walk" and len(args) == 1 and args[0].upper() in DIRECTIONS:
        return Move("walk", dir=args[0].upper())
    if verb == "move" and len(args) == 1:
        x, y = _xy(args[0], raw)
        return Move("move", x=x, y=y)
    if verb == "place" and len(args) in (2, 3):
        tile = _tile(args[0], raw)
        x, y = _xy(args[1], raw)
        rot = -2
        if len(args) == 3:
            m = re.fullmatch(r"r?(\d+)", args[2])
            if not m or int(m.group(1)) not in (0, 90, 180, 270):
                raise _bad(raw, "the rotation must be r0, r90, r180 or r270")
            rot = int(m.group(1))
        return Move("place", tile=tile, x=x, y=y, rot=rot)
    if verb in ("more", "pick", "discard", "strike", "escape") and len(args) == 1:
        return Move(verb, tile=_tile(args[0], raw))
    if verb == "pick" and len(args) == 2:
        return Move(verb, tile=_tile(args[0], raw), kind=_kind(args[1], raw))
    if verb == "fight" and len(args) == 1:
        return Move("fight", gid=_gid(args[0], raw))
    if verb == "bolster" and len(args) in (2, 3):
        tile, gid = _tile(args[0], raw), _gid(args[1], raw)
        return Move("bolster", tile=tile, gid=gid, kind=_kind(args[2], raw) if args[2:] else -1)
    if verb == "announce" and len(args) == 1:
        return Move(verb, kind=_kind(args[0], raw))
    if verb == "duel" and len(args) == 1 and args[0].removeprefix("seat").isdigit():
        return Move(verb, pos=int(args[0].removeprefix("seat")))
    if verb == "lay" and len(args) == 2 and "@" in args[0]:
        tile_word, pos_word = args[0].split("@", 1)
        if not pos_word.isdigit() or int(pos_word) < 1:
            raise _bad(raw, "the row position must be a number from 1")
        return Move("lay", tile=_tile(tile_word, raw), pos=int(pos_word), kind=_kind(args[1], raw))
    raise _bad(raw, "unknown verb or wrong arguments")


def to_json(m: Move) -> dict[str, JSON]:
    out: dict[str, JSON] = {"verb": m.verb}
    if m.verb == "walk":
        out["dir"] = m.dir
    if m.verb in ("place", "more", "pick", "discard", "bolster", "lay", "strike", "escape"):
        out["tile"] = f"t{m.tile}"
    if m.verb in ("move", "place"):
        out["at"] = [m.x, m.y]
    if m.verb == "place" and m.rot >= 0:
        out["rot"] = m.rot
    if m.verb in ("fight", "bolster"):
        out["guardian"] = f"G{m.gid}"
    if m.verb == "lay":
        out["pos"] = m.pos
    if m.verb == "duel":
        out["seat"] = m.pos
    if m.kind >= 0:
        out["kind"] = KIND_NAME[m.kind]
    return out


def from_json(data: Any) -> Move:
    """Accepts the structured form ({"verb": ..., ...}) or plain text."""
    if isinstance(data, str):
        return parse(data)
    if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
        raise _bad(str(data), "expected an object with a 'verb' (or the move's text)")
    parts = [data["verb"]]
    try:
        if "dir" in data:
            parts.append(str(data["dir"]))
        if "tile" in data:
            tile = str(data["tile"])
            parts.append(f"{tile}@{data['pos']}" if data["verb"] == "lay" else tile)
        if "at" in data:
            x, y = data["at"]
            parts.append(f"{int(x)},{int(y)}")
        if "rot" in data:
            parts.append(f"r{int(data['rot'])}")
        if "guardian" in data:
            parts.append(str(data["guardian"]))
        if "seat" in data:
            parts.append(str(int(data["seat"])))
        if "kind" in data:
            parts.append(str(data["kind"]))
    except (KeyError, TypeError, ValueError):
        raise _bad(str(data), "a field has the wrong shape") from None
    return parse(" ".join(parts))
