"""Each decisive moment of Quest 1607 on the phone it concerns, at the top, in real Chromium.

Three phones (Anna in English, Bram in Dutch, Cas in English), the host's phone and the TV. What just
happened to a player is in their strip, in their first screenful: an offer declined, withdrawn or
lapsed; the host's correction of their stock and an undo that touched them; their quest done and what
opens next; the event drawn and what it does to them. The fight tells one truth: while a surrender is
offered nobody sees Fire, and the defender's strip offers Surrender. The last step to win has its
button in the strip; then "You won!" on the winner's phone, who won on the others', and no turn, no
bar, no form after the end. Every phone page opens at its top, every control on it is at least
44 × 44 px, and an update that arrives while a card is open and half filled in leaves it as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.client import Game
from tests.api.test_whole_game import me as own_entry
from tests.api.test_whole_game import meet, supply
from tests.fixtures_server import wait_for

from .helpers import (
    Device,
    api,
    at_the_top,
    close_all,
    in_first_screenful,
    no_rule_in_the_strip,
    quest_table,
    settled,
    state_of,
    strip,
    top_shot,
    undo_on_host,
    unfold,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

PHONES = {"anna": ("Anna", "netherlands", "en-GB"), "bram": ("Bram", "england", "nl-NL"),
          "cas": ("Cas", "spain", "en-GB")}

# Every control a finger taps: its box, when it is under 44 × 44 px (a control scrolled or
# clipped out of view still counts; one put off screen on purpose, like the skip link, does not).
SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]')]
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.height > 0 && r.right > 0
    && getComputedStyle(e).visibility !== 'hidden' && (r.width < 44 || r.height < 44))
  .map(([e, r]) => `${e.localName}#${e.id} ${Math.round(r.width)}×${Math.round(r.height)}`)"""
OPEN_ALL = "() => document.querySelectorAll('main details').forEach((d) => { d.open = true; })"


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    game = quest_table(browser, base_url, PHONES, {"quests_per_level": 1})
    devices: dict[str, Device] = game.pop("devices")
    ids = game["ids"]
    players = {ids[k]: game["tokens"][k] for k in PHONES}
    yield {"base": base_url, **game, **devices,
           "game": Game(base_url, game["code"], game["host_token"], players)}
    close_all(devices.values())


def act(table: dict[str, Any], key: str, action: dict[str, Any]) -> None:
    token = table["host_token"] if key == "host" else table["tokens"][key]
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", token, action)


def key_of(table: dict[str, Any], player_id: str) -> str:
    return next(k for k, pid in table["ids"].items() if pid == player_id)


def moment(device: Device, text: str) -> None:
    """A moment in the device's strip that says `text`, in its first screenful."""
    item = strip(device).locator(".now-item", has_text=text)
    expect(item).to_be_visible()
    at_the_top(device.page)
    settled(device.page)
    box = item.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (text, box)


def small_controls(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL_CONTROLS)
    return found


def fresh_turn_of(table: dict[str, Any], key: str) -> None:
    """End turns over the API until it is `key`'s turn, not yet rolled, with no fight on."""
    for _ in range(8):
        state = state_of(table)
        turn = state["turn"]
        if state["combat"] is None and turn["player"] == table["ids"][key] and not turn["rolled"]:
            return
        active = key_of(table, state["turn"]["player"])
        if not state["turn"]["rolled"]:
            act(table, active, {"type": "roll"})
        act(table, active, {"type": "end_turn"})
    pytest.fail(f"{key}'s turn did not come")


def test_a_phone_opens_at_its_top_with_every_control_44_px(table: dict[str, Any]) -> None:
    for key in PHONES:
        device = table[key]
        page = device.page
        expect(strip(device)).to_be_visible()
        expect(page.locator("#ships")).to_be_visible()  # the cards below the first screenful came
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.reload()
        expect(page.locator("#trade")).to_be_visible()
        assert page.evaluate("window.scrollY") == 0, f"{key}: the page opened scrolled"
        page.evaluate(OPEN_ALL)
        assert small_controls(page) == [], key
    top_shot(table["anna"], "moments-anna-opens")


