"""Voyagers' Venture in real Chromium: the host, three phones and the shared screen (in Dutch).

The signature moment, the sponsor division (VV3–VV10): the host puts this year's cards on display,
the active player names the cards they want, one player agrees, the next disagrees and cuts the bid
(checked on the phone with the VV rule), then the others agree to the cut bid and it is received.

The table's story: each phone's strip at the top says what needs that player now (agree or disagree
right there, in the first screenful), the feed on every phone and, large, on the TV tells each change
in one line from the events that device was sent (another player's discards stay face-down), and the
TV reads the moments aloud: who took which cards, the end of a division and of a year, the ranking.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.fixtures_server import wait_for

from .helpers import (
    PHONE,
    SHORT_EVIL,
    TV,
    Device,
    api,
    in_first_screenful,
    newest,
    no_rule_in_the_strip,
    nothing_to_do,
    seated,
    settled,
    spoken,
    strip,
    top_shot,
    undo_on_host,
)

pytestmark = pytest.mark.e2e

CARDS = [("Caravel", "common"), ("Galleon", "fleet"), ("Duke of Seville", "common"), (SHORT_EVIL, "common"),
         ("Spice route", "fleet")]
PLAYERS = {"anna": ("Anna", "Red"), "bram": ("Bram", "Blauw"), "cas": ("Cas", "Green")}
















def the_feed_fits_the_tv(tv: Device) -> None:
    """The TV's story shows its newest lines (up to nine), as many as fit: a TV has no scrollbar."""
    lines = tv.page.locator(".feed-big .feed-lines li")
    expect(lines.first).to_be_visible()
    settled(tv.page)
    assert 4 <= lines.count() <= 9, lines.count()
    box = tv.page.locator(".feed-big").bounding_box()
    assert box is not None and box["y"] + box["height"] <= TV["height"], box


def state_of(table: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    """The game as the public sees it, or as player `key` does (their own hand in it)."""
    token = table[key].tokens(table["code"])["player"]["token"] if key else None
    return dict(api(table["base"], "GET", f"/api/games/{table['code']}", token))


def act(table: dict[str, Any], key: str, action: dict[str, Any]) -> None:
    tokens = table["host"].tokens(table["code"])
    token = tokens["host"] if key == "host" else table[key].tokens(table["code"])["player"]["token"]
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", token, action)


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    phones = {"host": "en-GB", "anna": "en-GB", "bram": "nl-NL", "cas": "en-US"}
    yield from seated(browser, base_url, phones, screen="nl-NL", no_markup=True)


def test_create_voyagers_and_start_with_three_colours(table: dict[str, Any]) -> None:
    host: Device = table["host"]
    page = host.goto("/")
    page.get_by_label("Voyagers’ Venture").check()
    expect(page.get_by_label("Gold doubloons at the start (VV20)")).to_have_value("2")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/join/[A-Z0-9]{6}$"))
    code = table["code"] = page.url.rsplit("/", 1)[-1]
    expect(page.locator(".game-name")).to_have_text("Voyagers’ Venture")
    for key, (name, colour) in PLAYERS.items():
        p = table[key].goto(f"/join/{code}")
        expect(p.locator("label.character")).to_have_count(5)  # the five colours
        p.locator("#player-name").fill(name)
        p.locator("label.character", has_text=colour).click()
        p.locator("#join-form button[type=submit]").click()
        expect(p.locator(".players li")).to_have_count(list(PLAYERS).index(key) + 1)
    table["screen"].goto(f"/screen/{code}")
    table["screen"].page.locator("#screen-start").click()  # the TV's first tap: sound and awake
    expect(table["screen"].page.locator("#screen-start")).to_have_count(0)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"**/host/{code}")
    for key in PLAYERS:
        table[key].page.wait_for_url(f"**/play/{code}")
    expect(table["screen"].page.locator(".vv-stage")).to_contain_text("De spelleider legt")
    table["ids"] = {key: table[key].tokens(code)["player"]["id"] for key in PLAYERS}
    # nobody has anything to do until the host has put the cards on display
    anna, bram, cas = (table[k] for k in PLAYERS)
    expect(strip(anna)).to_contain_text("The host lays out this year’s cards.")
    expect(strip(anna)).to_contain_text("1486 · round 1/6")
    expect(strip(bram)).to_contain_text("De spelleider legt de kaarten van dit jaar open.")
    nothing_to_do(anna, bram, cas)
    no_rule_in_the_strip(anna, bram, cas)
    expect(strip(table["host"]).locator("#now-host-display")).to_contain_text("Enter this year’s cards")
    expect(newest(anna)).to_have_text("The game begins: year 1486, Anna bids first")
    expect(newest(table["screen"])).to_have_text("Het spel begint: jaar 1486, Anna biedt als eerste")


