"""Writes screenshots of each game's HTML replay and of the live spectator page into docs/.

Each game is played by two scripted clients (tests/replay_helpers.py: talk, a rejected move, a
fallback) beside the game's bots; its replay page (`cogs-arena view`) is opened in headless
Chromium at a step in the middle, from the spectator's perspective. The live page is served by
the HTTP app in this process, opened mid-game, after a few moves have arrived over its event
stream. Every PNG is reduced to a palette and stays under 200 KB.

Needs Debian's chromium (scripts/setup-dev installs it) and Playwright (the test extra). Run:
`.venv/bin/python scripts/screenshots.py [--out docs] [--games influence,blending]`.
"""

from __future__ import annotations

import argparse
import io
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from PIL import Image
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the scripted clients the browser tests use

from replay_helpers import play_on, start_two_clients  # noqa: E402

from cogs_arena.server.adapter.app import build_server  # noqa: E402
from cogs_arena.server.service import GameService  # noqa: E402
from cogs_arena.server.store.memory import MemoryStore  # noqa: E402
from cogs_arena.server.web.app import build_http_app  # noqa: E402
from cogs_arena.server.web.guard import HttpOptions  # noqa: E402
from cogs_arena.server.web.watch import Watch  # noqa: E402
from cogs_arena.transcripts.viewer.html_replay import write_replay  # noqa: E402

GAMES: dict[str, dict[str, Any]] = {
    "influence": {"max_turns": 8},
    "territory": {"turns": 6},
    "chemistry": {"shifts": 4},
    "blending": {"players": 3, "end_rounds": 3},
}
"""Short rulesets, so a screenshot shows a finished game's replay within seconds."""
SEED = 7
VIEWPORT = {"width": 1280, "height": 800}
MAX_BYTES = 200_000


def shrink(png: bytes) -> bytes:
    """A palette PNG: flat colours, so 128 of them lose nothing a reader sees."""
    with Image.open(io.BytesIO(png)) as image:
        reduced = image.convert("RGB").quantize(colors=128, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    reduced.save(out, format="PNG", optimize=True)
    return out.getvalue()


def save(page: Page, path: Path) -> None:
    data = shrink(page.screenshot())
    path.write_bytes(data)
    flag = "" if len(data) < MAX_BYTES else "  (over 200 KB!)"
    print(f"{path}: {len(data):,} bytes{flag}")


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        sys.exit("screenshots: Chromium is missing; install Debian's chromium package")
    return found


def replay_shot(page: Page, work: Path, game: str, out: Path) -> None:
    service = GameService(MemoryStore(), work / game)
    played = start_two_clients(service, game, seed=SEED, ruleset=GAMES[game])
    play_on(service, played)
    book, size = write_replay(played.transcript(), work / f"{game}.html")
    print(f"{game}: replay of {len(book.steps) - 1} steps, {size / 1024:.0f} KB")
    page.goto((work / f"{game}.html").as_uri())
    for _ in range(len(book.steps) // 2):
        page.keyboard.press("ArrowRight")
    save(page, out / f"replay-{game}.png")


@contextmanager
def live_server(service: GameService) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    options = HttpOptions(port=port)
    app = build_http_app(build_server(service), options, Watch(service).routes())
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def live_shot(page: Page, work: Path, out: Path) -> None:
    service = GameService(MemoryStore(), work / "live")
    played = start_two_clients(service, "territory", seed=SEED, ruleset={"turns": 8})
    with live_server(service) as base:
        page.goto(f"{base}/watch/{played.spectator_code}")
        page.locator("#link", has_text="live").wait_for()
        play_on(service, played, until_decision=4)
        deadline = time.monotonic() + 10
        while page.get_attribute("body", "data-decision") != "4":
            if time.monotonic() > deadline:
                sys.exit("screenshots: the live page did not follow the game")
            time.sleep(0.05)
        save(page, out / "watch.png")
        page.close()  # before the server stops, so its event stream ends cleanly


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--no-live", action="store_true", help="skip the live page")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        work = Path(tmp)
        browser = pw.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            for game in args.games.split(","):
                page = browser.new_page(viewport=VIEWPORT)
                replay_shot(page, work, game, args.out)
                page.close()
            if not args.no_live:
                live_shot(browser.new_page(viewport=VIEWPORT), work, args.out)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
