"""The table's story in real Chromium: what needs each player now, and what just happened.

Three phones (Anna in English, Bram in Dutch, Cas in English), the host's phone, the TV and a tablet
that the host hands the dice to. Each phone's strip at the top says what needs that player now; the
feed on every phone and, large, on the TV tells each change in one line; the TV reads the moments
aloud. Where the dice decide (a fight), the test follows whatever the server rolled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.fixtures_server import wait_for

from .helpers import (
    Device,
    api,
    at_the_top,
    close_all,
    image_drawn,
    in_first_screenful,
    newest,
    no_rule_in_the_strip,
    quest_table,
    spoken,
    state_of,
    strip,
    strip_actions,
    top_shot,
    undo_on_host,
)
from .layout import fixed_share, reached, scroll_away

pytestmark = pytest.mark.e2e

PHONES = {"anna": ("Anna", "netherlands", "en-GB"), "bram": ("Bram", "england", "nl-NL"),
          "cas": ("Cas", "spain", "en-US")}
TABLET = {"width": 820, "height": 1180}
WORDS = {"en": {"waiting": "waits for the network", "went": "went through now that the network is back",
                "no_network": "No network"},
         "nl": {"waiting": "wacht op het netwerk", "went": "is alsnog doorgegaan",
                "no_network": "Geen netwerk"}}


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    game = quest_table(browser, base_url, PHONES)
    devices: dict[str, Device] = game.pop("devices")
    devices["tablet"] = Device(browser, base_url, "tablet", "nl-NL", TABLET)
    yield {"base": base_url, **game, **devices}
    close_all(devices.values())


def act(table: dict[str, Any], key: str, action: dict[str, Any]) -> None:
    token = table["host_token"] if key == "host" else table["tokens"][key]
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", token, action)


def give(table: dict[str, Any], key: str, reason: str, **resources: int) -> None:
    """The host's correction (adjust) of a player's resources."""
    adjust = {"type": "adjust", "player": table["ids"][key], "resources": resources, "reason": reason}
    act(table, "host", adjust)


def key_of(table: dict[str, Any], player_id: str) -> str:
    return next(k for k, pid in table["ids"].items() if pid == player_id)












def test_each_phone_starts_with_what_needs_that_player_now(table: dict[str, Any]) -> None:
    anna, bram, cas, tv = table["anna"], table["bram"], table["cas"], table["tv"]
    expect(strip(anna)).to_contain_text("Your turn — roll the dice first.")
    expect(anna.page.locator("#do-roll")).to_be_enabled()
    expect(strip(bram)).to_contain_text("Anna is aan de beurt")
    expect(strip(cas)).to_contain_text("Anna’s turn")
    for device in (bram, cas):  # what concerns another player is never something to do here
        expect(strip_actions(device)).to_have_count(0)
    no_rule_in_the_strip(anna, bram, cas)
    expect(tv.page.locator(".sp.active .tag.now")).to_have_text("▶ Playing")
    expect(tv.page.locator(".screen-players")).not_to_contain_text("Your turn")
    top_shot(anna, "story-anna-roll-first")
    anna.page.locator("#do-roll").click()
    expect(strip(anna)).to_contain_text("Your turn: sail up to")
    expect(newest(bram)).to_contain_text("Anna gooit")
    expect(newest(cas)).to_contain_text("Anna rolls")
    expect(tv.page.locator(".feed-big .feed-lines li").first).to_contain_text("Anna rolls")
    top_shot(bram, "story-bram-watching-nl")


def test_an_offer_arrives_in_the_receivers_first_screenful_and_is_accepted_there(
        table: dict[str, Any]) -> None:
    anna, bram, cas, tv = table["anna"], table["bram"], table["cas"], table["tv"]
    ids = table["ids"]
    give(table, "anna", "prize", cotton=2)
    give(table, "bram", "prize", wood=1)
    before = {p["id"]: p["resources"] for p in state_of(table)["players"]}
    page = anna.page
    page.locator("#offer-form summary").click()
    page.locator("#offer-to").select_option(ids["bram"])
    page.locator("[data-step='offer.give.cotton'][data-d='1']").click()
    page.locator("[data-step='offer.get.wood'][data-d='1']").click()
    page.locator("#offer-send").click()
    wait_for(lambda: bool(state_of(table)["offers"]), "Anna's offer")  # it goes over her socket
    offer = state_of(table)["offers"][0]
    item = bram.page.locator(f"#now-offer-{offer['id']}")
    expect(item).to_contain_text("Anna biedt je een ruil: jij krijgt 1 Katoen, jij geeft 1 Hout.")
    expect(item.get_by_role("button", name="Accepteren")).to_be_visible()
    expect(item.get_by_role("button", name="Weigeren")).to_be_visible()
    bram.page.evaluate("window.scrollTo(0, 0)")
    in_first_screenful(bram.page, f"#now-offer-{offer['id']}")
    expect(strip_actions(cas)).to_have_count(0)  # Cas has nothing to do with it
    expect(strip(anna)).to_contain_text("Your offer to Bram is open: you give 1 Cotton, you get 1 Wood.")
    top_shot(bram, "story-offer-in-the-strip-nl")
    item.get_by_role("button", name="Accepteren").click()
    expect(item).to_have_count(0)
    after = {p["id"]: p["resources"] for p in state_of(table)["players"]}
    assert after[ids["anna"]]["cotton"] == before[ids["anna"]]["cotton"] - 1
    assert after[ids["anna"]]["wood"] == before[ids["anna"]]["wood"] + 1
    assert after[ids["bram"]]["cotton"] == before[ids["bram"]]["cotton"] + 1
    assert after[ids["bram"]]["wood"] == before[ids["bram"]]["wood"] - 1
    expect(newest(bram)).to_have_text("Ruil: Anna gaf Bram 1 Katoen; Bram gaf Anna 1 Hout")
    expect(newest(anna)).to_have_text("Trade: Anna gave Bram 1 Cotton; Bram gave Anna 1 Wood")
    expect(tv.page.locator(".feed-big .feed-lines li").first).to_have_text(
        "Trade: Anna gave Bram 1 Cotton; Bram gave Anna 1 Wood")


def _fire_until_decided(table: dict[str, Any]) -> dict[str, Any]:
    """Each shooter taps Fire! in their strip until the fight is no longer shots; return the state."""
    for _ in range(80):
        state = state_of(table)
        combat = state["combat"]
        if combat is None or combat["stage"] not in ("firing",):
            return state
        shooter = table[key_of(table, combat["shooter"])]
        fire = shooter.page.locator("#do-fire")
        expect(fire).to_be_enabled()
        fire.click()
        wait_for(lambda v=state["version"]: state_of(table)["version"] > v, "the shot to land")
    pytest.fail("no decision after 80 shots")


def test_a_fight_to_a_sinking_is_told_on_both_phones_and_on_the_tv(table: dict[str, Any]) -> None:
    ids, tv = table["ids"], table["tv"]
    give(table, "anna", "guns", coal=10, iron=10)
    give(table, "bram", "cargo", food=3, coal=2)
    for _ in range(5):
        act(table, "anna", {"type": "upgrade", "ship": 1, "part": "cannons"})
    anna, bram = table["anna"], table["bram"]
    anna.page.locator("#attack-form summary").click()
    anna.page.locator("#attack-target").select_option(ids["bram"])
    anna.page.locator("#attack-send").click()
    expect(strip(bram)).to_contain_text("Anna valt je schip 1 aan! Anna schiet eerst.")
    expect(strip(anna)).to_contain_text("Your shot at Bram’s ship 1!")
    expect(strip(table["cas"])).to_contain_text("Fight: Anna against Bram.")
    expect(strip_actions(table["cas"])).to_have_count(0)
    top_shot(bram, "story-attacked-nl")
    spoken(tv, "Anna attacks Bram’s ship 1")
    state = _fire_until_decided(table)
    combat = state["combat"]
    assert combat is not None and combat["stage"] == "salvage", combat
    sunk, winner = table[key_of(table, combat["sunk"])], table[key_of(table, combat["winner"])]
    expect(sunk.page.locator("#now-keep")).to_be_visible()
    expect(sunk.page.locator("#now-keep .now-text")).to_contain_text(str(combat["keep"]))
    expect(winner.page.locator("#now-keep")).to_have_class(re.compile(r"\bwait\b"))
    top_shot(sunk, "story-sunk-choose-keep")
    held = next(p for p in state["players"] if p["id"] == combat["sunk"])["resources"]
    need = combat["keep"]
    for resource, n in held.items():
        for _ in range(min(n, need)):
            sunk.page.locator(f"[data-step='keep.{resource}'][data-d='1']").click()
        need -= min(n, need)
    sunk.page.locator("#keep-send").click()
    expect(winner.page.locator("#now-fish")).to_be_visible()
    water = state_of(table)["combat"]["water"]
    want = min(2, sum(water.values()))
    for resource, n in water.items():
        for _ in range(min(n, want)):
            winner.page.locator(f"[data-step='fish.{resource}'][data-d='1']").click()
        want -= min(n, want)
    winner.page.locator("#fish-send").click()
    winner_name, sunk_name = PHONES[winner.name][0], PHONES[sunk.name][0]
    told = f"{winner_name} won: {sunk_name}’s ship 1 sank."
    for device in (anna, bram):
        expect(device.page.locator(".outcome")).to_be_visible()
    expect(anna.page.locator(".outcome")).to_contain_text(told)
    expect(bram.page.locator(".outcome")).to_contain_text(f"won: schip 1 van {sunk_name} is gezonken.")
    expect(tv.page.locator(".screen-outcome")).to_contain_text(told)
    expect(tv.page.locator(".screen-outcome")).to_contain_text("fished")  # what changed hands
    expect(tv.page.locator(".screen-outcome")).to_contain_text(f"{sunk_name} skips the next turn.")
    spoken(tv, told)
    sank = "je schip zonk tegen" if sunk.name == "bram" else "your ship sank against"
    expect(strip(sunk)).to_contain_text(f"{sank} {winner_name}")
    top_shot(anna, "story-outcome-anna")
    top_shot(bram, "story-outcome-bram-nl")
    tv.shot("story-tv-outcome")
    table["first_defender"] = ids["bram"]


def test_a_fight_to_a_surrender_is_told_on_both_phones_and_on_the_tv(table: dict[str, Any]) -> None:
    tv = table["tv"]
    ending = state_of(table)["turn"]["player"]
    first = table[key_of(table, ending)]
    first.page.locator("#end-turn").click()
    wait_for(lambda: state_of(table)["turn"]["player"] != ending, "the next turn")
    state = state_of(table)
    attacker = key_of(table, state["turn"]["player"])
    # C3: the ship attacked a moment ago rests a round; a third player's ship is fair game
    defender = next(k for k in PHONES if k != attacker and table["ids"][k] != table["first_defender"])
    a, d = table[attacker], table[defender]
    a.page.locator("#do-roll").click()
    expect(a.page.locator("#do-roll")).to_have_count(0)
    a.page.locator("#attack-form summary").click()
    a.page.locator("#attack-target").select_option(table["ids"][defender])
    a.page.locator("#attack-send").click()
    expect(d.page.locator("#surrender")).to_be_enabled()
    d.page.locator("#surrender").click()
    d.page.locator("#end-yes").click()  # asked first: it hands over every resource once accepted
    a_name, d_name = PHONES[attacker][0], PHONES[defender][0]
    offered = a.page.locator("#now-surrender")
    expect(offered).to_contain_text(d_name)
    expect(offered.locator("#do-accept-surrender")).to_be_enabled()
    expect(strip(d)).to_contain_text(a_name)
    expect(d.page.locator("#now-surrendered")).to_be_visible()
    expect(d.page.locator("#accept-surrender")).to_have_count(0)  # no disabled "accept" for who offered
    offered_on_tv = f"{d_name} offers to surrender — waiting for {a_name} to accept"
    expect(tv.page.locator(".screen-combat")).to_contain_text(offered_on_tv)
    top_shot(a, "story-surrender-offered")
    handed = next(p for p in state_of(table)["players"] if p["id"] == table["ids"][defender])["resources"]
    offered.locator("#do-accept-surrender").click()
    expect(a.page.locator(".outcome")).to_be_visible()
    told_en = f"{a_name} won: {d_name} surrendered and handed over"
    expect(tv.page.locator(".screen-outcome")).to_contain_text(told_en)
    spoken(tv, told_en)
    for device in (a, d):  # each phone draws the outcome when its own socket brings it
        outcome = device.page.locator(".outcome")
        for shown in (a_name, d_name, *(str(n) for n in handed.values() if n)):
            expect(outcome).to_contain_text(shown)
    skip = strip(d)
    expect(skip).to_contain_text(a_name)
    expect(d.page.locator("#now-skip")).to_be_visible()
    top_shot(d, "story-surrendered-skip")
    tv.shot("story-tv-surrender")


def test_the_hosts_adjust_and_undo_are_told_on_every_phone_and_on_the_tv(table: dict[str, Any]) -> None:
    host, tv = table["host"], table["tv"]
    page = host.page
    page.locator("#adjust-player").select_option(table["ids"]["cas"])
    page.get_by_label("Food").fill("3")
    page.get_by_label("Reason").fill("found a crate")
    page.get_by_role("button", name="Apply").click()
    adjusted = "The host corrects Cas: +3 Food — “found a crate”"
    expect(newest(table["anna"])).to_have_text(adjusted)
    expect(newest(table["cas"])).to_have_text(adjusted)
    expect(newest(table["bram"])).to_have_text("De spelleider corrigeert Cas: +3 Voedsel — „found a crate”")
    expect(tv.page.locator(".feed-big .feed-lines li").first).to_have_text(adjusted)
    spoken(tv, adjusted)
    undo_on_host(page)
    undone = f"The host took back: {adjusted}"
    for key in ("anna", "cas"):
        expect(newest(table[key])).to_have_text(undone)
        expect(table[key].page.locator(".feed-lines li.undone")).to_contain_text(adjusted)
    expect(newest(table["bram"])).to_contain_text("De spelleider draaide terug:")
    expect(tv.page.locator(".feed-big .feed-lines li").first).to_have_text(undone)
    spoken(tv, "The host took back")
    top_shot(host, "story-host-panel")
    top_shot(table["cas"], "story-cas-undo-told")
    tv.shot("story-tv-undo")


def _fresh_turn(table: dict[str, Any]) -> str:
    """End turns (over the API) until the active player has not rolled and no fight is on."""
    for _ in range(6):
        state = state_of(table)
        key = key_of(table, state["turn"]["player"])
        if not state["turn"]["rolled"] and state["combat"] is None:
            return key
        act(table, key, {"type": "end_turn"})
    pytest.fail("no fresh turn came")


def test_a_tap_made_offline_is_applied_exactly_once_when_the_network_returns(table: dict[str, Any]) -> None:
    key = _fresh_turn(table)
    device = table[key]
    page = device.page
    expect(page.locator("#do-roll")).to_be_enabled()
    before = state_of(table)["version"]
    device.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    page.locator("#do-roll").click()
    words = WORDS["nl" if key == "bram" else "en"]
    waiting = page.locator(".now-item.wait", has_text=words["waiting"])
    expect(waiting).to_be_visible()
    top_shot(device, "story-tap-waiting")
    expect(page.locator("#do-roll")).to_be_disabled()  # shown as waiting: no second tap to make
    expect(page.locator("#do-roll")).to_have_attribute("aria-busy", "true")
    assert state_of(table)["version"] == before  # nothing reached the server while offline
    device.context.set_offline(False)
    wait_for(lambda: state_of(table)["version"] == before + 1, "the waiting tap to be applied")
    expect(waiting).to_have_count(0)
    expect(page.locator(".now-item", has_text=words["went"])).to_be_visible()
    expect(page.locator(".allowance")).to_be_visible()
    assert state_of(table)["version"] == before + 1  # applied once, with no second tap
    assert "Failed to fetch" not in page.content()
    top_shot(device, "story-tap-went-through")


def test_a_phone_scrolled_down_shows_at_once_that_it_is_offline(table: dict[str, Any]) -> None:
    """Wherever the page is scrolled, the phone says it is offline: the bar's badge stays at the top."""
    for key, lang in (("bram", "nl"), ("cas", "en")):
        device = table[key]
        page = device.page
        sign = page.locator("#conn")
        scroll_away(page)
        expect(sign).to_be_hidden()
        device.context.set_offline(True)
        try:
            expect(sign).to_have_text(WORDS[lang]["no_network"])
            expect(sign).to_have_attribute("role", "status")
            wait_for(lambda sign=sign: reached(sign), f"{key}'s offline sign on screen, nothing over it")
            share, found = fixed_share(page)
            assert share <= 0.25, f"{key}: {share:.0%} of the screen stays fixed: {found}"
            device.shot(f"story-{key}-offline-scrolled")
        finally:
            device.context.set_offline(False)
        expect(sign).to_be_hidden()
        at_the_top(page)