def test_a_declined_offer_is_told_to_whoever_made_it(table: dict[str, Any]) -> None:
    anna, bram = table["anna"], table["bram"]
    act(table, "host", {"type": "adjust", "player": table["ids"]["anna"], "resources": {"wood": 2},
                        "reason": "e2e"})
    anna.page.locator("#do-roll").click()
    expect(strip(anna)).to_contain_text("Your turn: sail up to")
    act(table, "anna", {"type": "offer", "to": table["ids"]["bram"], "give": {"wood": 1}, "get": {}})
    offer = state_of(table)["offers"][0]
    bram.page.locator(f"#do-decline-{offer['id']}").click()
    moment(anna, "Bram declined your offer (you give 1 Wood, you get nothing).")
    expect(strip(bram).locator(".now-item", has_text="weigerde")).to_have_count(0)  # Bram did it himself
    no_rule_in_the_strip(anna, bram)
    top_shot(anna, "moments-anna-declined")


def test_a_withdrawn_offer_is_told_to_whom_it_was_made(table: dict[str, Any]) -> None:
    anna, bram = table["anna"], table["bram"]
    act(table, "anna", {"type": "offer", "to": table["ids"]["bram"], "give": {"wood": 1}, "get": {}})
    offer = state_of(table)["offers"][0]
    expect(bram.page.locator(f"#now-offer-{offer['id']}")).to_be_visible()
    anna.page.locator(f"#withdraw-{offer['id']}").click()
    moment(bram, "Anna trok het aanbod aan jou in (jij krijgt 1 Hout, jij geeft niets).")
    expect(bram.page.locator(f"#now-offer-{offer['id']}")).to_have_count(0)
    top_shot(bram, "moments-bram-withdrawn-nl")


def test_offers_that_lapse_at_the_turns_end_are_told_to_both_sides(table: dict[str, Any]) -> None:
    anna, cas = table["anna"], table["cas"]
    act(table, "anna", {"type": "offer", "to": table["ids"]["cas"], "give": {"wood": 1}, "get": {}})
    expect(strip(cas).locator(".now-item.act", has_text="Anna offers you a trade")).to_be_visible()
    anna.page.locator("#end-turn").click()
    moment(cas, "Anna’s offer to you lapsed when the turn ended.")
    moment(anna, "Your offer to Cas lapsed when the turn ended.")
    top_shot(cas, "moments-cas-lapsed")


def test_the_hosts_correction_and_undo_are_told_to_whom_they_touched(table: dict[str, Any]) -> None:
    host, cas, anna = table["host"], table["cas"], table["anna"]
    page = host.page
    page.locator("#adjust-player").select_option(table["ids"]["cas"])
    page.get_by_label("Food").fill("3")
    page.get_by_label("Reason").fill("found a crate")
    page.get_by_role("button", name="Apply").click()
    moment(cas, "The host corrected your resources: +3 Food — “found a crate”.")
    top_shot(cas, "moments-cas-adjusted")
    undo_on_host(page)
    moment(cas, "The host took back: The host corrects Cas: +3 Food — “found a crate”. "
                "Your resources: −3 Food.")
    expect(strip(cas)).not_to_contain_text("The host corrected your resources")  # taken back
    expect(strip(anna)).not_to_contain_text("The host")  # it did not touch Anna
    top_shot(cas, "moments-cas-undone")


