"""Every game page draws in parts (pwa/js/page.js): a change draws the parts it concerns, and no other.

Each draw of a part is a User Timing measure named `draw PART` (tests/e2e/test_reach.py counts them
on a phone). Here a page settles, its measures are cleared, the table changes over the API, and the
page's measures name what it drew: the parts whose inputs changed, each once, and none of the rest.
Each test sets up its own game and devices.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .helpers import Device, close_all
from .test_decisions import quest_game
from .test_reach import drawn_version, draws, draws_from_now

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 800}
# Note from now on whether the dice row tumbles (window.__tumbled)
TUMBLES = """() => {
  window.__tumbled = false;
  new MutationObserver(() => { window.__tumbled ||= Boolean(document.querySelector('#dice-row.rolling')); })
    .observe(document.getElementById('app'), { subtree: true, attributes: true, attributeFilter: ['class'] });
}"""


def test_the_quest_host_panel_draws_the_cards_a_players_goods_concern(browser: Browser,
                                                                      base_url: str) -> None:
    game, _, other = quest_game(base_url)
    host = Device(browser, base_url, "host-parts", "en-GB", LAPTOP)
    try:
        host.remember(game.code, {"host": game.host})
        page = host.goto(f"/host/{game.code}")
        expect(page.locator("#app")).to_have_attribute("aria-busy", "false")  # every part has come
        page.locator("#adjust-player").select_option(other)
        page.get_by_label("Wood").fill("2")
        page.get_by_label("Reason").fill("half typed")
        drawn_version(page, game.state()["version"])
        draws_from_now(page)
        version = game.ok(game.host, {"type": "adjust", "player": other, "resources": {"food": 1},
                                      "reason": "e2e: one player's goods"})["version"]
        drawn_version(page, version)
        drawn = draws(page)
        # the story, the moment in the head, the player's line and the form's "has" counts
        assert {"feed", "head", "players", "adjust"} <= set(drawn), drawn
        assert not {"seed", "dice-link", "strip", "guide", "seats"} & set(drawn), drawn
        assert max(drawn.values()) == 1, f"a part drawn twice for one change: {drawn}"
        expect(page.get_by_label("Wood")).to_have_value("2")  # the form drew, and kept what was typed
        expect(page.get_by_label("Reason")).to_have_value("half typed")
        expect(page.locator("#adjust-player")).to_have_value(other)
    finally:
        close_all([host])


def test_the_dice_device_draws_its_dice_only_for_a_roll(browser: Browser, base_url: str) -> None:
    game, active, other = quest_game(base_url)
    device = Device(browser, base_url, "dice-parts", "en-GB")
    try:
        page = device.goto(f"/dice/{game.code}")
        expect(page.locator("#turn-dice")).to_be_visible()
        drawn_version(page, game.state()["version"])
        draws_from_now(page)
        version = game.ok(game.host, {"type": "adjust", "player": other, "resources": {"wood": 1},
                                      "reason": "e2e: another's goods"})["version"]
        drawn_version(page, version)
        assert draws(page) == {"feed": 1}  # the story alone: the dice are as they were
        draws_from_now(page)
        page.evaluate(TUMBLES)
        version = game.ok(game.players[active], {"type": "roll"})["version"]
        drawn_version(page, version)  # and settled: the dice have stopped tumbling
        assert page.evaluate("() => window.__tumbled"), "the new roll did not tumble"
        expect(page.locator("#dice-device .brought")).to_be_visible()
        assert draws(page) == {"dice": 1, "feed": 1}  # the tumble itself is no draw
    finally:
        close_all([device])