def test_a_waiting_tap_outlives_its_page_and_goes_once_the_phone_is_back(table: dict[str, Any]) -> None:
    """The phone slept offline and its tab was discarded: the tap it held still goes, once."""
    key = _fresh_turn(table)
    device = table[key]
    expect(device.page.locator("#do-roll")).to_be_enabled()
    before = state_of(table)["version"]
    device.context.set_offline(True)
    expect(device.page.locator("#offline")).to_be_visible()
    device.page.locator("#do-roll").click()
    expect(device.page.locator("#do-roll")).to_be_disabled()
    kept = device.page.evaluate("Object.values(JSON.parse(localStorage.getItem('shipmate.outbox') || '{}'))")
    assert [[entry["action"] for entry in slot] for slot in kept] == [[{"type": "roll"}]]
    gone = device.page  # the tab is discarded: nothing of it reaches the network any more
    gone.route("**/*", lambda route: route.abort())
    gone.route_web_socket(re.compile(".*"), lambda ws: ws.close())
    page = device.reopen()
    device.context.set_offline(False)
    assert state_of(table)["version"] == before
    page.goto(f"/play/{table['code']}")
    wait_for(lambda: state_of(table)["version"] == before + 1, "the kept tap to be applied")
    expect(page.locator(".allowance")).to_be_visible()
    assert state_of(table)["version"] == before + 1
    assert page.evaluate("localStorage.getItem('shipmate.outbox')") in (None, "{}")


