"""Voyagers' Venture in real Chromium: the host, three phones and the shared screen (in Dutch).

The signature moment, the sponsor division (VV3–VV10): the host puts this year's cards on display,
the active player names the cards they want, one player agrees, the next disagrees and cuts the bid
(checked on the phone with the VV rule), then the others agree to the cut bid and it is received.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from .helpers import SHORT_EVIL, Device, api, seated

pytestmark = pytest.mark.e2e

CARDS = [("Caravel", "common"), ("Galleon", "fleet"), ("Duke of Seville", "common"), (SHORT_EVIL, "common"),
         ("Spice route", "fleet")]
PLAYERS = {"anna": ("Anna", "Red"), "bram": ("Bram", "Blauw"), "cas": ("Cas", "Green")}


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
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"**/host/{code}")
    for key in PLAYERS:
        table[key].page.wait_for_url(f"**/play/{code}")
    expect(table["screen"].page.locator(".vv-stage")).to_contain_text("De gastheer legt")
    table["ids"] = {key: table[key].tokens(code)["player"]["id"] for key in PLAYERS}


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
    expect(table["bram"].page.locator(".vv-stage")).to_contain_text("Anna noemt")


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
    expect(anna.locator("#agree")).to_have_count(0)
    # VV4: clockwise, Bram agrees
    bram.get_by_role("button", name="Akkoord", exact=True).click()
    expect(screen.locator(".vv-agreed")).to_contain_text("Bram")
    expect(screen.locator(".vv-next")).to_contain_text("Cas")
    table["screen"].shot("vv-screen-bram-agreed")
    # VV6: Cas disagrees and must cut; each way is checked on the phone before it is sent
    cas.locator("#disagree").click()
    expect(screen.locator(".vv-next")).to_contain_text("Cas")
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
    table["screen"].shot("vv-screen-after-cut")
    anna.locator("#agree").click()
    expect(screen.locator(".vv-agreed")).to_contain_text("Anna")
    bram.locator("#agree").click()
    # VV5: everyone agreed, Cas takes the cards into a hand that only Cas sees
    expect(cas.locator(".vv-hand .vv-card")).to_have_count(2)
    expect(cas.locator(".vv-hand")).to_contain_text("Duke of Seville")
    expect(anna.locator(".vv-hand")).not_to_contain_text("Duke of Seville")
    cas_line = screen.locator(".vv-players li", has_text="Cas")
    expect(cas_line).to_contain_text("ontvangen")
    expect(cas_line).to_contain_text("2 kaart(en)")
    expect(screen.locator(".vv-display .vv-card")).to_have_count(3)
    expect(screen.locator(".vv-stage")).to_contain_text("Anna noemt")  # VV11: Anna is next to name
    table["cas"].shot("vv-phone-cas-hand")
    table["screen"].shot("vv-screen-received")
    public = api(base, "GET", f"/api/games/{code}")
    assert all(p["hand"] is None for p in public["players"])  # hands are private (the public view)
    table["host"].shot("vv-host-panel", full_page=True)


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
        else:
            pytest.fail(f"unexpected stage {state['stage']}")
    pytest.fail("the game did not reach the last purchases")


def test_reputation_is_counted_and_ranked_on_the_screen(table: dict[str, Any]) -> None:
    base, code = table["base"], table["code"]
    _play_out_the_years(table)
    host = table["host"].page
    host.locator("#close-purchases").click()  # VV14: the host closes the last purchases
    anna = table["anna"].page
    expect(anna.locator(".vv-score")).to_be_visible()
    for field, value in {"tips": 5, "ships": 6, "nobles": 3, "ship_count": 2, "gold": 5,
                         "smuggled": 1}.items():
        anna.locator(f"#score-{field}").fill(str(value))
    anna.locator("#score-lowest").fill("4")
    anna.locator("#score-fastest").check()
    expect(anna.locator(".vv-total")).to_have_text("Reputation: 17")  # 5+6+3 +2 fleet +2 gold −1
    table["anna"].shot("vv-phone-anna-score")
    anna.locator("#score-send").click()
    expect(anna.locator(".vv-score")).to_contain_text("score entered")
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
    screen = table["screen"].page
    rows = screen.locator(".vv-ranking tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Bram")  # 17, three ships
    expect(rows.nth(1)).to_contain_text("Anna")  # 17, two ships: set apart by the ships (VV19)
    expect(rows.nth(1)).to_contain_text("meeste schepen")
    expect(rows.nth(2)).to_contain_text("Cas")
    expect(rows.nth(2)).to_contain_text("reputatie")
    table["screen"].shot("vv-screen-ranking")
    table["anna"].shot("vv-phone-anna-ranking")


def test_the_pure_cut_checks_name_their_rules(table: dict[str, Any]) -> None:
    """logic/voyagers.js is pure: each of the three cuts (VV7–VV9) is checked with its rule."""
    result = table["anna"].page.evaluate("""async () => {
      const V = await import('/js/logic/voyagers.js');
      const rs = { hand_limit: 8, house_rules: { min_bid_cards: 1 },
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
