"""A phone loads its game's ruleset in its own language, and the other one's texts when a player switches.

The ruleset's texts (a resource's name on the phone, Wood / Hout) come from the ruleset answer, not
from the page's word files: a switch that did not fetch the other language's would leave them English.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.api.client import Game

from .helpers import Device, api

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    characters = [c["id"] for c in api(base_url, "GET", "/api/rulesets/quest1607")["characters"]]
    game = Game.create(base_url)
    pid = ""
    for number, character in enumerate(characters[:3], 1):
        pid = game.join(f"Captain {number}", character)
    game.ok(game.host, {"type": "start"})
    device = Device(browser, base_url, "ruleset-language", "en-GB")
    device.remember(game.code, {"player": {"id": pid, "token": game.players[pid], "name": "Captain 3"}})
    try:
        yield {"device": device, "code": game.code}
    finally:
        device.context.close()


def test_a_switch_of_language_shows_the_rulesets_texts_in_the_new_one(phone: dict[str, Any]) -> None:
    device: Device = phone["device"]
    page = device.page
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/ruleset" in request.url else None)
    wood = page.locator(".res-wood .res-name")
    with page.expect_request(lambda r: r.url.endswith("/ruleset?lang=en")):
        device.goto(f"/play/{phone['code']}")
    expect(wood).to_have_text("Wood")
    with page.expect_request(lambda request: request.url.endswith("/ruleset?lang=nl")):
        page.locator("#lang").click()
    expect(page.locator("#lang")).to_have_text("EN")
    expect(wood).to_have_text("Hout")
    # Both languages are on the page now: switching back and forth needs no network.
    device.context.set_offline(True)
    page.locator("#lang").click()
    expect(wood).to_have_text("Wood")
    page.locator("#lang").click()
    expect(wood).to_have_text("Hout")
    assert [url.split("/ruleset")[1] for url in asked] == ["?lang=en", "?lang=nl"]
    assert device.errors == []

