"""The pages in a real browser (headless Chromium, see browser_helpers): a replay file stepped
through with the keyboard, and the live page following a game two clients play over HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from browser_helpers import launch_options, playwright_async, playwright_sync
from http_helpers import HttpServer, held, play_seat, running, streamable
from jsonpath import arr
from replay_helpers import play_on, start_two_clients

from cogs_arena.engines import get_engine
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts.events import Header
from cogs_arena.transcripts.io import read_transcript
from cogs_arena.transcripts.replay import Transition, apply_transition
from cogs_arena.transcripts.viewer.html_replay import write_replay

pytestmark = pytest.mark.slow

SHORT = {"players": 2, "end_rounds": 2}


def _hand_at(transcript: Path, step: int, seat: int) -> list[str]:
    """Seat's hand after `step` transitions, as tile labels in a picture (re-simulated here)."""
    events = read_transcript(transcript)
    header = events[0]
    assert isinstance(header, Header)
    engine = get_engine(header.game)
    state = engine.new_game(engine.ruleset(header.ruleset), header.seed)
    transitions = [e for e in events if isinstance(e, Transition)]
    for event in transitions[:step]:
        state = apply_transition(engine, state, event)
    return [f">{tile}<" for tile, _ in map(arr, arr(engine.observe(state, seat)["hand"]))]


def test_replay_page_steps_and_switches_perspective(tmp_path: Path) -> None:
    service = GameService(MemoryStore(), tmp_path / "transcripts")
    played = start_two_clients(service, "blending", seed=5, ruleset=SHORT)
    assert play_on(service, played) == "over"
    transcript = played.transcript()
    page_file = tmp_path / "game.html"
    book, _ = write_replay(transcript, page_file)
    last = len(book.steps) - 1

    with playwright_sync() as pw:
        browser = pw.chromium.launch(**launch_options())
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.as_uri())

            def state() -> tuple[int, int, str]:
                body = page.locator("body")
                step = int(body.get_attribute("data-step") or -1)
                return step, int(body.get_attribute("data-view") or -1), page.inner_text("#counter")

            def board() -> str:
                return str(page.inner_html("#board"))

            assert state() == (0, 2, f"Step 0 of {last} \u00b7 start")  # the spectator's
            start = board()
            page.keyboard.press("ArrowRight")
            assert state()[0] == 1 and state()[2].startswith(f"Step 1 of {last}")
            assert board() != start
            page.keyboard.press("ArrowLeft")
            assert state()[0] == 0 and board() == start
            page.keyboard.press("End")
            assert state()[0] == last and "(end of the game)" in state()[2]
            assert "Game over" in page.inner_text("#now")

            page.keyboard.press("1")  # seat 0: its own hand, its own rejection
            page.keyboard.press("Home")
            for _ in range(6):
                page.keyboard.press("ArrowRight")
            step, view, counter = state()
            assert view == 0 and step >= 6 and counter.startswith("Step 6 of ")
            hand = _hand_at(transcript, step, 0)
            assert hand and all(label in board() for label in hand)
            assert "tried nonsense: rejected" in page.inner_text("#log")
            assert "why: probing" in page.inner_text("#log")
            selected = page.locator('#views button[aria-selected="true"]')
            assert selected.inner_text().startswith("1 Warrior 0")

            page.keyboard.press("2")  # seat 1 at the same point: none of that
            other_step, view, _ = state()
            assert view == 1 and other_step <= step
            assert not any(label in board() for label in hand)
            log = page.inner_text("#log")
            assert "tried nonsense:" not in log and "probing" not in log
            assert "host played" in log  # its own fallback
            page.keyboard.press("ArrowUp")
            assert state()[1] == 0
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowDown")
            assert state()[1] == 2
            assert "host played" in page.inner_text("#log")
            assert "tried nonsense: rejected" in page.inner_text("#log")
            page.click("#next")
            assert state()[0] > other_step
            assert errors == []
        finally:
            browser.close()


async def _play_until(seats: list[tuple[Any, str, str]], decision: int | None) -> None:
    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            for caller, game_id, credential in seats:
                tg.start_soon(_seat, caller, game_id, credential, decision)


async def _seat(caller: Any, game_id: str, credential: str, decision: int | None) -> None:
    await play_seat(caller, game_id, credential, stop_at_decision=decision)


async def _hands(caller: Any, game_id: str, credential: str) -> list[str]:
    view = await caller("show", game_id=game_id, credential=credential, detail="data")
    return [f">{tile}<" for tile, _ in view["observation"]["hand"]]


async def _until(
    page: Any, selector: str, test: Any, attribute: str | None = None, limit: float = 20.0
) -> None:
    """Polls from here: Playwright's wait_for_function evaluates a string, which the page's
    Content-Security-Policy (no eval) refuses, as it should."""
    seen = None
    with anyio.move_on_after(limit):
        while True:
            element = page.locator(selector)
            seen = await (element.get_attribute(attribute) if attribute else element.inner_text())
            if seen is not None and test(seen):
                return
            await anyio.sleep(0.05)
    raise AssertionError(f"{selector} {attribute or 'text'} still {seen!r} after {limit} s")


