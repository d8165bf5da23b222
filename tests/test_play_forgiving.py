"""Reading a move without guessing: a copied menu line is taken when its number and notation
agree, an unreadable move is answered with the nearest legal moves, and a Blending batch that
reaches a required discard stops there without counting a rejection."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_helpers import call, call_error

from cogs_arena.engines import MalformedMove
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.models import NewGame
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore


def service(tmp_path: Path) -> GameService:
    return GameService(MemoryStore(), tmp_path / "t")


def influence(svc: GameService) -> NewGame:
    return svc.new_game("influence", seed=3, seat="White", bots=["greedy"])


def counters(svc: GameService, game: NewGame, seat: int) -> tuple[int, int, int]:
    with svc.sessions.open(game.game_id) as session:
        rec = session.record.seats[seat]
        return rec.counters.rejected, rec.rejections_this_decision, rec.counters.fallbacks


def test_a_copied_menu_line_is_accepted(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = influence(svc)
    entry = svc.legal_moves(game.game_id, game.credential).moves[1]
    line = f"{entry.number}. {entry.notation}"
    result = svc.play(game.game_id, game.credential, Submission(move=line))
    assert result.accepted == [entry.notation] and result.rejected is None


def test_a_copied_menu_line_with_its_description_is_accepted(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = influence(svc)
    entry = svc.legal_moves(game.game_id, game.credential).moves[2]
    # As the menu text prints it: right-aligned number, notation, "  - description".
    line = f"{entry.number:>4}. {entry.notation}  - {entry.description}"
    result = svc.play(game.game_id, game.credential, Submission(move=line))
    assert result.accepted == [entry.notation]


def test_a_copied_line_whose_number_disagrees_is_refused(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = influence(svc)
    menu = svc.legal_moves(game.game_id, game.credential).moves
    line = f"1. {menu[1].notation}"
    with pytest.raises(MalformedMove) as caught:
        svc.play(game.game_id, game.credential, Submission(move=line))
    text = str(caught.value)
    assert menu[1].notation in text and "entry 1" in text and repr(menu[0].notation) in text
    assert counters(svc, game, 0)[0] == 1  # an ordinary rejection


def test_a_menu_line_with_no_such_entry_is_refused(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = influence(svc)
    notation = svc.legal_moves(game.game_id, game.credential).moves[0].notation
    with pytest.raises(MalformedMove, match="names entry 999"):
        svc.play(game.game_id, game.credential, Submission(move=f"999. {notation}"))


@pytest.mark.parametrize(
    "prose", ["I will play 9,1>8,1 now", "play 1. 9,1>8,1", "1. 9,1>8,1 because it is good"]
)
def test_a_move_is_never_pulled_out_of_prose(tmp_path: Path, prose: str) -> None:
    svc = service(tmp_path)
    game = influence(svc)
    with pytest.raises(MalformedMove):
        svc.play(game.game_id, game.credential, Submission(move=prose))


def test_an_unreadable_influence_move_lists_the_nearest_legal_moves(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = influence(svc)
    menu = svc.legal_moves(game.game_id, game.credential).moves
    target = menu[1]
    with pytest.raises(MalformedMove) as caught:
        svc.play(game.game_id, game.credential, Submission(move=target.notation + ">"))
    text = str(caught.value)
    assert text.startswith("Cannot read the move")  # the engine's message first
    nearest = text.split("Nearest legal moves: ")[1].split(" You may")[0].rstrip(".")
    entries = nearest.split("; ")
    assert entries[0] == f"{target.number}. {target.notation}" and 1 <= len(entries) <= 5


def test_an_unreadable_territory_order_lists_the_nearest_legal_moves(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = svc.new_game("territory", seed=3)
    claim = next(
        e for e in svc.legal_moves(game.game_id, game.credential).moves if e.kind == "claim"
    )
    typo = claim.notation.replace("claim", "clam")
    with pytest.raises(MalformedMove) as caught:
        svc.play(game.game_id, game.credential, Submission(move=typo))
    text = str(caught.value)
    assert text.startswith("Cannot read the order")
    nearest = text.split("Nearest legal moves: ")[1]
    assert nearest.startswith(f"{claim.number}. {claim.notation}")


def test_a_territory_copied_line_is_accepted(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = svc.new_game("territory", seed=3)
    entry = svc.legal_moves(game.game_id, game.credential).moves[1]
    line = f"{entry.number:>4}. {entry.notation}  - {entry.description}"
    result = svc.play(game.game_id, game.credential, Submission(move=line))
    assert result.accepted and entry.notation in result.accepted[0]


def blending_at_turn(svc: GameService) -> NewGame:
    """A Blending game past the setup walk whose hand is over the limit: ending the turn
    requires a discard (a start of 9 tiles against a limit of 3)."""
    game = svc.new_game(
        "blending", seed=1, seat=0, bots=["builder"], ruleset={"starting_hand": 9, "hand_limit": 3}
    )
    menu = svc.legal_moves(game.game_id, game.credential).moves
    assert {e.kind for e in menu} == {"setup"}
    svc.play(game.game_id, game.credential, Submission(number=1))
    return game


def test_a_blending_batch_stops_at_a_required_discard_uncounted(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = blending_at_turn(svc)
    menu = svc.legal_moves(game.game_id, game.credential, page_size=500).moves
    step = next(e.notation for e in menu if e.kind == "move")
    before = counters(svc, game, 0)
    result = svc.play(game.game_id, game.credential, Submission(moves=[step, "end", step, "end"]))
    assert result.accepted == [step, "end"] and result.fallback is None
    assert result.rejected is None, "a required discard is not a rejection"
    stopped = result.not_applied
    assert stopped is not None and stopped.code == "not_applied"
    assert stopped.index == 2
    assert "a discard is required first" in stopped.reason
    assert repr(step) in stopped.reason and "'end'" in stopped.reason
    assert counters(svc, game, 0) == before == (0, 0, 0)
    after = svc.legal_moves(game.game_id, game.credential).moves
    assert {e.kind for e in after} == {"discard"}
    # The discard itself goes through as usual.
    done = svc.play(game.game_id, game.credential, Submission(moves=[after[0].notation]))
    assert done.accepted == [after[0].notation]


def test_a_blending_batch_may_carry_the_discard(tmp_path: Path) -> None:
    svc = service(tmp_path)
    game = blending_at_turn(svc)
    with svc.sessions.open(game.game_id) as session:
        hand = list(session.state.hands[0])
    discards = [f"discard t{t}" for t in hand[: len(hand) - 3]]
    result = svc.play(game.game_id, game.credential, Submission(moves=["end", *discards]))
    assert result.accepted == ["end", *discards] and result.rejected is None


@pytest.mark.anyio
async def test_through_mcp(tmp_path: Path) -> None:
    server = build_server(service(tmp_path))
    async with Client(server) as client:
        game = await call(
            client, "new_game", game="influence", seed=3, seat="White", bots=["greedy"]
        )
        gid, cred = game["game_id"], game["credential"]
        menu = (await call(client, "legal_moves", game_id=gid, credential=cred))["moves"]
        wrong = await call_error(
            client, "play", game_id=gid, credential=cred, move=f"1. {menu[1]['notation']}"
        )
        assert "malformed_move" in wrong and "entry 1" in wrong
        # A second rejection would play the fallback: the typo goes to a fresh game.
        other = await call(
            client, "new_game", game="influence", seed=3, seat="White", bots=["greedy"]
        )
        typo = await call_error(
            client,
            "play",
            game_id=other["game_id"],
            credential=other["credential"],
            move=menu[3]["notation"] + ">",
        )
        assert f"Nearest legal moves: {menu[3]['number']}. {menu[3]['notation']}" in typo
        line = f"   {menu[1]['number']}. {menu[1]['notation']}  - {menu[1]['description']}"
        played = await call(client, "play", game_id=gid, credential=cred, move=line)
        assert played["accepted"] == [menu[1]["notation"]]
