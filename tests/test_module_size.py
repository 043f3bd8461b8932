"""The realtime path stays readable: no module of `web/`, `room/` or `store/` is over 400 lines (#22)."""

from __future__ import annotations

from pathlib import Path

import pytest

import shipmate

PACKAGE = Path(shipmate.__file__).parent
MOST_LINES = 400
MODULES = [path for part in ("web", "room", "store") for path in sorted((PACKAGE / part).rglob("*.py"))]


def test_there_are_modules_to_measure() -> None:
    assert any(p.parent.name == "web" for p in MODULES)
    assert any(p.parent.name == "store" for p in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_of_the_realtime_path_is_over_400_lines(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines; split it by concern"
