"""What concerns a player reaches them wherever they are on the page, and a change draws only what changed.

A phone draws each of its parts in a slot of its own (pwa/js/page.js), and each draw is a User Timing
measure named `draw PART`: the tests count them. A change at the table draws only the parts whose
inputs changed (another player's goods leave this player's ship card untouched); a tap on a counter
draws its card once. What concerns the player (an attack, an offer's answer, their offer sent) comes
on the strip's one line at the top, scrolled or not, with its buttons, and is said once to a screen
reader (`#now-said`, a live region). Each game is set up over the API; the phone is the subject.
"""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.client import Game
from tests.api.test_whole_game import supply
from tests.fixtures_server import wait_for

from .helpers import TV, Device, close_all, settled
from .layout import open_phone, phone_shot, reached, scroll_away
from .test_decisions import quest_game

pytestmark = pytest.mark.e2e

DRAWS = """() => performance.getEntriesByType('measure')
  .filter((m) => m.name.startsWith('draw ')).map((m) => m.name.slice(5))"""
# Count every change inside an element from now on (window.__touched[selector])
TOUCHES = """(selector) => {
  window.__touched = window.__touched || {};
  window.__touched[selector] = 0;
  new MutationObserver(() => { window.__touched[selector] += 1; })
    .observe(document.querySelector(selector),
      { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def draws_from_now(page: Page) -> None:
    """Forget the draws so far: the next `draws(page)` counts those after this."""
    settled(page)
    page.evaluate("() => performance.clearMeasures()")


def draws(page: Page) -> Counter[str]:
    """The parts drawn since `draws_from_now`, with how often."""
    return Counter(page.evaluate(DRAWS))


def three_corrections(game: Game, page: Page, player: str) -> Counter[str]:
    """The host corrects `player`'s wood three times; the parts `page` drew meanwhile, with how often."""
    draws_from_now(page)
    for n in (1, -1, 2):
        version = game.ok(game.host, {"type": "adjust", "player": player, "resources": {"wood": n},
                                      "reason": "e2e: another's goods"})["version"]
        drawn_version(page, version)
    return draws(page)


def drawn_version(page: Page, version: int) -> None:
    """Wait until the phone's story shows change `version` (its newest line), and the page is quiet."""
    newest = "(v) => Number(document.querySelector('.feed-lines li.newest')?.dataset.version) >= v"
    page.wait_for_function(newest, arg=version)
    settled(page)


