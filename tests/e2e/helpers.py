"""What the end-to-end tests share: the browser's settings, one device (a browser context), the API."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.api.client import Game
from tests.fixtures_server import wait_for

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
EVIL = "<img src=x onerror=alert(1)>"
# The same attack in 21 characters, for a server that caps names below the 27 of EVIL.
SHORT_EVIL = "<svg/onload=alert(1)>"
INJECTED = "img[src='x'], [onerror], [onload]"
# Record what the screen says aloud (speech itself needs a user gesture and a voice).
SPEECH_SPY = """
window.__spoken = [];
if ('speechSynthesis' in window) {
  const speak = speechSynthesis.speak.bind(speechSynthesis);
  speechSynthesis.speak = (u) => { window.__spoken.push(u.text); try { speak(u); } catch (e) {} };
}
"""


# Every change to the page counted, so a check waits until the page has stopped drawing.
COUNT_CHANGES = """new MutationObserver(() => { window.__changes = (window.__changes || 0) + 1; })
  .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });"""
SETTLED = """([selector]) => {
  const quiet = window.__changes === window.__seen;
  window.__seen = window.__changes;
  // a sheet a module added (seats.css, tv.css, …) may still be on its way: the layout is not final
  const sheets = [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => link.sheet);
  const busy = document.querySelector('main .loading, .rolling, #app[aria-busy="true"]')
    || document.fonts.status !== 'loaded' || !sheets;
  return quiet && !busy && Boolean(document.querySelector(selector));
}"""


def settle(page: Page, selector: str) -> None:
    """Wait until the page shows `selector`, has nothing loading and has stopped changing."""
    page.wait_for_function(SETTLED, arg=[selector], polling=250, timeout=20_000)


def settled(page: Page) -> None:
    """Wait until the page has drawn, has nothing loading and has stopped changing: its layout is final."""
    settle(page, "body")


class Device:
    """One phone or screen: a browser context with one page, and what went wrong on it."""

    def __init__(self, browser: Browser, base: str, name: str, locale: str,
                 viewport: dict[str, int] = PHONE) -> None:
        self.name = name
        self.base = base
        self.context: BrowserContext = browser.new_context(
            viewport=viewport, locale=locale, base_url=base, device_scale_factor=1)
        self.context.add_init_script(SPEECH_SPY)
        self.context.add_init_script(COUNT_CHANGES)  # settle() knows when the page stopped drawing
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page: Page = self._open()

    def _open(self) -> Page:
        page = self.context.new_page()
        page.set_default_timeout(20_000)  # a bound for a failure, as expect's
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", self._console)
        return page

    def reopen(self) -> Page:
        """Close the page and open a fresh one (a phone whose tab was discarded while it slept)."""
        self.page.close()
        self.page = self._open()
        return self.page

    def _console(self, message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def remember(self, code: str, entry: dict[str, Any]) -> None:
        """Give this device the tokens of a game before any page loads, as a join would have left them."""
        script = """([code, entry]) => {
          const all = JSON.parse(localStorage.getItem('shipmate.games') || '{}');
          if (!all[code]) { all[code] = entry; localStorage.setItem('shipmate.games', JSON.stringify(all)); }
        }"""
        self.context.add_init_script(f"({script})({json.dumps([code, entry])})")

    def goto(self, path: str) -> Page:
        self.page.goto(path)
        return self.page

    def shot(self, label: str, full_page: bool = False) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.page.wait_for_function("() => !document.querySelector('.rolling')")  # dice at rest
        self.page.screenshot(path=str(SHOTS / f"{label}.png"), full_page=full_page)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"], f"{label}: the page scrolls sideways"

    def tokens(self, code: str) -> dict[str, Any]:
        stored = self.page.evaluate("JSON.parse(localStorage.getItem('shipmate.games') || '{}')")
        return dict(stored.get(code, {}))


def unfold(page: Page, card: str) -> None:
    """Open a card that folds (a <details>) by tapping its summary, unless it is open already."""
    if page.locator(card).get_attribute("open") is None:
        page.locator(f"{card} summary").click()
    expect(page.locator(card)).to_have_attribute("open", "")


def seated(browser: Browser, base: str, phones: Mapping[str, str], screen: str,
           no_markup: bool = False) -> Iterator[dict[str, Any]]:
    """Yield a table of devices: `phones` (name → locale) and a shared screen in locale `screen`.

    Afterwards check every device for dialogs and page errors (and, with `no_markup`, for injected
    markup on its page), then close it.
    """
    devices = {name: Device(browser, base, name, locale) for name, locale in phones.items()}
    devices["screen"] = Device(browser, base, "screen", screen, TV)
    yield {"base": base, **devices}
    close_all(devices.values(), no_markup)


def close_all(devices: Iterable[Device], no_markup: bool = False) -> None:
    """Check each device for dialogs and page errors (and, with `no_markup`, for injected markup on
    its page), then close it."""
    for device in devices:
        assert device.dialogs == [], f"{device.name}: a dialog fired: {device.dialogs}"
        assert device.errors == [], f"{device.name}: page errors: {device.errors}"
        if no_markup:
            assert device.page.locator(INJECTED).count() == 0, f"{device.name}: markup got through"
        device.context.close()


def quest_table(browser: Browser, base: str, phones: Mapping[str, tuple[str, str, str]],
                options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A Quest 1607 game in play: a phone per player (key → name, land, locale) on its /play page,
    the host's phone (English) on the host panel and the TV on the shared screen.

    Returns {"code", "host_token", "ids", "tokens", "devices"} (devices by key, "host" and "tv").
    """
    created = api(base, "POST", "/api/games", body={"game": "quest1607", "options": dict(options or {})})
    code, host = created["code"], created["host_token"]
    devices: dict[str, Device] = {}
    ids: dict[str, str] = {}
    tokens: dict[str, str] = {}
    for key, (name, land, locale) in phones.items():
        joined = api(base, "POST", f"/api/games/{code}/players", body={"name": name, "character": land})
        ids[key], tokens[key] = joined["player_id"], joined["token"]
        devices[key] = Device(browser, base, key, locale)
        devices[key].remember(code, {"player": {"id": ids[key], "token": tokens[key], "name": name}})
    api(base, "POST", f"/api/games/{code}/actions", host, {"type": "start"})
    devices["host"] = Device(browser, base, "host", "en-GB")
    devices["host"].remember(code, {"host": host})
    devices["tv"] = Device(browser, base, "tv", "en-GB", TV)
    for key in phones:
        devices[key].goto(f"/play/{code}")
    devices["tv"].goto(f"/screen/{code}")
    devices["host"].goto(f"/host/{code}")
    return {"code": code, "host_token": host, "ids": ids, "tokens": tokens, "devices": devices}


