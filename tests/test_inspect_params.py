"""The Inspect tasks' parameters, the samples they make, the seat answer the harness reads, and
the tools that keep the credential out of the model's context."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai.tool import ToolDef, ToolParam, ToolParams

from cogs_arena.inspect_tasks.client import MODEL_TOOLS, SeatClient, parse_seat
from cogs_arena.inspect_tasks.params import BOUND_TOOLS_NOTE, ParameterError, game_plan
from cogs_arena.inspect_tasks.tasks import chemistry, influence, samples
from cogs_arena.prompts import seat_prompt
from cogs_arena.server.adapter.texts import seat_text as _seat_text
from cogs_arena.server.service import GameService

ROOT = Path(__file__).resolve().parent.parent


def plan(game: str = "territory", **given: Any) -> Any:
    args: dict[str, Any] = {
        "seeds": 2,
        "seat": 0,
        "bots": None,
        "prompt": "default",
        "prompt_label": None,
        "ruleset": None,
        "detail": "full",
    }
    return game_plan(game, **{**args, **given})


def test_seeds_are_a_count_or_a_list() -> None:
    assert plan(seeds=3).seeds == (0, 1, 2)
    assert plan(seeds="2").seeds == (0, 1)
    assert plan(seeds=[7, 11]).seeds == (7, 11)
    for bad in (0, "many", [1, 1], [], [True], True):
        with pytest.raises(ParameterError, match="seeds"):
            plan(seeds=bad)


def test_seats_by_number_name_list_or_rotation() -> None:
    assert plan(seat="ochre").seats == (1,)
    assert plan(seat="3").seats == (3,)
    assert plan(seat=[0, "Ash"]).seats == (0, 8)
    assert plan(seat="rotate").seats == tuple(range(9))
    with pytest.raises(ParameterError, match=r"Sable, Ochre.*'rotate'"):
        plan(seat="Nobody")
    with pytest.raises(ParameterError, match="0 … 1"):
        plan("influence", seat=2)


def test_bad_bots_ruleset_and_detail_are_refused_by_name() -> None:
    with pytest.raises(ParameterError, match=r"bots: 'nobot'.*homesteader"):
        plan(bots="nobot")
    with pytest.raises(ParameterError, match="ruleset"):
        plan(ruleset={"no_such_rule": 1})
    with pytest.raises(ParameterError, match="detail: 'all'"):
        plan(detail="all")
    assert plan(ruleset={"turns": 3}).ruleset == {"turns": 3}


def test_prompt_variants(tmp_path: Path) -> None:
    mine = tmp_path / "careful.md"
    mine.write_text("Think twice.\n", encoding="utf-8")
    chosen = plan(prompt=["default", "none", str(mine)])
    assert [p.label for p in chosen.prompts] == ["default", "none", "careful"]
    default, none, careful = (chosen.system_message(p) for p in chosen.prompts)
    assert default.startswith(seat_prompt("territory").strip())
    assert none.startswith(BOUND_TOOLS_NOTE)
    assert careful.startswith("Think twice.")
    for text in (default, none, careful):
        assert BOUND_TOOLS_NOTE in text and "# The rules" in text
    labelled = plan(prompt=["default", str(mine)], prompt_label=["a", "b"])
    assert [p.label for p in labelled.prompts] == ["a", "b"]
    with pytest.raises(ParameterError, match="neither 'default', 'none' nor a readable file"):
        plan(prompt=str(tmp_path / "missing.md"))
    with pytest.raises(ParameterError, match="share a label"):
        plan(prompt=["default", "default"])
    with pytest.raises(ParameterError, match="prompt_label: 1 labels for 2 prompts"):
        plan(prompt=["default", "none"], prompt_label="x")


def test_samples_pair_every_prompt_on_the_same_seeds_and_seats() -> None:
    made = samples(plan(seeds=[4, 5], seat=[0, 2], prompt=["default", "none"]))
    assert len(made) == 8 and len({s.id for s in made}) == 8
    keys = {
        label: sorted(
            (s.metadata["seed"], s.metadata["seat"])
            for s in made
            if s.metadata and s.metadata["prompt"] == label
        )
        for label in ("default", "none")
    }
    assert keys["default"] == keys["none"] == [(4, 0), (4, 2), (5, 0), (5, 2)]


def test_roles_rotate_and_open_their_seats_for_the_creator() -> None:
    chosen = plan(roles=["red", "blue"], bots="raider", seat="rotate")
    assert chosen.role_seats(0) == [0, 1] and chosen.role_seats(8) == [8, 0]
    bots = chosen.bots_for_creator([8, 0])
    assert bots == ["open"] + ["raider"] * 7  # seats 0..7, the creator's seat 8 left out
    assert plan(roles=["red", "blue"]).bots_for_creator([0, 1]) == ["open"] + ["homesteader"] * 7
    with pytest.raises(ParameterError, match="2 names for 7 bot seats"):
        plan(roles=["red", "blue"], bots=["raider", "diplomat"]).bots_for_creator([0, 1])
    with pytest.raises(ParameterError, match="roles"):
        plan(roles=["red", "red"])
    assert plan(bots=["raider"] * 8).bots_for_creator([0]) == ["raider"] * 8
    assert plan().bots_for_creator([0]) is None


def test_the_task_builds_one_sample_per_seed_seat_and_prompt(tmp_path: Path) -> None:
    task = chemistry(seeds=3, seat=[0, 1], transcripts=str(tmp_path))
    assert len(task.dataset) == 6
    assert task.metadata is not None and task.metadata["transcripts"] == str(tmp_path)
    assert "rotate" in (chemistry.__doc__ or "")
    with pytest.raises(ValueError, match="max_steps"):
        chemistry(max_steps=0)


def test_the_seat_answer_is_read_from_the_servers_text(memory_service: GameService) -> None:
    started = memory_service.new_game("influence", seed=3, seat=1, bots=["open"])
    seat = parse_seat(_seat_text(started))
    assert (seat.game_id, seat.credential) == (started.game_id, started.credential)
    assert (seat.seat, seat.seat_name) == (1, "Black")
    assert seat.invitations == started.invitations and list(seat.invitations) == ["White"]
    assert seat.first_view == started.view.text
    with pytest.raises(RuntimeError, match="lacks game_id, credential"):
        parse_seat("You are White (seat 0).\n\nboard")


def test_the_models_tools_bind_game_and_credential() -> None:
    calls: list[dict[str, Any]] = []

    def fake(name: str) -> Any:
        async def execute(**arguments: Any) -> str:
            calls.append({"tool": name, **arguments})
            return f"{name} ok"

        params = ToolParams(
            properties={
                key: ToolParam(type="string", description=key)
                for key in ("game_id", "credential", "detail")
            },
            required=["game_id", "credential"],
        )
        return ToolDef(execute, name=name, description=f"{name} tool", parameters=params)

    async def run() -> None:
        tools = [fake(n).as_tool() for n in ("new_game", "join_game", *MODEL_TOOLS)]
        client = SeatClient(tools)
        client.seat = parse_seat("game_id: g1\ncredential: secret\nYou are A (seat 0).\n\nv")
        bound = client.model_tools("brief")
        defs = {ToolDef(t).name: ToolDef(t) for t in bound}
        assert sorted(defs) == sorted(MODEL_TOOLS)
        for tool_def in defs.values():
            assert set(tool_def.parameters.properties) == {"detail"}
            assert "credential" not in tool_def.parameters.required
        assert "(default here: brief)" in str(defs["show"].parameters.properties["detail"])
        await defs["show"].tool()
        await defs["play"].tool(detail="none", credential="forged")
        await defs["log"].tool()

    anyio.run(run)
    assert calls == [
        {"tool": "show", "detail": "brief", "game_id": "g1", "credential": "secret"},
        {"tool": "play", "detail": "none", "game_id": "g1", "credential": "secret"},
        {"tool": "log", "game_id": "g1", "credential": "secret"},
    ]


def test_only_the_inspect_package_imports_inspect_and_it_talks_to_the_server_over_mcp() -> None:
    def imports(path: Path) -> set[str]:
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                found.add(("." * node.level) + (node.module or ""))
        return found

    outside = [
        f"{path.relative_to(ROOT)}"
        for layer in ("engines", "server", "transcripts", "prompts")
        for path in (ROOT / layer).rglob("*.py")
        if any(m.startswith(("inspect_ai", "cogs_arena.inspect_tasks")) for m in imports(path))
    ]
    assert not outside
    inside = [
        f"{path.name}: {module}"
        for path in (ROOT / "inspect_tasks").glob("*.py")
        for module in imports(path)
        if module.startswith(("..server", "cogs_arena.server", "mcp"))
    ]
    assert not inside


def test_without_a_seat_the_seeds_spread_the_model_over_the_seats() -> None:
    """Seat balance by default: the i-th seed seats the model at seat i mod seats (Influence
    alternates White and Black, Territory walks its nine seats), the same for every variant;
    a given seat still holds for every seed."""
    made = samples(plan("influence", seeds=5, seat=None, prompt=["default", "none"]))
    for label in ("default", "none"):
        mine = [s.metadata for s in made if s.metadata and s.metadata["prompt"] == label]
        assert [(m["seed"], m["seat"]) for m in mine] == [(0, 0), (1, 1), (2, 0), (3, 1), (4, 0)]
        assert [m["seat_name"] for m in mine[:2]] == ["White", "Black"]
    spread = samples(plan(seeds=[7, 3, 9, 1], seat=None))
    assert [s.metadata["seat"] for s in spread if s.metadata] == [0, 1, 2, 3]
    assert {s.metadata["seat"] for s in samples(plan(seeds=4, seat=2)) if s.metadata} == {2}
    rotated = plan(seeds=3, seat=None, roles=["red", "blue"])
    offsets = [s.metadata["seat"] for s in samples(rotated) if s.metadata]
    assert offsets == [0, 1, 2] and rotated.role_seats(offsets[2]) == [2, 3]


def test_the_registered_tasks_balance_seats_unless_told() -> None:
    """The task's default `seat` is the balanced spread, not seat 0."""
    seats = [s.metadata["seat"] for s in influence(seeds=4).dataset if s.metadata]
    assert seats == [0, 1, 0, 1]
    assert {s.metadata["seat"] for s in influence(seeds=4, seat=1).dataset if s.metadata} == {1}


