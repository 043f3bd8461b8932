"""Home, the lobby and the rulebook draw in parts (pwa/js/page.js): a change draws the parts it concerns.

Each draw of a part is a User Timing measure, `draw PART`. Once a page has settled its measures are
forgotten, one change is made (a field typed in, a control tapped, a player joining over the API),
and the parts drawn since are those that show what changed, never an unrelated one.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.api.client import Game

from .helpers import Device, settled
from .test_reach import draws, draws_from_now

pytestmark = pytest.mark.e2e


def test_home_draws_only_the_card_whose_control_changed(phones: dict[str, Device], browser: Browser,
                                                         base_url: str) -> None:
    phones["home"] = Device(browser, base_url, "front-home", "en-GB")
    page = phones["home"].goto("/")
    expect(page.locator("#create-form button[type=submit]")).to_be_enabled()
    draws_from_now(page)
    page.locator("#join-code").fill("abc")
    expect(page.locator("#join-code")).to_have_attribute("value", "ABC")
    settled(page)
    assert set(draws(page)) == {"JoinCard"}, draws(page)
    draws_from_now(page)
    page.get_by_label("Serenissima").check()
    expect(page.locator("#foreign-price")).to_be_visible()  # its house defaults came
    settled(page)
    assert set(draws(page)) == {"CreateCard"}, draws(page)
    expect(page.locator("#join-code")).to_have_value("abc")  # what was typed stays as typed


def test_a_player_joining_draws_the_players_and_the_lands_not_the_code_and_qr(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    game = Game.create(base_url)
    phones["host"] = Device(browser, base_url, "front-lobby", "en-GB")
    phones["host"].remember(game.code, {"host": game.host})
    page = phones["host"].goto(f"/join/{game.code}")
    expect(page.locator(".qr img")).to_be_visible()
    expect(page.locator("#lobby-join")).to_be_visible()
    draws_from_now(page)
    page.get_by_label("Your name").fill("Hanna")
    expect(page.locator("#player-name")).to_have_attribute("value", "Hanna")
    settled(page)
    assert set(draws(page)) == {"join"}, draws(page)  # typing draws only the form that shows the name
    draws_from_now(page)
    game.join("Bram", "england")
    expect(page.locator(".players li")).to_have_count(1)
    expect(page.locator("label.character.taken")).to_have_count(1)
    settled(page)
    drawn = draws(page)
    # the lands taken and Start's reason may change; the code and QR, the note, never
    assert {"players", "join"} <= set(drawn) <= {"players", "join", "host"}, drawn
    expect(page.locator("#player-name")).to_have_value("Hanna")


def test_a_rule_lit_up_or_a_search_draws_the_chapters_not_the_numbers(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    phones["book"] = Device(browser, base_url, "front-rules", "en-GB")
    page = phones["book"].goto("/rules/quest1607")
    expect(page.locator(".rb-rule").first).to_be_visible()
    draws_from_now(page)
    page.locator("a.rb-id[href='#U3']").click()
    expect(page.locator("#U3.lit")).to_be_focused()
    expect(page).to_have_url(f"{base_url}/rules/quest1607#U3")  # the address names it, as a link does
    settled(page)
    assert draws(page) == {"chapters": 1}, draws(page)
    draws_from_now(page)
    page.get_by_label("Search the rules (Dutch or English)").fill("kanon")
    expect(page.locator("#rb-count")).to_contain_text("found")
    settled(page)
    assert set(draws(page)) == {"search", "chapters"}, draws(page)
    expect(page.locator("#S1")).to_have_count(0)  # the chapters show what it found
