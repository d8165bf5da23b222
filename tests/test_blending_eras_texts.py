"""The rules resource and the seat prompt describe whichever era a game uses, and only that one
(issue 14): engine texts per ruleset, and through MCP the per-game rules resource and prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import text_of

from cogs_arena.engines import get_engine
from cogs_arena.prompts import seat_prompt
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore

E = get_engine("blending")
PLAY_MD = (Path(__file__).resolve().parent.parent / "engines/blending/rules_play.md").read_text(
    encoding="utf-8"
)

# words only the text of one switch's value may carry
MARKS = {
    ("land", "estates"): "## Estates",
    ("land", "territories"): "## Territories",
    ("combat", "match"): "## Fights: the match",
    ("combat", "three"): "## Fights: Three Strikes",
    ("combat", "legacy"): "## Fights: legacy combat",
    ("endgame", "rounds"): "after 10 rounds `end_rounds`",
    ("endgame", "last_tile"): "## The end of the game",
}
ERAS = [
    {"land": land, "combat": combat, "endgame": end}
    for land in ("estates", "territories")
    for combat in ("match", "three", "legacy")
    for end in ("rounds", "last_tile")
]


@pytest.mark.parametrize("era", ERAS, ids=lambda e: "-".join(e.values()))
def test_the_rules_text_describes_its_era_only(era: dict[str, str]) -> None:
    text = E.rules_play_text(E.ruleset(era))
    for (field, value), mark in MARKS.items():
        assert (mark in text) == (era[field] == value), (field, value)
    if era == {"land": "estates", "combat": "match", "endgame": "rounds"}:
        assert text == PLAY_MD == E.rules_play_text()
    else:
        assert "The current rules only" not in text and "This game's era" not in text
        assert len(text.encode()) < 15_000
    for other in ("Legacy combat", "Simulate", "Round 8"):
        assert other not in text


def test_options_are_stated_as_the_game_uses_them() -> None:
    text = E.rules_play_text(E.ruleset({"combat": "three", "kill_on": "win", "heal_to": 4}))
    assert "dies to any won fight" in text and "below 4" in text and "3-0 sweep" not in text
    text = E.rules_play_text(E.ruleset({"land": "territories", "merge_tax": 2}))
    assert "Merging costs 2 tiles" in text and "splits the points" in text
    text = E.rules_play_text(E.ruleset({"land": "territories", "guardians_tie": "full"}))
    assert "pays each tied player" in text and "A merge costs nothing" in text
    text = E.rules_play_text(E.ruleset({"combat": "legacy", "combat_pvp": True}))
    assert "`duel SEAT`" in text and "rivals' as pips" in text
    text = E.rules_play_text(E.ruleset({"endgame": "last_tile", "last_tile_reshuffle": "never"}))
    assert "never shuffled back" in text and "When the stock runs out" not in text


def test_the_seat_prompt_names_the_era_and_its_resource() -> None:
    assert seat_prompt("blending", ruleset=E.ruleset()) == seat_prompt("blending")
    era = E.ruleset({"land": "territories", "combat": "legacy"})
    text = seat_prompt("blending", game_id="abc", ruleset=era)
    assert "territories" in text and "legacy combat" in text and "estates" not in text
    assert "rock-paper-scissors match" not in text
    assert "cogs-arena://rules/blending/game/abc" in text


def test_views_of_an_older_era_name_it() -> None:
    s = E.new_game(E.ruleset({"combat": "three"}), 1)
    view = E.observe(s, 0)
    assert view["era"] == "estates, Three Strikes, 10 rounds"
    assert "cogs-arena://rules/blending/game/" in E.render(view)
    assert "era" not in E.observe(E.new_game(E.ruleset(), 1), 0)


@pytest.mark.anyio
async def test_the_game_rules_resource_and_prompt_read_the_games_ruleset(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    era = {"land": "territories", "combat": "three"}
    game = service.new_game("blending", ruleset=era, bots=["builder"] * 3)
    plain = service.new_game("blending", bots=["builder"] * 3)
    async with Client(build_server(service)) as client:

        async def read(uri: str) -> str:
            contents = (await client.read_resource(uri)).contents
            return text_of(contents[0])

        text = await read(f"cogs-arena://rules/blending/game/{game.game_id}")
        assert text == E.rules_play_text(E.ruleset(era)) and "## Territories" in text
        assert await read(f"cogs-arena://rules/blending/game/{plain.game_id}") == PLAY_MD
        prompt = await client.get_prompt("blending_seat", {"game_id": game.game_id})
        body: Any = prompt.messages[0].content
        assert "Three Strikes" in body.text and game.game_id in body.text
        with pytest.raises(Exception, match=r"No game|not found|unknown"):
            await read("cogs-arena://rules/blending/game/0000000000000000")


def test_the_picture_names_the_era_and_its_piles() -> None:
    engine = get_engine("blending")
    older = engine.new_game(engine.ruleset({"land": "territories", "combat": "legacy"}), 3)
    svg = engine.picture(engine.observe(older, 0))
    assert "legacy combat" in svg and "territories + blends" in svg and "face down" in svg
    current = engine.new_game(engine.ruleset(), 3)
    svg = engine.picture(engine.observe(current, 0))
    assert "estate + blends" in svg and "face up" in svg and "legacy" not in svg
