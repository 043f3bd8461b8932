"""One Node process runs the phone's rule checks for every differential test of a session."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from tests.differential.mirror import Mirror


@pytest.fixture(scope="session")
def mirror() -> Iterator[Mirror]:
    if shutil.which("node") is None:  # never skipped: the phone's checks must be held to the engine
        pytest.fail("the differential test runs the phone's modules in Node: put `node` (20+) on PATH")
    process = Mirror()
    yield process
    process.close()
