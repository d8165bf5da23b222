"""Seat prompt templates, one per game, served as MCP prompts."""

from __future__ import annotations

from importlib import resources

from ..engines import get_engine
from ..engines.protocol import Ruleset


def template(game: str) -> str:
    """The game's own prompt, or for a game without one (OpenSpiel's, a plugin's) the generic
    prompt naming the game and its rules resource."""
    own = resources.files(__name__).joinpath(f"{game}.md")
    if ":" not in game and own.is_file():
        return own.read_text(encoding="utf-8")
    generic = resources.files(__name__).joinpath("_game.md").read_text(encoding="utf-8")
    return generic.replace("GAME_TITLE", get_engine(game).title).replace("GAME_NAME", game)


def seat_prompt(
    game: str, *, game_id: str = "", credential: str = "", ruleset: Ruleset | None = None
) -> str:
    """The prompt for one seat; the ids are filled in when the caller has them. Given the game's
    ruleset, a game with rule eras describes that ruleset's era only (Engine.era_text)."""
    text = template(game)
    if ruleset is not None:
        text = get_engine(game).era_text(text, ruleset).replace("GAME_ID", game_id or "GAME_ID")
    text += "\n" + template("_tools")
    if game_id:
        text += f"\nYour game: game_id `{game_id}`"
        text += f", credential `{credential}`.\n" if credential else ".\n"
    return text
