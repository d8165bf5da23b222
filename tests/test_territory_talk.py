"""Territory move notation, talk caps and delivery, hidden information in views."""

from __future__ import annotations

import json

import pytest
from jsonpath import at, obj, objs, texts

from cogs_arena.engines import IllegalMove, MalformedMove
from cogs_arena.engines.territory.engine import TerritoryEngine
from cogs_arena.engines.territory.moves import Order, Talk, TerritoryMove
from cogs_arena.engines.territory.state import TerritoryState

E = TerritoryEngine()
SABLE, OCHRE, ASH = 0, 1, 8


def game() -> TerritoryState:
    return E.new_game(E.ruleset(), 7)


def resolve(state: TerritoryState, texts: dict[int, str]) -> TerritoryState:
    moves = {s: E.parse_move(state, s, texts.get(s, "hold")) for s in E.to_act(state)}
    return E.apply_batch(state, moves)


# ---- notation -----------------------------------------------------------------------------------


def test_canonical_text_round_trips() -> None:
    s = game()
    move = TerritoryMove(
        (Order("claim", 3, -2), Order("raze", 0, 1), Order("transfer", to=ASH, amount=5)),
        (Talk(None, "hello everyone"), Talk(ASH, "a private word; really")),
        "my plan",
    )
    text = E.move_text(move)
    assert text == (
        "claim 3,-2\nraze 0,1\ntransfer Ash 5\nsay: hello everyone\n"
        "say Ash: a private word; really\nnote: my plan"
    )
    assert E.parse_move(s, SABLE, text) == move
    data = json.loads(json.dumps(E.move_json(move)))
    assert data["talk"][1] == {"to": "Ash", "text": "a private word; really"}
    assert E.move_from_json(s, SABLE, data) == move
    # An empty text is no move (issue 20); the structured empty list is the rules' hold.
    for empty in ("", "  \n "):
        with pytest.raises(MalformedMove, match="empty"):
            E.parse_move(s, SABLE, empty)
    assert E.move_text(E.move_from_json(s, SABLE, [])) == "hold"
    assert E.parse_move(s, SABLE, "hold\nsay: hi") == TerritoryMove((), (Talk(None, "hi"),))


def test_forgiving_on_form_strict_on_meaning() -> None:
    s = game()
    move = E.parse_move(s, SABLE, "  CLAIM (3, -2) ;raze 0 1;  Transfer 5 to ash ")
    assert move.orders == (
        Order("claim", 3, -2),
        Order("raze", 0, 1),
        Order("transfer", to=ASH, amount=5),
    )
    # Talk text runs to the end of its line, semicolons included.
    move = E.parse_move(s, SABLE, "claim 4,0; say: one; two")
    assert move.orders == (Order("claim", 4, 0),) and move.talk == (Talk(None, "one; two"),)
    for bad in (
        "claim",
        "claim 4",
        "build 4,0",
        "transfer Nobody 3",
        "say hello",
        "note: a\nnote: b",
    ):
        with pytest.raises(MalformedMove) as info:
            E.parse_move(s, SABLE, bad)
        assert "claim Q,R" in str(info.value) or "Sable" in str(info.value)
    json_move = E.move_from_json(
        s,
        SABLE,
        {
            "orders": [
                {"type": "claim", "tile": [4, 0]},
                "raze 0,1",
                {"type": "transfer", "to": "ochre", "amount": 2},
            ]
        },
    )
    assert json_move.orders[0] == Order("claim", 4, 0) and json_move.orders[2].to == OCHRE
    with pytest.raises(MalformedMove):
        E.move_from_json(s, SABLE, {"orders": [], "bogus": 1})


def test_talk_to_an_unknown_alias_is_public() -> None:
    s = game()
    assert E.parse_move(s, SABLE, "say Bob: hi").talk == (Talk(None, "hi"),)
    assert E.move_from_json(s, SABLE, {"talk": [{"to": "Bob", "text": "hi"}]}).talk == (
        Talk(None, "hi"),
    )


# ---- talk caps ----------------------------------------------------------------------------------


