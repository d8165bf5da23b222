"""Blending triple matching, DECISIONS B5: `triple_match` 'exact' (the default) and 'side'.

B5: a triple's spot must be 3 lands with the doubled land on two orthogonally adjacent squares.
Under 'exact' the triple must also match the spot exactly under rotation, which fixes the doubled
land and the chirality (DD/AB is not DD/BA); under 'side' any triple goes on any side-by-side
3-land spot. So every triple legal under 'exact' is legal under 'side' and never the reverse:
the rules leave no triple legal under 'exact' but not under 'side' (checked exhaustively below).
"""

from __future__ import annotations

import json
from itertools import product

import pytest

from cogs_arena.engines import IllegalMove, get_engine
from cogs_arena.engines.blending.moves import Move
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import Scenario, build
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import (
    LANDS,
    TripleMatch,
    face_from_text,
    fits,
    pair_side,
    patterns,
    rotate,
)
from cogs_arena.engines.protocol import Engine
from cogs_arena.engines.rng import Stream

E: Engine[BlendingRules, State, Move] = get_engine("blending")
MODES: tuple[TripleMatch, TripleMatch] = ("exact", "side")
TRIPLES = ["MMPF", "MMFP", "FFPM", "FFMP", "PPFM", "PPMF"]
"""The 6 supply designs (B6): DD over AB and DD over BA, written clockwise from the top-left."""
DOUBLES = ["MMFF", "MMPP", "FFPP"]


def rules(mode: TripleMatch) -> BlendingRules:
    return BlendingRules(triple_match=mode)


def menu(s: State) -> list[str]:
    return [m.notation for m in E.legal_moves(s, s.seat).moves]


def play(s: State, text: str) -> State:
    return E.apply(s, s.seat, E.parse_move(s, s.seat, text))


def tile_of(s: State, face: str) -> int:
    want = face_from_text(face)
    return next(t for t in s.hands[s.seat] if s.faces[t - 1] == want)


def spot(letters: str) -> dict[tuple[int, int], str]:
    """The 2x2 block with top-left square 1,0, its lands given clockwise from the top-left."""
    tl, tr, br, bl = list(letters)
    return {(1, 0): tl, (2, 0): tr, (2, 1): br, (1, 1): bl}


def placed_on_spot(s: State, t: int) -> list[str]:
    return [n for n in menu(s) if n.startswith(f"place t{t} 1,0 r")]


# ---- the option itself ------------------------------------------------------------------------


def test_default_is_exact_and_the_option_is_checked() -> None:
    assert BlendingRules().triple_match == "exact"
    side = E.ruleset({"triple_match": "side"})
    assert isinstance(side, BlendingRules) and side.triple_match == "side"
    with pytest.raises(Exception, match="triple_match"):
        E.ruleset({"triple_match": "mirror"})


def test_option_survives_save_and_shows_in_the_view() -> None:
    s = E.new_game(E.ruleset({"triple_match": "side"}), 4)
    again = E.state_from_json(json.loads(json.dumps(E.state_to_json(s))))
    assert again.rules.triple_match == "side"
    assert E.observe(s, 0)["triple_match"] == "side"
    assert E.observe(E.new_game(E.ruleset(), 4), 0)["triple_match"] == "exact"


# ---- geometry, exhaustively -------------------------------------------------------------------


def test_side_by_side_spots() -> None:
    """3 lands, the doubled land on two orthogonally adjacent squares: 3 doubled lands x 4 sides x
    2 orders of the other two = 24 of the 81 spot patterns."""
    side = [p for p in product(LANDS, LANDS, LANDS, LANDS) if pair_side(p) is not None]
    assert len(side) == 24
    assert pair_side(face_from_text("MFPF")) is None  # doubled land on opposite corners
    assert pair_side(face_from_text("MMFF")) is None  # 2 lands
    assert pair_side(face_from_text("MMMF")) is None  # 3+1


