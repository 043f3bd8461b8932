"""Every decision the table waits on opens on the phone with all its controls on screen.

From the button that announces it (in the strip, or the strip's one line once the strip has
scrolled away), each decision shows every control it needs inside the viewport, where a tap at
its centre lands on it: the keep and the fish after a sinking (a sheet at the bottom), a surrender
offered, an offer to answer (Quest 1607's trade, Serenissima's sale, Voyagers' Venture's bid to
agree on), and the question before the move that ends the game. Then the test taps them, and the
game goes on. Each game is set up over the API; the phone is the subject.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.api.client import Game
from tests.api.test_serenissima import pick_all
from tests.api.test_voyagers import display, year_of_one_card
from tests.api.test_whole_game import advance, supply
from tests.api.test_whole_game import me as own_entry
from tests.fixtures_server import wait_for

from .helpers import Device, strip
from .layout import SMALL_PHONE, open_phone, phone_shot, reached, scroll_away

pytestmark = pytest.mark.e2e



def all_reached(*controls: Locator) -> None:
    """Each control is on screen, and a tap at its centre lands on it."""
    for control in controls:
        expect(control).to_be_visible()
        control.page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        assert reached(control), f"{control}: off screen or under something"


def from_the_line(page: Page, announced: Locator) -> None:
    """Scrolled away from the strip, the player taps its one line at the top: the strip comes back."""
    scroll_away(page)
    line = page.locator("#now-line")
    expect(line).to_be_visible()
    all_reached(line)
    line.click()
    page.wait_for_function("() => window.scrollY === 0")
    expect(announced).to_be_visible()


# ---- Quest 1607 ---------------------------------------------------------------------------------


def quest_game(base: str) -> tuple[Game, str, str]:
    """A started two-player game of Quest 1607; the ids of the active player and the other."""
    game = Game.create(base, quests_per_level=1)
    first = game.join("Anna", "netherlands")
    second = game.join("Bram", "england")
    game.ok(game.host, {"type": "start"})
    active = game.state()["turn"]["player"]
    return game, active, second if active == first else first


def test_an_offer_and_a_surrender_are_answered_from_the_strip(phones: dict[str, Device], browser: Browser,
                                                              base_url: str) -> None:
    game, active, other = quest_game(base_url)
    page_active = open_phone(phones, browser, game, active, "en-GB")
    page_other = open_phone(phones, browser, game, other, "nl-NL")
    supply(game, active)
    game.ok(game.players[active], {"type": "roll"})
    offer = game.ok(game.players[active], {"type": "offer", "to": other, "give": {"wood": 1}, "get": {}})
    offer_id = offer["state"]["offers"][0]["id"]
    from_the_line(page_other, page_other.locator(f"#now-offer-{offer_id}"))
    accept = page_other.locator(f"#do-accept-{offer_id}")
    decline = page_other.locator(f"#do-decline-{offer_id}")
    all_reached(accept, decline)
    before = own_entry(game, other)["resources"].get("wood", 0)
    accept.click()
    wait_for(lambda: own_entry(game, other)["resources"].get("wood", 0) == before + 1, "the trade")
    assert game.state()["offers"] == []
    game.ok(game.players[active], {"type": "attack", "ship": 1, "target": other, "target_ship": 1})
    game.ok(game.players[other], {"type": "surrender"})
    from_the_line(page_active, page_active.locator("#now-surrender"))
    answer = page_active.locator("#do-accept-surrender")
    all_reached(answer)
    answer.click()
    wait_for(lambda: game.state()["combat"] is None, "the surrender accepted")
    expect(page_active.locator("#outcome")).to_be_visible()


def sink(game: Game, attacker: str, defender: str) -> dict[str, Any]:
    """The attacker's ship gets Cannons 6 and fires until a ship sinks; both hold cargo. The state."""
    for pid in (attacker, defender):
        game.ok(game.host, {"type": "adjust", "player": pid, "resources": {"food": 3, "coal": 2, "wood": 1},
                            "reason": "e2e: cargo"})
    game.ok(game.players[attacker], {"type": "roll"})
    for _ in range(5):
        supply(game, attacker)
        game.ok(game.players[attacker], {"type": "upgrade", "ship": 1, "part": "cannons"})
    game.ok(game.players[attacker], {"type": "attack", "ship": 1, "target": defender, "target_ship": 1})
    for _ in range(80):
        state = game.state()
        if state["combat"]["stage"] != "firing":
            return state
        game.ok(game.players[state["combat"]["shooter"]], {"type": "fire"})
    pytest.fail("no sinking after 80 shots")