def test_lines_are_cut_to_200_characters_on_character_boundaries() -> None:
    s = game()
    text = "é" * 150 + "😀" * 100
    move = E.parse_move(s, SABLE, f"say: {text}")
    # A cut line keeps 199 characters and ends in '…', so it says it was cut.
    assert move.talk[0].text == text[:199] + "…"
    assert len(move.talk[0].text) == 200
    queued = E.talk(s, SABLE, text, None)
    assert queued.pending_talk[0].text == text[:199] + "…"
    note = E.parse_move(s, SABLE, "note: " + "x" * 300).note
    assert note == "x" * 120


def test_at_most_three_lines_per_turn_counting_queued_talk() -> None:
    """T14: lines over the cap are dropped (and said so), never the set refused (issue 20)."""
    s = game()
    four = E.parse_move(s, SABLE, "\n".join(f"say: line {i}" for i in range(4)))
    E.validate(s, SABLE, four)
    kept, dropped = E.trimmed(s, SABLE, four)
    assert [t.text for t in kept.talk] == ["line 0", "line 1", "line 2"]
    assert len(dropped) == 1 and "line 3" in dropped[0] and "at most 3" in dropped[0]
    s1 = E.talk(s, SABLE, "first", None)
    s2 = E.talk(s1, SABLE, "second", (ASH,))
    assert s.pending_talk == () and len(s2.pending_talk) == 2
    E.validate(s2, SABLE, E.parse_move(s2, SABLE, "say: third"))
    two = E.parse_move(s2, SABLE, "say: third\nsay: fourth")
    E.validate(s2, SABLE, two)
    kept, dropped = E.trimmed(s2, SABLE, two)
    assert [t.text for t in kept.talk] == ["third"] and "2 already queued" in dropped[0]
    s3 = E.talk(s2, SABLE, "third", None)
    with pytest.raises(IllegalMove) as info:
        E.talk(s3, SABLE, "fourth", None)
    assert "at most 3" in str(info.value)
    assert E.observe(s3, SABLE)["talkLinesLeft"] == 0
    # The rejected submission's talk is kept by the fallback, within the cap.
    fallback = E.default_move(s2, SABLE, E.parse_move(s2, SABLE, "claim 0,0\nsay: a\nsay: b"))
    assert fallback.orders == () and fallback.talk == (Talk(None, "a"),)
    E.validate(s2, SABLE, fallback)


def test_talk_needs_one_recipient_or_none() -> None:
    s = game()
    with pytest.raises(IllegalMove):
        E.talk(s, SABLE, "hi", (OCHRE, ASH))
    with pytest.raises(IllegalMove):
        E.talk(s, SABLE, "   ", None)


def test_lines_post_at_resolution_and_show_next_turn() -> None:
    s = E.talk(game(), SABLE, "queued public", None)
    assert all(not E.observe(s, seat)["inbox"] for seat in range(9))
    after = resolve(s, {SABLE: "say: submitted", OCHRE: "claim 0,0\nsay: from a rejected set"})
    texts = [t["text"] for t in objs(E.observe(after, ASH)["inbox"])]
    assert texts == ["queued public", "submitted", "from a rejected set"]
    later = resolve(after, {})
    assert E.observe(later, ASH)["inbox"] == []


# ---- private delivery and hidden information ------------------------------------------------


def test_a_private_line_reaches_only_its_recipient() -> None:
    s = E.talk(game(), SABLE, "queued secret", (ASH,))
    move_text = "hold\nsay Ash: submitted secret\nsay: public hello\nnote: my private plan"
    move = E.parse_move(s, SABLE, move_text)
    after = resolve(s, {SABLE: move_text})
    for seat in range(9):
        view = E.observe(after, seat)
        dumped = json.dumps(view) + E.render(view)
        assert "public hello" in dumped
        assert "my private plan" not in dumped
        visible = E.visible_move_text(move, SABLE, seat) or ""
        assert "my private plan" not in visible or seat == SABLE
        if seat in (SABLE, ASH):
            assert "submitted secret" in dumped and "queued secret" in dumped
        else:
            assert "secret" not in dumped
            assert "secret" not in visible
    public = E.spectate(after, full=False)
    assert "secret" not in json.dumps(public) + E.render(public)
    assert "my private plan" not in json.dumps(public)
    full = E.spectate(after, full=True)
    assert "submitted secret" in json.dumps(full) and "my private plan" in json.dumps(full)
    assert "secret" not in (E.visible_move_text(move, SABLE, None) or "")


