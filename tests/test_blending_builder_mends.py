"""The builder's mends (issue 23), each from the situation the issue saw: a builder that lost its
guardian rebuilds, fights when its exact odds favour it, guards with its strongest tiles and
does not swap the same tiles back and forth."""

from __future__ import annotations

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.bots import fight_odds_favour
from cogs_arena.engines.blending.odds import lay_odds
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import face_from_text
from cogs_arena.engines.rng import Stream

E = get_engine("blending")


def _builder(s: State) -> str:
    return E.bots()["builder"](E.observe(s, s.seat), E.legal_moves(s, s.seat), Stream(0, "t"))


def test_builder_without_a_guardian_raises_one_on_a_site_off_its_home_land() -> None:
    """Seat 1 (home Forest) has lost its only guardian and stands on a Mountain site with 3
    Mountain squares in its 3x3: the old builder raised only on home land or a rich estate
    (value 4) and ended its turn with 9 tiles and 3 tokens; the mended one raises here."""
    s = build(
        Scenario(
            squares={(1, 0): "M", (2, 0): "M", (3, 0): "M", (2, 1): "F"},
            hands={1: ["MMFF", "MMPP", "FFPP", "MMFF", "MMPP", "FFPP", "MMFF", "MMPP", "FFPP"]},
            heroes={0: (-5, -5), 1: (2, 0), 2: (-5, 5), 3: (5, 5)},
            seat=1,
        )
    )
    assert _builder(s) == "guardian"


def test_builder_without_a_guardian_walks_to_a_distant_site() -> None:
    """No living guardian and the only site 5 squares away: the old builder looked 2 squares
    around its hero and stood still; the mended one steps toward the site."""
    s = build(
        Scenario(
            squares={
                (1, 0): "M", (2, 0): "M", (3, 0): "M", (2, 1): "M",
                (4, 0): "F", (5, 0): "P", (6, 0): "F", (7, 0): "P",
            },
            hands={0: ["MMFF", "MMPP", "FFPP"] * 3},
            heroes={0: (7, 0), 1: (-5, -5), 2: (-5, 5), 3: (5, 5)},
        )
    )  # fmt: skip
    move = _builder(s)
    assert move == "move 6,0", move


def test_builder_fights_a_triple_pile_when_its_exact_odds_favour_it() -> None:
    """A rival pile with a triple can never be beaten without risk, so the old builder never
    fought it; with shoot (win 1/2, loss 1/4) against MMFP and risk-free kinds against the rest
    the expected loss is half a tile, and the mended builder fights."""
    s = build(
        Scenario(
            squares={(1, 0): "M", (2, 0): "M", (1, 1): "M"},
            hands={0: ["FFFF", "MMMM", "FFPP", "MMFF", "FFFF"]},
            heroes={0: (0, 0), 1: (-5, -5), 2: (-5, 5), 3: (5, 5)},
            guardians=[GuardianSpec(1, (1, 0), ["MMFP", "MMFF", "PPPP"])],
        )
    )
    assert _builder(s) == "fight G1"
    # the match then lays the favoured kind against the triple, never a losing one
    s = E.apply(s, 0, E.parse_move(s, 0, "fight G1"))
    while s.phase == "fight" and s.fight is not None and not s.fight.flipped:
        move = _builder(s)
        if not move.startswith("lay"):
            break
        s = E.apply(s, 0, E.parse_move(s, 0, move))
    fight = s.fight
    assert fight is not None and len(fight.laid) == 3
    for pos, _tile, kind in fight.laid:
        target = s.faces[fight.row[pos] - 1]
        win, _, loss = lay_odds(target, kind)
        assert win > loss, (target, kind)


def test_builder_does_not_fight_when_the_odds_are_against_it() -> None:
    """Only cast (Plains) in hand against a Mountain pile: slice beats cast every flip."""
    hand = [(i, face_from_text("PPPP")) for i in range(1, 6)]
    assert not fight_odds_favour([face_from_text("MMMM")] * 3, hand)
    assert fight_odds_favour([face_from_text("FFFF")] * 3, hand)  # cast beats shoot


def test_builder_puts_a_triple_on_its_pile_of_singles_and_doubles() -> None:
    """Its own pile holds only a single and doubles (killed at no risk by the right kinds) and
    no rival is near: the old builder bolstered only under threat; the mended one adds the
    triple it holds."""
    estate = {(x, y): "M" for x in range(2, 5) for y in range(-1, 2)}
    s = build(
        Scenario(
            squares={(1, 0): "M", **estate},
            hands={0: ["MMFP", "FFPP", "FFPP"]},
            heroes={0: (3, 0), 1: (-5, -5), 2: (-5, 5), 3: (5, 5)},
            guardians=[GuardianSpec(0, (3, 0), ["MMMM", "MMFF", "MMPP"])],
        )
    )
    move = _builder(s)
    tile = next(t for t in s.hands[0] if s.faces[t - 1] == face_from_text("MMFP"))
    assert move.startswith(f"bolster t{tile} ") and move.endswith(" G1"), move


def test_builder_raises_its_pile_with_triples_first() -> None:
    """The pile picks take the triple, then blends; home singles stay for painting (the
    builder did this before the mends too: it guards that the mends keep it)."""
    s = build(
        Scenario(
            squares={(1, 0): "M", (2, 0): "M", (3, 0): "M"},
            hands={0: ["MMMM", "FFFF", "MMFF", "PPMF", "FFPP"]},
            heroes={0: (2, 0), 1: (-5, -5), 2: (-5, 5), 3: (5, 5)},
        )
    )
    assert _builder(s) == "guardian"
    s = E.apply(s, 0, E.parse_move(s, 0, "guardian"))
    picked = []
    for _ in range(3):
        move = _builder(s)
        picked.append("".join("MFP"[c] for c in s.faces[int(move.split()[1][1:]) - 1]))
        s = E.apply(s, 0, E.parse_move(s, 0, move))
    assert picked[0] == "PPMF" and sorted(picked[1:]) == ["FFPP", "MMFF"]


def _swap_spot(stock: int) -> State:
    estate = {(x, y): "M" for x in range(2, 5) for y in range(-1, 2)}
    s = build(
        Scenario(
            squares={(1, 0): "M", **estate},
            hands={0: ["FFFF"] * 4 + ["PPPP"] * 2 + ["MMFF"] * 2},
            heroes={0: (3, 0), 1: (-5, -5), 2: (-5, 5), 3: (5, 5)},
            guardians=[GuardianSpec(0, (3, 0), ["MMFP", "MMFF", "MMPP"])],
        )
    )
    s = s.clone()
    s.discard = s.stock[: len(s.stock) - stock]
    s.stock = s.stock[len(s.stock) - stock :]
    return s


def test_builder_does_not_swap_when_the_stock_would_hand_the_tiles_back() -> None:
    """Six dead singles and a stock of 2: swapping them reshuffles the discard pile, the same
    tiles with it, into the draw (the issue's back-and-forth). With a full stock it swaps."""
    assert _builder(_swap_spot(stock=40)) == "swap"
    assert _builder(_swap_spot(stock=2)) == "end"