def choose(page: Page, kind: str, counts: dict[str, int], n: int) -> None:
    """Tap + on the sheet's counters until `n` are chosen, as far as `counts` allow."""
    for resource, held in counts.items():
        for _ in range(min(held, n)):
            plus = page.locator(f"#{kind}-box [data-step='{kind}.{resource}'][data-d='1']")
            all_reached(plus)
            plus.click()
        n -= min(held, n)


def test_keep_and_fish_open_as_a_sheet_from_the_strip(phones: dict[str, Device], browser: Browser,
                                                      base_url: str) -> None:
    game, attacker, defender = quest_game(base_url)
    pages = {attacker: open_phone(phones, browser, game, attacker, "en-GB"),
             defender: open_phone(phones, browser, game, defender, "nl-NL")}
    state = sink(game, attacker, defender)
    combat = state["combat"]
    assert combat["stage"] == "salvage", combat
    sunk, winner = pages[combat["sunk"]], pages[combat["winner"]]
    from_the_line(sunk, sunk.locator("#now-keep"))
    sunk.locator("#do-keep").click()
    sheet = sunk.locator("#keep-box.sheet")
    expect(sheet).to_be_visible()
    expect(sunk.locator("#keep-h")).to_be_focused()
    held = next(p for p in state["players"] if p["id"] == combat["sunk"])["resources"]
    steppers = sheet.locator("button[data-step]")
    all_reached(*[steppers.nth(i) for i in range(steppers.count())], sunk.locator("#keep-send"),
                sunk.locator("#keep-later"))
    phone_shot(sunk, "keep-390x844")
    sunk.set_viewport_size(SMALL_PHONE)
    all_reached(*[steppers.nth(i) for i in range(steppers.count())], sunk.locator("#keep-send"))
    phone_shot(sunk, "keep-360x740")
    choose(sunk, "keep", {r: n for r, n in held.items() if n > 0}, combat["keep"])
    sunk.locator("#keep-send").click()
    wait_for(lambda: (game.state()["combat"] or {}).get("stage") != "salvage", "the keep")
    expect(sheet).to_have_count(0)
    if game.state()["combat"] is None:  # nothing left in the water to fish
        return
    from_the_line(winner, winner.locator("#now-fish"))
    winner.locator("#do-fish").click()
    expect(winner.locator("#fish-box.sheet")).to_be_visible()
    water = game.state()["combat"]["water"]
    all_reached(winner.locator("#fish-send"), winner.locator("#fish-later"))
    choose(winner, "fish", water, min(2, sum(water.values())))
    winner.locator("#fish-send").click()
    wait_for(lambda: game.state()["combat"] is None, "the fish")
    expect(winner.locator("#outcome")).to_be_visible()


def test_the_sheet_closes_and_the_strip_still_asks(phones: dict[str, Device], browser: Browser,
                                                   base_url: str) -> None:
    game, attacker, defender = quest_game(base_url)
    pages = {attacker: open_phone(phones, browser, game, attacker, "en-GB"),
             defender: open_phone(phones, browser, game, defender, "en-GB")}
    combat = sink(game, attacker, defender)["combat"]
    sunk = pages[combat["sunk"]]
    sunk.locator("#do-keep").click()
    expect(sunk.locator("#keep-box.sheet")).to_be_visible()
    sunk.locator("#keep-later").click()
    expect(sunk.locator("#keep-box.sheet")).to_have_count(0)
    expect(sunk.locator("#keep-box")).to_be_visible()  # still in the fight card
    expect(strip_item(sunk, "keep")).to_contain_text("choose the")
    assert game.state()["combat"]["stage"] == "salvage"


def strip_item(page: Page, item: str) -> Locator:
    return page.locator(f"#now-{item}")


def test_the_question_before_the_winning_move(phones: dict[str, Device], browser: Browser,
                                              base_url: str) -> None:
    game, hero, _ = quest_game(base_url)
    for _ in range(200):  # the hero works through every quest; the turn comes back to them, not rolled
        state = game.state()
        active = state["turn"]["player"]
        if active == hero and own_entry(game, hero)["level"] == "done":
            break
        game.ok(game.players[active], {"type": "roll"})
        if active == hero:
            advance(game, hero)
        game.ok(game.players[active], {"type": "end_turn"})
    else:
        pytest.fail("the hero did not complete Gold")
    page = open_phone(phones, browser, game, hero, "nl-NL")
    page.locator("#do-roll").click()
    edge = page.locator("#do-edge")
    expect(edge).to_be_enabled()
    all_reached(edge)
    edge.click()
    ask = page.locator("dialog.ask")
    expect(ask).to_contain_text("de geheime sleutel van de dobbelstenen")
    expect(ask).not_to_contain_text("dobbelzaad")
    all_reached(page.locator("#end-yes"), page.locator("#end-no"))
    page.locator("#end-yes").click()
    wait_for(lambda: game.state()["phase"] == "finished", "the end")
    expect(strip(phones[hero])).to_contain_text("gewonnen")


