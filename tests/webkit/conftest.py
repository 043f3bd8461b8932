"""Fixtures of the WebKit tests: an X display of their own (Xvfb) and WebKitGTK's MiniBrowser driven
through WebKitWebDriver, one WebDriver session per device (a phone's seat lives in its own storage).

Every iPhone browser is WebKit; WebKitGTK is the same engine on Linux. Each module opens its devices
once and every one of them is closed at the module's end, as is the display at the session's end,
even when the run is cut short.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fixtures_server import stop_process

from .device import WebKitDevice

XVFB = "/usr/bin/Xvfb"

OpenDevice = Callable[..., WebKitDevice]


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """An X display of its own (":N"): Xvfb on the first free display number, which it tells once
    it accepts clients."""
    if not os.access(XVFB, os.X_OK):
        pytest.fail("Xvfb is missing: `bash scripts/test` installs Debian's xvfb")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )
    os.close(write)
    try:
        with os.fdopen(read) as told:
            number = told.readline().strip()  # empty when Xvfb ended without a display
        if not number:
            pytest.fail("Xvfb did not start")
        yield f":{number}"
    finally:
        stop_process(xvfb)


@pytest.fixture(scope="module")
def webkit(display: str, base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenDevice]:
    """Open devices: `webkit(name, width=..., height=...)` starts a MiniBrowser of its own on `display`.

    At the module's end each device is checked for page errors, then closed (all of them, whatever
    the check found).
    """
    opened: list[WebKitDevice] = []
    logs: Path = tmp_path_factory.mktemp("webkit")

    def open_device(name: str, **size: int) -> WebKitDevice:
        device = WebKitDevice(display, base_url, name, logs, **size)
        opened.append(device)
        return device

    try:
        yield open_device
        for device in opened:
            device.no_errors()
    finally:
        for device in opened:
            device.close()
