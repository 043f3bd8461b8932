"""A host who cannot slip, and the host who plays too, on Quest 1607's host panel in real Chromium.

The host's laptop (1280 × 800), two phones and the TV. One tap on Undo only asks (a question that
says what it would take back); a confirmed undo with a reason is told on the TV with its reason. The
correction form says it adds or removes, shows the totals it will leave as the host types and keeps
a refusal beside itself; a half-typed correction survives a player's move, and a keystroke redraws
only the form's totals. A host who joins as a player too reaches the host panel and their own phone
page from each other, and stays on the host panel when they start the game there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.client import Game

from .helpers import Device, api, close_all, newest, quest_table, settled, state_of
from .test_axe import told, violations

pytestmark = pytest.mark.e2e

PHONES = {"anna": ("Anna", "netherlands", "en-GB"), "bram": ("Bram", "england", "en-GB")}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/shots/host")


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    made = quest_table(browser, base_url, PHONES)
    devices: dict[str, Device] = made.pop("devices")
    devices["host"].page.set_viewport_size(LAPTOP)
    yield {"base": base_url, **made, **devices}
    close_all(devices.values())


def host_act(table: dict[str, Any], action: dict[str, Any]) -> None:
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", table["host_token"], action)


def wood(table: dict[str, Any], key: str) -> int:
    player = next(p for p in state_of(table)["players"] if p["id"] == table["ids"][key])
    return int(player["resources"].get("wood", 0))


def undo_button(page: Page) -> Any:
    return page.get_by_role("button", name="Undo last action")


def test_one_tap_on_undo_only_asks_and_says_what_it_would_take_back(table: dict[str, Any]) -> None:
    page = table["host"].page
    host_act(table, {"type": "adjust", "player": table["ids"]["bram"], "resources": {"wood": 2},
                     "reason": "a crate"})
    before = state_of(table)
    expect(undo_button(page)).to_be_enabled()
    undo_button(page).click()
    question = page.locator("#undo-ask")
    expect(question).to_be_visible()
    expect(question.locator("#undo-q")).to_have_text(
        "Take back “The host corrects Bram: +2 Wood — ‘a crate’”?")  # quotes within quotes
    expect(question.get_by_role("button", name="Cancel")).to_be_focused()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "undo-question-1280x800.png"))
    assert state_of(table) == before  # the tap changed nothing
    question.get_by_role("button", name="Cancel").click()
    expect(question).to_have_count(0)
    undo_button(page).click()
    expect(question).to_be_visible()
    page.keyboard.press("Escape")  # Esc says no as well
    expect(page.locator("#undo-ask")).to_have_count(0)
    assert state_of(table) == before


def test_a_confirmed_undo_with_its_reason_is_told_on_the_tv(table: dict[str, Any]) -> None:
    page, tv = table["host"].page, table["tv"].page
    had = wood(table, "bram")
    version = state_of(table)["version"]
    undo_button(page).click()
    question = page.locator("#undo-ask")
    question.get_by_label("Why").fill("the wrong player")
    question.get_by_role("button", name="Yes, take it back").click()
    expect(question).to_have_count(0)
    told = "The host took back: The host corrects Bram: +2 Wood — “a crate” — why: “the wrong player”"
    expect(tv.locator(".feed-big .feed-lines li").first).to_have_text(told)
    expect(tv.locator("#q-news")).to_contain_text("why: “the wrong player”")
    expect(newest(table["anna"])).to_have_text(told)
    assert state_of(table)["version"] == version + 1
    assert wood(table, "bram") == had - 2
    expect(undo_button(page)).to_be_disabled()  # one step back, never two


def test_the_correction_shows_its_totals_and_keeps_a_refusal_beside_it(table: dict[str, Any]) -> None:
    page = table["host"].page
    form = page.locator("#host-adjust")
    expect(form).to_contain_text("Add or remove")
    page.locator("#adjust-player").select_option(table["ids"]["bram"])
    had = wood(table, "bram")
    expect(form.locator("label", has_text="Wood")).to_contain_text(f"(has {had})")
    field = page.get_by_label("Wood")
    expect(field).to_have_value("")
    field.fill("2")
    totals = page.locator("#adjust-totals")
    expect(totals).to_have_text(f"After: Wood: {had} → {had + 2}")
    field.fill(str(-(had + 1)))
    expect(totals).to_have_text(f"After: Wood: {had} → −1")
    why = form.locator("#adjust-why")
    expect(why).to_have_text(f"A stock cannot go below zero: Wood: {had} → −1.")
    page.get_by_label("Reason").fill("counted twice")
    apply = form.get_by_role("button", name="Apply")
    expect(apply).to_be_disabled()
    version = state_of(table)["version"]
    page.get_by_label("Reason").press("Enter")  # nothing goes while the form is wrong
    expect(why).to_be_visible()
    expect(field).to_have_value(str(-(had + 1)))
    assert state_of(table)["version"] == version
    field.fill(str(-had) if had else "1")
    expect(why).to_have_count(0)
    expect(apply).to_be_enabled()
    apply.click()
    expect(page.get_by_label("Reason")).to_have_value("")
    assert state_of(table)["version"] == version + 1


def test_a_half_typed_correction_survives_a_players_move(table: dict[str, Any]) -> None:
    page = table["host"].page
    page.locator("#adjust-player").select_option(table["ids"]["bram"])
    had = wood(table, "bram")
    page.get_by_label("Wood").fill("3")
    reason = page.get_by_label("Reason")
    reason.fill("the storm")
    # a keystroke redraws only the form's totals: the rest of the page is not drawn again (once the
    # parts that load after the first screenful have come and drawn it: the page is busy till then)
    expect(page.locator("#app")).to_have_attribute("aria-busy", "false")
    page.evaluate("document.querySelector('#seed-hash').textContent = 'untouched'")
    reason.press_sequentially(" took")
    page.get_by_label("Wood").press_sequentially("1")
    expect(page.locator("#adjust-totals")).to_have_text(f"After: Wood: {had} → {had + 31}")
    expect(page.locator("#seed-hash")).to_have_text("untouched")
    reason.focus()
    story = newest(table["host"]).inner_text()
    active = state_of(table)["turn"]["player"]
    key = next(k for k, pid in table["ids"].items() if pid == active)
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", table["tokens"][key], {"type": "roll"})
    expect(newest(table["host"])).not_to_have_text(story)  # the move reached the host panel
    expect(page.locator("#seed-hash")).to_have_text("untouched")  # a card the move leaves alone is not drawn
    expect(reason).to_have_value("the storm took")
    expect(reason).to_be_focused()
    expect(page.get_by_label("Wood")).to_have_value("31")
    expect(page.locator("#adjust-player")).to_have_value(table["ids"]["bram"])
    expect(page.locator("#adjust-totals")).to_have_text(f"After: Wood: {had} → {had + 31}")


# Serenissima and Voyagers' Venture: two players, started, and a change that can be taken back (a
# sealed bid; the host's gold count), which names this player in the story.
OTHER_GAMES = {
    "serenissima": (("venice", "genoa"), lambda anna: {"type": "bid", "ducats": 50}, "anna"),
    "voyagers": (("red", "blue"), lambda anna: {"type": "set_gold", "player": anna, "gold": 3}, "host"),
}


def started(base_url: str, name: str) -> tuple[Game, str]:
    """A game of `name` that Anna and Bram play, started; returns it and Anna's id."""
    game = Game.create(base_url, name)
    colours = OTHER_GAMES[name][0]
    anna = game.join("Anna", colours[0])
    game.join("Bram", colours[1])
    game.ok(game.host, {"type": "start"})
    return game, anna


