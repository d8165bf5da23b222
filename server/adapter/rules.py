"""The rules and the seat prompt of one game's rule era (issue 14, Blending's older eras).

`cogs-arena://rules/<game>` is the current rules; a game started with an older era's switches
(Blending's `land`, `combat`, `endgame`) is described by `cogs-arena://rules/<game>/game/<game_id>`,
which reads that game's ruleset (a ruleset is no secret: a game id is enough) and gives the rules
of its era only. The seat prompt `<game>_seat`, given a game id, describes that game's era and
names the same resource."""

from __future__ import annotations

import json
from typing import Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from ...engines import GameError, get_engine
from ...engines.protocol import Ruleset
from ...prompts import seat_prompt
from ..service import GameService


def register_game_rules(mcp: MCPServer[Any], service: GameService, names: list[str]) -> None:
    @mcp.resource(
        "cogs-arena://rules/{game}/game/{game_id}",
        name="game-rules",
        title="The rules of one game's era",
        description="The rules a player of that game needs, for the rule era its ruleset "
        "chose (the same as cogs-arena://rules/<game> for a game under the current rules).",
        mime_type="text/markdown",
    )
    async def game_rules(game: str, game_id: str) -> str:
        try:
            name, ruleset = await anyio.to_thread.run_sync(service.game_ruleset, game_id)
        except GameError as exc:
            raise ResourceNotFoundError(f"[{exc.code}] {exc}") from None
        if name != game:
            raise ResourceNotFoundError(f"Game {game_id} is a game of {name}, not {game}.")
        return get_engine(name).rules_play_text(ruleset)

    for name in names:
        _register_prompt(mcp, service, name)


def _register_prompt(mcp: MCPServer[Any], service: GameService, name: str) -> None:
    try:
        engine = get_engine(name)
    except (GameError, ImportError):
        return

    @mcp.prompt(
        name=f"{name}_seat",
        title=f"Play a seat of {engine.title}",
        description=f"How to play {engine.title} through this server's tools (given a game id, "
        "for that game's rule era).",
    )
    async def prompt(game_id: str = "", credential: str = "") -> str:
        ruleset: Ruleset | None = None
        if game_id:
            try:
                game, ruleset = await anyio.to_thread.run_sync(service.game_ruleset, game_id)
            except GameError:
                ruleset = None  # an unknown id: the prompt of the current rules
            else:
                ruleset = ruleset if game == name else None
        return seat_prompt(name, game_id=game_id, credential=credential, ruleset=ruleset)


def register_family_documents(mcp: MCPServer[Any]) -> None:
    """OpenSpiel's games have no resource each (105 of them would crowd resources/list): one
    template serves `cogs-arena://rules/openspiel:<game>`, and one prompt takes the game."""

    @mcp.resource(
        "cogs-arena://rules/{game}",
        name="family-rules",
        title="The rules of an OpenSpiel game",
        description="cogs-arena://rules/openspiel:<game>: what this server knows of that "
        "OpenSpiel game (players, information, moves, parameters, bots).",
        mime_type="text/markdown",
    )
    async def family_rules(game: str) -> str:
        try:
            return get_engine(game).rules_play_text()
        except GameError as exc:
            raise ResourceNotFoundError(f"[{exc.code}] {exc}") from None

    @mcp.resource(
        "cogs-arena://moves/{game}",
        name="family-moves",
        title="An OpenSpiel move as JSON",
        description="cogs-arena://moves/openspiel:<game>: the JSON Schema of a move as play's "
        "`structured` takes it.",
        mime_type="application/schema+json",
    )
    async def family_moves(game: str) -> str:
        try:
            return json.dumps(get_engine(game).move_schema(), indent=1)
        except GameError as exc:
            raise ResourceNotFoundError(f"[{exc.code}] {exc}") from None

    @mcp.prompt(
        name="openspiel_seat",
        title="Play a seat of an OpenSpiel game",
        description="How to play an OpenSpiel game (game: openspiel:<name>) through this "
        "server's tools.",
    )
    async def family_prompt(game: str, game_id: str = "", credential: str = "") -> str:
        try:
            get_engine(game)
        except GameError as exc:
            raise ValueError(f"[{exc.code}] {exc}") from None
        return seat_prompt(game, game_id=game_id, credential=credential)
