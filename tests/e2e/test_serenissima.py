"""Serenissima in real Chromium: four phones and the shared screen around the sealed bids (SE5–SE9).

The signature moment: each phone bids in secret; while bids come in, the screen and the other
phones show who has bid but never how much; the last bid reveals every bid at once on the screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from .helpers import INJECTED, SHORT_EVIL, Device, api, seated
from .layout import shot_of_the_end

pytestmark = pytest.mark.e2e

# Amounts that appear nowhere else on a page (ducats start at 2000), so their absence means something.
BIDS = {"anna": 370, "bram": 250, "cas": 250, "dirk": 0}
PLAYERS = {  # device: (name, power as the lobby shows it in the phone's language)
    "anna": ("Anna", "Venice"), "bram": ("Bram", "Genua"), "cas": (SHORT_EVIL, "Spain"),
    "dirk": ("Dirk", "Turkije"),
}


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    phones = {"anna": "en-GB", "bram": "nl-NL", "cas": "en-US", "dirk": "nl-BE"}
    yield from seated(browser, base_url, phones, screen="en-GB")


def test_create_serenissima_with_its_options_and_fill_the_lobby(table: dict[str, Any]) -> None:
    anna: Device = table["anna"]
    page = anna.goto("/")
    page.get_by_label("Serenissima").check()
    price = page.get_by_label("Price of a good in a foreign port, ducats (SE15)")
    expect(price).to_have_value("200")
    price.fill("250")
    anna.shot("se-home-en")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/join/[A-Z0-9]{6}$"))
    code = table["code"] = page.url.rsplit("/", 1)[-1]
    ruleset = api(table["base"], "GET", f"/api/games/{code}/ruleset")
    assert ruleset["house_rules"]["foreign_price"] == 250  # the setting reached the server
    expect(page.locator(".game-name")).to_have_text("Serenissima")
    expect(page.locator("label.character")).to_have_count(4)  # the four sea powers
    for key in ("anna", "bram", "cas", "dirk"):
        device: Device = table[key]
        name, power = PLAYERS[key]
        p = device.page if key == "anna" else device.goto(f"/join/{code}")
        p.locator("#player-name").fill(name)
        p.locator("label.character", has_text=power).click()
        p.locator("#join-form button[type=submit]").click()
        expect(p.locator(".players li")).to_have_count(list(PLAYERS).index(key) + 1)
    table["bram"].shot("se-lobby-nl")
    table["screen"].goto(f"/screen/{code}")
    anna.page.get_by_role("button", name="Start the game").click()
    for key in PLAYERS:
        table[key].page.wait_for_url(f"**/play/{code}")
        expect(table[key].page.locator("#bid-ducats")).to_be_visible()
    table["tokens"] = {key: table[key].tokens(code) for key in PLAYERS}
    expect(table["screen"].page.locator(".se-tracker li[aria-current=step]")).to_contain_text("1")


def _bid(device: Device, ducats: int, last: bool = False) -> None:
    device.page.locator("#bid-ducats").fill(str(ducats))
    send = device.page.locator("#bid-send")
    expect(send).to_be_enabled()
    send.click()
    if not last:  # the last bid reveals them all, and the form gives way to the reveal
        expect(device.page.locator("#own-bid")).to_contain_text(str(ducats))


def test_sealed_bids_show_who_has_bid_but_never_how_much(table: dict[str, Any]) -> None:
    screen = table["screen"].page
    anna, bram = table["anna"], table["bram"]
    # SE5: a bid over one's own ducats is refused on the phone before it is sent
    anna.page.locator("#bid-ducats").fill("2500")
    expect(anna.page.locator("#bid-send")).to_be_disabled()
    expect(anna.page.locator("#bid-send-why")).to_contain_text("SE5")
    _bid(anna, BIDS["anna"])
    anna.shot("se-phone-anna-bid")
    expect(screen.locator(".bid-status li.in")).to_have_count(1)
    expect(screen.locator(".se-bids")).to_contain_text("Waiting for: Bram")
    expect(bram.page.locator(".bid-status li.in")).to_contain_text("Anna")
    _bid(bram, BIDS["bram"])
    _bid(table["cas"], BIDS["cas"])
    expect(screen.locator(".bid-status li.in")).to_have_count(3)
    expect(screen.locator(".se-bids")).to_contain_text("Waiting for: Dirk")
    expect(table["dirk"].page.locator(".se-bids")).to_contain_text("Wachten op: Dirk")
    table["screen"].shot("se-screen-bids-coming-in")
    table["dirk"].shot("se-phone-dirk-waiting-nl")
    # Nobody but the bidder sees an amount: not the screen, not the other phones (nor their DOM).
    for key, device in table.items():
        if not isinstance(device, Device):
            continue
        body = device.page.locator("main").inner_html()
        for bidder, amount in BIDS.items():
            if amount and amount != BIDS.get(key):  # Bram and Cas bid the same on purpose
                assert str(amount) not in body, f"{key} sees {bidder}'s bid"
    public = api(table["base"], "GET", f"/api/games/{table['code']}")
    assert all(p["bid"] is None for p in public["players"])
    _bid(table["dirk"], BIDS["dirk"], last=True)  # the last bid: every bid on the table at once (SE6)
    reveal = screen.locator(".se-bids.revealed .reveal li")
    expect(reveal).to_have_count(4)
    text = screen.locator(".se-bids.revealed").inner_text()
    for amount in ("370 ducats", "250 ducats", "0 ducats"):
        assert amount in text
    expect(reveal.first).to_contain_text("Anna")  # SE7: the highest bid picks first
    expect(reveal.last).to_contain_text("Dirk")  # SE9: a bid of nothing picks last
    # SE8: Bram and Cas tied at 250 and rolled; the screen shows their dice
    assert screen.locator(".reveal .tie svg.die").count() >= 2
    table["screen"].shot("se-screen-revealed")
    expect(bram.page.locator(".se-bids.revealed")).to_contain_text("370 dukaten")
    ledger = api(table["base"], "GET", f"/api/games/{table['code']}")["players"]
    assert [p["ducats"] for p in ledger] == [2000 - b for b in BIDS.values()]  # SE10


def test_positions_are_picked_in_bid_order(table: dict[str, Any]) -> None:
    screen = table["screen"].page
    state = api(table["base"], "GET", f"/api/games/{table['code']}")
    order = state["bidding"]["pick_order"]
    by_id = {table["tokens"][k]["player"]["id"]: k for k in PLAYERS}
    first = table[by_id[order[0]]].page
    second = table[by_id[order[1]]].page
    expect(second.locator("#pick-1")).to_be_disabled()
    expect(second.locator("#pick-1-why")).to_contain_text("SE7")
    table[by_id[order[0]]].shot("se-phone-pick")
    first.locator("#pick-2").click()  # Anna takes position II
    expect(screen.locator(".se-bids .picker")).to_contain_text(PLAYERS[by_id[order[1]]][0])
    expect(second.locator("#pick-2")).to_be_disabled()
    expect(second.locator("#pick-2-why")).to_contain_text("Anna")
    positions = screen.locator(".se-positions li")
    expect(positions.nth(1)).to_contain_text("Anna")
    for pid, number in zip(order[1:], (1, 3, 4), strict=True):
        table[by_id[pid]].page.locator(f"#pick-{number}").click()
        expect(positions.nth(number - 1)).to_contain_text(PLAYERS[by_id[pid]][0])
    expect(screen.locator(".se-tracker li[aria-current=step]")).to_contain_text("2")
    table["screen"].shot("se-screen-phase2")


def test_phase_two_buy_goods_and_finish(table: dict[str, Any]) -> None:
    state = api(table["base"], "GET", f"/api/games/{table['code']}")
    by_id = {table["tokens"][k]["player"]["id"]: k for k in PLAYERS}
    active = by_id[state["active"]]
    device: Device = table[active]
    page = device.page
    before = next(p for p in state["players"] if p["id"] == state["active"])["ducats"]
    page.locator("#buy-send").click()  # SE12/SE14: a galley lies in the own capital, 100 each
    expect(page.locator(f"#ducats-{state['active']}")).to_have_text(str(before - 100))
    expect(page.locator(".se-goods")).to_be_visible()
    device.shot(f"se-phone-{active}-bought")
    device.shot(f"se-phone-{active}-full", full_page=True)
    shot_of_the_end(device, f"se-phone-{active}-end")
    others = [k for k in PLAYERS if k != active]
    expect(table[others[0]].page.locator("#finish-phase-why")).to_contain_text("SE11")
    page.locator("#finish-phase").click()
    expect(table["screen"].page.locator(".se-positions li.active")).not_to_contain_text(
        PLAYERS[active][0])
    for device in (table[k] for k in PLAYERS):
        assert device.page.locator(INJECTED).count() == 0
    assert table["screen"].page.locator(INJECTED).count() == 0
    table["screen"].shot("se-screen-ledgers")
    screen = table["screen"].page
    screen.locator("#lang").click()
    expect(screen.locator(".se-tracker h2")).to_have_text(re.compile(r"^Ronde 1$"))
    table["screen"].shot("se-screen-nl")