def test_host_puts_the_cards_on_display(table: dict[str, Any]) -> None:
    host = table["host"].page
    for i, (name, kind) in enumerate(CARDS):
        if i:
            host.get_by_role("button", name="Add a card").click()
        host.locator(f"#card-name-{i}").fill(name)
        host.locator(f"#card-kind-{i}").select_option(kind)
    table["host"].shot("vv-host-display-entry")
    host.locator("#display-send").click()
    screen = table["screen"].page
    expect(screen.locator(".vv-display .vv-card")).to_have_count(len(CARDS))
    expect(screen.locator(".vv-display")).to_contain_text("Vlootstapel")
    expect(screen.locator(".vv-stage")).to_contain_text("Anna noemt")
    anna, bram, cas = (table[k] for k in PLAYERS)
    names = f"Caravel, Galleon, Duke of Seville, {SHORT_EVIL} and Spice route"
    expect(newest(anna)).to_have_text(f"On display (5): {names}")
    expect(newest(table["screen"])).to_have_text(f"Uitgestald (5): {names.replace(' and ', ' en ')}")
    # VV3: Anna names a bid; the others only see that she does
    expect(anna.page.locator("#now-name")).to_contain_text("Your turn to bid: tick the cards you want")
    expect(anna.page.locator("#now-name.act #do-name")).to_have_text("Choose cards")
    expect(strip(bram)).to_contain_text("Anna noemt een bod.")
    expect(strip(cas)).to_contain_text("Anna names a bid.")
    nothing_to_do(bram, cas)
    no_rule_in_the_strip(anna, bram, cas)
    top_shot(anna, "vv-phone-anna-strip-name")
    anna.page.locator("#do-name").click()  # the strip's link leads to the card where it is done
    expect(anna.page.locator("#vv-name-h")).to_be_focused()
    expect(anna.page.locator("#vv-name-h")).to_be_in_viewport()


def _card(state: dict[str, Any], name: str) -> str:
    card_id: str = next(c["id"] for c in state["display"] if c["name"] == name)
    return card_id


