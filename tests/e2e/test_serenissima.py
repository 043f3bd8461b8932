"""Serenissima in real Chromium: four phones and the shared screen around the sealed bids (SE5–SE9).

The signature moment: each phone bids in secret; while bids come in, the screen and the other
phones show who has bid but never how much; the last bid reveals every bid at once on the screen.
The table's story: each phone's strip at the top says what needs that player now (bid, wait, pick,
play, a sale offered to them with Accept and Decline right there); the feed on every phone, on the
host panel and, large, on the TV tells each change in one line, and the TV reads the moments aloud.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.fixtures_server import wait_for

from .helpers import (
    INJECTED,
    PHONE,
    SHORT_EVIL,
    Device,
    api,
    in_first_screenful,
    newest,
    no_rule_in_the_strip,
    seated,
    spoken,
    strip,
    strip_actions,
    top_shot,
    undo_on_host,
)
from .layout import shot_of_the_end

pytestmark = pytest.mark.e2e

# Amounts that appear nowhere else on a page (ducats start at 2000), so their absence means something.
BIDS = {"anna": 370, "bram": 250, "cas": 250, "dirk": 0}
PLAYERS = {  # device: (name, power as the lobby shows it in the phone's language)
    "anna": ("Anna", "Venice"), "bram": ("Bram", "Genua"), "cas": (SHORT_EVIL, "Spain"),
    "dirk": ("Dirk", "Turkije"),
}




UNDER_THE_STRIP = """(selector) => {
  const field = document.querySelector(selector).getBoundingClientRect();
  const strip = document.querySelector('#now').getBoundingClientRect();
  return field.top >= strip.bottom && field.bottom <= window.innerHeight;
}"""






def tv_newest(device: Device) -> Locator:
    return device.page.locator(".feed-big .feed-lines li").first










def state_of(table: dict[str, Any]) -> dict[str, Any]:
    return dict(api(table["base"], "GET", f"/api/games/{table['code']}"))


def player_in(state: dict[str, Any], pid: str) -> dict[str, Any]:
    return dict(next(p for p in state["players"] if p["id"] == pid))


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
    table["screen"].page.locator("#screen-start").click()  # once, as at a real table: sound, kept awake
    expect(table["screen"].page.locator("#screen-start")).to_have_count(0)
    anna.page.get_by_role("button", name="Start the game").click()
    for key in PLAYERS:
        table[key].page.wait_for_url(f"**/play/{code}")
        expect(table[key].page.locator("#bid-ducats")).to_be_visible()
    table["tokens"] = {key: table[key].tokens(code) for key in PLAYERS}
    expect(table["screen"].page.locator(".se-tracker li[aria-current=step]")).to_contain_text("1")
    # Every phone's strip: the bid is this player's to make now, in the phone's language.
    bid_now = {"en": "Place your sealed bid for the turn order.",
               "nl": "Doe je geheime bod om de spelvolgorde."}
    for key in PLAYERS:
        device = table[key]
        words = bid_now["nl" if key in ("bram", "dirk") else "en"]
        expect(strip(device).locator("#now-bid.act")).to_contain_text(words)
        expect(device.page.locator("#do-bid")).to_be_visible()
        no_rule_in_the_strip(device)
    expect(table["screen"].page.locator(".feed-big")).to_contain_text("The game begins: round 1")
    # the strip's link brings the bid form in under the strip, without leaving the page
    cas = table["cas"].page
    expect(newest(table["cas"])).to_contain_text("The game begins")  # the story has caught up
    cas.locator("#do-bid").click()
    expect(cas.locator("#bid-h")).to_be_focused()
    assert "#" not in cas.url
    cas.wait_for_function(UNDER_THE_STRIP, arg="#bid-ducats")  # in view, not hidden by the strip
    # SE3: meanwhile the sailors may be split; the strip's link unfolds that card under the strip
    dirk = table["dirk"].page
    dirk.locator("#do-sailors").click()
    expect(dirk.locator("#split-form")).to_have_attribute("open", "")
    dirk.wait_for_function(UNDER_THE_STRIP, arg="#split-form summary")
    top_shot(anna, "se-strip-anna-bid-now")
    top_shot(table["dirk"], "se-strip-dirk-bid-now-nl")


def _bid(device: Device, ducats: int, last: bool = False) -> None:
    device.page.locator("#bid-ducats").fill(str(ducats))
    send = device.page.locator("#bid-send")
    expect(send, f"{device.name}'s bid of {ducats}").to_be_enabled()
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
    # Anna's strip: her bid is in, whom she waits for; the feed tells her own amount, no one else's.
    expect(strip(anna).locator("#now-bid")).to_contain_text("You bid 370 ducats (sealed); waiting for Bram, ")
    expect(strip(anna).locator("#now-bid")).not_to_have_class(re.compile(r"\bact\b"))
    expect(newest(anna)).to_contain_text("Anna bids 370 ducats — sealed")
    expect(newest(bram)).to_have_text("Anna heeft een geheim bod gedaan")
    expect(tv_newest(table["screen"])).to_have_text("Anna has placed a sealed bid")
    expect(strip(bram).locator("#now-bid.act")).to_be_visible()
    no_rule_in_the_strip(anna)
    top_shot(anna, "se-strip-anna-waiting")
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
    for shown in ("370 ducats", "250 ducats", "0 ducats"):
        assert shown in text
    expect(reveal.first).to_contain_text("Anna")  # SE7: the highest bid picks first
    expect(reveal.last).to_contain_text("Dirk")  # SE9: a bid of nothing picks last
    # SE8: Bram and Cas tied at 250 and rolled; the screen shows their dice
    assert screen.locator(".reveal .tie svg.die").count() >= 2
    table["screen"].shot("se-screen-revealed")
    expect(bram.page.locator(".se-bids.revealed")).to_contain_text("370 dukaten")
    # The reveal is told in one line everywhere, and read aloud on the TV with the picking order.
    reveal_en = "All bids revealed, in picking order: Anna 370, "
    tv = table["screen"]
    expect(tv_newest(tv)).to_contain_text(reveal_en)
    # SE8: Bram and Cas tied at 250, and rolled (in seating order)
    expect(tv_newest(tv)).to_contain_text("ducats. Equal bids rolled a die: Bram rolls ")
    expect(tv_newest(tv)).to_contain_text("Anna picks a position first.")
    spoken(tv, "All bids revealed, in picking order: Anna 370")
    expect(newest(bram)).to_contain_text("Alle biedingen open, in volgorde van kiezen: Anna 370, ")
    expect(newest(table["cas"])).to_contain_text(reveal_en)
    expect(newest(table["dirk"])).to_contain_text("Dirk 0 dukaten.")  # the last bid is told by the reveal
    # The strips: Anna picks first, with the free positions right there; the others wait their turn.
    pick = strip(anna).locator("#now-pick.act")
    expect(pick).to_contain_text("You bid the most: pick your position first.")
    expect(pick.locator("button")).to_have_count(4)
    dirk = table["dirk"]
    expect(strip(dirk)).to_contain_text("Anna kiest nu een plaats; jij kiest na Anna, ")
    expect(strip_actions(dirk)).to_have_count(0)
    for key in PLAYERS:
        no_rule_in_the_strip(table[key])
    top_shot(anna, "se-strip-anna-pick")
    top_shot(dirk, "se-strip-dirk-pick-wait-nl")
    tv.shot("se-tv-reveal")
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
    first.locator("#do-pick-2").click()  # Anna takes position II, right in her strip
    expect(screen.locator(".se-bids .picker")).to_contain_text(PLAYERS[by_id[order[1]]][0])
    next_name = PLAYERS[by_id[order[1]]][0]
    expect(strip(table["anna"])).to_contain_text(f"You hold position II; {next_name} picks now.")
    expect(strip(table[by_id[order[1]]]).locator("#now-pick.act")).to_be_visible()
    expect(second.locator("#pick-2")).to_be_disabled()
    expect(second.locator("#pick-2-why")).to_contain_text("Anna")
    # while they pick, the screen's reveal shows the position each has taken
    expect(screen.locator(".reveal li").nth(0)).to_contain_text("Position II")
    picks = list(zip(order[1:], (1, 3, 4), strict=True))
    for place, (pid, number) in enumerate(picks, start=1):
        table[by_id[pid]].page.locator(f"#pick-{number}").click()
        if place < len(picks):
            label = ("I", "II", "III", "IV")[number - 1]
            expect(screen.locator(".reveal li").nth(place)).to_contain_text(f"Position {label}")
    expect(screen.locator(".se-tracker li[aria-current=step]")).to_contain_text("2")
    positions = screen.locator(".se-positions li")  # phase 2: the turn order, field by field
    for pid, number in [(order[0], 2), *picks]:
        expect(positions.nth(number - 1)).to_contain_text(PLAYERS[by_id[pid]][0])
    table["screen"].shot("se-screen-phase2")
    # The turn order is told and read aloud; phase 2 begins with whoever took position I.
    spoken(table["screen"], "Turn order this round: ")
    state = api(table["base"], "GET", f"/api/games/{table['code']}")
    active = by_id[state["active"]]
    first_name = PLAYERS[active][0]
    expect(table["screen"].page.locator(".feed-big .feed-lines li").first).to_contain_text(
        f"Phase 2 begins: {first_name} goes first")
    words = "Jij bent aan de beurt in fase 2" if active in ("bram", "dirk") else "Your turn in phase 2"
    expect(strip(table[active]).locator("#now-turn.act")).to_contain_text(words)
    expect(strip(table["anna"])).to_contain_text(f"Phase 2: {first_name}’s turn — you are next.")
    expect(strip(table["dirk"])).to_contain_text(f"Fase 2: {first_name} is aan de beurt.")
    expect(strip_actions(table["dirk"])).to_have_count(0)  # nothing of Dirk's to do
    for key in PLAYERS:
        no_rule_in_the_strip(table[key])
    top_shot(table[active], "se-strip-first-in-phase2")
    top_shot(table["dirk"], "se-strip-dirk-status-nl")


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
    # Anna (position II) is next: her strip says so, and the feed tells whose turn it is now.
    expect(strip(table["anna"]).locator("#now-turn.act")).to_contain_text("Your turn in phase 2")
    expect(newest(table["anna"])).to_contain_text(f"{PLAYERS[active][0]} finishes phase 2 · Anna’s turn")
    for device in (table[k] for k in PLAYERS):
        assert device.page.locator(INJECTED).count() == 0
    assert table["screen"].page.locator(INJECTED).count() == 0
    table["screen"].shot("se-screen-ledgers")
    screen = table["screen"].page
    screen.locator("#lang").click()
    expect(screen.locator(".se-tracker h2")).to_have_text(re.compile(r"^Ronde 1$"))
    table["screen"].shot("se-screen-nl")


def test_a_sale_arrives_in_the_buyers_first_screenful_and_is_accepted_there(table: dict[str, Any]) -> None:
    state = state_of(table)
    ids = {k: table["tokens"][k]["player"]["id"] for k in PLAYERS}
    assert state["active"] == ids["anna"]  # position II, after the first player finished
    anna, bram, tv = table["anna"], table["bram"], table["screen"]
    token = table["tokens"]["anna"]["player"]["token"]
    actions = f"/api/games/{table['code']}/actions"
    # SE12/SE14: two Metal in Venice; SE17: galley 2 sails to Genoa, where Bram's galleys lie (SE16)
    buy = {"type": "buy", "port": "venezia", "good": "metal", "count": 2}
    api(table["base"], "POST", actions, token, buy)
    api(table["base"], "POST", actions, token, {"type": "move_galley", "galley": 2, "port": "genova"})
    expect(newest(anna)).to_have_text("Anna moves galley 2 into the port of Genoa")
    expect(anna.page.locator("#sale-good")).to_have_value("metal")
    page = anna.page
    page.locator("#sale-to").select_option(ids["bram"])
    page.locator("[data-step='sale.count'][data-d='1']").click()
    page.locator("#sale-price").fill("300")
    page.locator("#sale-send").click()
    wait_for(lambda: any(o["to"] == ids["bram"] for o in state_of(table)["offers"]),
             "Anna's sale to Bram")  # the tap goes over her socket; the API may answer first
    offer = next(o for o in state_of(table)["offers"] if o["to"] == ids["bram"])
    item = bram.page.locator(f"#now-sale-{offer['id']}")
    expect(item).to_contain_text("Anna biedt je 2 Metaal aan voor 300 dukaten.")
    expect(item.get_by_role("button", name="Accepteren")).to_be_enabled()
    expect(item.get_by_role("button", name="Weigeren")).to_be_visible()
    bram.page.evaluate("window.scrollTo(0, 0)")
    in_first_screenful(bram.page, f"#now-sale-{offer['id']}")
    mine = strip(anna).locator(f"#now-mine-{offer['id']}")
    expect(mine).to_contain_text("Your sale to Bram is open: 2 Metal for 300 ducats — Bram decides.")
    expect(mine).to_have_class(re.compile(r"\bwait\b"))
    for key in ("cas", "dirk"):  # a sale between Anna and Bram is nothing for the others to do
        expect(strip_actions(table[key])).to_have_count(0)
    # the TV speaks Dutch since the last test switched it
    expect(tv_newest(tv)).to_have_text("Anna biedt Bram 2 Metaal aan voor 300 dukaten")
    for key in PLAYERS:
        no_rule_in_the_strip(table[key])
    top_shot(bram, "se-strip-bram-sale-nl")
    top_shot(anna, "se-strip-anna-sale-open")
    before = state_of(table)
    item.get_by_role("button", name="Accepteren").click()
    expect(item).to_have_count(0)
    after = state_of(table)
    seller, buyer = player_in(before, ids["anna"]), player_in(before, ids["bram"])
    assert player_in(after, ids["anna"])["ducats"] == seller["ducats"] + 300
    assert player_in(after, ids["bram"])["ducats"] == buyer["ducats"] - 300
    assert player_in(after, ids["bram"])["goods"]["metal"] == 2
    assert player_in(after, ids["anna"])["goods"]["metal"] == 0
    expect(newest(bram)).to_have_text("Verkoop: Anna verkocht 2 Metaal aan Bram voor 300 dukaten")
    expect(newest(anna)).to_have_text("Sale: Anna sold 2 Metal to Bram for 300 ducats")
    expect(tv_newest(tv)).to_have_text("Verkoop: Anna verkocht 2 Metaal aan Bram voor 300 dukaten")
    expect(strip(anna).locator(f"#now-mine-{offer['id']}")).to_have_count(0)
    top_shot(bram, "se-strip-bram-bought-nl")
    tv.shot("se-tv-sale-nl")


def test_the_host_panel_tells_the_table_and_its_undo_is_told_everywhere(
        table: dict[str, Any], browser: Browser) -> None:
    host = Device(browser, table["base"], "host", "en-GB")
    try:
        host.remember(table["code"], table["tokens"]["anna"])  # Anna made the game: she hosts it
        page = host.goto(f"/host/{table['code']}")
        lines = page.locator(".feed-lines li")
        expect(lines.first).to_have_text("Sale: Anna sold 2 Metal to Bram for 300 ducats")
        expect(lines).to_have_count(6)
        undo_on_host(page)
        undone = "The host took back: Sale: Anna sold 2 Metal to Bram for 300 ducats"
        expect(lines.first).to_have_text(undone)
        expect(newest(table["anna"])).to_have_text(undone)
        expect(newest(table["bram"])).to_have_text(
            "De spelleider draaide terug: Verkoop: Anna verkocht 2 Metaal aan Bram voor 300 dukaten")
        expect(table["bram"].page.locator(".feed-lines li.undone")).to_have_count(1)
        spoken(table["screen"], "De spelleider draaide terug: Verkoop: Anna verkocht")
        bram_id = table["tokens"]["bram"]["player"]["id"]
        assert player_in(state_of(table), bram_id)["goods"].get("metal", 0) == 0
        top_shot(host, "se-host-feed")
        assert host.dialogs == [] and host.errors == [], (host.dialogs, host.errors)
    finally:
        host.context.close()


def test_a_decline_tapped_offline_waits_in_the_strip_and_goes_once_back_online(table: dict[str, Any]) -> None:
    bram = table["bram"]
    page = bram.page
    offer = state_of(table)["offers"][0]  # the undo opened Anna's sale to Bram again
    decline = page.locator(f"#do-decline-{offer['id']}")
    expect(decline).to_be_enabled()
    version = state_of(table)["version"]
    bram.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    decline.click()
    waiting = page.locator(".now-item.wait", has_text="wacht op het netwerk")
    expect(waiting).to_contain_text("Weigeren: Anna verkoopt 2 Metaal aan Bram voor 300 dukaten")
    expect(decline).to_have_attribute("aria-busy", "true")  # no second tap to make
    assert state_of(table)["version"] == version
    top_shot(bram, "se-strip-bram-tap-waiting-nl")
    bram.context.set_offline(False)
    expect(page.locator(".now-item", has_text="is alsnog doorgegaan")).to_be_visible()
    expect(waiting).to_have_count(0)
    after = state_of(table)
    assert after["offers"] == [] and after["version"] == version + 1  # declined, once
    expect(newest(table["anna"])).to_have_text("Bram declines Anna’s sale")
    page.locator(".now-item", has_text="is alsnog doorgegaan").get_by_role("button").click()
    expect(page.locator(".now-item", has_text="is alsnog doorgegaan")).to_have_count(0)


def test_no_page_is_wider_than_a_phone_in_either_language(table: dict[str, Any], browser: Browser) -> None:
    code = table["code"]
    for lang, locale in (("en", "en-GB"), ("nl", "nl-NL")):
        device = Device(browser, table["base"], f"narrow-{lang}", locale)
        try:
            device.remember(code, table["tokens"]["anna"])
            for path, drawn in ((f"/play/{code}", "#now"), (f"/host/{code}", ".feed-lines li"),
                                (f"/screen/{code}", ".feed-big .feed-lines li"), (f"/join/{code}", "main *")):
                page = device.goto(path)
                expect(page.locator(drawn).first).to_be_visible()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"], f"{path} in {lang} is {width} px wide"
            device.goto(f"/screen/{code}")
            expect(device.page.locator(".feed-big .feed-lines li").first).to_be_visible()
            device.shot(f"se-screen-on-a-phone-{lang}")
            assert device.dialogs == [] and device.errors == [], (device.dialogs, device.errors)
        finally:
            device.context.close()


def test_a_house_phase_is_finished_right_in_the_strip(table: dict[str, Any]) -> None:
    state = state_of(table)
    keys = {table["tokens"][k]["player"]["id"]: k for k in PLAYERS}
    actions = f"/api/games/{table['code']}/actions"
    while state["round_phase"]["number"] == 2:  # the others finish phase 2 (SE4)
        api(table["base"], "POST", actions, table["tokens"][keys[state["active"]]]["player"]["token"],
            {"type": "finish_phase"})
        state = state_of(table)
    first = keys[state["active"]]
    device = table[first]
    dutch = first in ("bram", "dirk")
    item = strip(device).locator("#now-turn.act")
    expect(item).to_contain_text("Jij bent aan de beurt in fase 3" if dutch else "Your turn in phase 3")
    expect(tv_newest(table["screen"])).to_contain_text(f"Fase 3 begint: {PLAYERS[first][0]} is als eerste")
    top_shot(device, "se-strip-first-in-phase3")
    item.locator("#do-finish").click()
    expect(item).to_have_count(0)
    after = state_of(table)
    assert after["active"] != state["active"] and after["round_phase"]["number"] == 3
    expect(strip(device)).to_contain_text("fase 3 beëindigd" if dutch else "You finished phase 3")


def test_the_end_of_the_game_is_told_on_every_phone_and_aloud(table: dict[str, Any]) -> None:
    host_token = table["tokens"]["anna"]["host"]
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", host_token, {"type": "end_game"})
    expect(strip(table["anna"]).locator("#now-over")).to_have_text("The game is over after round 1. "
                                                                    "Count up the winner on the board.")
    expect(strip(table["bram"]).locator("#now-over")).to_contain_text("Het spel is afgelopen na ronde 1.")
    for key in PLAYERS:
        expect(strip_actions(table[key])).to_have_count(0)
        no_rule_in_the_strip(table[key])
    spoken(table["screen"], "Het spel is afgelopen na ronde 1")
    expect(newest(table["cas"])).to_have_text(
        "The game is over after round 1 — count up the winner on the board")
    top_shot(table["cas"], "se-strip-cas-over")
    table["screen"].shot("se-tv-over-nl")
