"""Quest 1607's shared devices at each moment that matters, in real Chromium.

Three phones (Anna, Bram, Cas), the host's phone, a TV at 1920 × 1080 in English, another at
1280 × 720 in Dutch, and a dice tablet. At each moment — an offer declined, withdrawn or lapsed, the
host's correction and undo, a quest done and the event it draws, each stage of a fight (fire,
surrender, keep, fish) and how it ended, the winner — the TV's headline says what happened, and in a
fight whom the table waits for; both TVs show it whole (nothing cut, nothing off the screen, nothing
under 18 px: test_layout.py's check). The dice tablet shows a fight's dice with what they mean, and
after the end who won. The host panel says what its undo and correction changed, lists only the
resources a player can hold, and keeps a half-typed reason through an update. Where the dice decide,
the test follows whatever the server rolled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.api.client import Game
from tests.api.test_whole_game import advance, meet, play_to_the_winner, supply
from tests.fixtures_server import wait_for

from .helpers import (
    Device,
    act,
    close_all,
    fire_until,
    keep_choice,
    quest_table,
    settled,
    state_of,
    undo_on_host,
)
from .test_layout import CROPPED

pytestmark = pytest.mark.e2e

PHONES = {"anna": ("Anna", "netherlands", "en-GB"), "bram": ("Bram", "england", "en-GB"),
          "cas": ("Cas", "spain", "en-GB")}
TV_SMALL = {"width": 1280, "height": 720}
TABLET = {"width": 820, "height": 1180}
NO_FIGHT = ("win_fight",)


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    made = quest_table(browser, base_url, PHONES, {"quests_per_level": 1})
    devices: dict[str, Device] = made.pop("devices")
    devices["tv_nl"] = Device(browser, base_url, "tv_nl", "nl-NL", TV_SMALL)
    devices["dice"] = Device(browser, base_url, "dice", "en-GB", TABLET)
    devices["tv_nl"].goto(f"/screen/{made['code']}")
    devices["dice"].goto(f"/dice/{made['code']}")
    game = Game(base_url, made["code"], made["host_token"],
                {made["ids"][k]: made["tokens"][k] for k in PHONES})
    yield {"base": base_url, "game": game, **made, **devices}
    close_all(devices.values())


def news(device: Device) -> Locator:
    """The TV's headline: what just happened."""
    return device.page.locator("#q-news")


def whole(table: dict[str, Any], label: str) -> None:
    """Both TVs show everything whole (no crop, nothing off the screen, nothing small); shoot them."""
    for key in ("tv", "tv_nl"):
        device: Device = table[key]
        device.page.wait_for_function("() => !document.querySelector('.rolling')")  # CSP: no eval
        found = device.page.evaluate(CROPPED)
        size = device.page.viewport_size
        problems = [f"{key} {label}: {kind}: {line}" for kind, lines in found.items() for line in lines]
        assert not problems, "\n".join(problems)
        device.shot(f"tv-{label}-{size['width'] if size else ''}")


def active_key(table: dict[str, Any]) -> str:
    pid = state_of(table)["turn"]["player"]
    return next(k for k, v in table["ids"].items() if v == pid)


def test_the_tv_opens_on_whose_turn_it_is(table: dict[str, Any]) -> None:
    tv, tv_nl = table["tv"], table["tv_nl"]
    expect(tv.page.locator("h1")).to_contain_text("Anna’s turn")
    expect(tv.page.locator(".sp.active .tag.now")).to_have_text("▶ Playing")
    expect(tv_nl.page.locator("h1")).to_contain_text("Anna is aan de beurt")
    act(table, "anna", {"type": "roll"})
    expect(tv.page.locator("#q-roll")).to_contain_text("Brought")
    expect(table["dice"].page.locator(".brought")).to_be_visible()
    whole(table, "rolled")


