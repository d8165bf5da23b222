"""`porter`, the mended courier, from issue 23's dead-lane situation: the model's seat 0 does
not supply (idle all game), seats 1-5 are scripted suppliers and 6-7 freeloaders."""

from __future__ import annotations

from cogs_arena.engines import get_engine
from cogs_arena.engines.chemistry.room import SPECIES, VAT_TAKES, VATS
from cogs_arena.engines.rng import Stream

E = get_engine("chemistry")
RESIN_AMBER = (VATS.index("amber"), SPECIES.index("resin"))


def _game(supplier: str) -> tuple[list[str], int, int]:
    """Plays the situation; returns every supply order the suppliers gave, how many of them fed
    a cold vat a feedstock it already held enough of to restart while the other feedstock was
    short (units that only lie in the stock), and how many shifts were played."""
    state = E.new_game(E.ruleset(), 0)
    bots = E.bots()
    names = ["idle", *[supplier] * 5, "freeloader", "freeloader"]
    supplies: list[str] = []
    blind_feeds = shifts = 0
    cost = state.ruleset.cold_start_cost
    while E.to_act(state):
        moves = {}
        for seat in E.to_act(state):
            view = E.observe(state, seat)
            text = (
                "idle"
                if seat == 0
                else bots[names[seat]](view, E.legal_moves(state, seat), Stream(0, str(seat)))
            )
            moves[seat] = E.parse_move(state, seat, text)
            if 1 <= seat <= 5 and text.startswith("supply"):
                supplies.append(text)
                _, molecule, vat_name = text.split()
                v, sp = VATS.index(vat_name), SPECIES.index(molecule)
                vat = next(x for x in state.vats if x.vat == v)
                k = VAT_TAKES[v].index(sp)
                if vat.charge == 0 and vat.stock[k] >= cost > vat.stock[1 - k]:
                    blind_feeds += 1
        state = E.apply_batch(state, moves)
        shifts += 1
    return supplies, blind_feeds, shifts


def test_couriers_leave_seat_0s_resin_lane_dead_and_feed_cold_amber_spark() -> None:
    """The situation as the issue found it, kept as the reference bots play it: no courier ever
    supplies resin to amber, and couriers feed spark to a cold amber with no resin coming."""
    supplies, blind_feeds, shifts = _game("courier")
    assert shifts == 12
    assert "supply resin amber" not in supplies
    assert blind_feeds >= 3


def test_porters_cover_the_dead_lane_and_never_feed_a_cold_vat_blind() -> None:
    """Porters in the same seats supply seat 0's resin lane, and none of their orders feeds a
    cold vat more of a feedstock it has enough of while the other is short."""
    supplies, blind_feeds, _ = _game("porter")
    assert supplies.count("supply resin amber") >= 3
    assert blind_feeds == 0


def test_porters_spread_over_every_lane_beside_a_silent_seat() -> None:
    """With seven porters beside an idle seat 0, every lane of the room is supplied in the
    first shift (slot 0's lane goes to a higher porter) and stays supplied the next."""
    state = E.new_game(E.ruleset(), 0)
    porter = E.bots()["porter"]
    lanes_room = {(v, sp) for v in range(3) for sp in VAT_TAKES[v]}
    for _ in range(2):
        moves = {0: E.parse_move(state, 0, "idle")}
        covered = set()
        for seat in range(1, 8):
            view = E.observe(state, seat)
            text = porter(view, E.legal_moves(state, seat), Stream(0, str(seat)))
            moves[seat] = E.parse_move(state, seat, text)
            _, molecule, vat_name = text.split()
            covered.add((VATS.index(vat_name), SPECIES.index(molecule)))
        assert covered == lanes_room
        state = E.apply_batch(state, moves)


def test_porter_under_tick_control_answers_an_action() -> None:
    """Under `control: ticks` the porter answers one kernel action from the menu."""
    state = E.new_game(E.ruleset({"control": "ticks"}), 0)
    menu = E.legal_moves(state, 3)
    text = E.bots()["porter"](E.observe(state, 3), menu, Stream(0, "t"))
    assert text in {m.notation for m in menu.moves}


def test_porter_seeded_breaks_ties_from_the_seed() -> None:
    """Eight porters play one game whatever the seed; eight `porter-seeded` play several
    (their ties among equal lanes and vats are drawn from the seeded stream)."""
    from cogs_arena.engines.runner import play_bots

    def games(bot: str) -> set[tuple[tuple[int, str], ...]]:
        return {tuple(play_bots(E, E.ruleset(), seed, [bot] * 8).moves) for seed in range(4)}

    assert len(games("porter")) == 1
    assert len(games("porter-seeded")) > 1
