"""Influence's seeded opening (ruleset `opening: "seeded"`, rules.md I7a): a board drawn from the
game's seed, point-symmetric, connected, the same for one seed and different across seeds; its
games replay; the default opening is untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonpath import JSON, at

from cogs_arena.engines import InvalidRuleset, get_engine
from cogs_arena.engines.influence.board import (
    BLACK_START,
    DIRECTIONS,
    WHITE_START,
    Board,
    Cell,
    default_board,
)
from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.influence.opening import mirror, seeded_map
from cogs_arena.engines.testing import check_engine
from cogs_arena.server.series.numbers import summary
from cogs_arena.server.series.play import Planned, play
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.sqlite import SqliteStore
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.events import Header
from cogs_arena.transcripts.io import read_transcript

ENGINE = get_engine("influence")
assert isinstance(ENGINE, InfluenceEngine)
E: InfluenceEngine = ENGINE
SEEDED = E.ruleset({"opening": "seeded"})


def _board(seed: int | str, size: int = 11) -> Board:
    ruleset = E.ruleset({"opening": "seeded", "size": size})
    return E.new_game(ruleset, seed).board


def _starts(board: Board) -> tuple[Cell, Cell]:
    (white,) = (c for c, v in zip(board.cells, board.init, strict=True) if v > 0)
    (black,) = (c for c, v in zip(board.cells, board.init, strict=True) if v < 0)
    return white, black


@pytest.mark.parametrize("size", [4, 7, 11, 12])
def test_the_board_is_point_symmetric_walls_big_cells_and_starts(size: int) -> None:
    """Under (r, c) → (N−1−r, N−1−c) the cells, walls and big cells map onto themselves and
    White's start onto Black's, for every seed tried."""
    for seed in range(12):
        board = _board(seed, size)
        assert board.map_id.startswith("seeded:")
        flip = {cell: mirror(cell, size) for cell in board.cells}
        assert set(flip.values()) == set(board.cells)
        assert {mirror(c, size) for c in board.walls} == set(board.walls)
        assert {mirror(c, size) for c in board.big} == set(board.big)
        white, black = _starts(board)
        assert mirror(white, size) == black
        assert board.init[board.index[white]] == WHITE_START
        assert board.init[board.index[black]] == BLACK_START
        assert set(board.cells) | set(board.walls) == {
            (r, c) for r in range(size) for c in range(size)
        }


def test_the_board_is_connected_and_both_starts_can_move() -> None:
    """Every cell is reachable from White's start (so Black's start too), and each start has
    every on-rhombus neighbour open to attack."""
    for seed in range(30):
        board = _board(seed)
        white, black = _starts(board)
        seen, todo = {white}, [white]
        while todo:
            i = board.index[todo.pop()]
            for j in board.neighbours[i]:
                if board.cells[j] not in seen:
                    seen.add(board.cells[j])
                    todo.append(board.cells[j])
        assert seen == set(board.cells)
        for r, c in (white, black):
            around = {(r + dr, c + dc) for dr, dc in DIRECTIONS}
            assert not around & set(board.walls)
        state = E.new_game(E.ruleset({"opening": "seeded"}), seed)
        assert any(m.kind == "attack" for m in E.legal_moves(state, 0).moves)


def _cells(board: dict[str, object]) -> list[object]:
    """The map JSON's cells (a list)."""
    cells = board["cells"]
    assert isinstance(cells, list)
    return cells


def test_seeds_draw_different_boards_and_one_seed_the_same() -> None:
    """Twenty seeds give twenty boards, with walls and big cells; a seed (int or string) always
    draws its own board again."""
    maps = [seeded_map(11, seed) for seed in range(20)]
    assert len({repr(m) for m in maps}) == 20
    assert all(m["big"] for m in maps) and sum(1 for m in maps if len(_cells(m)) < 121) >= 18
    assert seeded_map(11, 7) == maps[7] and seeded_map(11, "run-a") == seeded_map(11, "run-a")
    assert seeded_map(11, "run-a") != seeded_map(11, "run-b")
    first, again = E.new_game(SEEDED, 7), E.new_game(E.ruleset({"opening": "seeded"}), 7)
    assert E.digest(first) == E.digest(again)
    assert E.digest(first) != E.digest(E.new_game(SEEDED, 8))


def test_the_default_opening_is_unchanged() -> None:
    """Without the option the board is the rules' rhombus for every seed, and neither the
    ruleset's JSON nor the state's JSON mentions the opening or the seed (so the default game's
    records and digests are as before)."""
    default = E.ruleset({})
    assert "opening" not in default.model_dump(mode="json")
    assert E.ruleset({"opening": "default"}).model_dump(mode="json") == default.model_dump()
    for seed in (0, 1, "x"):
        state = E.new_game(default, seed)
        assert state.board is default_board(11) and "seed" not in E.state_to_json(state)
    assert E.digest(E.new_game(default, 0)) == E.digest(E.new_game(default, 1))