def test_an_update_leaves_an_open_card_its_half_made_offer_the_focus_and_the_scroll(
        table: dict[str, Any]) -> None:
    fresh_turn_of(table, "anna")
    supply(table["game"], table["ids"]["anna"])
    anna = table["anna"]
    page = anna.page
    page.locator("#do-roll").click()
    expect(strip(anna)).to_contain_text("Your turn: sail up to")
    unfold(page, "#offer-form")
    page.locator("#offer-to").select_option(table["ids"]["cas"])
    page.locator("[data-step='offer.give.wood'][data-d='1']").click()
    page.locator("[data-step='offer.give.wood'][data-d='1']").click()
    page.locator("[data-step='offer.get.iron'][data-d='1']").click()
    unfold(page, "#attack-form")
    page.locator("#attack-target").select_option(table["ids"]["bram"])
    page.locator("#offer-to").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -120)")
    page.locator("#offer-to").focus()
    settled(page)
    where = page.locator("#offer-form").bounding_box()
    version = state_of(table)["version"]
    for key in ("bram", "anna"):  # the second one also shows in Anna's strip
        act(table, "host", {"type": "adjust", "player": table["ids"][key], "resources": {"food": 1},
                            "reason": f"a gift for {PHONES[key][0]}"})
        version += 1
        expect(page.locator(".feed-lines li.newest")).to_have_attribute("data-version", str(version))
        expect(page.locator("#offer-form")).to_have_attribute("open", "")
        expect(page.locator("#attack-form")).to_have_attribute("open", "")
        expect(page.locator("#offer-to")).to_have_value(table["ids"]["cas"])
        expect(page.locator("#offer-to")).to_be_focused()
        expect(page.locator("#attack-target")).to_have_value(table["ids"]["bram"])
        expect(page.locator("#out-offer-give-wood")).to_have_text("2")
        expect(page.locator("#out-offer-get-iron")).to_have_text("1")
        settled(page)
        now = page.locator("#offer-form").bounding_box()
        assert where is not None and now is not None and abs(now["y"] - where["y"]) < 2, (where, now)
    anna.shot("moments-anna-offer-kept")
    expect(strip(anna)).to_contain_text("The host corrected your resources: +1 Food — “a gift for Anna”.")
    page.locator("#offer-send").click()
    wait_for(lambda: bool(state_of(table)["offers"]), "the offer")
    offer = state_of(table)["offers"][0]
    assert offer["to"] == table["ids"]["cas"] and offer["give"] == {"wood": 2} and offer["get"] == {"iron": 1}
    expect(page.locator("#out-offer-give-wood")).to_have_text("0")  # a sent offer empties its form
    act(table, "anna", {"type": "withdraw", "offer_id": offer["id"]})


def test_the_sail_counter_and_the_attack_form_say_what_they_mean(table: dict[str, Any]) -> None:
    page = table["anna"].page
    unfold(page, "#sail-form")
    expect(page.locator("#out-sail-1")).to_have_text("1")
    turn = state_of(table)["turn"]
    left = turn["allowance"] - turn["moved"].get("1", 0)  # T3: what ship 1 may still sail
    assert turn["player"] == table["ids"]["anna"] and left >= 1, turn
    plus = page.locator("[data-step='sail.1'][data-d='1']")
    for n in range(2, left + 1):
        plus.click()
        expect(page.locator("#out-sail-1")).to_have_text(str(n))  # each + shows at once
    expect(plus).to_be_disabled()  # never more than the rule allows: no count the server refuses
    for n in range(left - 1, 0, -1):
        page.locator("[data-step='sail.1'][data-d='-1']").click()
        expect(page.locator("#out-sail-1")).to_have_text(str(n))
    expect(page.locator("[data-step='sail.1'][data-d='-1']")).to_be_disabled()  # never under one square
    # T3 counts the squares of one's own roll: the player at turn sees theirs, another phone no count
    moved = turn["moved"].get("1", 0)
    expect(page.locator(".sail-row > span").first).to_have_text(f"Ship 1 · {moved}/{turn['allowance']}")
    bram = table["bram"].page
    unfold(bram, "#sail-form")
    expect(bram.locator(".sail-row > span").first).to_have_text("Schip 1")
    rules = page.locator("#attack-rules")
    expect(rules).to_contain_text("C1 · Your ship lies right next to the other")
    expect(rules).to_contain_text("C2 · ")
    expect(page.locator("#attack-form")).to_contain_text("Their ship")
    words = table["bram"].page.evaluate("""async (code) => {
      const R = await import('/js/logic/quest1607.js');
      const F = await import('/js/logic/format.js');
      const T = await import('/js/logic/quest1607_table.js');
      const { t } = await import('/js/i18n.js');
      const ruleset = await (await fetch(`/api/games/${code}/ruleset`)).json();
      const me = { id: 'p1', name: 'A', resources: {}, ships: [{ number: 1, sails: 1 }] };
      const state = (moved) => ({ phase: 'playing', players: [me], offers: [], combat: null, event: null,
        turn: { player: 'p1', rolled: true, moved: { 1: moved }, allowance: 3 } });
      return { one: F.explain(R.canSail(state(2), 'p1', 1, 2)),
               two: F.explain(R.canSail(state(1), 'p1', 1, 3)), good: T.goodName(ruleset, 'pepper'),
               load: t('step_load', { n: 1 }), deliver: t('step_deliver', { n: 1 }) };
    }""", table["code"])
    assert words == {"one": "T3 · Hoogstens 1 vakje deze beurt voor dit schip.",
                     "two": "T3 · Hoogstens 2 vakjes deze beurt voor dit schip.",
                     "good": "Peper", "load": "Laad op schip 1", "deliver": "Lever af met schip 1"}