OUTCOME = """async () => {
  const T = await import('/js/logic/quest1607_table.js');
  const state = { players: [{ id: 'p1', name: 'Anna' }, { id: 'p2', name: 'Bram' }] };
  const end = (lost) => ({ how: 'sunk', winner: 'p1', loser: 'p2', ship: 1, handed: {}, skip: 1,
                           kept: { food: 2 }, fished: { wood: 2 }, lost });
  return [T.outcomeText(end({}), state), T.outcomeText(end({ iron: 1 }), state)];
}"""


def test_a_sinking_is_never_told_as_nothing_sank(table: dict[str, Any]) -> None:
    """What nobody kept nor fished went down with the ship: told when there was some, else not at all."""
    assert table["tv"].page.evaluate(OUTCOME) == [
        "Anna won: Bram’s ship 1 sank. Bram kept 2 Food; Anna fished 2 Wood out of the water. "
        "Bram skips the next turn.",
        "Anna won: Bram’s ship 1 sank. Bram kept 2 Food; Anna fished 2 Wood out of the water. "
        "1 Iron went down with the ship. Bram skips the next turn."]
    assert table["tv_nl"].page.evaluate(OUTCOME) == [
        "Anna won: schip 1 van Bram is gezonken. Bram hield 2 Voedsel; Anna viste 2 Hout op. "
        "Bram slaat de volgende beurt over.",
        "Anna won: schip 1 van Bram is gezonken. Bram hield 2 Voedsel; Anna viste 2 Hout op. "
        "1 IJzer ging met het schip ten onder. Bram slaat de volgende beurt over."]


CHART = """async () => {
  const C = await import('/js/charts.js');
  const S = await import('/js/logic/stats.js');
  const names = ['A', 'Alexandrina Victoria Saxe-Coburg', 'Bram', 'Cas'];
  const series = names.map((name, k) => ({ name, colour: '#56B4E9', values: [0, k + 2, 7 - k] }));
  const box = document.createElement('div');
  box.innerHTML = C.lineChart({ title: 'Resources', x: ['1', '2', '3'], series });
  document.body.append(box);
  const size = (r) => `${Math.round(r.width)}×${Math.round(r.height)}`;
  const sizes = (selector, measure) => [
    ...new Set([...box.querySelectorAll(selector)].map((e) => size(measure(e))))];
  const seen = {
    ticks: [...box.querySelectorAll('svg[role=img] > text[text-anchor=end]')].map((t) => t.textContent),
    markers: sizes('svg[role=img] .marker', (m) => m.getBBox()),
    legend: sizes('.legend svg', (s) => s.getBoundingClientRect()),
    legendMarkers: sizes('.legend .marker', (m) => m.getBBox()),
    nice: [[0, 7], [0, 3], [0, 23], [0, 100], [-3, 7]].map(([low, high]) => S.niceTicks(low, high)),
  };
  box.remove();
  return seen;
}"""


def test_the_chart_marks_its_axis_evenly_and_draws_every_marker_alike(table: dict[str, Any]) -> None:
    seen = table["tv"].page.evaluate(CHART)
    assert seen["ticks"] == ["0", "2", "4", "6", "8"]  # a count up to 7: steps of 2, the top one above it
    assert seen["markers"] == ["10×10"] and seen["legendMarkers"] == ["10×10"]  # one square, any shape
    assert seen["legend"] == ["40×14"]  # the legend's keys alike, however long each name
    assert seen["nice"] == [[0, 2, 4, 6, 8], [0, 1, 2, 3], [0, 5, 10, 15, 20, 25], [0, 20, 40, 60, 80, 100],
                            [-5, 0, 5, 10]]


