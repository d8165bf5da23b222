"""Chemistry's shift report for the seat's own cog (issue 10): where it went, what it carried,
delivered and ate, why it ate nothing; a molecule left in hand, in the report and the menu; and
the line saying that every seat, bots included, picks its own lane each shift."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonpath import at, obj
from mcp import Client
from mcp_helpers import call

from cogs_arena.engines.chemistry.engine import ChemistryEngine
from cogs_arena.engines.chemistry.menu import order_menu
from cogs_arena.engines.chemistry.room import HOMES, cell
from cogs_arena.engines.chemistry.state import ChemState, Cog
from cogs_arena.engines.chemistry.trip import BOTS_CHOOSE, BOTS_CHOOSE_TICKS
from cogs_arena.engines.rng import Stream
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

ENGINE = ChemistryEngine()


def _shift(state: ChemState, orders: dict[int, str]) -> ChemState:
    """One shift: the given seats play their orders, the others idle."""
    moves = {s: ENGINE.parse_move(state, s, orders.get(s, "idle")) for s in range(8)}
    return ENGINE.apply_batch(state, moves)


def _couriers(state: ChemState, decision: int) -> ChemState:
    bots = ENGINE.bots()
    moves = {}
    for seat in range(8):
        text = bots["courier"](
            ENGINE.observe(state, seat), ENGINE.legal_moves(state, seat), Stream(5, f"{decision}")
        )
        moves[seat] = ENGINE.parse_move(state, seat, text)
    return ENGINE.apply_batch(state, moves)


def _own(state: ChemState, seat: int) -> dict[str, Any]:
    report = ENGINE.observe(state, seat)["report"]
    assert isinstance(report, dict)
    own = report["own_cog"]
    assert isinstance(own, dict) and own["seat"] == seat
    return own


def test_no_own_cog_line_before_the_first_shift() -> None:
    state = ENGINE.new_game(ENGINE.ruleset(), 1)
    view = ENGINE.observe(state, 0)
    assert view["report"] is None
    assert "Your cog" not in ENGINE.render(view)


def test_own_cog_line_says_where_it_went_and_what_it_carried() -> None:
    state = ENGINE.new_game(ENGINE.ruleset(), 5)
    for decision in range(3):
        before = state
        state = _couriers(state, decision)
        for seat in range(8):
            own = _own(state, seat)
            assert own["from"] == list(divmod(before.cogs[seat].cell, 32)[::-1])
            assert own["to"] == list(divmod(state.cogs[seat].cell, 32)[::-1])
            last = state.last[seat]
            assert last is not None
            assert own["order"] == ENGINE.move_text(last).split("\n")[0]
            assert 0 <= own["steps"] <= 30, "a cog moves at most every second tick"
            assert own["hand_at_start"] == [
                ["resin", "spark", "brine"][h] for h in before.cogs[seat].hand
            ]
            out = (
                sum(d["units"] for d in own["delivered"])
                + sum(d["units"] for d in own["misdropped"])
                + own["set_down"]
                + own["hoarded"]
            )
            assert len(own["hand_at_start"]) + sum(own["took"].values()) - out == len(
                own["holding"]
            ), "every unit taken is delivered, set down or still held"
            report = state.report
            assert report is not None
            assert own["ate"] == report.eaten[seat]
            assert (own["ate_nothing_because"] is None) == (own["ate"] > 0)
    assert any(_own(state, s)["delivered"] for s in range(8))
    view = ENGINE.observe(state, 2)
    text = ENGINE.render(view)
    line = next(x for x in text.splitlines() if x.strip().startswith("Your cog"))
    own = _own(state, 2)
    assert f"({own['from'][0]},{own['from'][1]}) -> ({own['to'][0]},{own['to'][1]})" in line
    assert f"order {own['order']}" in line and "delivered" in line and "took" in line
    json.dumps(view)


def test_ate_nothing_because_no_food_was_made() -> None:
    state = _shift(ENGINE.new_game(ENGINE.ruleset(), 1), {0: "forage"})
    own = _own(state, 0)
    assert own["ate"] == 0
    assert own["ate_nothing_because"].startswith("no food was on the floor")
    assert "no reaction made any" in own["ate_nothing_because"]
    assert "ate nothing: no food was on the floor" in ENGINE.render(ENGINE.observe(state, 0))


def test_ate_nothing_because_another_cog_got_there_first() -> None:
    # Argon (2,2) and Borax (2,4) both forage for the token at (2,3); the lower slot moves first.
    state = replace(ENGINE.new_game(ENGINE.ruleset(), 1), food=((cell(2, 3), 0),))
    state = _shift(state, {0: "forage", 1: "forage"})
    assert _own(state, 0)["ate"] == 1
    own = _own(state, 1)
    assert own["ate"] == 0 and own["blocked"] >= 1
    why = own["ate_nothing_because"]
    assert "reached none of the 1 food" in why and "others ate 1" in why and "blocked" in why


def test_ate_nothing_because_of_the_order() -> None:
    far = cell(29, 15)
    state = replace(ENGINE.new_game(ENGINE.ruleset(), 1), food=((far, 0),))
    state = _shift(state, {2: "supply resin amber", 4: "hoard spark"})
    supply = _own(state, 2)["ate_nothing_because"]
    assert "supply resin amber" in supply and "never to food" in supply
    assert "1 still on the floor" in supply
    assert "your home" in _own(state, 4)["ate_nothing_because"]
    idle = _own(state, 3)
    assert idle["order"] == "idle" and idle["steps"] == 0
    assert idle["ate_nothing_because"].startswith("its order was idle")


def test_ate_nothing_because_of_famine() -> None:
    state = ENGINE.new_game(ENGINE.ruleset(), 1)
    state = replace(state, vats=tuple(replace(v, charge=0) for v in state.vats))
    for _ in range(3):
        state = _shift(state, {0: "forage"})
    assert state.ending == "famine"
    why = _own(state, 0)["ate_nothing_because"]
    assert "every vat is cold" in why and "famine" in why


def _holding(order: str) -> ChemState:
    state = ENGINE.new_game(ENGINE.ruleset(), 1)
    cogs = list(state.cogs)
    cogs[0] = Cog(HOMES[0], (0,), 0)  # Argon holds resin
    return _shift(replace(state, cogs=tuple(cogs)), {0: order})


@pytest.mark.parametrize("order", ["forage", "idle"])
def test_an_order_that_keeps_a_molecule_in_hand_says_so(order: str) -> None:
    state = _holding(order)
    own = _own(state, 0)
    assert own["hand_at_start"] == ["resin"] and own["holding"] == ["resin"]
    assert own["holding_because"] == (
        f"still holding resin: {order} never drops a molecule; it stays in hand until a supply "
        "or hoard order carries it"
    )
    assert "still holding resin" in ENGINE.render(ENGINE.observe(state, 0))


def test_a_delivered_molecule_leaves_nothing_in_hand() -> None:
    state = _holding("supply resin amber")
    own = _own(state, 0)
    assert own["delivered"] and own["delivered"][0]["molecule"] == "resin"
    if own["holding"]:
        assert own["holding_because"].startswith("still holding resin: it had not reached the")
    else:
        assert own["holding_because"] is None


def test_the_menu_says_what_each_order_does_with_the_molecule_in_hand() -> None:
    state = ENGINE.new_game(ENGINE.ruleset(), 1)
    plain = {m.notation: m.description for m in ENGINE.legal_moves(state, 0).moves}
    assert plain == {m.notation: m.description for m in order_menu(state.ruleset)}
    cogs = list(state.cogs)
    cogs[0] = Cog(HOMES[0], (0,), 0)
    state = replace(state, cogs=tuple(cogs))
    menu = ENGINE.legal_moves(state, 0)
    assert menu.instructions.startswith("Your cog holds resin.")
    d = {m.notation: m.description for m in menu.moves}
    assert d["supply resin amber"].endswith("you hold resin: it goes to the amber pad first")
    assert d["supply resin beryl"].endswith("destroyed on the beryl pad (misdrop)")
    assert d["supply spark amber"].endswith("first sets it down on a free floor cell off the pads")
    assert d["hoard resin"].endswith("it goes to your home cell first")
    for head in ("forage", "forage amber", "idle"):
        assert d[head].endswith("so it stays in your hand"), head
    assert list(d) == list(plain), "the same orders in the same order"
    # Another seat's empty hand keeps its plain menu.
    assert {m.notation: m.description for m in ENGINE.legal_moves(state, 1).moves} == plain


def test_the_view_says_bots_choose_their_own_lanes() -> None:
    state = _couriers(ENGINE.new_game(ENGINE.ruleset(), 2), 0)
    for view in (ENGINE.observe(state, 3), ENGINE.spectate(state, full=False)):
        assert view["orders_note"] == BOTS_CHOOSE
        lines = ENGINE.render(view).splitlines()
        at = next(i for i, x in enumerate(lines) if x.startswith("Cogs ("))
        assert lines[at + 1] == f"  ({BOTS_CHOOSE})"
        assert sum(BOTS_CHOOSE in x for x in lines) == 1
    ticks = ENGINE.new_game(ENGINE.ruleset({"control": "ticks"}), 2)
    assert ENGINE.observe(ticks, 0)["orders_note"] == BOTS_CHOOSE_TICKS


def test_ticks_control_reports_the_action() -> None:
    state = ENGINE.new_game(ENGINE.ruleset({"control": "ticks"}), 2)
    moves = {s: ENGINE.parse_move(state, s, "E" if s == 0 else "wait") for s in range(8)}
    state = ENGINE.apply_batch(state, moves)
    own = _own(state, 0)
    assert own["order"] == "E" and own["steps"] == 1 and own["from"] == [2, 2]
    assert own["to"] == [3, 2]
    assert "Your cog (order E): went (2,2) -> (3,2) in 1 step;" in ENGINE.render(
        ENGINE.observe(state, 0)
    )


def test_hidden_information_stays_hidden() -> None:
    state = ENGINE.new_game(ENGINE.ruleset(), 4)
    moves = {
        s: ENGINE.parse_move(state, s, f"forage\nsay: hello from {s}\nnotes: secret-{s}")
        for s in range(8)
    }
    state = ENGINE.apply_batch(state, moves)
    view = ENGINE.observe(state, 1)
    blob = json.dumps(view) + ENGINE.render(view)
    assert "secret-1" in blob
    assert not any(f"secret-{s}" in blob for s in range(8) if s != 1)
    assert at(view, "report", "own_cog", "seat") == 1
    spectator = ENGINE.spectate(state, full=False)
    assert "own_cog" not in obj(spectator["report"])
    assert "secret" not in json.dumps(spectator)
    assert "hello from 5" in blob, "say lines are public once the shift has resolved"


def test_trips_survive_json_and_keep_play_deterministic() -> None:
    a = ENGINE.new_game(ENGINE.ruleset(), 8)
    b = ENGINE.new_game(ENGINE.ruleset(), 8)
    for decision in range(2):
        a = _couriers(a, decision)
        b = _couriers(b, decision)
    assert ENGINE.digest(a) == ENGINE.digest(b)
    data = json.loads(json.dumps(ENGINE.state_to_json(a)))
    restored = ENGINE.state_from_json(data)
    assert restored == a and ENGINE.digest(restored) == ENGINE.digest(a)
    assert restored.report is not None and len(restored.report.trips) == 8
    # A report stored before trips were kept still loads; the view then has no own-cog line.
    del data["report"]["trips"]
    old = ENGINE.state_from_json(data)
    assert old.report is not None and old.report.trips == ()
    assert at(ENGINE.observe(old, 0), "report", "own_cog") is None
    assert "Your cog" not in ENGINE.render(ENGINE.observe(old, 0))


@pytest.mark.anyio
async def test_own_cog_line_through_mcp(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        game = await call(client, "new_game", game="chemistry", seed=3, seat="Argon")
        gid, cred = game["game_id"], game["credential"]
        played = await call(client, "play", game_id=gid, credential=cred, move="forage")
        assert played["view"]["decision"] == 1
        shown = await client.call_tool("show", {"game_id": gid, "credential": cred})
        assert not shown.is_error and shown.structured_content is not None
        observation = shown.structured_content["observation"]
        own = observation["report"]["own_cog"]
        assert own["seat"] == 0 and own["order"] == "forage" and own["from"] == [2, 2]
        assert own["ate_nothing_because"] or own["ate"]
        assert observation["orders_note"] == BOTS_CHOOSE
        text = "".join(getattr(b, "text", "") for b in shown.content)
        text += str(shown.structured_content.get("text") or "")
        assert "Your cog (order forage): went (2,2) -> " in text
        assert BOTS_CHOOSE in text
