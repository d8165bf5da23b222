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


BLENDING = ROOT / "engines" / "blending"
ERAS = "cogs_arena.engines.blending.eras"
ERAS_DOORS = (ERAS, f"{ERAS}.dispatch")
"""The eras package (the lowest modules' hooks) and its dispatch module (everything else)."""


def _imported_names(path: Path, source: str) -> list[tuple[int, str, str]]:
    """(line, module, name) for every `from module import name`, relative ones resolved; a
    name that is itself a module of the package is reported as `module.name` with name ''."""
    package = path.relative_to(ROOT).parent.parts
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            module = "cogs_arena." + ".".join((*base, node.module or "")).strip(".")
        else:
            module = node.module or ""
        for alias in node.names:
            sub = ROOT.joinpath(*module.split(".")[1:], alias.name)
            if sub.with_suffix(".py").exists() or (sub / "__init__.py").exists():
                found.append((node.lineno, f"{module}.{alias.name}", ""))
            else:
                found.append((node.lineno, module, alias.name))
    return found


def _door_violations(path: Path, source: str) -> list[str]:
    """Eras modules other than the two doors that a file outside the eras imports."""
    where = path.relative_to(ROOT)
    from_imports = sorted({(line, module) for line, module, _ in _imported_names(path, source)})
    plain = [
        (node.lineno, alias.name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    return [
        f"{where}:{line} imports {module}"
        for line, module in from_imports + plain
        if module.startswith(ERAS) and module not in ERAS_DOORS
    ]


def _private_uses(path: Path, source: str, foreign: str, inside: str = "") -> list[str]:
    """Private names a file takes from modules under `foreign` (but not under `inside`):
    imported by name, or read as an attribute of a module it imported by name."""
    where = path.relative_to(ROOT)
    found: list[str] = []
    modules: set[str] = set()
    for line, module, name in _imported_names(path, source):
        if not module.startswith(foreign) or (inside and module.startswith(inside)):
            continue
        if name.startswith("_"):
            found.append(f"{where}:{line} imports {module}.{name}")
        if not name:
            modules.add(module.rpartition(".")[2])
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
        ):
            found.append(f"{where}:{node.lineno} reads {node.value.id}.{node.attr}")
    return found


def _sources(paths: list[Path]) -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in paths]


def _outside_eras() -> list[tuple[Path, str]]:
    return _sources([p for p in _package_files() if "eras" not in p.relative_to(ROOT).parts])


def test_the_eras_are_reached_only_through_their_doors() -> None:
    """Outside `engines/blending/eras/`, the package imports of the eras only the package
    itself and `eras.dispatch` (lazy imports included)."""
    bad = [use for path, source in _outside_eras() for use in _door_violations(path, source)]
    assert not bad, "\n".join(bad)


def test_no_private_name_crosses_the_eras_seam() -> None:
    """Neither the current rules take a `_private` name from the eras, nor the eras one from
    the current rules (or the engines' shared modules)."""
    eras = _sources(sorted((BLENDING / "eras").rglob("*.py")))
    bad = [
        use
        for path, source in eras
        for use in _private_uses(path, source, "cogs_arena.engines", inside=ERAS)
    ] + [use for path, source in _outside_eras() for use in _private_uses(path, source, ERAS)]
    assert not bad, "\n".join(bad)


def test_the_seam_checks_see_what_they_forbid() -> None:
    """The eras checks flag a direct import of an eras module (relative, absolute or as a
    module name) and a private name taken across the seam, by name or as an attribute."""
    views = BLENDING / "views.py"
    direct = "from .eras.views import era_view\nfrom .eras import legacy\n"
    direct += "import cogs_arena.engines.blending.eras.three\n"
    flagged = _door_violations(views, direct)
    assert [use.rpartition(" ")[2] for use in flagged] == [
        f"{ERAS}.views",
        f"{ERAS}.legacy",
        f"{ERAS}.three",
    ]
    assert not _door_violations(views, "from .eras import ended\nfrom .eras.dispatch import x\n")
    probe = BLENDING / "eras" / "views.py"
    taken = (
        "from ..rules import _hidden\nfrom .. import rules\nrules._other\nfrom .views import _ok\n"
    )
    uses = _private_uses(probe, taken, "cogs_arena.engines", inside=ERAS)
    assert [use.rpartition(" ")[2] for use in uses] == [
        "cogs_arena.engines.blending.rules._hidden",
        "rules._other",
    ]
