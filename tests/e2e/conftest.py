"""Fixtures of the end-to-end tests: the server under test and one headless Chromium per module."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from .helpers import ARGS, CHROMIUM

# Expectations wait on state, with room for a machine that is busy with other work (CI is).
expect.set_options(timeout=20_000)


@pytest.fixture(scope="module")
def base_url(request: pytest.FixtureRequest) -> str:
    """The server under test: SHIPMATE_E2E_URL when set, else the session's live server."""
    url = os.environ.get("SHIPMATE_E2E_URL")
    return url.rstrip("/") if url else str(request.getfixturevalue("live_server"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()
