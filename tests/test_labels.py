"""Labels from the harness: `serve --label` and COGS_ARENA_LABELS set the labels of the seats a
server fills, a new_game/join_game argument overrides them label by label, bad labels are
refused by name with nothing changed, and the client's name and version from the MCP
handshake are recorded beside them (never as the model)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp_helpers import call, call_error, stdio_params
from mcp_types import Implementation

from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.cli.main import main as cli_main
from cogs_arena.server.errors import BadArgument
from cogs_arena.server.labels import LABELS_ENV, env_labels, server_labels
from cogs_arena.server.service import GameService
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts import read_transcript
from cogs_arena.transcripts.evaluation.score import score_files
from cogs_arena.transcripts.events import Header, Join, Player

DEFAULTS = {"model": "flag-model", "prompt": "v1", "team": "a"}


def _service(tmp_path: Path, labels: dict[str, str] | None = None) -> GameService:
    return GameService(MemoryStore(), tmp_path / "t", default_labels=labels)


def _path(tmp_path: Path, game: str, game_id: str) -> Path:
    return tmp_path / "t" / f"{game}-{game_id}.jsonl"


def _player(tmp_path: Path, game_id: str, seat: int = 0) -> Player:
    header = read_transcript(_path(tmp_path, "influence", game_id))[0]
    assert isinstance(header, Header)
    return header.seats[seat].player


def test_flags_override_the_environment_label_by_label() -> None:
    environ = {LABELS_ENV: "model=env-model, prompt=env-prompt,run=7"}
    assert server_labels(["model=flag-model", "note=a=b, c"], environ) == {
        "model": "flag-model",
        "prompt": "env-prompt",
        "run": "7",
        "note": "a=b, c",
    }
    assert env_labels({}) == {} and env_labels({LABELS_ENV: " , "}) == {}


def test_arguments_override_the_server_defaults_label_by_label(tmp_path: Path) -> None:
    service = _service(tmp_path, DEFAULTS)
    plain = service.new_game("influence", seed=1, seat="White")
    player = _player(tmp_path, plain.game_id)
    assert (player.model, player.prompt, player.labels) == ("flag-model", "v1", {"team": "a"})

    given = service.new_game(
        "influence", seed=1, seat="White", prompt="v2", labels={"team": "b", "run": "3"}
    )
    player = _player(tmp_path, given.game_id)
    assert (player.model, player.prompt) == ("flag-model", "v2")
    assert player.labels == {"team": "b", "run": "3"}

    in_labels = service.new_game("influence", seed=1, seat=0, labels={"model": "arg-model"})
    assert _player(tmp_path, in_labels.game_id).model == "arg-model"


def test_an_empty_model_argument_keeps_the_harness_label(tmp_path: Path) -> None:
    # Models often fill optional arguments with "": that must not erase the harness's label.
    service = _service(tmp_path, DEFAULTS)
    game = service.new_game("influence", seed=1, seat=0, model="", prompt=" ")
    player = _player(tmp_path, game.game_id)
    assert (player.model, player.prompt) == ("flag-model", "v1")


def test_join_game_takes_defaults_and_arguments(tmp_path: Path) -> None:
    service = _service(tmp_path, DEFAULTS)
    game = service.new_game("influence", seed=2, seat="White", bots=["open"], model="host")
    service.join_game(game.invitations["Black"], labels={"team": "c"})
    events = read_transcript(_path(tmp_path, "influence", game.game_id))
    join = next(e for e in events if isinstance(e, Join))
    assert (join.player.model, join.player.prompt) == ("flag-model", "v1")
    assert join.player.labels == {"team": "c"}


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"labels": {"1st": "x"}}, "labels: the key '1st' is not a label name"),
        ({"labels": {"a b": "x"}}, "is not a label name"),
        ({"labels": {"k" * 41: "x"}}, "at most 40 characters"),
        ({"labels": {"run": ""}}, "labels.run is empty"),
        ({"labels": {"run": "x" * 201}}, "labels.run is longer than 200 characters"),
        ({"labels": {"run": "a\ud800"}}, "labels.run contains a lone surrogate"),
        ({"labels": {f"k{i}": "x" for i in range(17)}}, "labels has 17 labels; at most 16"),
        ({"labels": {"run": 3}}, "labels"),
        ({"labels": {"model": "b"}, "model": "a"}, "model and labels.model differ"),
        # 14 new labels and the 3 defaults make 17: refused though each part alone fits
        ({"labels": {f"k{i}": "x" for i in range(14)}}, "17 labels with this server's default"),
    ],
)
def test_bad_labels_are_refused_by_name_and_change_nothing(
    tmp_path: Path, kwargs: dict[str, object], named: str
) -> None:
    service = _service(tmp_path, DEFAULTS)
    with pytest.raises(BadArgument, match="labels") as info:
        service.new_game("influence", seed=1, **kwargs)  # type: ignore[arg-type]
    assert named in str(info.value)
    assert list(service.store.game_ids()) == []
    assert not (tmp_path / "t").exists() or not list((tmp_path / "t").iterdir())


def test_a_bad_label_on_join_leaves_the_invitation_usable(tmp_path: Path) -> None:
    service = _service(tmp_path)
    game = service.new_game("influence", seed=2, seat="White", bots=["open"])
    before = len(read_transcript(_path(tmp_path, "influence", game.game_id)))
    with pytest.raises(BadArgument, match=r"labels\.run is empty"):
        service.join_game(game.invitations["Black"], labels={"run": ""})
    assert len(read_transcript(_path(tmp_path, "influence", game.game_id))) == before
    joined = service.join_game(game.invitations["Black"], labels={"run": "ok"})
    assert joined.seat_name == "Black"


@pytest.mark.parametrize(
    ("flags", "env", "named"),
    [
        (["model"], "", "--label: model is not key=value"),
        (["1x=y"], "", "--label: the key '1x' is not a label name"),
        ([], "model=a,prompt", "COGS_ARENA_LABELS: prompt is not key=value"),
        ([], "model=", "COGS_ARENA_LABELS.model is empty"),
    ],
)
def test_serve_refuses_bad_default_labels_before_opening_anything(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    env: str,
    named: str,
) -> None:
    monkeypatch.setenv(LABELS_ENV, env)
    store = tmp_path / "arena.sqlite3"
    argv = ["serve", "--store", str(store), "--transcripts", str(tmp_path / "t")]
    for flag in flags:
        argv += ["--label", flag]
    assert cli_main(argv) == 2
    assert named in capsys.readouterr().err
    assert not store.exists() and not (tmp_path / "t").exists()


def test_a_service_refuses_bad_default_labels(tmp_path: Path) -> None:
    with pytest.raises(BadArgument, match="default_labels: the key '-x'"):
        _service(tmp_path, {"-x": "y"})


def test_score_groups_a_harness_labelled_model_under_its_model(tmp_path: Path) -> None:
    service = _service(tmp_path, {"model": "gpt-x"})
    game = service.new_game("influence", seed=1, seat="White", client_name="some-harness")
    service.settle(game.game_id, "deadline")
    result = score_files([_path(tmp_path, "influence", game.game_id)])
    labels = [row.label for row in result.rows]
    assert "influence:gpt-x" in labels and not any("some-harness" in x for x in labels)


@pytest.mark.anyio
async def test_client_name_and_version_recorded_beside_the_labels(tmp_path: Path) -> None:
    service = _service(tmp_path, DEFAULTS)
    info = Implementation(name="harness-x", version="9.1")
    async with Client(build_server(service), client_info=info) as client:
        game = await call(client, "new_game", game="influence", seed=3, bots=["open"])
        error = await call_error(client, "new_game", game="influence", labels={"": "x"})
        assert "bad_argument" in error and "is not a label name" in error
    other = Implementation(name="joiner", version="0.0.1")
    async with Client(build_server(service), client_info=other) as client:
        code = next(iter(game["invitations"].values()))
        await call(client, "join_game", invitation=code, model="m2", labels={"team": "j"})
    events = read_transcript(_path(tmp_path, "influence", game["game_id"]))
    header = events[0]
    assert isinstance(header, Header)
    host = header.seats[game["seat"]].player
    assert (host.client_name, host.client_version) == ("harness-x", "9.1")
    assert (host.model, host.prompt, host.labels) == ("flag-model", "v1", {"team": "a"})
    join = next(e for e in events if isinstance(e, Join))
    assert (join.player.client_name, join.player.client_version) == ("joiner", "0.0.1")
    assert (join.player.model, join.player.labels) == ("m2", {"team": "j"})
    assert len(service.store.game_ids()) == 1


@pytest.mark.slow
@pytest.mark.anyio
async def test_serve_over_stdio_takes_flags_environment_and_client_info(tmp_path: Path) -> None:
    base = stdio_params(tmp_path / "arena.sqlite3", tmp_path / "t")
    params = StdioServerParameters(
        command=base.command,
        args=[*base.args, "--label", "model=flag-model", "--label", "run=r1"],
        env={**os.environ, LABELS_ENV: "model=env-model,prompt=env-prompt,run=r0"},
    )
    info = Implementation(name="stdio-harness", version="2.0")
    async with Client(params, client_info=info) as client:
        game = await call(client, "new_game", game="influence", seed=4, labels={"extra": "e"})
    header = read_transcript(_path(tmp_path, "influence", game["game_id"]))[0]
    assert isinstance(header, Header)
    player = header.seats[game["seat"]].player
    assert (player.model, player.prompt) == ("flag-model", "env-prompt")
    assert player.labels == {"run": "r1", "extra": "e"}
    assert (player.client_name, player.client_version) == ("stdio-harness", "2.0")
