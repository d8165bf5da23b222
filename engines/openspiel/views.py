"""What each viewer may see: a seat sees what OpenSpiel says that player observes
(`observation_string`, or `information_state_string` where only that exists), never
`str(state)` in a game of imperfect information; a spectator sees the whole state in a game of
perfect information, and in the others only once the game is over. Text and picture read the
view alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from ..jsonread import arr, ints, real
from ..protocol import JSON
from .state import OpenSpielState, pyspiel


def perfect_information(game: Any) -> bool:
    return bool(game.get_type().information == pyspiel().GameType.Information.PERFECT_INFORMATION)


def seat_text(game: Any, inner: Any, seat: int) -> tuple[str, str]:
    """(kind, text) of what `seat` observes now."""
    kind = game.get_type()
    if kind.provides_observation_string:
        return "observation", str(inner.observation_string(seat))
    return "information state", str(inner.information_state_string(seat))


def status(state: OpenSpielState, to_act: tuple[int, ...]) -> dict[str, JSON]:
    inner = state.inner
    over = state.settled is not None or bool(inner.is_terminal())
    out: dict[str, JSON] = {
        "over": over,
        "to_act": list(to_act),
        "players": int(state.game.num_players()),
        "game_string": str(state.game),
    }
    if over:
        out["returns"] = [float(r) for r in inner.returns()]
        out["reason"] = state.settled or "the game's end"
    return out


def observe(
    name: str, state: OpenSpielState, seat: int, to_act: tuple[int, ...]
) -> dict[str, JSON]:
    kind, text = seat_text(state.game, state.inner, seat)
    view: dict[str, JSON] = {
        "game": name,
        "seat": seat,
        **status(state, to_act),
        "view_kind": kind,
        "view": text,
    }
    if perfect_information(state.game):
        # Everything is public here: the history lets an observation-only bot (MCTS) rebuild
        # the position.
        view["history"] = [int(a) for a in state.inner.history()]
    return view


def spectate(
    name: str, state: OpenSpielState, full: bool, to_act: tuple[int, ...]
) -> dict[str, JSON]:
    view: dict[str, JSON] = {"game": name, "seat": None, **status(state, to_act)}
    if full or perfect_information(state.game):
        view["view_kind"] = "state"
        view["view"] = str(state.inner)
        view["history"] = [int(a) for a in state.inner.history()]
    else:
        view["view_kind"] = "hidden"
        view["view"] = "(each seat's cards, dice or moves stay hidden until the game is over)"
    return view


def seat_label(seat: int) -> str:
    return f"P{seat}"


def render(view: Mapping[str, JSON]) -> str:
    seat = view.get("seat")
    who = "spectator" if seat is None else f"you are {seat_label(int(str(seat)))}"
    head = f"{view['game']} ({view['game_string']}), {who}."
    to_act = ints(view.get("to_act") or [])
    if view.get("over"):
        returns = ", ".join(
            f"{seat_label(i)} {real(r):g}" for i, r in enumerate(arr(view.get("returns") or []))
        )
        line = f"Game over ({view.get('reason')}): {returns}."
    elif seat is not None and int(str(seat)) in to_act:
        line = "Your move."
    else:
        line = "Waiting for " + ", ".join(seat_label(s) for s in to_act) + "."
    return f"{head}\n{line}\n{view['view_kind']}:\n{view['view']}"


def picture(view: Mapping[str, JSON]) -> str:
    """The view's text in a monospace block: OpenSpiel draws no boards, and the picture must show
    what the text shows, no more."""
    lines = render(view).splitlines() or [""]
    width = 12 + 8 * max(len(line) for line in lines)
    height = 16 + 18 * len(lines)
    rows = "".join(
        f'<text x="8" y="{20 + 18 * i}">{escape(line)}</text>' for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><rect width="100%" height="100%" fill="#ffffff"/>'
        f'<g font-family="DejaVu Sans Mono, monospace" font-size="13" fill="#111111" '
        f'xml:space="preserve">{rows}</g></svg>'
    )
