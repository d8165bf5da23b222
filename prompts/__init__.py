"""Seat prompt templates, one per game, served as MCP prompts."""

from __future__ import annotations

from importlib import resources


def template(game: str) -> str:
    return resources.files(__name__).joinpath(f"{game}.md").read_text(encoding="utf-8")


def seat_prompt(game: str, *, game_id: str = "", credential: str = "") -> str:
    """The prompt for one seat; the ids are filled in when the caller has them."""
    text = template(game) + "\n" + template("_tools")
    if game_id:
        text += f"\nYour game: game_id `{game_id}`"
        text += f", credential `{credential}`.\n" if credential else ".\n"
    return text
