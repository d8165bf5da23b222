"""The small edits every Blending transition makes on its (already cloned) state: the public
log, the statistics, a seat's hand, and draws from the stock."""

from __future__ import annotations

from ..rng import Stream
from .eras import may_reshuffle, note_draw
from .state import State, Stats
from .tiles import CLASS_HOME, describe

LOG_KEEP = 16


def home(seat: int) -> int:
    return CLASS_HOME[seat % 3]


def tile_name(s: State, tile: int) -> str:
    return f"t{tile} ({describe(s.faces[tile - 1])})"


def with_log(s: State, line: str) -> None:
    s.log = (*s.log[-(LOG_KEEP - 1) :], line)


def bump(s: State, **changes: int) -> None:
    st = s.stats
    values = {k: getattr(st, k) + v for k, v in changes.items()}
    s.stats = Stats(**{**st.__dict__, **values})


def set_hand(s: State, seat: int, hand: tuple[int, ...] | list[int]) -> None:
    hands = list(s.hands)
    hands[seat] = tuple(sorted(hand))
    s.hands = tuple(hands)


def take_from_hand(s: State, seat: int, tile: int) -> None:
    hand = list(s.hands[seat])
    hand.remove(tile)
    set_hand(s, seat, hand)


def lose_to_discard(s: State, tile: int) -> str:
    """Moves `tile` from the mover's hand to the discard pile of the (already cloned) state;
    returns the log line saying so."""
    take_from_hand(s, s.seat, tile)
    s.discard = (*s.discard, tile)
    return f"seat {s.seat} lost {tile_name(s, tile)} to the discard pile"


def draw(s: State, k: int) -> list[int]:
    """Draws up to k tiles for the caller, reshuffling the discard pile into an empty stock
    (B19). Mutates the (already cloned) state's stock, discard and counter."""
    got: list[int] = []
    stock = list(s.stock)
    while len(got) < k:
        if not stock:
            if not may_reshuffle(s):
                break
            stream = Stream(s.seed, "stock", s.stock_counter)
            stock = stream.shuffled(sorted(s.discard))
            s.stock_counter = stream.counter
            s.discard = ()
            bump(s, reshuffles=1)
        got.append(stock.pop())
    s.stock = tuple(stock)
    note_draw(s)
    return got
