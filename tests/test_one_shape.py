"""One shape per argument on its way in: a tool's arguments are validated once, by the tool's
input model, and that model is what the service acts on (no second validation of the same
call), while the keyword form for tests and scripts still validates its arguments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call

from cogs_arena.server import inputs
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.errors import BadArgument
from cogs_arena.server.inputs import ToolInput
from cogs_arena.server.service import GameService, Submission

pytestmark = pytest.mark.anyio

MODELS: list[type[ToolInput]] = [
    inputs.NewGameInput,
    inputs.JoinGameInput,
    inputs.ShowInput,
    inputs.LegalMovesInput,
    inputs.PlayInput,
    inputs.TalkInput,
    inputs.LogInput,
    inputs.SpectateInput,
]


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts each input model's validations, by model name."""
    counts: Counter[str] = Counter()
    for model in MODELS:
        real = model.model_validate

        def counting(
            cls: type[ToolInput],
            /,
            obj: Any,
            *a: Any,
            real: Any = real,
            name: str = model.__name__,
            **k: Any,
        ) -> Any:
            counts[name] += 1  # the tool's own argument model is a subclass: counted here too
            return real.__func__(cls, obj, *a, **k)

        monkeypatch.setattr(model, "model_validate", classmethod(counting))
    yield counts


async def test_each_tool_call_validates_its_arguments_once(
    memory_service: GameService, validations: Counter[str]
) -> None:
    """Every tool that acts through the service validates its input model exactly once per call:
    before the adapter handed the model to the service's input entries, the service rebuilt and
    validated it a second time (two validations of each)."""
    async with (
        Client(build_server(memory_service)) as white,
        Client(build_server(memory_service)) as black,
    ):
        game = await call(white, "new_game", game="influence", seed=2, seat=0, bots=["open"])
        joined = await call(black, "join_game", invitation=game["invitations"]["Black"])
        seat = {"game_id": game["game_id"], "credential": game["credential"]}
        await call(white, "show", **seat)
        await call(white, "legal_moves", **seat, page_size=5)
        await call(white, "talk", **seat, text="hello", to=["Black"])
        await call(white, "log", **seat, after=0)
        await call(white, "play", **seat, move="end")
        await call(white, "spectate", spectator_code=game["spectator_code"])
        assert joined["credential"] != game["credential"]
    assert {model.__name__: validations[model.__name__] for model in MODELS} == {
        model.__name__: 1 for model in MODELS
    }


def test_the_keyword_form_validates_once_and_still_refuses_bad_input(
    memory_service: GameService, validations: Counter[str]
) -> None:
    """`GameService.play` builds the input model once from its keywords (one validation), and
    a bad argument is still refused with the tool's error, leaving the game as it was."""
    game = memory_service.new_game("influence", seed=2, seat=0, bots=["greedy"])
    before = memory_service.show(game.game_id, game.credential, detail="data")
    with pytest.raises(BadArgument, match="why: string should have at most 2000 characters"):
        memory_service.play(game.game_id, game.credential, Submission(move="end"), why="x" * 2001)
    assert memory_service.show(game.game_id, game.credential, detail="data") == before
    validations.clear()
    result = memory_service.play(game.game_id, game.credential, Submission(move="end"))
    assert result.error is None and validations["PlayInput"] == 1