def test_while_a_surrender_is_offered_nobody_sees_fire(table: dict[str, Any]) -> None:
    anna, bram, tv = table["anna"], table["bram"], table["tv"]
    fresh_turn_of(table, "anna")
    # before any quest is done: a done quest draws an event (E1), and one of the 20 (G3) bans fights
    assert state_of(table)["event"] is None
    anna.page.locator("#do-roll").click()
    expect(strip(anna)).to_contain_text("Your turn")
    unfold(anna.page, "#attack-form")
    anna.page.locator("#attack-target").select_option(table["ids"]["bram"])
    anna.page.locator("#attack-send").click()
    # the defender's strip offers Surrender from the first shot on
    expect(strip(bram).locator("#do-surrender")).to_be_visible()
    in_first_screenful(bram.page, "#do-surrender")
    expect(strip(bram)).to_contain_text("Anna valt je schip 1 aan! Anna schiet eerst.")
    expect(strip(anna).locator("#do-surrender")).to_have_count(0)
    top_shot(bram, "moments-bram-attacked-nl")
    for shooter in (anna, bram):  # a shot each: crew 3 cannot sink in one
        fire = strip(shooter).locator("#do-fire")
        expect(fire).to_be_enabled()
        version = state_of(table)["version"]
        fire.click()
        wait_for(lambda v=version: state_of(table)["version"] > v, "the shot")
    shots = state_of(table)["combat"]["shots"]
    assert len(shots) == 2
    for device in (anna, bram):  # numbered as the TV numbers them, newest first
        expect(device.page.locator("#fight ol.shots")).to_have_attribute("start", "2")
    expect(strip(bram).locator("#do-surrender")).to_be_visible()  # under fire again
    strip(bram).locator("#do-surrender").click()
    expect(bram.page.locator("dialog.ask")).to_contain_text("Overgave aanbieden? Als Anna aanneemt")
    bram.page.locator("#end-yes").click()
    expect(strip(anna).locator("#do-accept-surrender")).to_be_enabled()
    in_first_screenful(anna.page, "#now-surrender")
    expect(strip(bram)).to_contain_text("Je bood overgave aan — Anna beslist.")
    for device in (anna, bram):
        expect(device.page.locator("#fire, #do-fire, #surrender, #do-surrender")).to_have_count(0)
    expect(anna.page.locator("#fight .shooter")).to_have_count(0)  # nobody's shot while it is asked
    top_shot(anna, "moments-anna-surrender-offered")
    top_shot(bram, "moments-bram-surrendered-nl")
    tv.shot("moments-tv-surrender-offered")
    strip(anna).locator("#do-accept-surrender").click()
    for device in (anna, bram):
        expect(device.page.locator("#outcome")).to_be_visible()
        in_first_screenful(device.page, "#outcome")
    top_shot(anna, "moments-anna-outcome")


def _doable_quest(table: dict[str, Any], key: str) -> dict[str, Any]:
    """A quest of `key`'s level with no fight in it, bought over the API when none is in hand."""
    game, pid = table["game"], table["ids"][key]
    for _ in range(8):
        mine = own_entry(game, pid)
        doable = [q for q in mine["quests"] if q["level"] == mine["level"]
                  and all(r["kind"] != "win_fight" for r in q["requirements"])]
        if doable:
            return dict(doable[0])
        supply(game, pid)
        game.ok(game.players[pid], {"type": "buy_quest", "level": mine["level"]})
    pytest.fail(f"no quest for {key} without a fight")