@pytest.mark.anyio
async def test_live_page_follows_a_game(tmp_path: Path) -> None:
    server = HttpServer(tmp_path / "arena.sqlite3", tmp_path / "transcripts")
    with running(server):
        async with streamable(server.base) as first, streamable(server.base) as second:
            a, b = held(first), held(second)
            created = await a(
                "new_game", game="blending", ruleset=SHORT, seat=0, bots=["open"], seed=11
            )
            game_id, code = created["game_id"], created["spectator_code"]
            joined = await b("join_game", invitation=next(iter(created["invitations"].values())))
            seats = [(a, game_id, created["credential"]), (b, game_id, joined["credential"])]
            await a("talk", game_id=game_id, credential=created["credential"], text="hello all")
            await a(
                "talk",
                game_id=game_id,
                credential=created["credential"],
                text="a secret for you",
                to=[joined["seat_name"]],
            )
            async with playwright_async() as pw:
                browser = await pw.chromium.launch(**launch_options())
                try:
                    page = await browser.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda exc: errors.append(str(exc)))
                    missing = await page.goto(f"{server.base}/watch/{game_id}.nope")
                    assert missing is not None and missing.status == 404
                    assert "Nothing to watch here" in await page.inner_text("body")

                    await page.goto(f"{server.base}/watch/{code}")
                    await _until(page, "#link", lambda text: text == "live")
                    assert await page.get_attribute("body", "data-decision") == "0"
                    assert "hello all" in await page.inner_text("#chat")

                    await _play_until(seats, 5)
                    await _until(page, "body", lambda d: int(d) >= 5, "data-decision")
                    assert int(await page.get_attribute("body", "data-updates") or 0) > 1
                    assert "walk" in await page.inner_text("#log")
                    board = await page.inner_html("#board")
                    hands = [label for seat in seats for label in await _hands(*seat)]
                    assert hands and not any(label in board for label in hands)
                    text = await page.inner_text("body")
                    assert "a secret for you" not in text

                    await _play_until(seats, None)
                    await _until(page, "body", lambda status: status == "over", "data-status")
                    await _until(page, "#link", lambda text: text == "the game is over")
                    assert "Game over" in await page.inner_text("#result")
                    assert "a secret for you" in await page.inner_text("#log")
                    assert errors == []
                finally:
                    await browser.close()


def test_replay_page_prints_a_big_seed_exactly_and_steps_without_scrolling_the_page(
    tmp_path: Path,
) -> None:
    """The header prints a 128-bit seed digit for digit (a JavaScript number would print
    8.058718729895191e+37), and stepping through a page taller than the window keeps the
    current log entry in view by scrolling the log alone: the page stays where the reader put
    it (scrollIntoView moved it on every step)."""
    seed = 80587187298951910000000000000000000123
    service = GameService(MemoryStore(), tmp_path / "transcripts")
    played = start_two_clients(service, "blending", seed=seed, ruleset=SHORT)
    assert play_on(service, played) == "over"
    page_file = tmp_path / "game.html"
    book, _ = write_replay(played.transcript(), page_file)
    assert len(book.steps) > 20, "enough steps to overflow the log"

    with playwright_sync() as pw:
        browser = pw.chromium.launch(**launch_options())
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 560})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.as_uri())
            assert f"seed {seed}" in page.inner_text("#meta")

            def scrolled() -> tuple[int, int]:
                page_y = page.evaluate("() => window.scrollY")
                log_y = page.evaluate("() => document.getElementById('log').scrollTop")
                return int(page_y), int(log_y)

            page_height = page.evaluate("() => document.documentElement.scrollHeight")
            assert page_height > 560, "the page must be taller than the window"
            assert scrolled() == (0, 0)
            seen = []
            for _ in range(len(book.steps) - 1):
                page.keyboard.press("ArrowRight")
                where = page.evaluate(
                    "() => { const log = document.getElementById('log');"
                    " const item = log.querySelector('li.current');"
                    " return [window.scrollY, item.offsetTop, item.offsetTop + item.offsetHeight,"
                    " log.scrollTop, log.scrollTop + log.clientHeight]; }"
                )
                seen.append(tuple(int(v) for v in where))
            assert [s[0] for s in seen] == [0] * len(seen), "a step scrolled the page"
            for _, top, bottom, low, high in seen:
                assert low <= top < high, "the current entry's start is out of the log's view"
                assert bottom <= high + 1 or top == low, "the entry could show whole"
            assert scrolled()[1] > 0, "the log scrolled to follow the steps"
            page.keyboard.press("Home")
            assert scrolled() == (0, 0)
            assert errors == []
        finally:
            browser.close()
