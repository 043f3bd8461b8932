"""Voyagers' Venture's decisive moments reach the phone they concern, at its top, and the TV's headline.

Anna (English), Bram (Dutch) and Cas (English) divide the sponsors of 1486 with the host and the TV
beside them: Anna's bid is agreed to, disagreed with and cut; Cas takes what he cut it to; the last
bid ends the division; the host corrects Anna's gold and takes it back; after six years the count
makes Cas the winner. Each moment shows in the strip of the phone it concerns, in its first
screenful, and the TV's headline tells whom the table waits for and what just happened, at 1920 ×
1080 and 1280 × 720; after the end no phone or TV shows a turn or a "now" tag, and the winner's phone
says "You won". A card name half typed on the host panel survives an update.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.api.client import Game
from tests.api.test_end_is_final import SCORE
from tests.api.test_voyagers import year_of_one_card

from .helpers import TV, Device, close_all, no_rule_in_the_strip, strip, top_shot
from .test_serenissima_moments import TURN, headline, in_view, moment

pytestmark = pytest.mark.e2e

CARDS = {"c1": "Caravel", "c2": "Galleon", "c3": "Duke of Seville"}
STILL = re.compile("still to receive|moet nog ontvangen")


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    game = Game.create(base_url, "voyagers")
    people = {"anna": ("Anna", "red", "en-GB"), "bram": ("Bram", "blue", "nl-NL"),
              "cas": ("Cas", "green", "en-US")}
    ids = {key: game.join(name, colour) for key, (name, colour, _) in people.items()}
    game.ok(game.host, {"type": "start"})
    devices = {key: Device(browser, base_url, key, locale) for key, (_, _, locale) in people.items()}
    for key, device in devices.items():
        seat = {"id": ids[key], "token": game.players[ids[key]], "name": people[key][0]}
        device.remember(game.code, {"player": seat})
        device.goto(f"/play/{game.code}")
    devices["host"] = Device(browser, base_url, "host", "en-GB")
    devices["host"].remember(game.code, {"host": game.host})
    devices["host"].goto(f"/host/{game.code}")
    devices["tv"] = Device(browser, base_url, "tv", "en-GB", TV)
    devices["tv"].goto(f"/screen/{game.code}")
    yield {"game": game, "ids": ids, **devices}
    close_all(devices.values())


def act(table: dict[str, Any], key: str, action: dict[str, Any]) -> None:
    game: Game = table["game"]
    game.ok(game.host if key == "host" else game.players[table["ids"][key]], action)


def test_a_card_name_half_typed_on_the_host_panel_survives_an_update(table: dict[str, Any]) -> None:
    page = table["host"].page
    page.locator("#card-name-0").fill("Caravel")
    page.locator("#add-card").click()
    expect(page.locator("#card-name-1")).to_be_focused()
    page.keyboard.type("Galle")  # half typed
    act(table, "host", {"type": "set_gold", "player": table["ids"]["bram"], "gold": 3})  # the update
    expect(page.locator(".feed-lines li").first).to_contain_text("Bram")
    expect(page.locator("#card-name-1")).to_have_value("Galle")
    expect(page.locator("#card-name-1")).to_be_focused()
    expect(page.locator("#card-name-0")).to_have_value("Caravel")
    page.keyboard.type("on")
    page.locator("#add-card").click()
    expect(page.locator("#card-name-2")).to_be_focused()  # keys typed before the focus moves go nowhere
    page.keyboard.type(CARDS["c3"])
    page.locator("#display-send").click()
    expect(table["tv"].page.locator(".vv-display .vv-card")).to_have_count(3)


def test_a_bid_agreed_disagreed_and_cut_reaches_its_bidder(table: dict[str, Any]) -> None:
    anna, cas, tv = table["anna"], table["cas"], table["tv"]
    ids = [c["id"] for c in table["game"].state()["display"]]
    table["cards"] = dict(zip(CARDS.values(), ids, strict=True))
    act(table, "anna", {"type": "name_bid", "cards": ids[:2]})
    table["bram"].page.locator("#now [data-act=agree]").click()
    in_view(moment(anna, "Bram agreed to your bid."))
    headline(tv, "Cas decides: agree or disagree.")
    cas.page.locator("#now [data-act=disagree]").click()
    in_view(moment(anna, "Cas disagreed with your bid and cuts it now."))
    headline(tv, "Cas disagreed and cuts the bid.")
    top_shot(anna, "vv-moment-disagreed-anna")
    act(table, "cas", {"type": "cut", "kind": "remove", "cards": [ids[1]]})
    cut = moment(anna, "Your bid was cut: Cas takes Galleon out of the bid: now Caravel.")
    in_view(cut)
    expect(strip(anna).locator("#now-vote.act [data-act=agree]")).to_be_visible()  # asked again (VV10)
    headline(tv, "Anna decides: agree or disagree.")
    no_rule_in_the_strip(anna, cas)
    top_shot(anna, "vv-moment-cut-anna")


def test_what_a_player_takes_and_the_division_reach_their_phones(table: dict[str, Any]) -> None:
    anna, bram, cas, tv = table["anna"], table["bram"], table["cas"], table["tv"]
    anna.page.locator("#now [data-act=agree]").click()
    bram.page.locator("#now [data-act=agree]").click()
    in_view(moment(cas, "You take Caravel."))
    headline(tv, "Cas takes Caravel")
    top_shot(cas, "vv-moment-took-cas")
    act(table, "anna", {"type": "name_bid", "cards": [table["cards"]["Galleon"]]})
    act(table, "bram", {"type": "agree"})
    act(table, "bram", {"type": "name_bid", "cards": [table["cards"]["Duke of Seville"]]})  # the last bid
    in_view(moment(bram, "De verdeling van 1486 is klaar. Jij krijgt Duke of Seville."))
    in_view(moment(anna, "The division of 1486 is over. You take Galleon."))
    headline(tv, "The division of 1486 is over: ")
    top_shot(bram, "vv-moment-division-bram-nl")
    tv.shot("vv-moment-division-tv")


def test_the_hosts_gold_count_and_its_undo_reach_the_player(table: dict[str, Any]) -> None:
    anna, tv = table["anna"], table["tv"]
    act(table, "host", {"type": "set_gold", "player": table["ids"]["anna"], "gold": 5})
    in_view(moment(anna, "The host set your gold to 5. For you: Gold 2 → 5."))
    act(table, "host", {"type": "undo"})
    undone = moment(anna, "The host took back: The host sets Anna’s gold to 5. For you: Gold 5 → 2.")
    in_view(undone)
    expect(moment(anna, "The host set your gold to 5.")).to_have_count(0)  # taken back: no moment now
    headline(tv, "The host took back: The host sets Anna’s gold to 5")
    top_shot(anna, "vv-moment-undone-anna")


def test_after_the_end_the_winner_knows_and_nothing_is_now(table: dict[str, Any]) -> None:
    game: Game = table["game"]
    ids = table["ids"]
    order = [ids["anna"], ids["bram"], ids["cas"]]
    act(table, "host", {"type": "turn_order", "order": order})
    for year in range(2, 7):
        year_of_one_card(game, f"y{year}")
        if year < 6:
            act(table, "host", {"type": "turn_order", "order": order})
    act(table, "host", {"type": "close_purchases"})
    for tips, key in enumerate(("anna", "bram", "cas")):
        act(table, "host", {**SCORE, "player": ids[key], "tips": tips * 10})
    in_view(strip(table["cas"]).locator("#now-over"))
    expect(strip(table["cas"]).locator("#now-over")).to_have_text("You won with 20 reputation!")
    expect(strip(table["bram"]).locator("#now-over")).to_contain_text(
        "Gewonnen door Cas met 20 reputatie; jij eindigde op plaats 2")
    expect(strip(table["anna"]).locator("#now-over")).to_contain_text("you finished in place 3 with 0")
    headline(table["tv"], "Cas won with 20 reputation.")
    for key in ("anna", "bram", "cas", "host", "tv"):
        page = table[key].page
        expect(page.locator(".tag.now, #now .now-item.act")).to_have_count(0)
        expect(page.locator(".vv-players")).not_to_contain_text(STILL)
        for text in page.locator("#now, .screen-turn").all_inner_texts():
            assert not TURN.search(text), f"{key} tells a turn after the end: {text}"
    top_shot(table["cas"], "vv-moment-won-cas")
    top_shot(table["bram"], "vv-moment-over-bram-nl")
    table["tv"].shot("vv-moment-over-tv")