@pytest.mark.parametrize("name", sorted(OTHER_GAMES))
def test_the_other_games_undo_asks_first_too(browser: Browser, base_url: str, name: str) -> None:
    _, change, by = OTHER_GAMES[name]
    game, anna = started(base_url, name)
    game.ok(game.host if by == "host" else game.players[anna], change(anna))
    laptop = Device(browser, base_url, f"host-{name}", "en-GB", LAPTOP)
    try:
        laptop.remember(game.code, {"host": game.host})
        page = laptop.goto(f"/host/{game.code}")
        before = game.state(game.host)
        expect(page.locator(".feed-lines li").first).to_contain_text("Anna")  # what the host reads first
        undo_button(page).click()
        question = page.locator("#undo-ask")
        expect(question.locator("#undo-q")).to_contain_text("Anna")
        question.get_by_role("button", name="Cancel").click()
        expect(question).to_have_count(0)
        assert game.state(game.host) == before
        undo_button(page).click()
        question.get_by_label("Why").fill("too soon")
        question.get_by_role("button", name="Yes, take it back").click()
        expect(page.locator(".feed-lines li").first).to_contain_text("The host took back")
        expect(page.locator(".feed-lines li").first).to_contain_text("why: “too soon”")
        assert game.state(game.host)["version"] == before["version"] + 1
    finally:
        close_all([laptop])


