"""What other seats did since a seat last looked, and what each move did: the `news` the
referee keeps beside every transition, in views (text at every detail, structured with
'full'/'data'), in `log`, and checked by `replay`, for every game, through MCP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import call, error_text, fight_or_builder

from cogs_arena.engines import get_engine
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import play_bots
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import replay
from cogs_arena.transcripts.events import Batch, Move, event_json, parse_event

pytestmark = pytest.mark.anyio

# game -> (a seat that others move before or between, bots, a word the news of a move has)
CASES: dict[str, tuple[int, list[str], str]] = {
    "influence": (1, ["greedy"], "captured"),
    "territory": (0, ["homesteader"], "took"),
    "chemistry": (0, ["courier"], "ticks"),
    "blending": (2, ["builder"], "walked"),
}


@pytest.fixture
async def arena(tmp_path: Path) -> AsyncIterator[tuple[Client, GameService]]:
    service = GameService(MemoryStore(), tmp_path / "t")
    async with Client(build_server(service)) as client:
        yield client, service


async def _text_and_data(client: Client, tool: str, **arguments: Any) -> tuple[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, error_text(result)
    return error_text(result), dict(result.structured_content or {})


async def start(client: Client, game: str) -> dict[str, str]:
    seat, bots, _ = CASES[game]
    started = await call(client, "new_game", game=game, seed=3, seat=seat, bots=bots)
    return {"game_id": started["game_id"], "credential": started["credential"]}


def step_of(game: str, step: int) -> dict[str, Any]:
    """The first menu entry, except that Influence's turn is several moves: its first step
    ends the attacks, so the next ones spend the points and the turn passes."""
    return {"move": "end"} if game == "influence" and step == 0 else {"number": 1}


@pytest.mark.parametrize("game", sorted(CASES))
async def test_views_say_what_others_did_since_the_last_look(
    arena: tuple[Client, GameService], game: str
) -> None:
    client, _ = arena
    word = CASES[game][2]
    ids = await start(client, game)
    seen_words = False
    for step in range(40):
        text, data = await _text_and_data(
            client, "play", detail="data", **step_of(game, step), **ids
        )
        view = data["view"]
        since = view["since"]
        if since:
            # Text and structured form say the same: each entry's move and news are in the text.
            assert "Since your last look:" in text
            for entry in since:
                assert entry["seat"] != view["seat_name"], "a seat's own moves are not news"
                for line in entry["news"]:
                    assert line in text
                if entry["move"] is not None:
                    assert f"{entry['seat']} played:" in text and entry["move"] in text
            seen_words = seen_words or any(word in line for e in since for line in e["news"])
        if seen_words or view["status"] == "over" or not view["your_turn"]:
            break
    assert seen_words, f"no {word!r} in what {game}'s other seats did"
    # A second look finds nothing new, and records nothing.
    text, again = await _text_and_data(client, "show", detail="data", **ids)
    assert again["since"] == [] and "Since your last look:" not in text


@pytest.mark.parametrize("game", sorted(CASES))
async def test_brief_views_carry_the_news_as_text_only(
    arena: tuple[Client, GameService], game: str
) -> None:
    client, _ = arena
    ids = await start(client, game)
    if game == "influence":  # a turn is several moves: end the attacks, spend the points
        await call(client, "play", move="end", **ids)
    text, data = await _text_and_data(client, "play", number=1, **ids)
    view = data["view"]
    assert view["detail"] == "brief" and view["since"] == [] and view["observation"] == {}
    if game != "blending":  # Blending's first move may not end a turn: nobody else moved yet
        assert "Since your last look:" in text


@pytest.mark.parametrize("game", sorted(CASES))
async def test_log_entries_carry_what_each_move_did(
    arena: tuple[Client, GameService], game: str
) -> None:
    client, service = arena
    word = CASES[game][2]
    ids = await start(client, game)
    for step in range(4):
        view = (await call(client, "play", **step_of(game, step), **ids))["view"]
        if view["status"] == "over":
            break
    log = await call(client, "log", **ids)
    texts = [e["text"] for e in log["events"] if e["type"] in ("move", "turn")]
    assert any(word in t for t in texts), texts
    # Each transition's news is in its log line, in the record's words.
    events = service.store.events(ids["game_id"])
    news = [line for e in events if isinstance(e, Move | Batch) for line in e.news]
    assert news and all(any(line in t for t in texts) for line in news if word in line)


async def test_blending_log_shows_flips(arena: tuple[Client, GameService]) -> None:
    client, _ = arena
    started = await call(client, "new_game", game="blending", seed=11, seat=0, bots=["builder"])
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    view = started["view"]
    flipped: list[str] = []
    for calls in range(600):
        if view["status"] == "over":
            break
        menu = await call(client, "legal_moves", page_size=500, **ids)
        number = fight_or_builder(menu["moves"], view["observation"], Stream(11, f"t/{calls}"))
        view = (await call(client, "play", number=number, detail="data", **ids))["view"]
        log = await call(client, "log", **ids)
        flipped = [e["text"] for e in log["events"] if "flipped" in e["text"]]
        if flipped:
            break
    assert flipped, "no fight's flip reached the log"
    assert all(": seat " in text for text in flipped), "the flip is the move's outcome"


def test_blending_news_tells_kills() -> None:
    """A kill's log line (what it took, what it drew) is news every seat reads."""
    engine = get_engine("blending")
    rules = engine.ruleset()
    for seed in range(40):
        game = play_bots(engine, rules, seed, ["builder"] * 4)
        state = engine.new_game(rules, seed)
        for seat, text in game.moves:
            after = engine.apply(state, seat, engine.parse_move(state, seat, text))
            kills = [line for line in engine.news(state, after) if " killed G" in line]
            if kills:
                assert "drew" in kills[0] and f"seat {seat} killed" in kills[0]
                return
            state = after
    raise AssertionError("no builder game on seeds 0..39 had a kill")


async def test_replay_checks_the_news(arena: tuple[Client, GameService], tmp_path: Path) -> None:
    client, service = arena
    started = await call(client, "new_game", game="influence", seed=3, seat=1, bots=["greedy"])
    ids = {"game_id": started["game_id"], "credential": started["credential"]}
    await call(client, "play", number=1, **ids)
    service.settle(ids["game_id"], "host_ended")
    path = next((tmp_path / "t").glob("*.jsonl"))
    assert replay(path).ok
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        event = parse_event(line)
        if isinstance(event, Move) and event.news:
            lines[i] = event_json(event.model_copy(update={"news": ["captured everything"]}))
            break
    else:
        raise AssertionError("no move with news in the record")
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = replay(forged)
    assert not report.ok and any("news" in m for m in report.mismatches), report.mismatches