def test_exact_is_a_subset_of_side_with_the_same_rotation() -> None:
    for text in TRIPLES:
        face = face_from_text(text)
        exact, side = fits(face, "exact"), fits(face, "side")
        assert exact == patterns(face) and len(exact) == 4
        assert len(side) == 24
        for pattern, rot in exact.items():
            assert side[pattern] == rot  # never legal under 'exact' but not under 'side'
        for pattern, rot in side.items():
            # the tile turned so its doubled land lies along the spot's doubled land
            assert pair_side(rotate(face, rot)) == pair_side(pattern)
    for text in ["MMMM", "FFFF", "PPPP", *DOUBLES]:
        face = face_from_text(text)
        assert fits(face, "side") == fits(face, "exact")  # B5 is about triples only


# ---- constructed positions: legal under 'side', not under 'exact' -----------------------------


@pytest.mark.parametrize(
    ("spot_lands", "triple", "rot", "why"),
    [
        ("MMPF", "MMFP", 0, "mirror: same doubled land, other chirality"),
        ("MMPF", "FFMP", 0, "another doubled land"),
        ("MMPF", "PPFM", 0, "another doubled land, other chirality"),
        ("FMMP", "MMFP", 90, "mirror on a spot with the doubled land on the right"),
        ("FPMM", "FFPM", 180, "doubled land below, another doubled land"),
        ("MPFM", "PPMF", 270, "doubled land on the left, another doubled land"),
    ],
)
def test_side_only_placements(spot_lands: str, triple: str, rot: int, why: str) -> None:
    pattern = face_from_text(spot_lands)
    assert patterns(face_from_text(triple)).get(pattern) is None, why
    for mode in MODES:
        s = build(
            Scenario(squares=spot(spot_lands), hands={0: [triple]}, heroes={0: (1, 0)}),
            rules(mode),
        )
        t = tile_of(s, triple)
        if mode == "exact":
            assert placed_on_spot(s, t) == []
            for r in (0, 90, 180, 270):
                with pytest.raises(IllegalMove, match="do not match"):
                    play(s, f"place t{t} 1,0 r{r}")
            with pytest.raises(IllegalMove):
                play(s, f"place t{t} 1,0")  # no rotation fits: still refused
            continue
        assert placed_on_spot(s, t) == [f"place t{t} 1,0 r{rot}"]
        # the rotation may be left out: the one the menu lists is filled in
        assert E.move_text(E.parse_move(s, 0, f"place t{t} 1,0")) == f"place t{t} 1,0 r{rot}"
        E.validate(s, 0, E.parse_move(s, 0, f"place t{t} 1,0 r{rot}"))
        done = play(s, f"place t{t} 1,0 r{rot}")
        assert done.blends[(1, 0)] == (t, rot, 0)
        assert done.squares == s.squares  # a blend never changes the land under it
        for r in {0, 90, 180, 270} - {rot}:
            with pytest.raises(IllegalMove, match=f"r{rot} here"):
                play(s, f"place t{t} 1,0 r{r}")


@pytest.mark.parametrize("mode", MODES)
def test_exact_placement_is_legal_under_both(mode: TripleMatch) -> None:
    # spot M M / F P: top row Mountain, bottom Forest (left) Plains (right) = MMPF clockwise
    s = build(Scenario(squares=spot("MMPF"), hands={0: ["MMPF"]}, heroes={0: (1, 0)}), rules(mode))
    t = tile_of(s, "MMPF")
    assert placed_on_spot(s, t) == [f"place t{t} 1,0 r0"]
    assert play(s, f"place t{t} 1,0 r0").blends[(1, 0)] == (t, 0, 0)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "spot_lands",
    [
        "MFPF",  # 3 lands, doubled land on opposite corners
        "MMFF",  # 2+2 side by side (a double's spot)
        "MFMF",  # 2+2 diagonal
        "MMMF",  # 3+1
        "MMMM",  # one land
    ],
)
def test_spots_no_triple_takes_under_either(mode: TripleMatch, spot_lands: str) -> None:
    s = build(
        Scenario(squares=spot(spot_lands), hands={0: TRIPLES}, heroes={0: (1, 0)}), rules(mode)
    )
    for text in TRIPLES:
        t = tile_of(s, text)
        assert placed_on_spot(s, t) == []
        for r in (0, 90, 180, 270):
            with pytest.raises(IllegalMove):
                play(s, f"place t{t} 1,0 r{r}")


