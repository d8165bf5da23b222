"""The Guard's smaller rules: a refused watch request is logged without its spectator code, and
a token given twice in the address is refused rather than read one way or the other."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from replay_helpers import PlayedGame, start_two_clients
from starlette.testclient import TestClient

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.web.app import build_http_app
from cogs_arena.server.web.guard import HttpOptions, loggable_path, token_warning
from cogs_arena.server.web.watch import Watch

TOKEN = "t" * 40
SHORT = {"players": 2, "end_rounds": 2}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, PlayedGame]]:
    service = GameService(MemoryStore(), tmp_path / "transcripts")
    options = HttpOptions(auth_token=TOKEN)
    app = build_http_app(build_server(service), options, Watch(service).routes())
    played = start_two_clients(service, "blending", seed=4, ruleset=SHORT)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        yield client, played


def test_refused_watch_requests_are_logged_without_the_code(
    served: tuple[TestClient, PlayedGame], caplog: pytest.LogCaptureFixture
) -> None:
    """The spectator code is a read credential: the refusal line shows `/watch/<code>` (it
    showed the code itself)."""
    client, played = served
    code = played.spectator_code
    with caplog.at_level(logging.WARNING, logger="cogs_arena.http"):
        assert client.get(f"/watch/{code}").status_code == 401
        assert client.get(f"/watch/{code}/events?token=wrong").status_code == 401
    lines = [r.getMessage() for r in caplog.records if r.name == "cogs_arena.http"]
    assert lines == ["refused GET /watch/<code>: 401", "refused GET /watch/<code>/events: 401"]
    assert code not in caplog.text
    assert loggable_path("/mcp") == "/mcp" and loggable_path("/watch/") == "/watch/<code>"


def test_a_token_given_twice_in_the_address_is_refused(
    served: tuple[TestClient, PlayedGame],
) -> None:
    """`?token=a&token=b` answers 400 naming the problem, whichever comes last (the last one
    used to win); one right token passes, a blank one is missing; the header still decides
    when it is right."""
    client, played = served
    page = f"/watch/{played.spectator_code}"
    twice = (f"{TOKEN}&token=wrong", f"wrong&token={TOKEN}", f"{TOKEN}&token={TOKEN}")
    for query in twice:
        answer = client.get(f"{page}?token={query}")
        assert answer.status_code == 400, query
        assert answer.text == "Ambiguous access token: give ?token=<token> once"
    assert client.get(f"{page}?token=").status_code == 401
    assert client.get(f"{page}?token=&token={TOKEN}").status_code == 400
    assert client.get(f"{page}?token={TOKEN}").status_code == 200
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert client.get(f"{page}?token=a&token=b", headers=bearer).status_code == 200


def test_a_short_token_on_loopback_gets_a_warning() -> None:
    """Loopback takes any token, but one under 32 characters is named as guessable; a long
    one, no token, and a bind beyond loopback (refused outright elsewhere) get none."""
    warning = token_warning("short", "127.0.0.1")
    assert warning is not None and "5 characters" in warning and "32" in warning
    assert token_warning("k" * 32, "127.0.0.1") is None
    assert token_warning(None, "::1") is None
    assert token_warning("short", "10.0.0.5") is None
