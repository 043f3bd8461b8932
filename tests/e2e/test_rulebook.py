"""The rulebook in Chromium: /rules/<game> lists every rule and finds one by a word of either language,
a refused tap's rule opens over the phone and closes back to where the player was, so does the whole
rulebook opened from it (by its own button, Escape or the browser's Back), the page opens
offline once the service worker has it (over `shipmate serve --tls`), and axe-core finds no serious
or critical violation on the page or with a rule open."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.cli.conftest import Serve, servers_in
from tests.fixtures_server import wait_for

from .helpers import ARGS, CHROMIUM, PHONE, SHOTS, api, close_all, quest_table
from .test_axe import told, violations

pytestmark = pytest.mark.e2e

GAMES = ("quest1607", "serenissima", "voyagers")


def rules_of(base: str, game: str) -> dict[str, Any]:
    """The rule texts a game serves beside its ruleset: {"source", "chapters", "rules"}."""
    return dict(api(base, "GET", f"/api/rulesets/{game}/rules"))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], name


def rulebook(browser: Browser, base: str, game: str, locale: str = "en-GB",
             viewport: dict[str, int] = PHONE) -> tuple[BrowserContext, Page]:
    """A context (axe's script tag needs the page's policy bypassed) on /rules/<game>, drawn."""
    context = browser.new_context(viewport=viewport, locale=locale, base_url=base, bypass_csp=True)
    page = context.new_page()
    page.goto(f"/rules/{game}")
    expect(page.locator(".rb-rule").first).to_be_visible()
    return context, page


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_of_each_game_is_on_its_page_in_the_rulebook_order(browser: Browser, base_url: str,
                                                                       game: str) -> None:
    book = rules_of(base_url, game)
    context, page = rulebook(browser, base_url, game)
    order = [rule for chapter in book["chapters"] for rule in chapter["rules"]]
    assert page.locator(".rb-rule").evaluate_all("rules => rules.map(r => r.id)") == order
    assert set(order) == set(book["rules"])
    expect(page.locator(".rb-numbers table").first).to_be_visible()
    context.close()


@pytest.mark.parametrize(("game", "house", "label", "value"), [
    ("quest1607", {"sunk_crew": 2}, "Crew of a sunk ship when it returns", "2"),
    ("serenissima", {"foreign_price": 300}, "Price of a good in a foreign port", "300"),
    ("voyagers", {"starting_gold": 5}, "Gold doubloons at the start", "5"),
])
def test_a_games_own_house_rules_are_marked(browser: Browser, base_url: str, game: str, house: dict[str, int],
                                             label: str, value: str) -> None:
    code = api(base_url, "POST", "/api/games", body={"game": game, "options": {"house_rules": house}})["code"]
    context, page = rulebook(browser, base_url, game)
    expect(page.locator(".rb-numbers tr.changed")).to_have_count(0)
    expect(page.locator(".rb-numbers tr", has_text=label)).to_contain_text("house rule")
    page.goto(f"/rules/{game}?code={code}")
    row = page.locator(".rb-numbers tr.changed")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text(label)
    expect(row.locator("td")).to_contain_text(f"{value} house rule changed for this game")
    context.close()


def test_the_search_finds_a_rule_by_a_word_of_either_language(browser: Browser, base_url: str) -> None:
    book = rules_of(base_url, "quest1607")
    context, page = rulebook(browser, base_url, "quest1607")
    search = page.get_by_label("Search the rules (Dutch or English)")
    for word in ("kanon", "CANNON", "kánon"):
        search.fill(word)
        expect(page.locator("#U4")).to_be_visible()
        expect(page.locator("#U4")).to_contain_text(book["rules"]["U4"]["text"]["en"])
        expect(page.locator("#S1")).to_have_count(0)
        expect(page.locator("#ch-trade")).to_be_hidden()
        shown = page.locator(".rb-rule").count()
        assert 0 < shown < len(book["rules"])
        expect(page.locator("#rb-count")).to_have_text(f"{shown} rules found")
    search.fill("")
    expect(page.locator(".rb-rule")).to_have_count(len(book["rules"]))
    context.close()


def test_a_link_names_a_rule_that_the_page_lights_up(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="nl-NL", base_url=base_url)
    page = context.new_page()
    page.goto("/rules/quest1607#U3")
    expect(page.locator("#U3.lit")).to_be_visible()
    expect(page.locator("#U3")).to_be_focused()
    expect(page.locator("#U3")).to_be_in_viewport()
    expect(page.locator("h1")).to_have_text("Spelregels van Quest 1607")
    shot(page, "rulebook-1280.png")
    page.locator("#lang").click()
    expect(page.locator("h1")).to_have_text("Rules of Quest 1607")
    context.close()


@pytest.fixture
def refused(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    """A Quest 1607 game where the Dutch phone whose turn it is has rolled and holds no cotton or wood."""
    table = quest_table(browser, base_url, {"anna": ("Anna", "netherlands", "nl-NL"),
                                            "bram": ("Bram", "england", "nl-NL")})
    code, host = table["code"], table["host_token"]
    state = api(base_url, "GET", f"/api/games/{code}")
    key = next(k for k, pid in table["ids"].items() if pid == state["turn"]["player"])
    api(base_url, "POST", f"/api/games/{code}/actions", table["tokens"][key], {"type": "roll"})
    players = api(base_url, "GET", f"/api/games/{code}")["players"]
    have = next(p for p in players if p["id"] == table["ids"][key])["resources"]
    drop = {r: -have[r] for r in ("cotton", "wood") if have[r]}
    if drop:
        api(base_url, "POST", f"/api/games/{code}/actions", host,
            {"type": "adjust", "player": table["ids"][key], "resources": drop, "reason": "e2e: empty"})
    yield {**table, "phone": table["devices"][key]}
    close_all(table["devices"].values())


def test_a_refused_taps_rule_opens_over_the_phone_and_closes_back_to_the_same_place(
        refused: dict[str, Any], base_url: str) -> None:
    page = refused["phone"].page
    nl = rules_of(base_url, "quest1607")["rules"]["U3"]["text"]["nl"]
    why = page.locator("#up-1-sails-why")
    expect(why).to_contain_text("U3 · Zeilen +1 kost")
    link = why.get_by_role("link", name="U3")
    expect(link).to_have_attribute("href", "/rules/quest1607#U3")
    for close in ("button", "Escape"):
        link.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -120)")  # not at the top: the page must come back to here
        before = page.evaluate("window.scrollY")
        assert before > 0
        link.focus()
        page.keyboard.press("Enter")
        dialog = page.locator("dialog.rule-dialog[open]")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text(nl)
        expect(dialog.locator("h3")).to_contain_text("U3")
        expect(dialog).to_contain_text("Hoofdstuk: Upgrades en Quest-kaarten")
        expect(dialog.get_by_role("link", name="Hele spelregels")).to_have_attribute(
            "href", f"/rules/quest1607?code={refused['code']}#U3")
        expect(dialog.get_by_role("button", name="Sluiten")).to_be_focused()
        if close == "button":
            shot(page, "rule-from-refusal-390.png")
            dialog.get_by_role("button", name="Sluiten").click()
        else:
            page.keyboard.press("Escape")
        expect(page.locator("dialog")).to_have_count(0)
        page.wait_for_function("() => document.activeElement.matches('#up-1-sails-why a.rule-link')")
        assert page.evaluate("window.scrollY") == before
    play = f"{base_url}/play/{refused['code']}"
    for close in ("button", "Escape", "Back"):
        # The whole rulebook opens over the phone's page, at the rule, and closes back to the same place
        link.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -120)")
        before = page.evaluate("window.scrollY")
        link.focus()
        page.keyboard.press("Enter")
        page.locator("dialog").get_by_role("link", name="Hele spelregels").click()
        book = page.locator("dialog.rule-book[open]")
        expect(book.locator("#U3.lit")).to_be_in_viewport()
        expect(book.locator("h1")).to_have_text("Spelregels van Quest 1607")
        expect(book.locator(".rb-rule")).to_have_count(len(rules_of(base_url, "quest1607")["rules"]))
        expect(page).to_have_url(play)  # the game's page stays open beneath (its socket too)
        expect(page.locator("dialog.rule-dialog")).to_have_count(0)
        back = book.get_by_role("button", name="Terug naar het spel")
        expect(back).to_be_visible()
        if close == "button":
            book.locator("a[href='#ch-trade']").click()  # a chapter of the book: the book scrolls there
            expect(book.locator("#ch-trade")).to_be_in_viewport()
            expect(page).to_have_url(play)
            shot(page, "rulebook-over-the-phone-390.png")
            back.click()
        elif close == "Escape":
            page.keyboard.press("Escape")
        else:
            page.go_back()  # an installed app's Back gesture
        expect(page.locator("dialog")).to_have_count(0)
        expect(page).to_have_url(play)
        page.wait_for_function("() => document.activeElement.matches('#up-1-sails-why a.rule-link')")
        assert page.evaluate("window.scrollY") == before
    expect(why).to_contain_text("U3 · Zeilen +1 kost")  # the same page, never left


def test_a_refusal_told_in_a_toast_links_its_rule_too(refused: dict[str, Any], base_url: str) -> None:
    page = refused["phone"].page
    expect(page.locator("#up-1-sails-why")).to_be_visible()
    # The words of a server's refusal as the phone tells them (ui.js errorText), in its toast.
    page.evaluate("() => import('/js/ui.js').then((ui) => ui.toast('U3 · Zeilen +1 <kost> meer', 'error'))")
    toast = page.locator("#toast")
    expect(toast).to_have_text("U3 · Zeilen +1 <kost> meer")  # the words as text, never as markup
    toast.get_by_role("link", name="U3").click()
    dialog = page.locator("dialog.rule-dialog[open]")
    expect(dialog).to_contain_text(rules_of(base_url, "quest1607")["rules"]["U3"]["text"]["nl"])
    page.keyboard.press("Escape")
    expect(page.locator("dialog")).to_have_count(0)


def test_axe_finds_nothing_serious_on_the_rulebook_or_with_a_rule_open(
        refused: dict[str, Any], browser: Browser, base_url: str) -> None:
    for game in GAMES:
        context, page = rulebook(browser, base_url, game, "nl-NL")
        if game == "quest1607":
            shot(page, "rulebook-390.png")
        found = violations(page)
        assert not found, told(f"/rules/{game}", found)
        context.close()
    code = refused["code"]
    phone = refused["phone"]
    context = browser.new_context(viewport=PHONE, locale="nl-NL", base_url=base_url, bypass_csp=True)
    stored = json.dumps(json.dumps({code: phone.tokens(code)}))
    context.add_init_script(f"localStorage.setItem('shipmate.games', {stored})")
    page = context.new_page()
    page.goto(f"/play/{code}")
    page.locator("#up-1-sails-why a.rule-link").click()
    expect(page.locator("dialog.rule-dialog[open]")).to_be_visible()
    found = violations(page)
    assert not found, told("a rule open over the phone", found)
    page.keyboard.press("Escape")
    expect(page.locator("dialog")).to_have_count(0)
    # An event card's ID (the phone's and the TV's event) opens that card, in the chapter on events
    g5 = next(e for e in api(base_url, "GET", "/api/rulesets/quest1607")["events"] if e["id"] == "G5")
    page.evaluate("""() => document.body.insertAdjacentHTML(
      'beforeend', '<a class="rule-link" href="/rules/quest1607#G5">G5</a>')""")  # outside the page's redraws
    page.locator("a.rule-link[href$='#G5']").click()
    dialog = page.locator("dialog.rule-dialog[open]")
    expect(dialog).to_contain_text(g5["text"]["nl"])
    expect(dialog).to_contain_text("Hoofdstuk: Quests en gebeurtenissen")
    context.close()


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[Serve]:
    """`shipmate serve --tls` on a free port, stopped by pid afterwards (its embedded Redis too)."""
    data_dir = tmp_path / "data"
    server = Serve(data_dir, tmp_path / "serve.log", ("--tls",), None)
    try:
        wait_for(server.healthy, "shipmate serve --tls to answer /healthz")
        yield server
    finally:
        server.stop()
        for pid in servers_in(data_dir):
            os.kill(pid, signal.SIGKILL)


def test_the_rulebook_opens_offline_once_the_service_worker_has_it(browser: Browser,
                                                                   tls_server: Serve) -> None:
    # The certificate is the server's own: this browser accepts it, so the worker may install
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                           args=[*ARGS, "--ignore-certificate-errors"])
    context = chromium.new_context(viewport=PHONE, locale="en-GB", base_url=tls_server.url,
                                   ignore_https_errors=True)
    page = context.new_page()
    page.goto("/")
    assert page.evaluate("window.isSecureContext")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100, timeout=30_000)
    page.goto("/rules/quest1607")
    expect(page.locator("#U4")).to_be_visible()
    context.set_offline(True)
    tls_server.stop()
    page.evaluate("history.replaceState(null, '', '/rules/quest1607#U4')")
    page.reload()
    expect(page.locator("#U4.lit")).to_contain_text("Cannons +1")
    expect(page.locator("#offline")).to_be_visible()
    context.close()
    chromium.close()