def test_the_undo_question_has_no_serious_accessibility_violation(browser: Browser, base_url: str) -> None:
    game, anna = started(base_url, "voyagers")
    game.ok(game.host, {"type": "set_gold", "player": anna, "gold": 3})
    context = browser.new_context(viewport=LAPTOP, locale="en-GB", base_url=base_url, bypass_csp=True)
    try:  # axe comes in a script tag, which the page's policy would refuse
        page = context.new_page()
        tokens = json.dumps({game.code: {"host": game.host}})
        page.add_init_script(f"localStorage.setItem('shipmate.games', {json.dumps(tokens)})")
        page.goto(f"/host/{game.code}")
        undo_button(page).click()
        expect(page.locator("#undo-ask")).to_be_visible()
        found = violations(page)
        assert not found, told("the undo question", found)
    finally:
        context.close()


def test_voyagers_gold_says_it_is_the_total_and_what_it_leaves(browser: Browser, base_url: str) -> None:
    game, anna = started(base_url, "voyagers")
    had = next(p["gold"] for p in game.state()["players"] if p["id"] == anna)
    laptop = Device(browser, base_url, "host-gold", "en-GB", LAPTOP)
    try:
        laptop.remember(game.code, {"host": game.host})
        page = laptop.goto(f"/host/{game.code}")
        expect(page.locator("#vv-gold")).to_contain_text("the new total, not a change")
        expect(page.locator(f"#gold-after-{anna}")).to_have_text("")
        expect(page.locator("#app")).to_have_attribute("aria-busy", "false")  # every card has come
        # and everything a fresh page hears draws once it came: the story so far, and who is online
        # (Anna's phone was never opened); either drew the page again when it arrived after the cards
        expect(page.locator(".feed-lines li").first).to_be_visible()
        expect(page.locator(f"#seat-{anna} .tag.away")).to_be_visible()
        settled(page)
        page.evaluate("document.querySelector('#seed-hash').textContent = 'untouched'")
        page.locator(f"#gold-{anna}").fill(str(had + 4))
        expect(page.locator(f"#gold-after-{anna}")).to_have_text(f"{had} → {had + 4}")
        expect(page.locator("#seed-hash")).to_have_text("untouched")  # a keystroke drew no page
        page.locator(f"button[data-set-gold='{anna}']").click()
        expect(page.locator(f"#gold-after-{anna}")).to_have_text("")
        assert next(p["gold"] for p in game.state()["players"] if p["id"] == anna) == had + 4
    finally:
        close_all([laptop])


def test_the_host_who_plays_reaches_both_pages(browser: Browser, base_url: str) -> None:
    created = api(base_url, "POST", "/api/games", body={"game": "quest1607", "options": {}})
    code = created["code"]
    laptop = Device(browser, base_url, "host-plays", "en-GB", LAPTOP)
    try:
        laptop.remember(code, {"host": created["host_token"]})
        page = laptop.goto(f"/join/{code}")
        page.get_by_label("Your name").fill("Hanna")
        page.locator("label.character", has_text="Spain").click()
        page.get_by_role("button", name="Join", exact=True).click()
        joined = page.locator("#lobby-joined")
        expect(joined).to_contain_text("You joined as Hanna.")
        expect(joined).to_contain_text("start the game above")
        expect(page.locator("main")).not_to_contain_text("Waiting for the host to start")
        api(base_url, "POST", f"/api/games/{code}/players", body={"name": "Bram", "character": "england"})
        page.locator("#lobby-host").get_by_role("link", name="Host panel").click()
        expect(page).to_have_url(f"{base_url}/host/{code}")
        page.get_by_role("button", name="Start the game").click()
        # a machine busy with other work can take a while to start the game and tell the panel
        expect(page.locator("#host-head")).to_contain_text("Round 1", timeout=60_000)
        expect(page).to_have_url(f"{base_url}/host/{code}")  # Start leaves the host where they were
        page.locator("#host-head").get_by_role("link", name="My phone").click()
        expect(page).to_have_url(f"{base_url}/play/{code}")
        expect(page.locator("#now")).to_be_visible()
        page.locator("#to-host").click()
        expect(page).to_have_url(f"{base_url}/host/{code}")
        expect(page.locator("#to-host")).to_have_count(0)
        expect(page.locator("#host-head")).to_contain_text("Round 1")
    finally:
        close_all([laptop])