def test_an_offer_declined_withdrawn_or_lapsed_makes_the_headline(table: dict[str, Any]) -> None:
    tv, tv_nl = table["tv"], table["tv_nl"]
    ids = table["ids"]
    act(table, "host", {"type": "adjust", "player": ids["anna"], "resources": {"wood": 3},
                        "reason": "a gift"})
    act(table, "host", {"type": "adjust", "player": ids["bram"], "resources": {"cotton": 2},
                        "reason": "a gift"})
    act(table, "anna", {"type": "offer", "to": ids["bram"], "give": {"wood": 1}, "get": {"cotton": 1}})
    offer = state_of(table)["offers"][-1]["id"]
    act(table, "bram", {"type": "decline", "offer_id": offer})
    expect(news(tv)).to_contain_text("Bram declined Anna’s offer (1 Wood for 1 Cotton)")
    expect(news(tv_nl)).to_contain_text("Bram weigerde het aanbod van Anna (1 Hout voor 1 Katoen)")
    whole(table, "offer-declined")
    act(table, "anna", {"type": "offer", "to": ids["cas"], "give": {"wood": 1}, "get": {"cotton": 1}})
    offer = state_of(table)["offers"][-1]["id"]
    act(table, "anna", {"type": "withdraw", "offer_id": offer})
    expect(news(tv)).to_contain_text("Anna withdrew the offer to Cas (1 Wood for 1 Cotton)")
    act(table, "anna", {"type": "offer", "to": ids["bram"], "give": {"wood": 1}, "get": {"cotton": 1}})
    act(table, "anna", {"type": "end_turn"})
    expect(news(tv)).to_contain_text("The open offer lapsed as the turn ended")
    expect(news(tv_nl)).to_contain_text("Het open aanbod verviel aan het eind van de beurt")
    expect(tv.page.locator("h1")).to_contain_text("Bram’s turn")
    whole(table, "offer-lapsed")


def test_the_hosts_correction_and_undo_say_what_changed(table: dict[str, Any]) -> None:
    tv, host = table["tv"], table["host"]
    page = host.page
    page.locator("#adjust-player").select_option(table["ids"]["cas"])
    grid = page.locator(".adjust-grid label")
    # the basic resources and Spain's own (wine), not the other lands' six
    expect(grid).to_have_count(6)
    expect(page.locator(".adjust-grid")).to_contain_text("Wine")
    expect(page.locator(".adjust-grid")).not_to_contain_text("Spices")
    page.get_by_label("Food").fill("3")
    page.get_by_label("Reason").fill("found a crate")
    page.get_by_role("button", name="Apply").click()
    told = "The host corrected Cas: +3 Food — “found a crate”"
    expect(news(tv)).to_contain_text(told)
    told_nl = "De spelleider corrigeerde Cas: +3 Voedsel — „found a crate”"
    expect(news(table["tv_nl"])).to_contain_text(told_nl)
    expect(page.locator("#host-moment")).to_contain_text(told)
    expect(page.locator("#toast")).to_contain_text(told)
    expect(page.get_by_label("Reason")).to_have_value("")
    whole(table, "host-adjust")
    page.evaluate("window.scrollTo(0, 0)")
    undo_on_host(page)
    undone = "The host took back: The host corrects Cas: +3 Food — “found a crate” (Cas −3 Food)"
    expect(news(tv)).to_contain_text(undone)
    expect(page.locator("#host-moment")).to_contain_text(undone)
    expect(page.locator("#toast")).to_contain_text(undone)
    whole(table, "host-undo")
    host.shot("tv-moments-host-undo")


def test_a_half_typed_reason_survives_an_update_on_the_host_panel(table: dict[str, Any]) -> None:
    page = table["host"].page
    page.locator("#adjust-player").select_option(table["ids"]["bram"])
    reason = page.get_by_label("Reason")
    reason.fill("the storm took")
    version = state_of(table)["version"]
    act(table, "host", {"type": "adjust", "player": table["ids"]["cas"], "resources": {"iron": 1},
                        "reason": "meanwhile"})
    expect(page.locator("#host-moment")).to_contain_text("meanwhile")
    assert state_of(table)["version"] == version + 1
    expect(reason).to_have_value("the storm took")
    expect(reason).to_be_focused()
    expect(page.locator("#adjust-player")).to_have_value(table["ids"]["bram"])
    reason.fill("")


def test_the_dice_link_is_a_finger_sized_target(table: dict[str, Any]) -> None:
    page = table["host"].page
    page.locator("#dice-make").click()
    link = page.locator("#dice-url")
    expect(link).to_be_visible()
    settled(page)
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44, box


