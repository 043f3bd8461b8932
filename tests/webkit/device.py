"""One device of the WebKit tests: a MiniBrowser of its own through WebKitWebDriver, what went wrong
on its pages, and waits on the page's state (never on time)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver import WebKitGTKOptions, WebKitGTKService
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.wait import WebDriverWait

from tests.e2e.helpers import PHONE, SHOTS

# Debian's MiniBrowser (libwebkit2gtk-4.1-0) under the machine's own multiarch directory
MINIBROWSER = next((str(p) for p in Path("/usr/lib").glob("*/webkit2gtk-4.1/MiniBrowser")), "MiniBrowser")
DRIVER = "/usr/bin/WebKitWebDriver"
# Waits on state, with room for a machine that is busy with other work (CI is).
TIMEOUT = 30
# A page redraws in place (morph.js): an element found a moment ago may be gone, or not yet there.
REDRAWN = (NoSuchElementException, StaleElementReferenceException, ElementClickInterceptedException,
           ElementNotInteractableException)

# What a page got wrong: an uncaught error, or a promise rejected with nobody to handle it. WebDriver
# runs a script only in a page that has loaded, so each navigation sets the listeners again.
LISTEN = """
if (!window.__errors) {
  window.__errors = [];
  window.addEventListener('error', (e) => window.__errors.push(`${e.message} (${e.filename}:${e.lineno})`));
  window.addEventListener('unhandledrejection', (e) =>
    window.__errors.push(`unhandled rejection: ${(e.reason && e.reason.stack) || e.reason}`));
}
"""


class WebKitDevice:
    """One phone or screen: its own MiniBrowser (its own storage), on the server at `base`."""

    def __init__(self, display: str, base: str, name: str, logs: Path,
                 width: int = PHONE["width"], height: int = PHONE["height"]) -> None:
        for path in (MINIBROWSER, DRIVER):
            if not os.access(path, os.X_OK):
                raise RuntimeError(f"{path} is missing: `bash scripts/test` installs webkit2gtk-driver")
        self.name = name
        self.base = base
        self.errors: list[str] = []
        options = WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        self.service = WebKitGTKService(executable_path=DRIVER, log_output=str(logs / f"{name}.log"),
                                        env={**os.environ, "DISPLAY": display})
        self.service.start()
        try:
            # a connection of our own: selenium's WebKitGTK class hands the driver's address on in
            # a way it has deprecated itself
            connection = RemoteConnection(client_config=ClientConfig(self.service.service_url))
            self.driver = webdriver.Remote(command_executor=connection, options=options)
            self.driver.set_window_size(width, height)
        except BaseException:
            self.close()
            raise

    # ---- pages --------------------------------------------------------------------------------

    def goto(self, path: str) -> None:
        self._harvest()
        self.driver.get(self.base + path)
        self.driver.execute_script(LISTEN)

    def reload(self) -> None:
        self._harvest()
        self.driver.refresh()
        self.driver.execute_script(LISTEN)

    def path(self) -> str:
        return str(self.driver.execute_script("return location.pathname"))

    def _harvest(self) -> None:
        """Keep what the page got wrong before it goes."""
        with contextlib.suppress(WebDriverException):  # no page yet
            self.errors += self.driver.execute_script("return window.__errors || []")

    def no_errors(self) -> None:
        self._harvest()
        assert self.errors == [], f"{self.name}: page errors: {self.errors}"
        self.errors = []

    def close(self) -> None:
        """End the session (the MiniBrowser goes with it), then stop its driver."""
        try:
            if hasattr(self, "driver"):
                with contextlib.suppress(WebDriverException):
                    self.driver.quit()
        finally:
            self.service.stop()

    # ---- waits and taps -----------------------------------------------------------------------

    def until(self, script: str, *args: Any, what: str) -> Any:
        """Wait until `script` (a function body that may `return`) returns something truthy; return it."""
        return WebDriverWait(self.driver, TIMEOUT, poll_frequency=0.1).until(
            lambda driver: driver.execute_script(script, *args), message=f"{self.name}: {what}")

    def element(self, selector: str) -> WebElement:
        """The displayed element `selector` names, once there is one."""
        def shown(driver: webdriver.Remote) -> WebElement | bool:
            found = driver.find_element(By.CSS_SELECTOR, selector)
            return found if found.is_displayed() else False
        return WebDriverWait(self.driver, TIMEOUT, poll_frequency=0.1, ignored_exceptions=REDRAWN).until(
            shown, message=f"{self.name}: no {selector} in view")

    def tap(self, selector: str) -> None:
        """Tap the enabled element `selector` names, as soon as it is there and can be tapped."""
        def tapped(driver: webdriver.Remote) -> bool:
            found = driver.find_element(By.CSS_SELECTOR, selector)
            if not found.is_displayed() or not found.is_enabled():
                return False
            found.click()
            return True
        WebDriverWait(self.driver, TIMEOUT, poll_frequency=0.1, ignored_exceptions=REDRAWN).until(
            tapped, message=f"{self.name}: could not tap {selector}")

    def type(self, selector: str, text: str) -> None:
        field = self.element(selector)
        field.clear()
        field.send_keys(text)

    def has_text(self, selector: str, text: str) -> None:
        """Wait until the element `selector` names holds `text`."""
        self.until("const e = document.querySelector(arguments[0]);"
                   "return !!e && e.textContent.includes(arguments[1]);", selector, text,
                   what=f"{selector} saying {text!r}")

    def shot(self, label: str) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.until("return !document.querySelector('.rolling')", what="dice at rest")
        self.driver.save_screenshot(str(SHOTS / f"webkit-{label}.png"))
