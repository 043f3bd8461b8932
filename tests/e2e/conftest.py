"""Fixtures of the end-to-end tests: the server under test and one headless Chromium per session.

Each test opens its devices in browser contexts of their own (no storage or cache shared), so the
modules share one Chromium rather than start one each."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from .helpers import ARGS, CHROMIUM, Device, close_all

# Expectations wait on state, with room for a machine that is busy with other work (CI is).
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def phones() -> Iterator[dict[str, Device]]:
    """The phones a test opens (by player id), checked for errors and closed afterwards."""
    opened: dict[str, Device] = {}
    yield opened
    close_all(opened.values())