def test_a_sponsor_division_round_agree_disagree_cut(table: dict[str, Any]) -> None:
    base, code = table["base"], table["code"]
    anna, bram, cas = (table[k].page for k in PLAYERS)
    screen = table["screen"].page
    state = api(base, "GET", f"/api/games/{code}")
    wanted = ["Caravel", "Galleon", "Duke of Seville"]
    # VV3: Anna, first in turn order, names the cards she wants
    expect(bram.locator("#name-send")).to_have_count(0)
    expect(anna.locator("#name-send")).to_be_disabled()
    expect(anna.locator("#name-send-why")).to_contain_text("VV3")
    for name in wanted:
        anna.locator(f"#name-{_card(state, name)}").check()
    table["anna"].shot("vv-phone-anna-naming")
    anna.locator("#name-send").click()
    expect(screen.locator(".vv-bid")).to_contain_text("Anna wil:")
    expect(screen.locator(".vv-bid .vv-card")).to_have_count(3)
    expect(screen.locator(".vv-next")).to_contain_text("Bram")
    expect(anna.locator("#do-agree")).to_have_count(0)
    # VV4: clockwise, Bram is asked — in his strip, in his first screenful, both answers right there
    devices = {k: table[k] for k in PLAYERS}
    asked = bram.locator("#now-vote")
    expect(asked).to_have_text(re.compile(
        "Anna biedt op Caravel, Galleon en Duke of Seville: ga je akkoord?"))
    expect(asked.locator("#do-agree")).to_have_text("Akkoord")
    expect(asked.locator("#do-disagree")).to_have_text("Niet akkoord en verkleinen")
    in_first_screenful(bram, "#now-vote")
    expect(anna.locator("#now-my-bid")).to_have_text(
        "Your bid: Caravel, Galleon and Duke of Seville — Bram decides now.")
    expect(anna.locator("#now-my-bid")).to_have_class(re.compile(r"\bwait\b"))
    expect(strip(devices["cas"])).to_contain_text("Bram is asked about Anna’s bid; you will be asked too.")
    nothing_to_do(devices["anna"], devices["cas"])
    no_rule_in_the_strip(*devices.values())
    expect(newest(devices["cas"])).to_have_text("Anna bids for Caravel, Galleon and Duke of Seville")
    top_shot(devices["bram"], "vv-phone-bram-asked-nl")
    top_shot(devices["anna"], "vv-phone-anna-waits")
    asked.locator("#do-agree").click()
    expect(screen.locator(".vv-agreed")).to_contain_text("Bram")
    expect(screen.locator(".vv-next")).to_contain_text("Cas")
    assert state_of(table)["bid"]["voters"] == [table["ids"]["cas"]]  # the tap in the strip applied
    expect(asked).to_have_count(0)
    expect(newest(devices["anna"])).to_have_text("Bram agrees to Anna’s bid")
    expect(newest(table["screen"])).to_have_text("Bram gaat akkoord met het bod van Anna")
    table["screen"].shot("vv-screen-bram-agreed")
    # VV6: Cas disagrees (in his strip) and must cut; each way is checked on the phone before it is sent
    in_first_screenful(cas, "#now-vote")
    cas.locator("#now-vote #do-disagree").click()
    expect(screen.locator(".vv-next")).to_contain_text("Cas")
    # the tap goes over Cas's socket: wait for the server to have it (the screen said Cas before it)
    cas_id = table["ids"]["cas"]
    wait_for(lambda: (state_of(table)["bid"] or {}).get("cutter") == cas_id, "Cas's disagreement")
    expect(cas.locator("#now-cut")).to_contain_text("You disagreed: now make Anna’s bid smaller.")
    expect(anna.locator("#now-my-bid")).to_have_text("Cas disagreed with your bid and is cutting it.")
    expect(strip(devices["bram"])).to_contain_text(
        "Cas is niet akkoord met het bod van Anna en verkleint het.")
    nothing_to_do(devices["anna"], devices["bram"])
    top_shot(devices["cas"], "vv-phone-cas-strip-cut")
    cas.locator("#do-cut").click()
    expect(cas.locator("#vv-cut-h")).to_be_focused()
    expect(cas.locator("#vv-cut-h")).to_be_in_viewport()
    cas.locator("#cut-swap").check()
    cas.locator(f"#cutrm-{_card(state, 'Galleon')}").check()
    expect(cas.locator("#cut-send")).to_be_disabled()
    expect(cas.locator("#cut-send-why")).to_contain_text("VV9")  # a swap removes 2 or more
    cas.locator("#cut-doubloon").check()
    cas.locator("#cut-card").select_option(_card(state, "Spice route"))
    expect(cas.locator("#cut-send")).to_be_enabled()
    cas.locator("#cut-remove").check()
    expect(cas.locator("#cut-send-why")).to_contain_text("VV8")  # remove at least 1
    cas.locator(f"#cutrm-{_card(state, 'Galleon')}").check()
    expect(cas.locator(".vv-cut")).to_contain_text("The bid becomes: Caravel, Duke of Seville")
    table["cas"].shot("vv-phone-cas-cut")
    cas.locator("#cut-send").click()
    # VV10: agreeing goes on clockwise from Cas: Anna, then Bram
    expect(screen.locator(".vv-bid")).to_contain_text("Cas wil:")
    expect(screen.locator(".vv-bid .vv-card")).to_have_count(2)
    expect(screen.locator(".vv-next")).to_contain_text("Anna")
    expect(newest(table["screen"])).to_have_text(
        "Cas haalt Galleon uit het bod: nu Caravel en Duke of Seville")
    table["screen"].shot("vv-screen-after-cut")
    expect(anna.locator("#now-vote")).to_have_text(
        re.compile("Cas bids for Caravel and Duke of Seville: do you agree?"))
    anna.locator("#now-vote #do-agree").click()
    expect(screen.locator(".vv-agreed")).to_contain_text("Anna")
    bram.locator("#now-vote #do-agree").click()
    # VV5: everyone agreed, Cas takes the cards into a hand that only Cas sees
    expect(cas.locator(".vv-hand .vv-card")).to_have_count(2)
    expect(cas.locator(".vv-hand")).to_contain_text("Duke of Seville")
    expect(anna.locator(".vv-hand")).not_to_contain_text("Duke of Seville")
    cas_line = screen.locator(".vv-players li", has_text="Cas")
    expect(cas_line).to_contain_text("ontvangen")
    expect(cas_line).to_contain_text("2 kaarten")
    expect(screen.locator(".vv-display .vv-card")).to_have_count(3)
    expect(screen.locator(".vv-stage")).to_contain_text("Anna noemt")  # VV11: Anna is next to name
    # who took which cards: told on every phone and on the TV, and read aloud there
    expect(newest(devices["anna"])).to_have_text(
        "Bram agrees to Cas’s bid — Cas takes Caravel and Duke of Seville")
    expect(newest(table["screen"])).to_have_text(
        "Bram gaat akkoord met het bod van Cas — Cas krijgt Caravel en Duke of Seville")
    spoken(table["screen"], "Cas krijgt Caravel en Duke of Seville")
    expect(strip(devices["cas"])).to_contain_text("Anna names a bid; you have your cards for this year.")
    nothing_to_do(devices["cas"])
    table["cas"].shot("vv-phone-cas-hand")
    table["screen"].shot("vv-screen-received")
    public = api(base, "GET", f"/api/games/{code}")
    assert all(p["hand"] is None for p in public["players"])  # hands are private (the public view)
    table["host"].shot("vv-host-panel", full_page=True)