def test_another_players_goods_draw_the_story_alone_and_leave_the_ship_card_untouched(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    game, active, other = quest_game(base_url)
    page = open_phone(phones, browser, game, other, "en-GB")
    expect(page.locator("#ships")).to_be_visible()
    settled(page)
    page.evaluate(TOUCHES, "#ships")
    page.evaluate(TOUCHES, "#stock")
    drawn = three_corrections(game, page, active)
    assert drawn["feed"] == 3, drawn  # the story tells each change once
    assert set(drawn) <= {"feed", "StripCard"}, drawn
    assert page.evaluate("() => window.__touched") == {"#ships": 0, "#stock": 0}


def test_another_players_goods_draw_the_tvs_players_and_story_and_leave_its_roll_alone(
        browser: Browser, base_url: str) -> None:
    """The TV is a page of parts too (the head and each column): a change to one player's goods draws
    the players' column and the story, never the roll's column, and the screen still fits."""
    game, active, _ = quest_game(base_url)
    game.ok(game.players[active], {"type": "roll"})
    tv = Device(browser, base_url, "tv-parts", "en-GB", TV)
    try:
        page = tv.goto(f"/screen/{game.code}")
        expect(page.locator("#q-roll #dice-row")).to_be_visible()
        settled(page)
        page.evaluate(TOUCHES, "#q-main")
        drawn = three_corrections(game, page, active)
        assert drawn["players"] == 3 and drawn["side"] == 3, drawn
        assert set(drawn) <= {"head", "players", "side"}, drawn
        assert page.evaluate("() => window.__touched") == {"#q-main": 0}
        assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight")
        assert tv.errors == []
    finally:
        close_all([tv])


SWATCHES = """() => {
  window.__swatched = 0;
  const seen = new MutationObserver((records) => { window.__swatched += records.length; });
  document.querySelectorAll('.swatch').forEach((el) => seen.observe(el, { attributes: true }));
  return [...document.querySelectorAll('#q-players .swatch')].map((el) => [el.dataset.colour,
    getComputedStyle(el).backgroundColor, el.hasAttribute('style')]);
}"""


def rgb(colour: str) -> str:
    """"#e8a317" as a computed colour reads it: "rgb(232, 163, 23)"."""
    hex_ = colour.lstrip("#")
    hex_ = "".join(c * 2 for c in hex_) if len(hex_) == 3 else hex_[:6]
    return f"rgb({int(hex_[0:2], 16)}, {int(hex_[2:4], 16)}, {int(hex_[4:6], 16)})"


def test_every_swatch_shows_its_colour_and_a_draw_leaves_the_swatches_alone(browser: Browser,
                                                                           base_url: str) -> None:
    """A character's colour is data: it comes from a rule of the shell's sheet, not from a style of the
    element that each draw took away and put back (which made every card differ from its markup)."""
    game, active, _ = quest_game(base_url)
    tv = Device(browser, base_url, "tv-swatches", "en-GB", TV)
    try:
        page = tv.goto(f"/screen/{game.code}")
        expect(page.locator("#q-players .swatch").first).to_be_visible()
        settled(page)
        shown = page.evaluate(SWATCHES)
        assert shown, shown
        assert all(computed == rgb(colour) and not styled for colour, computed, styled in shown), shown
        three_corrections(game, page, active)
        assert page.evaluate("() => window.__swatched") == 0
    finally:
        close_all([tv])


def test_a_counter_tap_draws_its_form_once_and_an_action_draws_each_part_at_most_once(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    game, active, _ = quest_game(base_url)
    supply(game, active)
    page = open_phone(phones, browser, game, active, "en-GB")
    page.locator("#offer-form summary").click()
    plus = page.locator("[data-step='offer.give.wood'][data-d='1']")
    plus.scroll_into_view_if_needed()
    drawn_version(page, game.state()["version"])  # the story caught up: the page draws nothing of its own now
    draws_from_now(page)
    plus.click()
    expect(page.locator("#out-offer-give-wood")).to_have_text("1")
    settled(page)
    assert draws(page) == Counter({"offer-form": 1})  # the form alone, not the offers above it
    draws_from_now(page)
    page.locator("#do-roll").click()
    wait_for(lambda: game.state()["turn"]["rolled"], "the roll")
    expect(page.locator("#dicebox .brought, #dicebox .allowance").first).to_be_visible()
    settled(page)
    drawn = draws(page)
    assert drawn["DiceCard"] == 1, drawn
    assert max(drawn.values()) == 1, f"a part drawn twice for one tap: {drawn}"


def test_a_defender_scrolled_to_the_bottom_is_told_and_reaches_surrender_in_one_tap_asked_first(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    game, attacker, defender = quest_game(base_url)
    page = open_phone(phones, browser, game, defender, "en-GB")
    scroll_away(page)
    game.ok(game.players[attacker], {"type": "roll"})
    game.ok(game.players[attacker], {"type": "attack", "ship": 1, "target": defender, "target_ship": 1})
    line = page.locator("#now-line")
    expect(line).to_contain_text("attacks your ship")
    expect(page.locator("#now-said")).to_contain_text("attacks your ship")  # said once to a screen reader
    surrender = page.locator("#line-do-surrender")
    expect(surrender).to_be_visible()
    assert reached(surrender), "Surrender is off screen or under something"
    phone_shot(page, "reach-attacked")
    surrender.click()  # it hands over every resource once accepted (C8): the phone asks first (#39)
    question = page.locator("dialog.ask")
    name = next(p["name"] for p in game.state()["players"] if p["id"] == attacker)
    expect(question).to_contain_text(f"Offer to surrender? If {name} accepts, they get all your resources")
    phone_shot(page, "reach-surrender-asked")
    page.locator("#end-no").click()
    expect(question).to_have_count(0)
    assert game.state()["combat"]["stage"] != "surrender_offered"  # a tap taken back sends nothing
    surrender.click()
    page.locator("#end-yes").click()
    wait_for(lambda: (game.state()["combat"] or {}).get("stage") == "surrender_offered", "the surrender")


def test_an_offerer_in_the_form_sees_the_offer_sent_and_is_told_of_the_decline(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    game, active, other = quest_game(base_url)
    supply(game, active)
    game.ok(game.players[active], {"type": "roll"})
    page = open_phone(phones, browser, game, active, "nl-NL")
    form = page.locator("#offer-form")
    form.locator("summary").click()
    plus = form.locator("[data-step='offer.give.wood'][data-d='1']")
    plus.scroll_into_view_if_needed()
    plus.click()
    send = page.locator("#offer-send")
    send.scroll_into_view_if_needed()
    page.wait_for_function("() => document.documentElement.classList.contains('strip-away')")
    send.click()
    wait_for(lambda: len(game.state()["offers"]) == 1, "the offer")
    line = page.locator("#now-line")
    expect(line).to_contain_text("Je aanbod aan")  # sent: where the thumb is, the form left as it was
    assert reached(line)
    phone_shot(page, "reach-offer-sent")
    offer_id = game.state()["offers"][0]["id"]
    game.ok(game.players[other], {"type": "decline", "offer_id": offer_id})
    expect(line).to_contain_text("weigerde je aanbod")
    expect(page.locator("#now-said")).to_contain_text("weigerde je aanbod")
    assert reached(line)
    expect(form).to_have_attribute("open", "")
    phone_shot(page, "reach-offer-declined")
    page.locator("#line-dismiss").click()  # put away: the line falls back to what the turn needs
    expect(line).not_to_contain_text("weigerde je aanbod")


def test_a_turn_starts_within_two_screens_and_after_the_roll_sailing_is_on_screen(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    game, active, _ = quest_game(base_url)
    page = open_phone(phones, browser, game, active, "en-GB")
    expect(page.locator("#do-roll")).to_be_enabled()
    settled(page)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height <= 2 * page.viewport_size["height"], f"a turn's start is {height} px long"
    phone_shot(page, "turn-start")
    page.locator("#do-roll").click()
    sail = page.locator("#sail-1")
    expect(page.locator("#sail-form")).to_have_attribute("open", "")  # what comes next is open
    expect(sail).to_be_enabled()
    assert reached(sail), "after the roll, sailing is off screen"
    phone_shot(page, "rolled")
