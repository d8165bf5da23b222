"""The import direction between the rooms of the house, and no import circles. Read from the
source, so a lazy import inside a function counts.

- `engines` import nothing above them (and no clock, I/O or global random);
- the record (`transcripts`) imports neither evaluation nor the viewer, nor the server;
- evaluation and the viewer import the record, never the server;
- the store (`server.store`) imports nothing of the host;
- the host core (`server`'s own modules) imports no MCP, Starlette or Uvicorn, and none of the
  rooms built on it (adapter, web, series, cli);
- the adapter imports no web framework; nothing but the CLI (and `__main__`) imports the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engines": ("server", "transcripts", "mcp", "mcp_types", "starlette", "uvicorn", "anyio"),
    "transcripts": ("server", "mcp", "mcp_types", "starlette", "uvicorn"),
}
IMPURE = ("asyncio", "time", "random", "socket", "threading", "os", "subprocess")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import, relative ones resolved against the package layout."""
    package = path.relative_to(ROOT).parent.parts
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join((*base, node.module or ""))
                found.append((node.lineno, "cogs_arena." + name.strip(".")))
            else:
                found.append((node.lineno, node.module or ""))
    return found


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if parts[0] == "cogs_arena" and len(parts) > 1 else parts[0]


ROOMS = ("store", "adapter", "web", "series", "cli", "evaluation", "viewer")
WEB = ("starlette", "uvicorn")
MCP = ("mcp", "mcp_types")
ALLOWED_NOT: dict[str, tuple[str, ...]] = {
    "transcripts": ("transcripts.evaluation", "transcripts.viewer", "server", *MCP, *WEB),
    "transcripts.evaluation": ("transcripts.viewer", "server", *MCP, *WEB),
    "transcripts.viewer": ("server", *MCP, *WEB),
    "server.store": (
        "server",
        "server.adapter",
        "server.web",
        "server.series",
        "server.cli",
        *MCP,
        *WEB,
    ),
    "server": ("server.adapter", "server.web", "server.series", "server.cli", *MCP, *WEB),
    "server.series": ("server.adapter", "server.web", "server.cli", *MCP, *WEB),
    "server.adapter": ("server.web", "server.series", "server.cli", *WEB),
    "server.web": ("server.series", "server.cli"),
    "inspect_tasks": ("server",),
}
"""Each room, and the rooms (or libraries) it may not import."""


def _module(path: Path) -> str:
    return ".".join(("cogs_arena", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(
        ".__init__"
    )


def _room(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "cogs_arena":
        return parts[0]
    if len(parts) > 2 and parts[1] in ("server", "transcripts") and parts[2] in ROOMS:
        return f"{parts[1]}.{parts[2]}"
    return parts[1] if len(parts) > 1 else "cogs_arena"


def _package_files() -> list[Path]:
    tops = ("engines", "server", "transcripts", "inspect_tasks", "prompts")
    return [p for top in tops for p in sorted((ROOT / top).rglob("*.py"))] + [
        ROOT / "__init__.py",
        ROOT / "__main__.py",
    ]


@pytest.mark.parametrize("room", sorted(ALLOWED_NOT))
def test_each_room_imports_only_what_it_may(room: str) -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _package_files()
        if _room(_module(path)) == room
        for line, module in _imports(path)
        if _room(module) in ALLOWED_NOT[room]
    ]
    assert not bad, "\n".join(bad)


def test_no_import_circles() -> None:
    """Between modules, lazy imports included (a package's `__init__` counts as its module)."""
    modules = {_module(path): path for path in _package_files()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for _, module in _imports(path):
            while module and module not in modules:
                module = module.rpartition(".")[0]
            if module and module != name:
                targets.add(module)
        graph[name] = targets
    # A package's __init__ that re-exports its own modules is not a circle with them.
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                circles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def test_the_checks_see_circles_and_rooms() -> None:
    assert _room("cogs_arena.server.store.sqlite") == "server.store"
    assert _room("cogs_arena.server.plays") == "server"
    assert _room("cogs_arena.transcripts.evaluation.score") == "transcripts.evaluation"
    assert _room("starlette.routing") == "starlette"


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer: str) -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for line, module in _imports(path)
        if _top(module) in FORBIDDEN[layer]
    ]
    assert not bad, "\n".join(bad)


def test_engines_use_no_clock_io_or_global_random() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "engines").rglob("*.py"))
        for line, module in _imports(path)
        if module.split(".")[0] in IMPURE
    ]
    assert not bad, "\n".join(bad)


def test_the_check_sees_relative_imports() -> None:
    found = dict((m, n) for n, m in _imports(ROOT / "server" / "service.py"))
    assert "cogs_arena.transcripts.io" in found
    assert _top("cogs_arena.transcripts.io") == "transcripts"