def _doable_quest(table: dict[str, Any], key: str) -> dict[str, Any]:
    """A quest card of the player's level with no fight in it (buying one when there is none)."""
    game: Game = table["game"]
    pid = table["ids"][key]
    for _ in range(8):
        me = next(p for p in game.state(game.players[pid])["players"] if p["id"] == pid)
        quest = next((q for q in me["quests"] if q["level"] == me["level"]
                      and not any(r["kind"] in NO_FIGHT for r in q["requirements"])), None)
        if quest:
            return quest
        supply(game, pid)
        game.ok(game.players[pid], {"type": "buy_quest", "level": me["level"]})
    pytest.fail("no quest without a fight")


def _to_the_turn_of(table: dict[str, Any], key: str) -> None:
    """End turns (rolling first) until it is `key`'s turn, rolled, with no fight on."""
    for _ in range(8):
        state = state_of(table)
        who = active_key(table)
        if not state["turn"]["rolled"]:
            act(table, who, {"type": "roll"})
        if who == key:
            return
        act(table, who, {"type": "end_turn"})
    pytest.fail(f"{key}'s turn never came")


def test_a_surrender_offered_tells_whom_the_table_waits_for(table: dict[str, Any]) -> None:
    tv, tv_nl, dice = table["tv"], table["tv_nl"], table["dice"]
    ids = table["ids"]
    _to_the_turn_of(table, "anna")
    act(table, "anna", {"type": "attack", "ship": 1, "target": ids["bram"], "target_ship": 1})
    wait = tv.page.locator("#q-wait")
    expect(wait).to_contain_text(re.compile(r"Waiting for Anna to fire: \d\+ hits"))
    expect(wait).to_contain_text("on the hit table")
    expect(tv_nl.page.locator("#q-wait")).to_contain_text("Wacht op Anna: vuren")
    expect(dice.page.locator("#fight-wait")).to_contain_text("Waiting for Anna to fire")
    expect(dice.page.locator(".fight-dice")).to_contain_text("Anna fires first")
    whole(table, "fight-fire")
    dice.shot("dice-fight-first")
    act(table, "anna", {"type": "fire"})
    shot = dice.page.locator("#fight-shot")
    expect(shot).to_have_text("Shot 1: Anna")
    expect(dice.page.locator("#fight-pair")).to_contain_text("To hit")
    expect(dice.page.locator("#fight-pair")).to_contain_text(re.compile(r"needed \d\+"))
    expect(dice.page.locator(".fight-verdict")).to_have_text(re.compile(r"^(Hit! .+|Miss)$"))
    dice.shot("dice-fight-shot")
    state = fire_until(table, ("firing",))
    if state["combat"] is None:
        pytest.skip("the first shot sank Bram's ship")
    act(table, "bram", {"type": "surrender"})
    expect(wait).to_contain_text("Bram offers to surrender — waiting for Anna to accept")
    expect(tv_nl.page.locator("#q-wait")).to_contain_text("Bram biedt overgave aan — wacht op Anna")
    expect(tv.page.locator("#q-fight")).not_to_contain_text("to fire")
    expect(dice.page.locator("#fight-wait")).to_contain_text("waiting for Anna to accept")
    whole(table, "fight-surrender")
    act(table, "anna", {"type": "accept_surrender"})
    outcome = tv.page.locator("#q-outcome")
    expect(outcome).to_contain_text("Anna won: Bram surrendered and handed over")
    expect(outcome).to_contain_text("Bram skips the next turn.")
    expect(news(tv)).to_contain_text("Anna won the fight against Bram")
    whole(table, "fight-surrendered")