def test_dm_to_self_or_to_an_eliminated_seat_is_public() -> None:
    s = game()
    after = resolve(s, {SABLE: "say Sable: talking to myself"})
    assert after.talk_log[0].to is None


def test_observation_hides_other_seats_paint() -> None:
    s = game()
    view = E.observe(s, SABLE)
    assert view["paint"] == 12
    assert all("paint" not in seat for seat in objs(view["seats"]))
    assert at(view, "reach", "4,0") == 4 and view["razeReach"] == {}
    spectator = E.spectate(s, full=False)
    assert all("paint" not in seat for seat in objs(spectator["seats"]))
    assert [seat["paint"] for seat in objs(E.spectate(s, full=True)["seats"])] == [12] * 9


def test_observation_carries_the_report_and_raze_history() -> None:
    s = game()
    for _ in range(3):
        s = resolve(s, {})
    s = resolve(s, {OCHRE: "raze 5,-1"})
    view = E.observe(s, OCHRE)
    assert view["yourRazes"] == [{"turn": 4, "tile": "5,-1", "owner": None}]
    assert at(view, "report", "razed") == ["5,-1"]
    assert any("razed 5,-1" in e for e in texts(view["events"]))


def test_render_shows_coordinates_owners_and_hearths() -> None:
    s = resolve(game(), {SABLE: "claim 4,0"})
    text = E.render(E.observe(s, SABLE))
    assert "You are Sable" in text
    assert " 4:Sa" in text and "Sa" in text and "H" in text
    assert "r= 0" in text
    assert "Your claim reach" in text
    assert ", paint " in E.render(E.spectate(s, full=True))
    assert ", paint " not in E.render(E.spectate(s, full=False))


def test_menu_lists_single_orders_and_hints() -> None:
    s = game()
    menu = E.legal_moves(s, SABLE)
    assert not menu.complete
    assert menu.moves[0].notation == "hold"
    claims = [m for m in menu.moves if m.kind == "claim"]
    assert {m.notation.split()[1] for m in claims} == set(obj(menu.hints["reach"]))
    assert menu.hints["paint"] == 12 and menu.hints["maxOrders"] == 8
    assert "say ALIAS" in menu.instructions
    for entry in menu.moves:
        E.validate(s, SABLE, E.parse_move(s, SABLE, entry.notation))


def test_talk_queued_after_a_submission_never_voids_its_orders() -> None:
    s = game()
    move = E.parse_move(s, SABLE, "claim 4,0\nsay: one\nsay: two")
    E.validate(s, SABLE, move)
    s = E.talk(E.talk(s, SABLE, "late a", None), SABLE, "late b", None)
    after = E.apply_batch(
        s, {seat: move if seat == SABLE else E.parse_move(s, seat, "hold") for seat in range(9)}
    )
    assert after.reports[SABLE].rejected is None
    assert after.reports[SABLE].claimed
    assert [t.text for t in after.talk_log] == ["late a", "late b", "one"]


def test_the_mover_sees_its_whole_move_and_the_fallback_keeps_talk() -> None:
    s = game()
    move = E.parse_move(s, SABLE, "claim 4,0\nsay Ash: hi\nnote: plan")
    assert E.visible_move_text(move, SABLE, SABLE) == E.move_text(move)
    assert E.visible_move_text(move, SABLE, ASH) == "claim 4,0\nsay Ash: hi"
    assert E.visible_move_text(move, SABLE, OCHRE) == "claim 4,0"
    assert E.default_move(s, SABLE) == TerritoryMove()
    kept = E.default_move(s, SABLE, move)
    assert kept.orders == () and kept.talk == move.talk and kept.note == "plan"