def test_a_tap_that_went_stale_while_offline_is_explained_in_words(table: dict[str, Any]) -> None:
    state = state_of(table)
    active = key_of(table, state["turn"]["player"])
    other = next(k for k in PHONES if k != active)
    give(table, other, "stale test", iron=1)
    act(table, active, {"type": "offer", "to": table["ids"][other], "give": {}, "get": {"iron": 1}})
    offer = state_of(table)["offers"][-1]
    device = table[other]
    expect(device.page.locator(f"#do-accept-{offer['id']}")).to_be_enabled()
    device.context.set_offline(True)
    expect(device.page.locator("#offline")).to_be_visible()
    device.page.locator(f"#do-accept-{offer['id']}").click()
    expect(device.page.locator(".now-item.wait")).to_be_visible()
    act(table, active, {"type": "withdraw", "offer_id": offer["id"]})
    version = state_of(table)["version"]
    device.context.set_offline(False)
    note = device.page.locator(".now-item.alert", has_text=offer["id"])  # beside the moment of the withdrawal
    expect(note).to_contain_text(offer["id"])
    expect(note).to_contain_text("M1")
    assert state_of(table)["version"] == version  # the stale tap changed nothing
    top_shot(device, "story-stale-tap-explained")
    note.locator("button").click()
    expect(note).to_have_count(0)