def test_the_division_ends_and_the_tv_reads_who_got_which_cards(table: dict[str, Any]) -> None:
    anna, bram, cas, tv = (table[k] for k in (*PLAYERS, "screen"))
    state = state_of(table)
    # VV3: Anna names again (Cas has received); Bram, the only one left to ask, agrees in his strip
    anna.page.locator(f"#name-{_card(state, 'Galleon')}").check()
    anna.page.locator("#name-send").click()
    expect(bram.page.locator("#now-vote")).to_contain_text("Anna biedt op Galleon: ga je akkoord?")
    # a tap without the Wi-Fi waits in the strip, named, and goes once the network is back
    before = state_of(table)["version"]
    bram.context.set_offline(True)
    expect(bram.page.locator("#offline")).to_be_visible()
    bram.page.locator("#now-vote #do-agree").click()
    waiting = bram.page.locator(".now-item.wait", has_text="„Akkoord (bod van Anna)” wacht op het netwerk")
    expect(waiting).to_be_visible()
    expect(bram.page.locator("#do-agree")).to_have_attribute("aria-busy", "true")
    expect(bram.page.locator("#do-disagree")).to_be_disabled()  # one answer waits: the other with it
    top_shot(bram, "vv-phone-bram-tap-waiting-nl")
    assert state_of(table)["version"] == before
    bram.context.set_offline(False)
    wait_for(lambda: state_of(table)["version"] == before + 1, "Bram's waiting tap")
    went = bram.page.locator(".now-item", has_text="is alsnog doorgegaan")
    expect(went).to_be_visible()
    went.locator("button").click()  # the note is dismissed with OK
    expect(went).to_have_count(0)
    assert state_of(table)["version"] == before + 1  # applied once
    # VV11: Bram is the last: what he names is his
    expect(bram.page.locator("#now-name")).to_have_text(
        re.compile("Het laatste bod van het jaar: de kaarten die je noemt zijn van jou."))
    top_shot(bram, "vv-phone-bram-last-bid-nl")
    bram.page.locator(f"#name-{_card(state, 'Spice route')}").check()
    bram.page.locator("#name-send").click()
    division = ("The division of 1486 is over: Cas got Caravel and Duke of Seville; Anna got Galleon; "
                "Bram got Spice route")
    for device in (anna, cas):
        expect(newest(device)).to_contain_text(division)
        expect(newest(device)).to_contain_text("Year 1486 is over; the host sets the turn order for 1487")
    verdeling = ("De verdeling van 1486 is klaar: Cas kreeg Caravel en Duke of Seville; Anna kreeg Galleon; "
                 "Bram kreeg Spice route")
    expect(newest(tv)).to_contain_text(verdeling)
    the_feed_fits_the_tv(tv)
    spoken(tv, verdeling)
    spoken(tv, "Jaar 1486 is voorbij")
    # VV13: nothing for the players to do while the host sets next year's order
    expect(strip(anna)).to_contain_text("The host sets the turn order for 1487.")
    expect(strip(bram)).to_contain_text("De spelleider zet de volgorde voor 1487.")
    nothing_to_do(anna, bram, cas)
    no_rule_in_the_strip(anna, bram, cas)
    expect(table["host"].page.locator("#now-host-order")).to_contain_text("Set the turn order for 1487")
    top_shot(cas, "vv-phone-cas-division-over")
    tv.shot("vv-tv-division-over")