def test_a_sinking_tells_whom_the_table_waits_for_to_keep_and_to_fish(table: dict[str, Any]) -> None:
    tv, tv_nl, dice = table["tv"], table["tv_nl"], table["dice"]
    ids = table["ids"]
    act(table, "host", {"type": "adjust", "player": ids["anna"], "resources": {"coal": 10, "iron": 10},
                        "reason": "guns"})
    act(table, "host", {"type": "adjust", "player": ids["cas"], "resources": {"food": 3, "wood": 3},
                        "reason": "cargo"})
    for _ in range(5):
        act(table, "anna", {"type": "upgrade", "ship": 1, "part": "cannons"})
    act(table, "anna", {"type": "attack", "ship": 1, "target": ids["cas"], "target_ship": 1})
    state = fire_until(table, ("salvage", "fishing"))
    combat = state["combat"]
    assert combat is not None and combat["stage"] == "salvage", combat
    sunk = next(k for k, v in ids.items() if v == combat["sunk"])
    winner = next(k for k, v in ids.items() if v == combat["winner"])
    sunk_name, winner_name = PHONES[sunk][0], PHONES[winner][0]
    wait = tv.page.locator("#q-wait")
    expect(wait).to_contain_text(f"Waiting for {sunk_name} to choose the {combat['keep']} resources to keep")
    expect(tv.page.locator(".q-sunk")).to_contain_text(f"{sunk_name}’s ship 1 sinks!")
    expect(tv.page.locator(".q-sunk")).to_contain_text(f"{sunk_name} skips the next turn.")
    expect(tv_nl.page.locator("#q-wait")).to_contain_text(f"Wacht op {sunk_name}: kiezen welke")
    expect(dice.page.locator("#fight-wait")).to_contain_text(f"Waiting for {sunk_name} to choose")
    whole(table, "fight-keep")
    dice.shot("dice-fight-keep")
    held = next(p for p in state["players"] if p["id"] == combat["sunk"])["resources"]
    act(table, sunk, {"type": "keep", "resources": keep_choice(held, combat["keep"])})
    water = state_of(table)["combat"]["water"]
    n = min(2, sum(water.values()))
    expect(wait).to_contain_text(f"Waiting for {winner_name} to fish {n} resources out of the water")
    whole(table, "fight-fish")
    fish, want = {}, n
    for resource, k in water.items():
        if want and k:
            fish[resource] = min(k, want)
            want -= fish[resource]
    act(table, winner, {"type": "fish", "resources": fish})
    outcome = tv.page.locator("#q-outcome")
    expect(outcome).to_contain_text(f"{winner_name} won: {sunk_name}’s ship 1 sank.")
    expect(outcome).to_contain_text("fished")
    expect(outcome).to_contain_text(f"{sunk_name} skips the next turn.")
    whole(table, "fight-sunk-outcome")


def test_a_quest_done_and_the_event_it_draws_make_the_headline(table: dict[str, Any]) -> None:
    tv, tv_nl = table["tv"], table["tv_nl"]
    _to_the_turn_of(table, "anna")
    meet(table["game"], table["ids"]["anna"], _doable_quest(table, "anna"))
    state = state_of(table)
    event = state["event"]
    assert event is not None
    expect(news(tv)).to_contain_text("Anna completed the Bronze quest")
    expect(news(tv)).to_contain_text("Silver quests open next for Anna")
    expect(news(tv)).to_contain_text(f"Event {event['id']} “{event['title']['en']}”")
    expect(news(tv_nl)).to_contain_text("Anna voltooide de Brons-quest")
    expect(tv.page.locator("#q-event")).to_contain_text(event["title"]["en"])
    whole(table, "quest-and-event")


