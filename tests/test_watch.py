"""The live spectator page: what a snapshot holds before and after the end, the 404 for a code
that is not valid, and the access token under the Guard (header or `?token=`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from replay_helpers import PlayedGame, play_on, start_two_clients
from starlette.testclient import TestClient

from cogs_arena.engines import GameError
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.web.app import build_http_app
from cogs_arena.server.web.guard import HttpOptions
from cogs_arena.server.web.watch import Watch

SHORT = {"players": 2, "end_rounds": 2}
TOKEN = "t" * 40


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    return GameService(MemoryStore(), tmp_path / "transcripts")


def _hand_labels(service: GameService, played: PlayedGame) -> list[str]:
    labels: list[str] = []
    for credential in played.credentials.values():
        view = service.show(played.game_id, credential, detail="data")
        labels.extend(f">{tile}<" for tile, _ in view.observation["hand"])
    return labels


def test_hidden_information_only_after_the_end(service: GameService) -> None:
    watch = Watch(service)
    played = start_two_clients(service, "blending", seed=4, ruleset=SHORT)
    play_on(service, played, until_decision=6)
    during, cursor = watch.snapshot(played.spectator_code, 0)
    assert during["status"] == "active" and during["reset"]
    hands = _hand_labels(service, played)
    assert hands and not any(label in during["svg"] for label in hands)
    logged = " ".join(line["text"] for line in during["log"])
    assert "Good luck, everyone." in logged  # public talk is on the page at once
    assert "Psst" not in logged  # seat 0's whisper to seat 1
    assert not during["result"]
    later, _ = watch.snapshot(played.spectator_code, cursor)
    assert not later["reset"] and later["log"] == []  # nothing new after the cursor

    # The host ends the game with the hands still held: now the spectator sees them.
    service.settle(played.game_id, "host")
    after, _ = watch.snapshot(played.spectator_code, 0)
    assert after["status"] == "over" and after["result"][0].startswith("Game over")
    assert all(label in after["svg"] for label in hands)
    logged = " ".join(line["text"] for line in after["log"])
    assert "Psst, let us share." in logged


def test_a_code_that_is_not_valid_is_refused(service: GameService) -> None:
    watch = Watch(service)
    played = start_two_clients(service, "blending", seed=4, ruleset=SHORT)
    for code in ("nope", played.game_id + ".wrong", played.spectator_code + "x", "x" * 5000):
        with pytest.raises(GameError):
            watch.snapshot(code, 0)


@pytest.fixture
def client(service: GameService) -> Iterator[TestClient]:
    options = HttpOptions(auth_token=TOKEN)
    app = build_http_app(build_server(service), options, Watch(service).routes())
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def test_the_page_under_the_guard(service: GameService, client: TestClient) -> None:
    played = start_two_clients(service, "blending", seed=4, ruleset=SHORT)
    page = f"/watch/{played.spectator_code}"
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    refused = client.get(page)
    assert refused.status_code == 401 and "?token=" in refused.text
    assert client.get(page + "?token=wrong").status_code == 401
    for answer in (client.get(page, headers=bearer), client.get(page + f"?token={TOKEN}")):
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/html")
        assert "<svg" in answer.text and "Watching Blending" in answer.text
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert "connect-src 'self'" in answer.headers["content-security-policy"]
    # Only the watch paths take the token from the address.
    assert client.post(f"/mcp?token={TOKEN}", json={}).status_code == 401
    missing = client.get(f"/watch/{played.game_id}.nope?token={TOKEN}")
    assert missing.status_code == 404
    assert "Nothing to watch here" in missing.text and "spectator_code" in missing.text
    events = client.get(f"/watch/{played.game_id}.nope/events", headers=bearer)
    assert events.status_code == 404