def test_a_quest_done_tells_what_opens_next_and_the_event_tells_each_phone_its_share(
        table: dict[str, Any]) -> None:
    anna, bram = table["anna"], table["bram"]
    page = anna.page
    quest = _doable_quest(table, "anna")
    for index, requirement in enumerate(quest["requirements"]):  # the steps on the board, tapped on the phone
        step = page.locator(f"#step-{quest['id']}-{index}")
        if requirement["kind"] == "cargo":
            expect(step).to_have_text("Load onto ship 1")
            step.click()
            expect(step).to_have_text("Deliver from ship 1")
            expect(page.locator("#ship-1 .goods")).to_have_text(f"Goods: {requirement['name']['en']}")
            step.click()
        if requirement["kind"] == "visit":
            step.click()
        expect(step).to_have_count(0)
    _meet_without_handing_in(table, quest)
    complete = page.locator(f"#complete-{quest['id']}")
    expect(complete).to_be_enabled()
    seen = state_of(table)["version"]
    complete.click()
    state = wait_for_version(table["base"], table["code"], seen)  # the tap goes over Anna's socket
    ruleset = api(table["base"], "GET", f"/api/games/{table['code']}/ruleset")
    title = next(q["title"]["en"] for q in ruleset["quests"] if q["id"] == quest["card"])
    event = state["event"]
    moment(anna, f"Quest done: “{title}” (Bronze). Silver quests are open now: buy one and carry it out.")
    told = f"Event {event['id']} · {event['title']['en']}: {event['text']['en']}"
    expect(strip(anna)).to_contain_text(told)
    moment(bram, f"Gebeurtenis {event['id']} · {event['title']['nl']}: {event['text']['nl']}")
    expect(strip(bram)).not_to_contain_text("Quest voltooid")  # not Bram's quest
    top_shot(anna, "moments-anna-quest-done")
    top_shot(bram, "moments-bram-event-nl")
    table["tv"].shot("moments-tv-quest-done")


def _meet_without_handing_in(table: dict[str, Any], quest: dict[str, Any]) -> None:
    """What a quest asks besides the steps on the board: resources, a ship's level, a fleet."""
    game, pid = table["game"], table["ids"]["anna"]
    token = game.players[pid]
    for requirement in quest["requirements"]:
        kind = requirement["kind"]
        while kind == "ship_level" and max(
                s[requirement["part"]] for s in own_entry(game, pid)["ships"]) < requirement["at_least"]:
            supply(game, pid)
            game.ok(token, {"type": "upgrade", "ship": 1, "part": requirement["part"]})
        while kind == "fleet" and len(own_entry(game, pid)["ships"]) < requirement["ships"]:
            supply(game, pid)
            game.ok(token, {"type": "upgrade", "ship": 1, "part": "crew"})
    supply(game, pid)


def test_the_last_step_to_win_and_who_won_on_every_phone(table: dict[str, Any]) -> None:
    game, pid = table["game"], table["ids"]["anna"]
    for _ in range(60):  # Anna works through Silver and Gold on her turns; the others pass
        state = state_of(table)
        active = state["turn"]["player"]
        if active == pid and own_entry(game, pid)["level"] == "done" and not state["turn"]["rolled"]:
            break
        if state["combat"] is None and not state["turn"]["rolled"]:
            game.ok(game.players[active], {"type": "roll"})
        if active == pid and own_entry(game, pid)["level"] != "done":
            meet(game, pid, _doable_quest(table, "anna"))
        game.ok(game.players[active], {"type": "end_turn"})
    else:
        pytest.fail("Anna did not complete Gold")
    anna, bram, cas = table["anna"], table["bram"], table["cas"]
    expect(strip(bram)).to_contain_text("Anna is aan de beurt")
    win = strip(anna).locator("#now-win")
    expect(win).to_contain_text("Every Gold quest is done: sail a ship to the edge of the map")
    expect(win.locator("#do-edge")).to_be_disabled()  # roll first (T1), said right under it
    expect(win.locator("#do-edge-why")).to_contain_text("T1")
    strip(anna).locator("#do-roll").click()
    expect(win.locator("#do-edge")).to_be_enabled()
    in_first_screenful(anna.page, "#do-edge")
    top_shot(anna, "moments-anna-last-step")
    win.locator("#do-edge").click()
    anna.page.locator("#end-yes").click()  # asked first: this ends the game (views/seats.js)
    moment(anna, "You won! The game is over.")
    moment(bram, "Het spel is afgelopen: Anna heeft gewonnen.")
    moment(cas, "The game is over: Anna won.")
    for device in (anna, bram, cas):  # no turn, no bar, no form, nothing to tap after the end
        page = device.page
        gone = ".actionbar, #trade, #sail-form, #attack-form, #dicebox, seat-move *"
        expect(page.locator(gone)).to_have_count(0)
        expect(page.locator("main button, main select, main input")).to_have_count(0)
        text = strip(device).inner_text()
        assert not re.search(r"Round|Ronde|turn|beurt", text), (device.name, text)
        assert small_controls(page) == []
    top_shot(anna, "moments-anna-won")
    top_shot(bram, "moments-bram-over-nl")
    table["tv"].shot("moments-tv-won")