def undo_on_host(page: Page, reason: str = "") -> None:
    """Take back the last change from the host panel: Undo asks first, and the host confirms."""
    page.get_by_role("button", name="Undo last action").click()
    question = page.locator("#undo-ask")
    if reason:
        question.get_by_label("Why").fill(reason)
    question.get_by_role("button", name="Yes, take it back").click()
    expect(question).to_have_count(0)


def api(base: str, method: str, path: str, token: str | None = None,
        body: dict[str, Any] | None = None, lang: str = "en") -> Any:
    headers = {"Accept-Language": lang}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    r = requests.request(method, base + path, json=body, headers=headers, timeout=10)
    assert r.status_code < 300, (path, body, r.status_code, r.text)
    return r.json()


def keep_choice(held: Mapping[str, int], need: int) -> dict[str, int]:
    """The first `need` resources of `held`, in order: what a sunk player keeps (C7) or a winner fishes."""
    keep: dict[str, int] = {}
    for resource, n in held.items():
        if need and n:
            keep[resource] = min(n, need)
            need -= keep[resource]
    return keep


def state_of(table: Mapping[str, Any]) -> dict[str, Any]:
    """The public view of a table's game (`table` holds its "base" and "code")."""
    return dict(api(table["base"], "GET", f"/api/games/{table['code']}"))