def test_the_ab_design_swaps_seats_and_adds_a_null_arm(tmp_path: Path) -> None:
    """`ab=true`: twenty seeds by default; per seed the arm (A against B) and the null arm
    (A against a copy of A under `<A>.null`), each twice with the two seats swapped."""
    variant = tmp_path / "terse.md"
    variant.write_text("Be terse.\n", encoding="utf-8")
    task = influence(ab=True, prompt=["default", str(variant)])
    made = [s.metadata for s in task.dataset if s.metadata]
    assert len(made) == 20 * 4 and {m["seed"] for m in made} == set(range(20))
    seed3 = [m["ab"] for m in made if m["seed"] == 3]
    assert [(ab["arm"], ab["swap"]) for ab in seed3] == [
        ("arm", 0),
        ("arm", 1),
        ("null", 0),
        ("null", 1),
    ]
    sides = [[(p["side"], p["prompt"], p["seat"]) for p in ab["players"]] for ab in seed3]
    assert sides[0] == [("a", "default", 1), ("b", "terse", 0)]
    assert sides[1] == [("a", "default", 0), ("b", "terse", 1)]
    assert sides[2] == [("a", "default", 1), ("b", "default.null", 0)]
    chosen = plan("influence", seat=None, ab=True, prompt=["default", str(variant)])
    null = chosen.prompts[2]
    assert (null.label, null.text) == ("default.null", chosen.prompts[0].text)
    territory = plan(seeds=2, seat=[4, 7], ab=True, prompt=["default", "none"])
    assert territory.ab_seats(1) == (4, 7)
    assert plan(seeds=12, seat=None, ab=True, prompt=["default", "none"]).ab_seats(8) == (8, 0)
    with pytest.raises(ParameterError, match="exactly two prompts"):
        plan(ab=True, seat=None)
    with pytest.raises(ParameterError, match="true or false"):
        plan(ab="no", seat=None, prompt=["default", "none"])
    with pytest.raises(ParameterError, match="a list of two"):
        plan(ab=True, seat=3, prompt=["default", "none"])
    with pytest.raises(ParameterError, match="roles"):
        plan(ab=True, seat=None, roles=["red", "blue"], prompt=["default", "none"])


def test_the_stdio_server_imports_the_tasks_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """MCP's stdio client starts a server with a few safe variables only: the harness passes
    PYTHONPATH on, so the server runs the same copy of the package as the task (else a record
    written by an installed copy may not replay in a checkout's)."""
    from cogs_arena.inspect_tasks import servers

    given: dict[str, Any] = {}
    monkeypatch.setattr(servers, "mcp_server_stdio", lambda **kwargs: given.update(kwargs))
    monkeypatch.setenv("PYTHONPATH", "/some/checkout")
    monkeypatch.delenv("PYTHONNOUSERSITE", raising=False)
    servers.stdio_server(Path("/tmp/records"))
    assert given["env"] == {"PYTHONPATH": "/some/checkout"}
    assert given["args"][-2:] == ["--transcripts", "/tmp/records"]
    monkeypatch.delenv("PYTHONPATH")
    servers.stdio_server(Path("/tmp/records"))
    assert given["env"] == {}
