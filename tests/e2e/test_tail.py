"""The evening's tail (#39): what a fresh table still tripped over, each at the level where it shows.

Each game is set up over the API; the phone or the TV it concerns is the subject, in English and in
Dutch where the words are the point.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from shipmate.rules.table import NAME_MAX
from tests.api.client import RESOURCES, Game
from tests.api.test_whole_game import advance, me, play_to_the_winner, supply
from tests.fixtures_server import TEST_LIMITS, StartServer, wait_for

from .helpers import TV, Device, api, close_all, strip
from .layout import SMALL_PHONE, open_phone, scroll_away
from .test_decisions import quest_game

pytestmark = pytest.mark.e2e

LONG = "Maximiliaan van der Berg-Oranje"[:NAME_MAX]  # 30 characters

TURN_WORDS = {
    "en-GB": ("Your turn: sail up to {n} squares", "Your turn: 1 square left to sail",
              "Your turn: sailing done"),
    "nl-NL": ("Jouw beurt: vaar tot {n} vakjes", "Jouw beurt: nog 1 vakje te varen",
              "Jouw beurt: klaar met varen"),
}


@pytest.mark.parametrize("locale", TURN_WORDS)
def test_the_turn_prompt_counts_down_the_squares_left_to_sail(phones: dict[str, Device], browser: Browser,
                                                              base_url: str, locale: str) -> None:
    """T3: the strip said "sail up to 6 squares" after 5 were sailed; it says what is left."""
    game, active, _ = quest_game(base_url)
    game.ok(game.players[active], {"type": "roll"})
    allowance = game.state()["turn"]["allowance"]
    assert allowance >= 2, game.state()["turn"]
    open_phone(phones, browser, game, active, locale)
    device = phones[active]
    start, one_left, done = TURN_WORDS[locale]
    expect(strip(device)).to_contain_text(start.format(n=allowance))
    game.ok(game.players[active], {"type": "sail", "ship": 1, "squares": allowance - 1})
    expect(strip(device)).to_contain_text(one_left)
    game.ok(game.players[active], {"type": "sail", "ship": 1, "squares": 1})
    expect(strip(device)).to_contain_text(done)


ADVICE = """async ([state, ruleset, me]) => {
  const { eventAdvice } = await import('/js/views/quest1607/phone/event_advice.js');
  await import('/js/views/quest1607/phone/words.js');
  return Object.fromEntries(ruleset.events.map((card) => [card.id,
    eventAdvice(card, { state, ruleset }, me, null)]));
}"""

EVERYONE = {"en-GB": "For everyone, until the next quest is done.",
            "nl-NL": "Voor iedereen, tot de volgende quest voltooid is."}


@pytest.mark.parametrize("locale", EVERYONE)
def test_an_event_that_changes_a_rule_says_so_for_everyone_and_what_it_means_for_this_player(
        phones: dict[str, Device], browser: Browser, base_url: str, locale: str) -> None:
    """E1: after G7, G11 or G2 every phone said "Nothing of yours changes" / "Voor jou verandert er niets"."""
    game, active, _ = quest_game(base_url)
    game.ok(game.host, {"type": "adjust", "player": active, "resources": {"wood": 3, "iron": 1},
                        "reason": "stock"})
    game.ok(game.players[active], {"type": "roll"})
    page = open_phone(phones, browser, game, active, locale)
    state = game.state(game.players[active])
    ruleset = api(base_url, "GET", f"/api/games/{game.code}/ruleset")
    said = page.evaluate(ADVICE, [state, ruleset, active])
    en = locale == "en-GB"
    for card in ruleset["events"]:
        kinds = {e["kind"] for e in card["effects"]}
        text = said[card["id"]]
        assert "Nothing of yours" not in text and "verandert er niets" not in text, (card["id"], text)
        if kinds - {"gift", "loss"}:
            assert text.startswith(EVERYONE[locale]) and ("For you:" if en else "Voor jou:") in text, text
        if not kinds:
            assert text == ("No rule changes." if en else "Geen regel verandert."), text
    mine = next(p for p in state["players"] if p["id"] == active)["resources"]
    assert mine["wood"] >= 3, mine
    market = "can go to the market now, 3 for 1" if en else "kan nu naar de markt, 3 voor 1"
    assert ("Wood" if en else "Hout") in said["G7"] and market in said["G7"], said["G7"]
    sail = state["turn"]["allowance"]
    sailing = (f"each ship may sail {sail} squares this turn" if en
               else f"elk schip mag deze beurt {sail} vakjes varen")
    assert sailing in said["G2"], said["G2"]  # less sailing: how far they may sail now
    easier = "need 1 less on the die" if en else "1 minder nodig op de dobbelsteen"
    assert easier in said["G11"], said["G11"]
    short = mine.get("wood", 0) < 2 or mine.get("cotton", 0) < 3  # Sails +1 under G5: 2 wood and 3 cotton
    assert ("3 Cotton + 2 Wood" if en else "3 Katoen + 2 Hout") in said["G5"], said["G5"]
    told = ("short" if en else "tekort") if short else ("you have it" if en else "dat heb je")
    assert told in said["G5"], said["G5"]


# the events whose numbers a heading, a form or the rulebook shows
BENDS = {"market_rate", "bank_rate", "cost"}


def an_event_that_bends(game: Game) -> dict[str, Any]:
    """Play quests over the API, each player in turn, until the event in play (E1: each quest done draws
    one) bends the market's or the bank's rate or a price; the state then. With three players and three
    quests per level the table has 27 draws; a draw misses such an event 13 times in 19."""
    for _ in range(600):
        state = game.state()
        if state["event"] and {e["kind"] for e in state["event"]["effects"]} & BENDS:
            return state
        active = state["turn"]["player"]
        token = game.players[active]
        if not state["turn"]["rolled"]:
            game.ok(token, {"type": "roll"})
        if me(game, active)["level"] == "done":
            game.ok(token, {"type": "end_turn"})
        else:
            advance(game, active)
    pytest.fail("no event bent a number in 600 steps")


def test_headings_forms_and_the_rulebook_take_their_numbers_from_the_rules_in_force(
        phones: dict[str, Device], browser: Browser, base_url: str) -> None:
    """During G7 the market's heading said "Market (4 → 1)" while its form said "Give 3×" (E1, M2, M3,
    U1–U5)."""
    game = Game.create(base_url, quests_per_level=3)
    game.seat(3)
    state = an_event_that_bends(game)
    event = state["event"]
    kinds = {e["kind"]: e for e in event["effects"]}
    ruleset = api(base_url, "GET", f"/api/games/{game.code}/ruleset")
    market = kinds["market_rate"]["rate"] if "market_rate" in kinds else ruleset["market"]["rate"]
    bank = kinds["bank_rate"]["rate"] if "bank_rate" in kinds else ruleset["bank"]["rate"]
    page = open_phone(phones, browser, game, state["turn"]["player"], "en-GB")
    expect(page.locator("#market-form summary")).to_have_text(f"Market ({market} → 1)")
    expect(page.locator("#bank-form summary")).to_have_text(f"Bank ({bank} → 1)")
    page.locator("#market-form summary").click()
    expect(page.locator("#market-form")).to_contain_text(f"Give {market}×")
    book = Device(browser, base_url, "tail-rulebook", "nl-NL")
    try:
        numbers = book.goto(f"/rules/quest1607?code={game.code}").locator(".rb-numbers")
        expect(numbers).to_be_visible()
        bent = numbers.locator(".rb-now")
        by = f"door gebeurtenis {event['id']}"
        if "cost" in kinds:
            item = kinds["cost"]["item"]
            label = "Een questkaart" if item == "quest" else \
                {"sails": "Zeilen", "cannons": "Kanonnen", "crew": "Bemanning"}[item] + " +1"
            expect(numbers.locator("tr", has_text=label).locator(".rb-now")).to_contain_text(by)
        for kind, label, rate in (("market_rate", "Markt: geef voor 1", market),
                                  ("bank_rate", "Bank: geef voor 1", bank)):
            row = numbers.locator("tr", has_text=label)
            expect(row.locator(".rb-now")).to_have_text(f"nu {rate}, {by}") if kind in kinds \
                else expect(row.locator(".rb-now")).to_have_count(0)
        expect(bent).to_have_count(len(kinds))
        lines = book.page.evaluate(LINES_OF, [".rb-numbers th", "Bemanning +1"])
        assert [n for n in lines if n] == [1]  # a unit stays whole
        bent.first.scroll_into_view_if_needed()
        book.shot("tail-rulebook-in-force")
    finally:
        close_all([book])


def test_the_tvs_headline_is_the_newest_thing_that_happened(browser: Browser, base_url: str) -> None:
    """The TV's "Just now" kept the host's correction after an offer and a trade: it follows the table."""
    game, active, other = quest_game(base_url)
    supply(game, active)
    supply(game, other)
    game.ok(game.players[active], {"type": "roll"})
    tv = Device(browser, base_url, "tv-headline", "en-GB", TV)
    try:
        page = tv.goto(f"/screen/{game.code}")
        news, newest = page.locator("#q-news"), page.locator("#q-side .feed-lines li.newest")
        game.ok(game.host, {"type": "adjust", "player": other, "resources": {"wood": 1}, "reason": "a plank"})
        expect(news).to_contain_text("The host corrected")
        offer = game.ok(game.players[active], {"type": "offer", "to": other, "give": {"wood": 1},
                                               "get": {"food": 1}})["state"]["offers"][0]
        expect(newest).to_have_attribute("data-version", str(game.state()["version"]))
        expect(news).to_contain_text(newest.inner_text())
        expect(news).not_to_contain_text("corrected")
        game.ok(game.players[other], {"type": "accept", "offer_id": offer["id"]})
        expect(newest).to_have_attribute("data-version", str(game.state()["version"]))
        expect(news).to_contain_text(newest.inner_text())
        tv.shot("tail-headline-newest")
    finally:
        close_all([tv])


def test_a_finished_games_commands_carry_the_address_its_qr_code_carries(browser: Browser,
                                                                          start_server: StartServer) -> None:
    """The host's end screen on the laptop said `shipmate verify http://127.0.0.1:…`, which only the
    laptop reaches: the commands carry the join link the game was made with, as its QR code does."""
    public = "http://shipmate.table:8000"  # the server's address as the table knows it (PUBLIC_URL)
    base = start_server(PUBLIC_URL=public, **TEST_LIMITS)
    host = Device(browser, base, "tail-record", "en-GB")
    try:
        page = host.goto("/")
        create = page.locator("#create-form button[type=submit]")
        expect(create).to_be_enabled()  # the game's options have come
        create.click()
        expect(page.locator(".lobby-head")).to_be_visible()
        code = page.url.rstrip("/").rsplit("/", 1)[-1]
        game = Game(base, code, host.tokens(code)["host"])
        hero = game.join("Anna", "netherlands")
        game.join("Bram", "england")
        game.ok(game.host, {"type": "start"})
        play_to_the_winner(game, hero)
        page.goto(f"/host/{code}")
        record = page.locator("#record")
        expect(record).to_contain_text(f"shipmate verify {public}/join/{code}")
        expect(record).not_to_contain_text("127.0.0.1")
    finally:
        close_all([host])


# How many lines the words `text` take inside `selector` (a Range over them): one, where they are a unit
LINES_OF = """([selector, text]) => [...document.querySelectorAll(selector)].map((el) => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  while (node && !node.textContent.includes(text)) node = walker.nextNode();
  if (!node) return 0;
  const range = document.createRange();
  const at = node.textContent.indexOf(text);
  range.setStart(node, at);
  range.setEnd(node, at + text.length);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
})"""


def test_a_long_name_and_a_labels_unit_stay_whole_on_a_small_dutch_phone_and_tv(browser: Browser,
                                                                                base_url: str) -> None:
    """A 30-character name was cut in the phone's header ("Maximiliaan van d…"), "Bemanning +1" broke
    as "Bemanning / +1", and the TV split "0 questkaarten" over two lines."""
    game = Game.create(base_url)
    hero = game.join(LONG, "netherlands")
    other = game.join("Bram", "england")
    game.ok(game.host, {"type": "start"})
    if game.state()["turn"]["player"] != hero:
        game.ok(game.players[other], {"type": "roll"})
        game.ok(game.players[other], {"type": "end_turn"})
    game.ok(game.players[hero], {"type": "roll"})
    phone = Device(browser, base_url, "tail-long-name", "nl-NL", SMALL_PHONE)
    tv = Device(browser, base_url, "tail-units-tv", "nl-NL", {"width": 1280, "height": 720})
    try:
        phone.remember(game.code, {"player": {"id": hero, "token": game.players[hero], "name": LONG}})
        page = phone.goto(f"/play/{game.code}")
        name = page.locator("#now .me-name")
        expect(name).to_have_text(LONG)
        assert name.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), "the name is cut"
        expect(page.locator("#ships button[data-upgrade='crew']")).to_be_visible()
        assert page.evaluate(LINES_OF, ["#ships button[data-upgrade='crew']", "Bemanning +1"]) == [1]
        phone.shot("tail-long-name-360-nl")
        screen = tv.goto(f"/screen/{game.code}")
        expect(screen.locator(".sp-cards")).to_have_count(2)
        assert screen.evaluate(LINES_OF, [".sp-cards", "questkaart"]) == [1, 1]
        assert screen.evaluate(LINES_OF, [".sp-cards", "1 questkaart"]) == [1, 1]
        # a count stays with its resource ("· 4" at a line's end, "Katoen" on the next)
        game.ok(game.host, {"type": "adjust", "player": other, "resources": dict.fromkeys(RESOURCES, 10),
                            "reason": "a full hold"})
        units = screen.locator(".sp-res .unit")
        expect(units.first).to_be_visible()
        lines = units.evaluate_all(
            "(els) => els.map((el) => new Set([...el.getClientRects()].map((r) => r.top)).size)")
        assert len(lines) >= 5 and set(lines) == {1}, lines
        tv.shot("tail-units-tv-1280-nl")
    finally:
        close_all([phone, tv])


TABLET = {"width": 800, "height": 1280}


def test_the_dice_are_handed_to_a_tablet_from_the_lobby_and_no_page_says_it_rolls_before_it_can(
        browser: Browser, base_url: str) -> None:
    """T1: "Dice device" in the lobby opened /dice on the laptop, which said it rolls but could not; the real
    hand-over (a link and a QR code) came only after Start. A host following README looks for it before."""
    host = Device(browser, base_url, "tail-dice-host", "en-GB", TV)
    tablet = Device(browser, base_url, "tail-dice-tablet", "nl-NL", TABLET)
    try:
        page = host.goto("/")
        create = page.locator("#create-form button[type=submit]")
        expect(create).to_be_enabled()
        create.click()
        expect(page.locator(".lobby-head")).to_be_visible()
        code = page.url.rstrip("/").rsplit("/", 1)[-1]
        game = Game(base_url, code, host.tokens(code)["host"])
        expect(page.locator("a[href^='/dice/']")).to_have_count(0)  # no page that cannot roll
        card = page.locator("#dice-link")
        card.locator("#dice-make").click()
        link = card.locator("#dice-url")
        expect(link).to_have_attribute("href", re.compile(rf"/dice/{code}#device="))
        expect(card.locator(".qr img")).to_be_visible()
        expect(card.locator("figcaption")).to_have_text("For the dice device only, not to join")
        host.shot("tail-dice-lobby")
        dice = tablet.goto(str(link.get_attribute("href")).removeprefix(base_url))
        note = dice.locator("#dice-note")
        expect(note).to_have_text(
            "Zodra de spelleider het spel start, gooit dit apparaat voor wie aan de beurt is.")
        expect(dice.locator("#table-roll")).to_have_count(0)
        laptop = host.context.new_page()  # the host's laptop on /dice before the start says the same
        laptop.goto(f"/dice/{code}")
        expect(laptop.locator("#dice-note")).to_have_text(
            "Once the host starts the game, this device rolls for whoever’s turn it is.")
        laptop.close()
        game.join(LONG, "netherlands")
        game.join("Bram", "england")
        mine = page.locator("#lobby-players .player-line", has_text=LONG).locator(".who")  # name, then land
        expect(mine).to_have_text(f"{LONG} The Netherlands")
        page.locator("#start").click()
        roll = dice.locator("#table-roll")
        expect(roll).to_be_visible()
        expect(note).to_have_text("Dit apparaat gooit voor wie aan de beurt is.")
        tablet.shot("tail-dice-tablet-started")
        roll.click()
        wait_for(lambda: game.state()["turn"]["rolled"], "the tablet's roll")
        expect(page.locator("a[href^='/dice/']")).to_have_count(0)  # the host panel hands over, no dead link
        expect(page.locator("#dice-link #dice-url")).to_be_visible()
        expect(page.locator("#host-head")).to_contain_text("Nothing to take back")
        expect(page.locator("#host-head")).not_to_contain_text("undo ·")  # an undo's reason cites no rule
    finally:
        close_all([host, tablet])


def test_the_lobby_shows_its_code_before_the_games_answers_come(browser: Browser, base_url: str) -> None:
    """The lobby's first load showed "…" for about 1.5 s before the code: on a slow Wi-Fi its code waited
    for eight round trips (the page's modules, its words, then the game's ruleset and state). The code is
    in the address: it shows while the game's answers are held, for the host (with the QR code to scan)
    and for a phone that came to join."""
    game = Game.create(base_url)
    host = Device(browser, base_url, "tail-lobby-host", "en-GB", TV)
    guest = Device(browser, base_url, "tail-lobby-guest", "nl-NL")
    host.remember(game.code, {"host": game.host})
    held: list[Any] = []
    holding = [True]

    def answer(route: Any) -> None:
        if holding[0]:
            held.append(route)  # the game's answers wait
        else:
            route.continue_()
    try:
        for device in (host, guest):
            holding[0] = True
            for answers in (f"**/api/games/{game.code}/**", f"**/api/games/{game.code}"):
                device.page.route(answers, answer)
            page = device.goto(f"/join/{game.code}")
            expect(page.locator(".big-code")).to_have_text(game.code)
            # the game's answers asked for and held (a sync page hears its routes during its own calls)
            if not held:
                page.wait_for_event("request", lambda request: f"/api/games/{game.code}" in request.url)
            for _ in range(1000):
                if held:
                    break
                page.evaluate("() => 0")
            assert held, "the lobby never asked for the game"
            expect(page.locator(".lobby-head .qr img")).to_have_count(1 if device is host else 0)
            device.shot(f"tail-lobby-code-first-{device.name}")
            holding[0] = False
            while held:
                held.pop().continue_()
            expect(page.locator(".lobby-head .game-name")).to_have_text("Quest 1607")
            expect(page.locator(".big-code")).to_have_text(game.code)
    finally:
        close_all([host, guest])


TILES = """() => [...document.querySelectorAll('#join-form .character')].map((tile) => {
  const name = tile.querySelector('.character-name');
  const text = [...name.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const words = [];
  for (const m of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    words.push([m[0], new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]);
  }
  const box = tile.getBoundingClientRect();
  return { top: Math.round(box.top), height: Math.round(box.height), words };
})"""


@pytest.mark.parametrize("game", ["quest1607", "serenissima", "voyagers"])
@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_the_join_page_on_a_small_phone_has_even_tiles_and_join_in_its_first_screenful(
        browser: Browser, base_url: str, game: str, locale: str) -> None:
    """At 360 × 740 the character tiles wrapped unevenly ("The / Netherlands" under its radio, "Engla / nd")
    and Join was below the fold."""
    made = Game.create(base_url, game)
    phone = Device(browser, base_url, f"tail-join-{game}", locale, SMALL_PHONE)
    try:
        page = phone.goto(f"/join/{made.code}")
        join = page.locator("#join-form button[type=submit]")
        expect(join).to_be_visible()
        expect(page.locator("#join-form .character").first).to_be_visible()
        box = join.bounding_box()
        assert box is not None and box["y"] + box["height"] <= SMALL_PHONE["height"], box
        tiles = page.evaluate(TILES)
        rows: dict[int, set[int]] = {}
        for tile in tiles:
            rows.setdefault(tile["top"], set()).add(tile["height"])
            assert all(lines == 1 for _, lines in tile["words"]), tile  # no name breaks inside a word
        assert all(len(heights) == 1 for heights in rows.values()), rows  # a row's tiles are even
        assert len({h for heights in rows.values() for h in heights}) == 1, rows  # and every row too
        phone.shot(f"tail-join-{game}-{locale}")
    finally:
        close_all([phone])


def test_the_last_step_to_win_reads_whole_at_the_top_of_a_small_dutch_phone_scrolled_down(
        browser: Browser, base_url: str) -> None:
    """The line pinned at the top said "▲ Al…" beside "Rand van de kaart bereikt" on a 360 px phone: the
    line that tells a player they can win now keeps half the band, its button's words wrap."""
    game = Game.create(base_url, quests_per_level=1)
    hero = game.join(LONG, "netherlands")
    other = game.join("Bram", "england")
    game.ok(game.host, {"type": "start"})
    for _ in range(40):  # the hero works through every level on their turns, the other passes
        state = game.state()
        active = state["turn"]["player"]
        if not state["turn"]["rolled"]:
            game.ok(game.players[active], {"type": "roll"})
        if active == hero and me(game, hero)["level"] == "done":
            break
        if active == hero:
            advance(game, hero)
        else:
            game.ok(game.players[other], {"type": "end_turn"})
    assert me(game, hero)["level"] == "done" and game.state()["turn"]["player"] == hero
    phone = Device(browser, base_url, "tail-last-step", "nl-NL", SMALL_PHONE)
    try:
        phone.remember(game.code, {"player": {"id": hero, "token": game.players[hero], "name": LONG}})
        page = phone.goto(f"/play/{game.code}")
        expect(page.locator("#now")).to_contain_text("rand van de kaart")
        scroll_away(page)
        line, edge = page.locator("#now-line"), page.locator("#now-reach button").first
        expect(edge).to_be_visible()
        box, button = line.bounding_box(), edge.bounding_box()
        assert box is not None and button is not None
        assert box["width"] >= 0.45 * SMALL_PHONE["width"] and box["height"] >= 44, box
        assert button["height"] >= 44 and button["x"] + button["width"] <= SMALL_PHONE["width"], button
        phone.shot("tail-last-step-scrolled-nl")
    finally:
        close_all([phone])
