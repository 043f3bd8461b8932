"""Serenissima's decisive moments reach the phone they concern, at its top, and the TV's headline.

Anna (Venice, English) and Bram (Genoa, Dutch) play round 1 with the host and the TV beside them:
Anna's sale is declined, withdrawn, accepted, taken back by the host and left to lapse; Bram buys in
Anna's port (its price goes to her, a house rule); the host ends the game. Each moment shows in the
strip of the phone it concerns, in its first screenful, and on the TV's headline at 1920 × 1080 and
1280 × 720; after the end no phone or TV shows a turn, a "now" tag or a bar to finish a phase. An
update that arrives while a card is open and a bid half typed leaves both as they were.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.api.client import Game

from .helpers import PHONE, TV, Device, at_the_top, close_all, no_rule_in_the_strip, settled, strip, top_shot

pytestmark = pytest.mark.e2e

SMALL_TV = {"width": 1280, "height": 720}
TURN = re.compile(r"’s turn|aan de beurt|waiting for|wachten op|\bPlaying\b|▶|\b(now|nu)\b", re.I)


def in_view(item: Locator) -> None:
    """The strip item shows whole in the phone's first screenful (the page at its top)."""
    at_the_top(item.page)
    expect(item).to_be_visible()
    settled(item.page)
    box = item.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box


def headline(tv: Device, text: str) -> None:
    """The TV's headline tells `text` at both of a TV's sizes, whole on the screen."""
    for size in (TV, SMALL_TV):
        tv.page.set_viewport_size(size)
        moment = tv.page.locator("#head-moment, #head-now").filter(has_text=text)
        expect(moment).to_be_visible()
        settled(tv.page)
        box = moment.bounding_box()
        assert box is not None and box["y"] + box["height"] <= size["height"], (size, box)
    tv.page.set_viewport_size(TV)


def moment(device: Device, text: str) -> Locator:
    """The strip's item that tells `text` on `device`."""
    return strip(device).locator(".now-item", has_text=text)


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    game = Game.create(base_url, "serenissima", house_rules={"foreign_paid_to": "controller"})
    anna, bram = game.join("Anna", "venice"), game.join("Bram", "genoa")
    game.ok(game.host, {"type": "start"})
    devices = {"anna": Device(browser, base_url, "anna", "en-GB"),
               "bram": Device(browser, base_url, "bram", "nl-NL"),
               "tv": Device(browser, base_url, "tv", "en-GB", TV)}
    devices["anna"].remember(game.code, {"player": {"id": anna, "token": game.players[anna], "name": "Anna"}})
    devices["bram"].remember(game.code, {"player": {"id": bram, "token": game.players[bram], "name": "Bram"}})
    for key in ("anna", "bram"):
        devices[key].goto(f"/play/{game.code}")
    devices["tv"].goto(f"/screen/{game.code}")
    yield {"game": game, "ids": {"anna": anna, "bram": bram}, **devices}
    close_all(devices.values())


def act(table: dict[str, Any], key: str, action: dict[str, Any]) -> None:
    game: Game = table["game"]
    game.ok(game.host if key == "host" else game.players[table["ids"][key]], action)


def offer(table: dict[str, Any]) -> None:
    """Anna offers Bram her 2 Metal for 300 ducats (SE16)."""
    act(table, "anna", {"type": "offer_sale", "to": table["ids"]["bram"], "good": "metal", "count": 2,
                        "price": 300})


def test_an_update_leaves_an_open_card_and_a_half_typed_bid_as_they_were(table: dict[str, Any]) -> None:
    page = table["anna"].page
    page.locator("#do-sailors").click()  # the strip's link unfolds the sailors' card
    expect(page.locator("#split-form")).to_have_attribute("open", "")
    page.locator("#bid-ducats").click()
    page.keyboard.type("10")  # half typed: 100 is meant, nothing sent yet
    act(table, "bram", {"type": "bid", "ducats": 50})  # the update: Bram's bid is in
    expect(page.locator(".bid-status li.in")).to_contain_text("Bram")
    expect(page.locator("#split-form")).to_have_attribute("open", "")
    expect(page.locator("#bid-ducats")).to_have_value("10")
    expect(page.locator("#bid-ducats")).to_be_focused()
    page.keyboard.type("0")
    page.locator("#bid-send").click()
    expect(page.locator(".se-bids.revealed")).to_be_visible()  # the last bid revealed every bid
    act(table, "anna", {"type": "pick_position", "position": 1})
    act(table, "bram", {"type": "pick_position", "position": 2})
    expect(strip(table["anna"]).locator("#now-turn.act")).to_be_visible()