def test_the_winner_on_every_shared_device_and_no_turn_after_the_end(table: dict[str, Any]) -> None:
    tv, tv_nl, dice, host = table["tv"], table["tv_nl"], table["dice"], table["host"]
    game: Game = table["game"]
    anna = table["ids"]["anna"]
    for _ in range(60):  # Anna works through her quests (the others only roll), up to her last step
        state = state_of(table)
        me = next(p for p in state["players"] if p["id"] == anna)
        if me["level"] == "done":
            break
        key = active_key(table)
        if not state["turn"]["rolled"]:
            act(table, key, {"type": "roll"})
        if key == "anna":
            advance(game, anna)
        if next(p for p in state_of(table)["players"] if p["id"] == anna)["level"] != "done":
            act(table, key, {"type": "end_turn"})
    else:
        pytest.fail("Anna never finished her quests")
    expect(news(tv)).to_contain_text("every quest done: sailing a ship to the edge of the map wins")
    whole(table, "quests-done")
    act(table, "anna", {"type": "end_turn"})
    _to_the_turn_of(table, "anna")
    last_step = "Anna has completed every quest: sailing a ship to the edge of the map wins the game"
    expect(news(tv)).to_contain_text(last_step)
    whole(table, "last-step")
    act(table, "anna", {"type": "reach_edge", "ship": 1})
    wait_for(lambda: state_of(table)["phase"] == "finished", "the end")
    expect(tv.page.locator("h1")).to_have_text("★ Anna wins!")
    expect(news(tv)).to_contain_text("Anna sailed ship 1 to the edge of the map and won the game!")
    expect(tv_nl.page.locator("h1")).to_have_text("★ Anna wint!")
    for device in (tv, tv_nl):  # after the end: no turn, no round, nobody playing
        page = device.page
        expect(page.locator(".tag.now", has_text="▶")).to_have_count(0)
        for part in ("#q-head", "#q-main", "#q-players"):
            expect(page.locator(part)).not_to_contain_text(re.compile("’s turn|aan de beurt|Round|Ronde"))
        expect(device.page.locator("#q-roll")).to_have_count(0)
        expect(device.page.locator(".sp.active")).to_contain_text("Anna")
    expect(tv.page.locator("#q-final")).to_contain_text("Anna")
    whole(table, "winner")
    expect(dice.page.locator("h1")).to_have_text("★ Anna wins!")
    expect(dice.page.locator("#dice-over")).to_have_text("The game is over: Anna won.")
    expect(dice.page.locator(".dice-device")).not_to_contain_text("’s turn")
    expect(dice.page.locator("#table-roll")).to_have_count(0)
    dice.shot("dice-winner")
    expect(host.page.locator("#host-winner")).to_have_text("Anna wins!")
    expect(host.page.locator("form")).to_have_count(0)


LONG_NAME = "Alexandra Montgomery-Whitfield"  # 30 characters, a name the lobby takes (up to 32)


def on_one_line(one: Locator, other: Locator) -> None:
    """The two elements' middles lie on the same line of text, once the page has its final layout."""
    settled(one.page)
    a, b = one.bounding_box(), other.bounding_box()
    assert a and b, (one, other)
    assert abs((a["y"] + a["height"] / 2) - (b["y"] + b["height"] / 2)) < min(a["height"], b["height"]) / 2, \
        (f"{one} and {other} are on different lines", a, b)


def test_a_long_winners_name_shows_whole_with_its_badge_on_the_small_tv(browser: Browser,
                                                                        base_url: str) -> None:
    """In the ranking after the end, a winner's 30-character name shows whole (#39 item 9: it was cut
    to "Alexa…", then to "Wilhel…" beside its badge): it wraps between its words beside its flag, and
    its ★ badge, whole, sits beside it or on a line of its own below."""
    game = Game.create(base_url, quests_per_level=1)
    hero = game.join(LONG_NAME, "england")
    game.join("Bram", "spain")
    game.ok(game.host, {"type": "start"})
    play_to_the_winner(game, hero)
    assert game.state()["winner"] == hero
    tv = Device(browser, base_url, "tv-long-name", "nl-NL", TV_SMALL)
    try:
        tv.goto(f"/screen/{game.code}")
        row = tv.page.locator("#q-final li", has_text="Winnaar")
        expect(row).to_be_visible()
        name, badge = row.locator("strong"), row.locator(".tag")
        expect(name).to_have_text(LONG_NAME)
        settled(tv.page)
        assert name.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), "the name is cut"
        box, tag, line, flag = (x.bounding_box() for x in (name, badge, row, row.locator(".swatch")))
        assert box and tag and line and flag
        assert flag["x"] + flag["width"] <= box["x"] + 1 and flag["y"] < box["y"] + box["height"], \
            ("the name is not beside its flag", flag, box)
        one_line = "t => t.offsetHeight < 2 * parseFloat(getComputedStyle(t).fontSize)"
        assert badge.evaluate(one_line), "the badge breaks"
        assert tag["x"] + tag["width"] <= line["x"] + line["width"] + 1, ("the badge sticks out", tag, line)
        tv.shot("tv-winner-long-name-1280")
    finally:
        close_all([tv])


