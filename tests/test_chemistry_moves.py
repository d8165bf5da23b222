"""Chemistry orders: text and JSON forms, validation, the vat clamp, the menu, say and notes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from jsonpath import at

from cogs_arena.engines import IllegalMove, MalformedMove
from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.moves import Action, Move, Order
from cogs_arena.engines.chemistry.room import MOVE_N, TAKE
from cogs_arena.engines.chemistry.state import ChemState
from cogs_arena.engines.protocol import JSON

ENGINE = ChemistryEngine()


def as_order(move: Move) -> Order:
    """A move the test knows is an order (not a raw action), typed as one."""
    assert isinstance(move, Order)
    return move


def game(**overrides: JSON) -> ChemState:
    return ENGINE.new_game(ENGINE.ruleset(overrides), 1)


def test_canonical_text_round_trips_with_say_and_notes() -> None:
    s = game()
    text = "supply resin amber\nsay: I take resin to amber\nnotes: amber runs hot; line 2"
    move = ENGINE.parse_move(s, 0, text)
    assert move == Order("supply", 0, 0, "I take resin to amber", "amber runs hot; line 2")
    assert ENGINE.move_text(move) == text
    assert ENGINE.parse_move(s, 0, ENGINE.move_text(move)) == move
    assert ENGINE.move_from_json(s, 0, ENGINE.move_json(move)) == move


def test_forgiving_spelling() -> None:
    s = game()
    assert ENGINE.parse_move(s, 0, "  SUPPLY   Resin to  Amber ") == Order("supply", 0, 0)
    assert ENGINE.parse_move(s, 0, "supply amber resin") == Order("supply", 0, 0)
    one_line = ENGINE.parse_move(s, 0, "forage beryl say: food! notes: keep it")
    assert one_line == Order("forage", None, 1, "food!", "keep it")
    assert ENGINE.parse_move(s, 0, "hoard spark") == Order("hoard", 1)
    assert ENGINE.parse_move(s, 0, "idle") == Order("idle")


def test_malformed_orders_show_the_syntax() -> None:
    s = game()
    for text in ("dance", "", "supply lava amber", "supply resin spark amber"):
        with pytest.raises(MalformedMove) as info:
            ENGINE.parse_move(s, 0, text)
        assert "supply <molecule> <vat>" in str(info.value)
    assert as_order(ENGINE.parse_move(s, 0, "idle\nsay: " + "x" * 80)).say == "x" * 80


def test_invalid_orders_name_what_is_allowed() -> None:
    s = game()
    cases = {
        "supply amber": "molecules resin, spark, brine, glitter, quartz",
        "supply resin": "vats amber, beryl, cobalt",
        "hoard": "molecules",
        "hoard amber": "molecules",
    }
    for text, allowed in cases.items():
        with pytest.raises(IllegalMove) as info:
            ENGINE.parse_move(s, 0, text)
        assert allowed in str(info.value), text
    plain = game(variant="three-cycles")
    with pytest.raises(IllegalMove, match="not in this variant"):
        ENGINE.parse_move(plain, 0, "supply glitter amber")
    with pytest.raises(IllegalMove):
        ENGINE.validate(plain, 0, Order("hoard", 4))


def test_wrong_feedstock_is_accepted() -> None:
    s = game()
    assert ENGINE.parse_move(s, 0, "supply brine amber") == Order("supply", 2, 0)
    assert ENGINE.parse_move(s, 0, "supply glitter beryl") == Order("supply", 3, 1)


def test_absent_vat_is_clamped_to_the_coldest_present_vat() -> None:
    s = game(variant="two-cycles")
    assert ENGINE.parse_move(s, 0, "supply resin cobalt") == Order("supply", 0, 0)
    cold_beryl = replace(s, vats=(s.vats[0], replace(s.vats[1], charge=1)))
    assert ENGINE.parse_move(cold_beryl, 0, "forage cobalt") == Order("forage", None, 1)
    assert ENGINE.move_from_json(
        cold_beryl, 0, {"job": "supply", "molecule": "brine", "reactor": "cobalt"}
    ) == Order("supply", 2, 1)
    # apply_batch clamps a constructed order too.
    after = ENGINE.apply_batch(
        cold_beryl, {i: Order("supply", 0, 2) if i == 0 else Order("idle") for i in range(8)}
    )
    assert after.last[0] == Order("supply", 0, 1)


def test_menu_lists_every_valid_combination() -> None:
    full = ENGINE.legal_moves(game(), 0)
    assert full.complete and len(full.moves) == 3 * 5 + 4 + 5 + 1
    kinds = {m.kind for m in full.moves}
    assert kinds == {"supply", "forage", "hoard", "idle"}
    assert "supply brine amber" in [m.notation for m in full.moves]
    assert "MISDROP" in next(
        m.description for m in full.moves if m.notation == "supply brine amber"
    )
    two = ENGINE.legal_moves(game(variant="two-cycles"), 0)
    assert len(two.moves) == 2 * 3 + 3 + 3 + 1
    s = game()
    for m in full.moves:
        move = ENGINE.parse_move(s, 0, m.notation)
        ENGINE.validate(s, 0, move)
        assert ENGINE.move_text(move) == m.notation


def test_json_form() -> None:
    s = game()
    data = {"job": "Supply", "molecule": "spark", "reactor": "beryl", "say": "hi"}
    assert ENGINE.move_from_json(s, 0, data) == Order("supply", 1, 1, "hi")
    assert ENGINE.move_from_json(s, 0, "idle") == Order("idle")
    with pytest.raises(MalformedMove):
        ENGINE.move_from_json(s, 0, {"job": "supply", "molecule": "lava", "reactor": "amber"})
    with pytest.raises(MalformedMove):
        ENGINE.move_from_json(s, 0, {"job": "idle", "colour": "red"})


def test_say_is_public_next_shift_and_notes_are_private_and_kept() -> None:
    s = game()
    moves = {i: Order("idle") for i in range(8)}
    moves[2] = Order("forage", None, 0, "meet at amber", "secret plan")
    s = ENGINE.apply_batch(s, moves)
    view = ENGINE.observe(s, 5)
    assert at(view, "orders", 2) == {
        "seat": 2,
        "alias": "Cinder",
        "order": "forage amber",
        "say": "meet at amber",
    }
    assert view["notes"] == "" and "secret plan" not in ENGINE.render(view)
    assert ENGINE.observe(s, 2)["notes"] == "secret plan"
    assert "secret plan" not in str(ENGINE.spectate(s, full=False))
    assert at(ENGINE.spectate(s, full=True), "all_notes", "Cinder") == "secret plan"
    assert "notes" not in (ENGINE.visible_move_text(moves[2], 2, 5) or "")
    assert "secret plan" in (ENGINE.visible_move_text(moves[2], 2, 2) or "")
    assert "secret plan" not in (ENGINE.visible_move_text(moves[2], 2, None) or "")
    # Omitting notes keeps them; a say lasts one shift.
    s = ENGINE.apply_batch(s, {i: Order("idle") for i in range(8)})
    assert ENGINE.observe(s, 2)["notes"] == "secret plan"
    assert at(ENGINE.observe(s, 5), "orders", 2, "say") == ""


def test_apply_batch_needs_every_seat() -> None:
    s = game()
    with pytest.raises(IllegalMove, match="missing"):
        ENGINE.apply_batch(s, {0: Order("idle")})


def test_ticks_control_takes_raw_actions() -> None:
    s = game(control="ticks")
    menu = ENGINE.legal_moves(s, 0)
    assert [m.notation for m in menu.moves] == ["N", "E", "S", "W", "take", "drop", "wait"]
    assert ENGINE.parse_move(s, 0, "north") == Action(MOVE_N)
    assert ENGINE.parse_move(s, 0, "move_n") == Action(MOVE_N)
    assert ENGINE.move_from_json(s, 0, {"action": "take"}) == Action(TAKE)
    with pytest.raises(MalformedMove):
        ENGINE.parse_move(s, 0, "supply resin amber")
    with pytest.raises(IllegalMove):
        ENGINE.validate(s, 0, Order("idle"))
    after = ENGINE.apply_batch(s, {i: Action(MOVE_N) for i in range(8)})
    assert after.tick == 1 and after.cogs[1].cell == s.cogs[1].cell - 32
