"""Every registered game folder has the same skeleton (docs/architecture.md), each of its
modules owns something (no re-export shims), and the folder's `__init__` docstring names every
module with its role."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cogs_arena.engines import get_engine, names

ROOT = Path(__file__).resolve().parent.parent

SKELETON = (
    "ruleset",
    "state",
    "moves",
    "rules",
    "menu",
    "views",
    "render",
    "picture",
    "news",
    "bots",
    "numbers",
    "engine",
    "schema",
)
ENTRY = re.compile(r"^- `([a-z_]+)(\.py|/)`: \S", re.MULTILINE)
"""One line of a game folder's docstring: "- `module.py`: its role" (or "- `package/`: ...")."""


def _folder(game: str) -> Path:
    module = type(get_engine(game)).__module__
    parts = module.split(".")
    assert parts[:2] == ["cogs_arena", "engines"] and parts[-1] == "engine", module
    return ROOT.joinpath(*parts[1:-1])


def _named(folder: Path) -> dict[str, str]:
    """Module (or subpackage, with a trailing /) -> its line, from the folder's docstring."""
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
    return {
        m.group(1) + ("/" if m.group(2) == "/" else ""): m.group(0)
        for m in ENTRY.finditer(doc or "")
    }


def _owns_something(path: Path) -> bool:
    """A top-level definition or assignment, not just imports and a docstring."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return any(
        isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign))
        for node in body
    )


@pytest.mark.parametrize("game", names())
def test_every_game_folder_has_the_skeleton(game: str) -> None:
    """Each skeleton module is a file of its own in the game's folder and defines something."""
    folder = _folder(game)
    missing = [name for name in SKELETON if not (folder / f"{name}.py").is_file()]
    assert not missing, f"{game} lacks {missing}"
    empty = [name for name in SKELETON if not _owns_something(folder / f"{name}.py")]
    assert not empty, f"{game}: {empty} only import or re-export"
    assert (folder / "rules.md").is_file()


@pytest.mark.parametrize("game", names())
def test_every_game_folders_docstring_names_its_modules(game: str) -> None:
    """The folder's `__init__` docstring has a line for every module and subpackage in the
    folder (the skeleton's among them), and for nothing that is not there."""
    folder = _folder(game)
    named = _named(folder)
    present = {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"} | {
        p.parent.name + "/" for p in folder.glob("*/__init__.py")
    }
    assert set(SKELETON) <= set(named), f"{game}: skeleton modules unnamed"
    assert sorted(present - set(named)) == [], f"{game}: modules without a role"
    assert sorted(set(named) - present) == [], f"{game}: named but absent"


def test_the_docstring_reader_sees_entries() -> None:
    """The entry pattern reads a module line and a subpackage line, and not prose."""
    doc = "- `menu.py`: the menu;\n- `eras/`: the eras;\nsee `views.py` for views\n"
    found = [m.group(1) + m.group(2) for m in ENTRY.finditer(doc)]
    assert found == ["menu.py", "eras/"]