@pytest.mark.parametrize("mode", MODES)
def test_doubles_match_the_same_under_both(mode: TripleMatch) -> None:
    # left column Mountain, right column Forest: only r270 fits MMFF; MMPP fits nowhere
    s = build(
        Scenario(squares=spot("MFFM"), hands={0: ["MMFF", "MMPP"]}, heroes={0: (1, 0)}),
        rules(mode),
    )
    d, other = tile_of(s, "MMFF"), tile_of(s, "MMPP")
    assert placed_on_spot(s, d) == [f"place t{d} 1,0 r270"]
    assert placed_on_spot(s, other) == []
    with pytest.raises(IllegalMove, match="do not match"):
        play(s, f"place t{d} 1,0 r0")


# ---- the menu, parse/validate and apply agree -------------------------------------------------

BOARD = {
    (x, y): land
    for y, row in enumerate(["MMFPP", "FPMMF", "PFMPM", "MMPFF", "FFMPP"])
    for x, land in enumerate(row, start=1)
}
"""A 5x5 map with side-by-side, diagonal, 2-land and 3+1 spots of every orientation."""


@pytest.mark.parametrize("mode", MODES)
def test_menu_validate_and_apply_agree(mode: TripleMatch) -> None:
    s = build(
        Scenario(squares=BOARD, hands={0: TRIPLES + DOUBLES}, heroes={0: (2, 1)}), rules(mode)
    )
    listed = set(menu(s))
    legal = set()
    for t in s.hands[0]:
        for x, y, r in product(range(0, 6), range(-1, 5), (0, 90, 180, 270)):
            text = f"place t{t} {x},{y} r{r}"
            move = E.parse_move(s, 0, text)
            try:
                E.validate(s, 0, move)
            except IllegalMove:
                with pytest.raises(IllegalMove):
                    E.apply(s, 0, move)
                continue
            legal.add(text)
            assert E.apply(s, 0, move).blends[(x, y)] == (t, r, 0)
            # left without a rotation, the move gets the one that is legal
            assert E.move_text(E.parse_move(s, 0, f"place t{t} {x},{y}")) == text
    assert legal == {n for n in listed if n.startswith("place") and " r" in n}
    exact = build(Scenario(squares=BOARD, hands={0: TRIPLES}, heroes={0: (2, 1)}))
    side = build(Scenario(squares=BOARD, hands={0: TRIPLES}, heroes={0: (2, 1)}), rules("side"))
    assert set(menu(exact)) < set(menu(side))


def test_whole_games_under_side() -> None:
    """Random play from the menu under 'side': every blend entry parses back to itself and
    validates; a placement only 'side' allows is taken whenever one is listed; the game ends."""
    laid = 0
    for seed in (2, 3):
        s = E.new_game(E.ruleset({"triple_match": "side"}), seed)
        rng = Stream(seed, "triples")
        for _ in range(3000):
            seats = E.to_act(s)
            if not seats:
                break
            seat = seats[0]
            moves = E.legal_moves(s, seat).moves
            side_only = []
            for m in moves:
                if m.kind != "placement" or " r" not in m.notation:
                    continue
                move = E.parse_move(s, seat, m.notation)
                assert E.move_text(move) == m.notation
                E.validate(s, seat, move)
                x, y = move.x, move.y
                under = (
                    s.squares[(x, y)],
                    s.squares[(x + 1, y)],
                    s.squares[(x + 1, y + 1)],
                    s.squares[(x, y + 1)],
                )
                if patterns(s.faces[move.tile - 1]).get(under) is None:
                    side_only.append(m.notation)
            pick = rng.choice(side_only) if side_only else rng.choice(moves).notation
            laid += bool(side_only)
            s = E.apply(s, seat, E.parse_move(s, seat, pick))
        else:
            pytest.fail("no end")
        assert E.outcome(s) is not None
    assert laid > 0