def test_a_long_name_stays_beside_its_flag_on_the_small_tv(browser: Browser, base_url: str) -> None:
    """A player's card on the 1280 × 720 TV: a name too long for the card's line is cut beside its
    flag, never sent to a line of its own below the flag."""
    game = Game.create(base_url, quests_per_level=1)
    for name, land in ((LONG_NAME, "england"), ("Bram", "spain"), ("Cas", "portugal")):
        game.join(name, land)
    tv = Device(browser, base_url, "tv-long-card", "nl-NL", TV_SMALL)
    try:
        tv.goto(f"/screen/{game.code}")
        card = tv.page.locator(".sp", has_text=LONG_NAME)
        expect(card).to_be_visible()
        on_one_line(card.locator("header .swatch"), card.locator(".sp-name"))
        tv.shot("tv-long-name-card-1280")
    finally:
        close_all([tv])


def test_every_ship_stays_inside_its_players_card_on_the_small_dutch_tv(browser: Browser,
                                                                        base_url: str) -> None:
    """With few players the cards have height to spare, but Dutch's ship words ("Kanonnen 1 Zeilen 2
    Bemanning 3") are wider than a card on the 1280 × 720 TV: the ships give way to their numbers
    rather than stick out of the card."""
    game = Game.create(base_url)
    game.join("Anna", "netherlands")
    game.join("Bram", "spain")
    tv = Device(browser, base_url, "tv-ship-words", "nl-NL", TV_SMALL)
    try:
        tv.goto(f"/screen/{game.code}")
        expect(tv.page.locator(".sp .mini-ship")).to_have_count(2)
        sticking_out = tv.page.evaluate("""() => [...document.querySelectorAll('.sp')].filter((card) => {
          const box = card.getBoundingClientRect(), style = getComputedStyle(card);
          const right = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
          const ships = [...card.querySelectorAll('.mini-ship')];
          return ships.some((ship) => ship.getBoundingClientRect().right > right + 1);
        }).map((card) => card.innerText)""")
        assert sticking_out == [], sticking_out
        tv.shot("tv-ship-words-1280-nl")
    finally:
        close_all([tv])


def test_the_event_panel_signs_what_the_event_gave_and_took(browser: Browser, base_url: str) -> None:
    """The TV's event panel says "Bram +1 Food" as the headline does; it once said "Bram 1 Food"."""
    tv = Device(browser, base_url, "tv-event-panel", "en-GB", TV_SMALL)
    try:
        tv.goto("/")
        said = tv.page.evaluate("""async () => {
          const { EventPanel } = await import('/js/views/quest1607/screen_parts.js');
          const { render } = await import('/js/html.js');
          const words = { en: 'A gift and a loss', nl: 'Een gift en een verlies' };
          const state = { phase: 'playing', event: { id: 'G9', title: words, text: words },
                          players: [{ id: 'p1', name: 'Bram' }, { id: 'p2', name: 'Anna' }] };
          const events = [{ type: 'EventDrawn', event: 'G9', version: 7,
                            changes: { p1: { food: 1 }, p2: { wood: -2, iron: 1 } } }];
          const root = document.createElement('div');
          document.body.append(root);
          render(root, new EventPanel().markup({ state, events }));
          return [...root.querySelectorAll('.q-event-changes span')].map((s) => s.textContent);
        }""")
        assert said == ["Bram +1 Food", "Anna −2 Wood, +1 Iron"], said
    finally:
        tv.context.close()