def test_a_hand_over_the_limit_is_discarded_face_down(table: dict[str, Any]) -> None:
    anna, bram, cas, tv, host = (table[k] for k in (*PLAYERS, "screen", "host"))
    host.page.locator("#do-order").click()
    expect(host.page.locator("#vv-order-h")).to_be_in_viewport()
    host.page.locator("#order-send").click()
    expect(newest(anna)).to_have_text("Turn order: Anna → Bram → Cas — Year 1487 begins (round 2 of 6)")
    fleet = [{"id": f"f{i}", "kind": "fleet", "name": f"Fluyt {i}"} for i in range(1, 9)]
    act(table, "host", {"type": "display", "cards": fleet})
    # Anna bids for all nine on display (the SHORT_EVIL card stayed from 1486): ten in her hand then
    state = state_of(table)
    act(table, "anna", {"type": "name_bid", "cards": [c["id"] for c in state["display"]]})
    act(table, "bram", {"type": "agree"})
    act(table, "cas", {"type": "agree"})
    # VV3: nothing is left on display, so Bram's bid is empty: one tap in the strip settles it
    empty = bram.page.locator("#now-name")
    expect(empty).to_contain_text("Er ligt niets meer uitgestald: je bod is dit jaar leeg.")
    empty.locator("#do-name-empty").click()
    expect(newest(anna)).to_have_text("Bram takes nothing this year")  # an empty bid is taken at once
    cas.page.locator("#now-name #do-name-empty").click()
    # VV12: Anna holds ten: she discards two face-down; the others wait
    discard = anna.page.locator("#now-discard")
    expect(discard).to_contain_text("You hold 10 cards: discard 2 face-down, down to 8.")
    expect(newest(anna)).to_contain_text("Anna must discard down to 8")
    expect(strip(bram)).to_contain_text("Wachten op Anna: afleggen tot 8 kaarten.")
    expect(strip(cas)).to_contain_text("Waiting for Anna to discard down to 8.")
    nothing_to_do(bram, cas)
    no_rule_in_the_strip(anna, bram, cas)
    top_shot(anna, "vv-phone-anna-strip-discard")
    discard.locator("#do-discard").click()
    expect(anna.page.locator("#vv-hand-h")).to_be_in_viewport()
    for card in ("f7", "f8"):
        anna.page.locator(f"#hand-{card}").check()
    anna.page.locator("#discard-send").click()
    expect(newest(anna)).to_contain_text("Anna discards Fluyt 7 and Fluyt 8 face-down (only you see which)")
    told = {"cas": "Anna discards 2 cards face-down", "bram": "Anna legt 2 kaarten gedekt af",
            "screen": "Anna legt 2 kaarten gedekt af"}
    for device, line in ((cas, told["cas"]), (bram, told["bram"]), (tv, told["screen"])):
        expect(newest(device)).to_contain_text(line)
        assert "Fluyt" not in newest(device).inner_text()  # which cards stays Anna's secret
    expect(newest(tv)).to_contain_text("Jaar 1487 is voorbij")
    held = next(p for p in state_of(table, "anna")["players"] if p["id"] == table["ids"]["anna"])["hand"]
    assert len(held) == 8 and not {"f7", "f8"} & {c["id"] for c in held}
    top_shot(bram, "vv-phone-bram-discard-told-nl")
    tv.shot("vv-tv-discarded")


