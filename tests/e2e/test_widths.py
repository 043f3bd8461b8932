"""No page of any game is wider than a 390 px phone, in either language, and taps land where aimed.

Every route of each game is opened on a 390 × 844 phone in English and in Dutch, with the longest
names the server takes, in the lobby (lands taken) and in play.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from shipmate.rules.table import NAME_MAX

from .helpers import PHONE, Device, api

pytestmark = pytest.mark.e2e

LONG = "Wilhelmina van Oranje-Nassau XIV"[:NAME_MAX]
GAMES = ("quest1607", "serenissima", "voyagers")
# What each route shows once it has drawn (the pages of Serenissima and Voyagers' Venture differ).
DRAWN = {"play": "#now, .turnbar", "host": "main h1", "screen": ".screen", "dice": ".dice-device, .screen"}
LOCALES = {"en": "en-GB", "nl": "nl-NL"}
WIDER = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || getComputedStyle(el).visibility === 'hidden') continue;
    if (box.right > width + 0.5) out.push(`${el.tagName.toLowerCase()}.${el.className}`);
  }
  return { scroll: document.documentElement.scrollWidth, out: out.slice(0, 8) };
}"""
MISSED = """() => [...document.querySelectorAll('label.character')].filter((label) => {
  label.scrollIntoView({ block: 'center' });
  const box = label.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !label.contains(hit);
}).map((label) => label.textContent.trim())"""


@pytest.fixture(params=list(GAMES))
def seated_game(request: pytest.FixtureRequest, base_url: str) -> Iterator[dict[str, Any]]:
    game = request.param
    created = api(base_url, "POST", "/api/games", body={"game": game, "options": {}})
    code = created["code"]
    lands = [c["id"] for c in api(base_url, "GET", f"/api/games/{code}/ruleset")["characters"]]
    players = []
    for i, land in enumerate(lands[:3]):
        joined = api(base_url, "POST", f"/api/games/{code}/players",
                     body={"name": f"{LONG[:-1]}{i}", "character": land})
        players.append({"id": joined["player_id"], "token": joined["token"], "name": LONG})
    yield {"game": game, "code": code, "host": created["host_token"], "players": players}


def check(page: Page, label: str) -> None:
    found = page.evaluate(WIDER)
    wide, out = found["scroll"], found["out"]
    assert wide <= PHONE["width"], f"{label}: the page is {wide} px wide: {out}"
    assert out == [], f"{label}: these stick out of a {PHONE['width']} px phone: {out}"


@pytest.mark.parametrize("language", list(LOCALES))
def test_every_page_fits_a_phone(browser: Browser, base_url: str, seated_game: dict[str, Any],
                                 language: str) -> None:
    code, game = seated_game["code"], seated_game["game"]
    device = Device(browser, base_url, f"{game}-{language}", LOCALES[language])
    device.remember(code, {"host": seated_game["host"], "player": seated_game["players"][0]})
    stranger = Device(browser, base_url, f"{game}-{language}-stranger", LOCALES[language])
    try:
        page = device.goto("/")
        expect(page.locator("main h2").first).to_be_visible()
        check(page, "home")
        lobby = stranger.goto(f"/join/{code}")
        expect(lobby.locator("label.character.taken").first).to_be_visible()
        check(lobby, "lobby, lands taken")
        assert lobby.evaluate(MISSED) == [], "a tap on a land lands on another element"
        stranger.shot(f"width-{game}-lobby-{language}", full_page=True)
        state = api(base_url, "GET", f"/api/games/{code}")
        if state["phase"] == "lobby":
            api(base_url, "POST", f"/api/games/{code}/actions", seated_game["host"], {"type": "start"})
        for route in ("play", "host", "screen", "dice"):
            page = device.goto(f"/{route}/{code}")
            expect(page.locator(DRAWN[route]).first).to_be_visible()
            check(page, f"/{route}")
            device.shot(f"width-{game}-{route}-{language}", full_page=True)
        assert device.errors == [] and stranger.errors == []
    finally:
        device.context.close()
        stranger.context.close()
