"""The turn cue in real Chromium, on two phones: the phone whose player the game starts waiting on
shows it in the tab's title ("● ") and asks for a chime (an OscillatorNode started) and a buzz; the
other phone does neither; the title loses its dot once the turn has passed on; a reload while it is
still that player's turn shows the title but does not buzz again; a phone with the cue turned off
(its toggle, stored in localStorage) still shows the title but asks for no sound and no buzz."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.api.client import Game

from .helpers import Device, close_all

pytestmark = pytest.mark.e2e

# Count what the cue asks for: each OscillatorNode started, each vibration.
COUNT_CUES = """
window.__chimes = 0;
window.__buzzes = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__chimes += 1; return start.apply(this, args); };
navigator.vibrate = () => { window.__buzzes += 1; return true; };
"""
DOT = "● "


@pytest.fixture()
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    """A Quest 1607 game that Anna and Bram joined, their phones in the lobby (each tapped once: the
    chime may sound from then on) until the host starts it: Anna's turn first, both phones on /play."""
    game = Game.create(base_url)
    phones: dict[str, Device] = {}
    ids: dict[str, str] = {}
    for name, land in (("Anna", "netherlands"), ("Bram", "england")):
        pid = game.join(name, land)
        ids[name] = pid
        phones[name] = Device(browser, base_url, name, "en-GB")
        phones[name].context.add_init_script(COUNT_CUES)
        phones[name].remember(game.code, {"player": {"id": pid, "token": game.players[pid], "name": name}})
    for phone in phones.values():
        phone.goto(f"/join/{game.code}")
        phone.page.locator(".lobby-head").click()
    game.ok(game.host, {"type": "start"})
    for phone in phones.values():
        expect(phone.page.locator("#now #cue")).to_be_visible()
    yield {"game": game, "ids": ids, **phones}
    close_all(phones.values())


def count(page: Page, what: str) -> int:
    return int(page.evaluate(f"window.__{what}"))


def pass_turn(game: Game, pid: str) -> None:
    """The player whose turn it is rolls and ends it (over the API, as another device would)."""
    game.ok(game.players[pid], {"type": "roll"})
    game.ok(game.players[pid], {"type": "end_turn"})


def test_the_cue_tells_the_phone_whose_turn_it_is_and_no_other(table: dict[str, Any]) -> None:
    game, ids = table["game"], table["ids"]
    anna, bram = table["Anna"].page, table["Bram"].page
    expect(anna).to_have_title(f"{DOT}Shipmate")  # the game starts on Anna's turn
    anna.wait_for_function("() => window.__chimes === 1 && window.__buzzes === 1")
    expect(bram).to_have_title("Shipmate")
    assert (count(bram, "chimes"), count(bram, "buzzes")) == (0, 0)

    pass_turn(game, ids["Anna"])
    expect(bram).to_have_title(f"{DOT}Shipmate")
    bram.wait_for_function("() => window.__chimes === 1 && window.__buzzes === 1")
    expect(anna).to_have_title("Shipmate")
    assert (count(anna, "chimes"), count(anna, "buzzes")) == (1, 1)

    pass_turn(game, ids["Bram"])
    expect(anna).to_have_title(f"{DOT}Shipmate")
    anna.wait_for_function("() => window.__chimes === 2 && window.__buzzes === 2")
    expect(bram).to_have_title("Shipmate")
    assert (count(bram, "chimes"), count(bram, "buzzes")) == (1, 1)

    anna.reload()  # still Anna's turn: the title tells it, the phone does not buzz again
    expect(anna.locator("#now")).to_be_visible()
    expect(anna).to_have_title(f"{DOT}Shipmate")
    assert count(anna, "buzzes") == 0


def test_a_phone_with_the_cue_off_asks_for_no_sound(table: dict[str, Any]) -> None:
    game, ids = table["game"], table["ids"]
    bram = table["Bram"].page
    toggle = bram.locator("#cue")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert bram.evaluate("localStorage.getItem('shipmate.cue')") == "off"
    bram.reload()
    expect(bram.locator("#cue")).to_have_attribute("aria-pressed", "false")  # the device keeps its choice
    bram.locator("#now .me-name").click()  # a tap that wakes the sound (and is not on the toggle)

    pass_turn(game, ids["Anna"])
    expect(bram).to_have_title(f"{DOT}Shipmate")  # the title still tells
    expect(table["Anna"].page).to_have_title("Shipmate")
    assert (count(bram, "chimes"), count(bram, "buzzes"), bram.locator("#cue").get_attribute("aria-pressed"),
            bram.evaluate("localStorage.getItem('shipmate.cue')")) == (0, 0, "false", "off")


def test_a_tap_before_the_cue_loads_still_lets_it_sound(browser: Browser, base_url: str) -> None:
    """The cue's module loads with the game's first state; a phone tapped before it arrived (in the
    lobby) chimes on its turn without another tap."""
    game = Game.create(base_url)
    pid = game.join("Anna", "netherlands")
    game.join("Bram", "england")
    phone = Device(browser, base_url, "Anna", "en-GB")
    held: list[Route] = []

    def hold(route: Route) -> None:
        # The page's import waits; the service worker's own copy of the shell (it keeps cue.js for
        # offline use) goes on: that fetch comes whenever the worker installs, before or after the tap.
        if route.request.service_worker is None:
            held.append(route)
        else:
            route.continue_()

    phone.context.route("**/js/cue.js", hold)
    phone.context.add_init_script(COUNT_CUES)
    phone.remember(game.code, {"player": {"id": pid, "token": game.players[pid], "name": "Anna"}})
    try:
        with phone.page.expect_request(lambda request: request.url.endswith("/js/cue.js")):
            phone.goto(f"/join/{game.code}")  # the lobby's first state asks for the cue
        phone.page.locator(".lobby-head").click()
        phone.page.wait_for_function("() => navigator.userActivation.hasBeenActive")
        assert len(held) == 1 and phone.page.evaluate("customElements.get('cue-toggle') === undefined")
        held[0].continue_()
        game.ok(game.host, {"type": "start"})
        expect(phone.page).to_have_title(f"{DOT}Shipmate")
        phone.page.wait_for_function("() => window.__chimes === 1 && window.__buzzes === 1")
    finally:
        close_all([phone])