def test_the_hosts_gold_count_and_undo_are_told_and_read_aloud(table: dict[str, Any]) -> None:
    host, tv = table["host"], table["screen"]
    cas = table["ids"]["cas"]
    host.page.locator(f"#gold-{cas}").fill("5")
    host.page.locator(f"[data-set-gold='{cas}']").click()
    expect(newest(table["anna"])).to_have_text("The host sets Cas’s gold to 5")
    undo_on_host(host.page)
    expect(newest(table["anna"])).to_have_text("The host took back: The host sets Cas’s gold to 5")
    undone = table["anna"].page.locator(".feed-lines li.undone")
    expect(undone).to_contain_text("The host sets Cas’s gold to 5")
    expect(newest(host)).to_have_text("The host took back: The host sets Cas’s gold to 5")
    spoken(tv, "De spelleider draaide terug: De spelleider zet het goud van Cas op 5")
    assert next(p for p in state_of(table)["players"] if p["id"] == cas)["gold"] == 2  # as it was
    top_shot(host, "vv-host-strip-and-feed")


def _play_out_the_years(table: dict[str, Any]) -> None:
    """Through the API: every division ends with all agreeing, until the last purchases (VV1–VV14)."""
    base, code = table["base"], table["code"]
    host_token = table["host"].tokens(code)["host"]
    tokens = {table["ids"][k]: table[k].tokens(code)["player"]["token"] for k in PLAYERS}
    path = f"/api/games/{code}/actions"
    for _ in range(200):
        state = api(base, "GET", f"/api/games/{code}")
        if state["stage"] == "purchase":
            return
        if state["stage"] == "display":
            cards = [{"id": f"y{state['year']}-{i}", "kind": "common", "name": f"Ship {state['year']}/{i}"}
                     for i in range(3)]
            api(base, "POST", path, host_token, {"type": "display", "cards": cards})
        elif state["stage"] == "naming":
            api(base, "POST", path, tokens[state["waiting_for"]],
                {"type": "name_bid", "cards": [state["display"][0]["id"]]})
        elif state["stage"] == "voting":
            api(base, "POST", path, tokens[state["waiting_for"]], {"type": "agree"})
        elif state["stage"] == "order":
            api(base, "POST", path, host_token, {"type": "turn_order", "order": state["turn_order"]})
        elif state["stage"] == "discarding":  # VV12: whoever is over the limit discards their first cards
            pid = next(p["id"] for p in state["players"] if p["over_limit"])
            own = api(base, "GET", f"/api/games/{code}", tokens[pid])
            player = next(p for p in own["players"] if p["id"] == pid)
            api(base, "POST", path, tokens[pid],
                {"type": "discard", "cards": [c["id"] for c in player["hand"][:player["over_limit"]]]})
        else:
            pytest.fail(f"unexpected stage {state['stage']}")
    pytest.fail("the game did not reach the last purchases")