def test_the_game_list_shows_the_opening_option(memory_service: GameService) -> None:
    """list_games' ruleset defaults name every field, the opening too, though the ruleset's own
    JSON leaves it out at its default."""
    (info,) = (g for g in memory_service.list_games().games if g.name == "influence")
    assert info.ruleset_defaults["opening"] == "default"
    assert "greedy-seeded" in info.bots and info.default_bot == "greedy"


def test_a_seeded_state_round_trips_and_needs_its_seed() -> None:
    """The state's JSON carries the seed, restores the same board and digest, and a seeded state
    without a seed (or a default one with a seed) is refused."""
    state = E.new_game(SEEDED, "s-3")
    data = E.state_to_json(state)
    assert data["seed"] == "s-3" and at(data, "ruleset", "opening") == "seeded"
    restored = E.state_from_json(data)
    assert restored.board is state.board and E.digest(restored) == E.digest(state)
    with pytest.raises(ValueError, match="seeded opening needs"):
        E.state_from_json({k: v for k, v in data.items() if k != "seed"})
    plain = E.state_to_json(E.new_game(E.ruleset({}), 1))
    with pytest.raises(ValueError, match="only with a seeded opening"):
        E.state_from_json({**plain, "seed": 1})


def test_a_seeded_opening_with_a_map_is_refused() -> None:
    """A custom map and a drawn map contradict each other: refused, naming both."""
    spec: JSON = {"cells": "rhombus:3", "init": {"0,0": 2, "2,2": -2}}
    with pytest.raises(InvalidRuleset, match='opening "seeded" draws its own map'):
        E.ruleset({"opening": "seeded", "map": spec})
    with pytest.raises(InvalidRuleset, match="opening"):
        E.ruleset({"opening": "random"})


def test_seeded_games_replay_and_report_wins_by_colour(tmp_path: Path) -> None:
    """Played as `simulate` plays them, seeded-opening games write records that re-simulate,
    the header keeps the option, and the numbers tell wins by colour."""
    whole = E.ruleset({"opening": "seeded", "max_turns": 40}).model_dump(mode="json")
    records = []
    for seed in (3, 4):
        folder = tmp_path / str(seed)
        records.append(
            play(Planned("influence", whole, seed, ("greedy-seeded", "greedy"), str(folder)))
        )
        (path,) = folder.glob("influence-*.jsonl")
        report = replay(path)
        assert report.ok and report.complete, report.mismatches
        header = read_transcript(path)[0]
        assert isinstance(header, Header) and header.ruleset["opening"] == "seeded"
    stats = summary("influence", records)
    colours = {"White", "Black", "draw"}
    assert set(stats["colour"]) <= colours and abs(sum(stats["colour"].values()) - 1) < 1e-9
    names = {(0,): "White", (1,): "Black", (0, 1): "draw"}
    assert [r["colour"] for r in records] == [names[tuple(r["winners"])] for r in records]


def test_the_seeded_opening_passes_the_conformance_suite() -> None:
    """Round trips, digests, views, settle and every bot (the seeded ones too) on drawn boards."""
    report = check_engine(E, seeds=[2, 3], overrides={"opening": "seeded"}, bot="greedy-seeded")
    assert report.steps > 0 and "greedy-seeded" in report.bots


def test_a_seeded_game_on_the_host_survives_a_restart_and_replays(tmp_path: Path) -> None:
    """Through the host: the view shows the drawn board, the SQLite store restores the same
    state (board from the recorded seed), and the finished game's transcript re-simulates."""
    path = tmp_path / "arena.sqlite3"
    store = SqliteStore(path)
    service = GameService(store, tmp_path / "t")
    game = service.new_game(
        "influence",
        seed=9,
        seat="White",
        bots=["greedy-seeded"],
        ruleset={"opening": "seeded", "max_turns": 25},
    )
    drawn = E.new_game(E.ruleset({"opening": "seeded"}), 9).board
    observation = game.view.observation
    assert observation is not None and observation["map"] == drawn.map_id
    for _ in range(5):
        service.play(game.game_id, game.credential, Submission(number=1))
    with service.sessions.open(game.game_id) as session:
        mid = E.digest(session.state)
    store.close()
    reopened = SqliteStore(path)
    restarted = GameService(reopened, tmp_path / "t")
    with restarted.sessions.open(game.game_id) as session:
        assert E.digest(session.state) == mid and session.state.board is drawn
    view = restarted.show(game.game_id, game.credential)
    for _ in range(5000):
        if view.status == "over":
            break
        view = restarted.play(game.game_id, game.credential, Submission(number=1)).view
    assert view.status == "over"
    record = reopened.get(game.game_id)
    assert record is not None
    report = replay(restarted.transcripts.path(record.transcript_name))
    assert report.ok and report.finished, report.mismatches
    reopened.close()
