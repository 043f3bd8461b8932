"""The rules core and the games are pure: no Flask, Redis, randomness, clock or environment."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import shipmate

FORBIDDEN = {"flask", "wsproto", "redis", "random", "time", "os", "secrets", "datetime",
             "socket", "subprocess", "threading", "marshmallow", "shipmate.web", "shipmate.store"}
PACKAGE = Path(shipmate.__file__).parent
PURE_FILES = sorted((PACKAGE / "rules").rglob("*.py")) + sorted((PACKAGE / "games").rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_there_are_pure_files_to_check() -> None:
    assert any(p.parent.name == "rules" for p in PURE_FILES)
    assert any("games" in p.parts for p in PURE_FILES)


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_modules_import_no_io(path: Path) -> None:
    bad = {
        name for name in imported_modules(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"
