"""The import direction: engines are pure and know nothing of the host or the record; the record
knows nothing of the server. Read from the source, so a lazy import inside a function counts."""

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