def test_the_host_hands_the_dice_to_a_tablet_by_link(table: dict[str, Any]) -> None:
    _fresh_turn(table)
    host = table["host"]
    host.page.locator("#dice-make").click()
    qr = host.page.locator(".dice-link .qr img")
    image_drawn(qr)
    assert qr.evaluate("i => i.src.startsWith('data:image/svg+xml')")
    link = host.page.locator("#dice-url").get_attribute("href")
    assert link and "#device=" in link
    host.page.locator(".dice-link").scroll_into_view_if_needed()
    host.shot("story-host-dice-link")
    tablet: Device = table["tablet"]
    page = tablet.goto("/" + link.split("/", 3)[3])  # the link's path and fragment, on this server
    expect(page.locator(".dice-device")).to_be_visible()
    assert "#device" not in page.url  # the token stays on the device, out of the address bar
    state = state_of(table)
    active = next(p["name"] for p in state["players"] if p["id"] == state["turn"]["player"])
    roll = page.locator("#table-roll")
    expect(roll).to_have_text(f"Gooi voor {active}")
    expect(page.locator(".dice-device")).to_contain_text("Dit apparaat gooit voor wie aan de beurt is.")
    roll.click()
    wait_for(lambda: state_of(table)["turn"]["rolled"], "the tablet's roll")
    expect(page.locator(".brought")).to_be_visible()
    tablet.shot("story-tablet-dice")
    page.reload()  # the tablet keeps its role
    expect(page.locator(".dice-device")).to_contain_text("Dit apparaat gooit voor wie aan de beurt is.")


