"""A live session builds a seat's menu once per state: `legal_moves`, its pages and a following
`play number=N` share it; any transition (a new state value) builds it anew, and a rollback to
an earlier state finds that state's own menu."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogs_arena.engines.influence.engine import InfluenceEngine
from cogs_arena.engines.protocol import LegalMoves
from cogs_arena.server.service import GameService
from cogs_arena.server.sessions import Session
from cogs_arena.server.store.memory import MemoryStore


class CountingEngine(InfluenceEngine):
    def __init__(self) -> None:
        self.built = 0

    def legal_moves(self, state: Any, seat: int) -> LegalMoves:
        self.built += 1
        return super().legal_moves(state, seat)


def test_menus_are_built_once_per_state(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    started = service.new_game("influence", seat="White", bots=["random"])
    record = service.sessions.store.get(started.game_id)
    assert record is not None
    engine = CountingEngine()
    first = engine.new_game(engine.ruleset(), 3)
    session = Session(record, engine, first)
    seat = engine.to_act(first)[0]

    menu = session.legal_moves(first, seat)
    assert session.legal_moves(first, seat) is menu and engine.built == 1

    move = engine.parse_move(first, seat, menu.moves[0].notation)
    second = engine.apply(first, seat, move)
    session.state = second
    assert session.legal_moves(second, seat) is not menu and engine.built == 2
    assert session.legal_moves(second, seat) is session.legal_moves(second, seat)
    assert engine.built == 2

    rebuilt = session.legal_moves(first, seat)  # a rollback's state: its own menu again
    assert [m.notation for m in rebuilt.moves] == [m.notation for m in menu.moves]
    assert engine.built == 3