def test_reputation_is_counted_and_ranked_on_the_screen(table: dict[str, Any]) -> None:
    base, code = table["base"], table["code"]
    _play_out_the_years(table)
    devices = {k: table[k] for k in PLAYERS}
    # VV14: the last purchases: each phone may spend cards; the host closes them from the strip
    expect(strip(devices["anna"])).to_contain_text("Last purchases: tick the cards you spend")
    expect(strip(devices["anna"]).locator("#do-hand")).to_be_visible()
    expect(newest(devices["anna"])).to_contain_text("Year 1491, the last, is over")
    spoken(table["screen"], "Jaar 1491, het laatste, is voorbij")
    host = table["host"].page
    close = host.locator("#now-host-close #do-close-purchases")
    expect(close).to_have_text("Close the last purchases")
    in_first_screenful(host, "#now-host-close")
    close.click()
    anna = table["anna"].page
    expect(anna.locator(".vv-score")).to_be_visible()
    # VV15: every phone is asked for its reputation, with a link to the form
    for device in devices.values():
        expect(device.page.locator("#now-score.act #do-score")).to_be_visible()
    expect(strip(devices["bram"])).to_contain_text("Tel je reputatie en vul die in.")
    top_shot(devices["anna"], "vv-phone-anna-strip-score")
    for field, value in {"tips": 5, "ships": 6, "nobles": 3, "ship_count": 2, "gold": 5,
                         "smuggled": 1}.items():
        anna.locator(f"#score-{field}").fill(str(value))
    anna.locator("#score-lowest").fill("4")
    anna.locator("#score-fastest").check()
    expect(anna.locator(".vv-total")).to_have_text("Reputation: 17")  # 5+6+3 +2 fleet +2 gold −1
    table["anna"].shot("vv-phone-anna-score")
    anna.locator("#score-send").click()
    expect(anna.locator(".vv-score")).to_contain_text("score entered")
    expect(strip(devices["anna"])).to_contain_text(
        "Your reputation of 17 is in; still waiting for Bram and Cas.")
    nothing_to_do(devices["anna"])
    path = f"/api/games/{code}/actions"
    entry = {"type": "score", "tips": 7, "ships": 6, "nobles": 2, "ship_count": 3, "gold": 4,
             "smuggled": 0, "resources": 0, "fastest_fleet": False, "lowest_ship_card": 2}
    bram_token = table["bram"].tokens(code)["player"]["token"]
    api(base, "POST", path, bram_token, {**entry, "player": table["ids"]["bram"]})
    # VV16: one fastest-fleet token; the phone says so before the server would
    cas = table["cas"].page
    cas.locator("#score-fastest").check()
    expect(cas.locator("#score-send-why")).to_contain_text("VV16")
    cas.locator("#score-fastest").uncheck()
    cas.locator("#score-tips").fill("10")
    cas.locator("#score-send").click()
    # VV19: the last entry ends the game, so the phone asks first
    expect(cas.locator("dialog.ask")).to_contain_text("This ends the game and shows the dice’s secret key")
    cas.locator("#end-yes").click()
    screen = table["screen"].page
    rows = screen.locator(".vv-ranking tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Bram")  # 17, three ships
    expect(rows.nth(1)).to_contain_text("Anna")  # 17, two ships: set apart by the ships (VV19)
    expect(rows.nth(1)).to_contain_text("meeste schepen")
    expect(rows.nth(2)).to_contain_text("Cas")
    expect(rows.nth(2)).to_contain_text("reputatie")
    # the end: each phone says who won and where it finished; the TV reads the ranking aloud
    expect(strip(devices["bram"])).to_contain_text("Je hebt gewonnen met 17 reputatie!")
    won = "Bram won with 17 reputation; you finished in place {}."
    expect(strip(devices["anna"])).to_contain_text(won.format("2 with 17 (fewer ships)"))  # VV19
    expect(strip(devices["cas"])).to_contain_text(won.format("3 with 10"))
    nothing_to_do(*devices.values())
    ranked = "Bram wint met 17 reputatie! Rangschikking: 1. Bram 17, 2. Anna 17 (minder schepen), 3. Cas 10"
    expect(newest(table["screen"])).to_contain_text(ranked)
    spoken(table["screen"], ranked)
    the_feed_fits_the_tv(table["screen"])
    table["screen"].shot("vv-screen-ranking")
    top_shot(devices["anna"], "vv-phone-anna-strip-over")
    table["anna"].shot("vv-phone-anna-ranking")