def test_the_tv_goes_on_after_a_reload_without_asking_to_be_started(table: dict[str, Any]) -> None:
    tv = table["tv"]
    tv.page.locator("#screen-start").click()
    expect(tv.page.locator("#screen-start")).to_have_count(0)
    tv.page.reload()
    expect(tv.page.locator(".screen-players")).to_be_visible()
    expect(tv.page.locator("#screen-start")).to_have_count(0)
    expect(tv.page.locator("#screen-hint")).to_be_visible()  # sound waits for a tap anywhere
    tv.page.mouse.click(10, 500)
    expect(tv.page.locator("#screen-hint")).to_have_count(0)
    tv.shot("story-tv-after-reload")


def test_refusals_cite_their_rule_in_words_the_player_can_use(table: dict[str, Any]) -> None:
    """The market's refusal names what the player holds; the resources chart never dips below zero."""
    result = table["anna"].page.evaluate("""async (code) => {
      const R = await import('/js/logic/quest1607.js');
      const F = await import('/js/logic/format.js');
      const S = await import('/js/logic/stats.js');
      const ruleset = await (await fetch(`/api/games/${code}/ruleset`)).json();
      F.useRuleset(ruleset);
      const me = { id: 'p1', name: 'A', resources: { wood: 3 }, ships: [{ number: 1, sails: 2 }] };
      const state = { phase: 'playing', players: [me], turn: { player: 'p1', rolled: true, moved: {} },
                      offers: [], combat: null, event: null };
      const market = F.explain(R.canMarket(state, ruleset, 'p1', 'wood', 'iron'));
      const events = [
        { type: 'PlayerJoined', version: 1, player_id: 'p1', name: 'A', character: 'spain' },
        { type: 'GameStarted', version: 2 },
        { type: 'ResourcesAdjusted', version: 3, player: 'p1', resources: { cotton: 3, wood: 1 } },
        { type: 'SailsUpgraded', version: 4, player: 'p1', paid: { cotton: 3, wood: 1 } },
        { type: 'ActionUndone', version: 5, undone_version: 4 },
        { type: 'SailsUpgraded', version: 6, player: 'p1', paid: { cotton: 3, wood: 1 } },
        { type: 'TurnEnded', version: 7, round: 2 },
      ];
      return { market, line: S.timeline(events).resources.p1 };
    }""", table["code"])
    assert result["market"] == "M2 · Give 4 identical resources; you have 3 Wood."
    assert result["line"] == [0, 0]  # paid once: the undone upgrade gave its price back