# ---- Serenissima --------------------------------------------------------------------------------


def test_a_sale_and_the_last_finish_in_serenissima(phones: dict[str, Device], browser: Browser,
                                                   base_url: str) -> None:
    game = Game.create(base_url, "serenissima", house_rules={"rounds": 1})
    venice = game.join("Anna", "venice")
    genoa = game.join("Bram", "genoa")
    game.ok(game.host, {"type": "start"})
    game.ok(game.players[venice], {"type": "bid", "ducats": 100})
    game.ok(game.players[genoa], {"type": "bid", "ducats": 300})
    order = pick_all(game)
    assert order == [genoa, venice]
    page = open_phone(phones, browser, game, venice, "en-GB")
    game.ok(game.players[genoa], {"type": "buy", "port": "genova", "good": "cloth", "count": 2})
    game.ok(game.players[genoa], {"type": "move_galley", "galley": 1, "port": "venezia"})
    offer = game.ok(game.players[genoa], {"type": "offer_sale", "to": venice, "good": "cloth", "count": 1,
                                          "price": 50})["state"]["offers"][0]
    item = page.locator(f"#now-sale-{offer['id']}")
    from_the_line(page, item)
    buttons = item.locator("button")
    expect(buttons).to_have_count(2)
    all_reached(buttons.nth(0), buttons.nth(1))
    item.get_by_role("button", name="Accept").click()
    wait_for(lambda: game.state()["offers"] == [], "the sale")
    phases = len(game.http.get(f"{game.url}/ruleset").json()["phases"])
    while game.state()["round_phase"]["number"] < phases:
        for pid in order:
            game.ok(game.players[pid], {"type": "finish_phase"})
    game.ok(game.players[genoa], {"type": "finish_phase"})
    finish = page.locator("#finish-phase")
    expect(finish).to_be_enabled()
    all_reached(finish)
    finish.click()
    expect(page.locator("dialog.ask")).to_be_visible()
    all_reached(page.locator("#end-yes"), page.locator("#end-no"))
    page.locator("#end-yes").click()
    wait_for(lambda: game.state()["phase"] == "finished", "the end")


# ---- Voyagers' Venture --------------------------------------------------------------------------


def test_a_bid_to_agree_on_and_the_last_score_in_voyagers(phones: dict[str, Device], browser: Browser,
                                                          base_url: str) -> None:
    game = Game.create(base_url, "voyagers")
    for number, colour in enumerate(["red", "blue", "green"], start=1):
        game.join(f"Captain {number}", colour)
    game.ok(game.host, {"type": "start"})
    page = open_phone(phones, browser, game, "p2", "en-GB")
    display(game, "y1")
    game.ok(game.players["p1"], {"type": "name_bid", "cards": ["y1"]})
    agree = page.locator("#now #do-agree")
    from_the_line(page, agree)
    all_reached(agree, page.locator("#now #do-disagree"))
    version = game.state()["version"]
    agree.click()
    wait_for(lambda: game.state()["version"] > version, "the vote")
    game.ok(game.players["p3"], {"type": "agree"})
    game.ok(game.players["p2"], {"type": "name_bid", "cards": []})
    game.ok(game.players["p3"], {"type": "name_bid", "cards": []})
    for year in range(2, 7):
        game.ok(game.host, {"type": "turn_order", "order": ["p1", "p2", "p3"]})
        year_of_one_card(game, f"y{year}")
    game.ok(game.host, {"type": "close_purchases"})
    score = {"type": "score", "tips": 0, "ships": 0, "nobles": 0, "ship_count": 0, "fastest_fleet": False,
             "gold": 0, "smuggled": 0, "resources": 0, "lowest_ship_card": None}
    for pid in ("p1", "p3"):
        game.ok(game.host, {**score, "player": pid})
    page.locator("#now #do-score").click()
    send = page.locator("#score-send")
    send.scroll_into_view_if_needed()
    all_reached(send)
    send.click()
    expect(page.locator("dialog.ask")).to_be_visible()
    all_reached(page.locator("#end-yes"), page.locator("#end-no"))
    page.locator("#end-yes").click()
    wait_for(lambda: game.state()["phase"] == "finished", "the end")