def test_the_pure_cut_checks_name_their_rules(table: dict[str, Any]) -> None:
    """logic/voyagers.js is pure: each of the three cuts (VV7–VV9) is checked with its rule."""
    result = table["anna"].page.evaluate("""async () => {
      const V = await import('/js/logic/voyagers.js');
      const rs = { hand_limit: 8, house_rules: { min_bid_cards: 1 },
                   cuts: { doubloons: 1, remove_at_least: 1, swap_remove_at_least: 2 },
                   reputation: { fastest_fleet: 2, gold_per_point: 2, smuggled_penalty: 1 } };
      const display = ['a', 'b', 'c'].map((id) => ({ id, name: id, kind: 'common', doubloons: 0 }));
      const players = [{ id: 'p1', name: 'A', gold: 0 }, { id: 'p2', name: 'B', gold: 1 }];
      const state = { phase: 'playing', stage: 'cutting', display, players,
                      bid: { bidder: 'p1', cards: ['a', 'b'], voters: [], cutter: 'p2' } };
      const c = (cut, me = 'p2') => {
        const r = V.cutCheck(state, rs, me, cut);
        return r.ok ? 'ok' : r.rule;
      };
      const poor = { ...state, players: [players[0], { ...players[1], gold: 0 }] };
      return {
        notCutter: c({ kind: 'remove', cards: ['a'] }, 'p1'),
        coinInBid: c({ kind: 'doubloon', card: 'a' }), coin: c({ kind: 'doubloon', card: 'c' }),
        noGold: V.cutCheck(poor, rs, 'p2', { kind: 'doubloon', card: 'c' }).rule,
        removeAll: c({ kind: 'remove', cards: ['a', 'b'] }), remove: c({ kind: 'remove', cards: ['a'] }),
        swapOne: c({ kind: 'swap', remove: ['a'], add: 'c' }),
        swap: c({ kind: 'swap', remove: ['a', 'b'], add: 'c' }),
        swapBack: c({ kind: 'swap', remove: ['a', 'b'], add: 'a' }),
        total: V.reputationParts(rs, { tips: 5, ships: 6, nobles: 3, fastest_fleet: true, gold: 5,
                                       smuggled: 1 }).total,
      };
    }""")
    assert result == {"notCutter": "VV6", "coinInBid": "VV7", "coin": "ok", "noGold": "VV7",
                      "removeAll": "VV8", "remove": "ok", "swapOne": "VV9", "swap": "ok",
                      "swapBack": "VV9", "total": 17}


NARROW = """() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"""


def _narrow(page: Page, label: str) -> None:
    expect(page.locator("main")).not_to_be_empty()
    page.wait_for_load_state("networkidle")
    width, _ = page.evaluate(NARROW)
    assert width <= PHONE["width"], f"{label}: {width} px wide"


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_no_page_is_wider_than_a_phone(table: dict[str, Any], browser: Browser, locale: str) -> None:
    """/play, /host, /screen and /join at 390 × 844, in English and in Dutch (a finished game, a lobby)."""
    base, code = table["base"], table["code"]
    phone = Device(browser, base, f"narrow-{locale}", locale)
    stranger = Device(browser, base, f"stranger-{locale}", locale)
    try:
        phone.remember(code, {"player": table["cas"].tokens(code)["player"],
                              "host": table["host"].tokens(code)["host"]})
        for path, ready in ((f"/play/{code}", "#now"), (f"/host/{code}", "#now"),
                            (f"/screen/{code}", ".vv-ranking"), (f"/join/{code}", "main .card")):
            page = stranger.goto(path) if path.startswith("/join") else phone.goto(path)
            expect(page.locator(ready).first).to_be_visible()
            _narrow(page, f"{path} ({locale})")
        # a lobby, where /join shows the colours and the form; long names wrap rather than widen the page
        created = api(base, "POST", "/api/games", body={"game": "voyagers", "options": {}})
        lobby = created["code"]
        for name, colour in (("Bartholomeus-van-Oldenbarnevelt", "red"), (SHORT_EVIL, "blue")):
            api(base, "POST", f"/api/games/{lobby}/players", body={"name": name[:24], "character": colour})
        page = stranger.goto(f"/join/{lobby}")
        expect(page.locator("label.character")).to_have_count(5)
        _narrow(page, f"/join lobby ({locale})")
        stranger.shot(f"vv-join-lobby-{locale[:2]}")
        phone.goto(f"/screen/{code}")
        expect(phone.page.locator(".vv-ranking")).to_be_visible()
        phone.shot(f"vv-screen-at-390-{locale[:2]}")
        assert phone.errors == [] and stranger.errors == [], (phone.errors, stranger.errors)
    finally:
        phone.context.close()
        stranger.context.close()