def wait_for_version(base: str, code: str, seen: int) -> dict[str, Any]:
    """Poll the public view until the server has applied a change after version `seen` (bounded in
    time, not in polls: on a busy machine each poll may take a while)."""
    state: dict[str, Any] = {}

    def applied() -> bool:
        state.update(api(base, "GET", f"/api/games/{code}"))
        return int(state["version"]) > seen

    wait_for(applied, f"the server to apply a change after version {seen}")
    return state


def act(table: Mapping[str, Any], key: str, action: dict[str, Any]) -> dict[str, Any]:
    """Act over the API as the table's `key` (a player's key, or "host"); the answer's body."""
    game: Game = table["game"]
    token = game.host if key == "host" else table["tokens"][key]
    return game.ok(token, action)


def fire_until(table: Mapping[str, Any], stages: tuple[str, ...]) -> dict[str, Any]:
    """The shooters fire (over the API) until the fight reaches one of `stages` or ends."""
    for _ in range(80):
        state = state_of(table)
        combat = state["combat"]
        if combat is None or combat["stage"] in stages:
            return state
        shooter = next(k for k, v in table["ids"].items() if v == combat["shooter"])
        act(table, shooter, {"type": "fire"})
    pytest.fail("the fight went on for 80 shots")


# ---- the strip and the story (what needs a player now, what just happened) ----------------------

RULE_ID = re.compile(r"\b(?:[A-Z]\d{1,2}|SE\d{1,2}|VV\d{1,2})\b")
"""A rule's ID as a refusal cites it (T5, SE11, VV6); a status line never holds one."""


def strip(device: Device) -> Locator:
    """The "now" strip at the top of a phone (or the host panel)."""
    return device.page.locator("#now")


def strip_actions(device: Device) -> Locator:
    """The strip's buttons that act on the game (the turn cue's switch, #cue, is the device's own)."""
    return strip(device).locator("button:not(#cue)")


def newest(device: Device) -> Locator:
    """The newest line of the table's story on a phone, the host panel, a tablet or the TV."""
    return device.page.locator(".feed-lines li").first


def no_rule_in_the_strip(*devices: Device) -> None:
    """No line of the strip cites a rule; only a refused button does, right under it."""
    for device in devices:
        for text in strip(device).locator(".now-text").all_inner_texts():
            assert not RULE_ID.search(text), f"{device.name}: a status cites a rule: {text}"


def nothing_to_do(*devices: Device) -> None:
    """What concerns only other players is never shown as something to do."""
    for device in devices:
        expect(strip(device).locator("button:not(#cue), a.button")).to_have_count(0)
        expect(strip(device).locator(".now-item.act")).to_have_count(0)


def at_the_top(page: Page) -> None:
    """Scroll to the page's top and stay there (a smooth scroll a strip link started may be under way)."""
    page.wait_for_function(
        "() => { if (window.scrollY === 0) return true; window.scrollTo(0, 0); return false; }", polling=100)


def top_shot(device: Device, label: str) -> None:
    """A screenshot of the page's first screenful, as the player sees it when they look up."""
    at_the_top(device.page)
    device.shot(label)


def in_first_screenful(page: Page, selector: str) -> None:
    """The element is on screen without any scrolling (a 390 × 844 phone at the page's top)."""
    at_the_top(page)
    settled(page)
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)


def image_drawn(image: Locator) -> None:
    """Wait until the image has loaded and decoded: visible comes before that."""
    expect(image).to_be_visible()
    image.evaluate("i => i.complete && i.naturalWidth > 0 ? true : "
                   "new Promise((done, fail) => { i.onload = () => done(true); i.onerror = fail; })")
    assert image.evaluate("i => i.complete && i.naturalWidth > 0")


def spoken(device: Device, text: str) -> None:
    """Wait until the TV has said something that contains `text`."""
    device.page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=text)