def test_a_declined_sale_reaches_its_seller_and_the_tv(table: dict[str, Any]) -> None:
    anna, bram, tv = table["anna"], table["bram"], table["tv"]
    act(table, "anna", {"type": "buy", "port": "venezia", "good": "metal", "count": 2})
    act(table, "anna", {"type": "move_galley", "galley": 2, "port": "genova"})  # SE16: a sea shared
    offer(table)
    expect(strip(bram).locator(".now-item.act", has_text="Anna biedt je 2 Metaal aan")).to_be_visible()
    bram.page.locator("#now [data-act=decline_sale]").click()
    item = moment(anna, "Bram declined your sale: 2 Metal for 300 ducats.")
    in_view(item)
    headline(tv, "Bram declines Anna’s sale")
    no_rule_in_the_strip(anna, bram)
    top_shot(anna, "se-moment-declined-anna")
    tv.shot("se-moment-declined-tv")


def test_a_withdrawn_sale_reaches_its_buyer(table: dict[str, Any]) -> None:
    anna, bram, tv = table["anna"], table["bram"], table["tv"]
    offer(table)
    expect(strip(bram).locator("[data-act=accept_sale]")).to_be_visible()
    anna.page.locator("#now [data-act=withdraw_sale]").click()
    in_view(moment(bram, "Anna trok de verkoop aan jou in: 2 Metaal voor 300 dukaten."))
    expect(strip(bram).locator("[data-act=accept_sale]")).to_have_count(0)
    headline(tv, "Anna withdraws the sale to Bram")
    top_shot(bram, "se-moment-withdrawn-bram-nl")


def test_an_accepted_sale_and_the_hosts_undo_tell_each_side_what_changed(table: dict[str, Any]) -> None:
    anna, bram, tv = table["anna"], table["bram"], table["tv"]
    offer(table)
    bram.page.locator("#now [data-act=accept_sale]").click()
    in_view(moment(anna, "Bram accepted your sale: 2 Metal for 300 ducats."))
    headline(tv, "Sale: Anna sold 2 Metal to Bram for 300 ducats")
    act(table, "host", {"type": "undo"})
    undone = "The host took back: Sale: Anna sold 2 Metal to Bram for 300 ducats."
    in_view(moment(anna, undone))
    expect(moment(anna, undone)).to_contain_text("For you: Ducats 2000 → 1700, Metal 0 → 2.")
    bram_undone = moment(bram, "De spelleider draaide terug: Verkoop: Anna verkocht 2 Metaal aan Bram")
    in_view(bram_undone)
    expect(bram_undone).to_contain_text("Voor jou: Dukaten 1650 → 1950, Metaal 2 → 0.")
    headline(tv, "The host took back: Sale: Anna sold 2 Metal to Bram")
    top_shot(anna, "se-moment-undone-anna")
    top_shot(bram, "se-moment-undone-bram-nl")
    tv.page.set_viewport_size(SMALL_TV)
    tv.shot("se-moment-undone-tv-1280")
    tv.page.set_viewport_size(TV)


def test_a_sale_that_lapses_and_goods_bought_in_your_port(table: dict[str, Any]) -> None:
    anna, bram, tv = table["anna"], table["bram"], table["tv"]
    # the undo left Anna's sale open: her finishing the phase lets it lapse (SE16, house default)
    anna.page.locator("#finish-phase").click()
    in_view(moment(bram, "De verkoop die Anna je aanbood is vervallen toen Anna de fase beëindigde"))
    in_view(moment(anna, "Your open sale with Bram lapsed as you finished the phase: 2 Metal for 300"))
    headline(tv, "Anna finishes phase 2 · open sales with Anna lapse")
    # SE15 (house rule here): a foreign port's price goes to the power that controls it
    act(table, "bram", {"type": "move_galley", "galley": 1, "port": "venezia"})
    act(table, "bram", {"type": "buy", "port": "venezia", "good": "cloth", "count": 1})
    in_view(moment(anna, "Bram bought 1 Cloth in your port: 200 ducats paid to you."))
    top_shot(anna, "se-moment-paid-anna")


def test_after_the_end_every_device_says_so_and_nothing_is_now(table: dict[str, Any]) -> None:
    anna, bram, tv = table["anna"], table["bram"], table["tv"]
    act(table, "host", {"type": "end_game"})
    in_view(strip(anna).locator("#now-over"))
    expect(strip(anna).locator("#now-over")).to_have_text(
        "The game is over after round 1. Count up the winner on the board.")
    expect(strip(bram).locator("#now-over")).to_contain_text("Het spel is afgelopen na ronde 1.")
    headline(tv, "The game is over after round 1")
    for device in (anna, bram, tv):
        page = device.page
        expect(page.locator(".tag.now, [aria-current=step], .actionbar, #now .now-item.act")).to_have_count(0)
        expect(page.locator("#now-status, #now-turn")).to_have_count(0)
        for text in page.locator("#now, .screen-turn").all_inner_texts():  # the strip, the headline
            assert not TURN.search(text), f"{device.name} tells a turn after the end: {text}"
    top_shot(anna, "se-moment-over-anna")
    top_shot(bram, "se-moment-over-bram-nl")
    tv.shot("se-moment-over-tv")
