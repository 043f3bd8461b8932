"""Room to play: what stays fixed on a phone covers at most a quarter of its screen.

At the busiest moment of each game (a player with the longest name the server takes, what just
happened to them in the strip, an offer open to them), on a 390 × 844 and a 360 × 740 phone, at the
page's top and scrolled down: the position:fixed and sticky elements on screen cover at most 25 %
of the viewport. The long name is cut with an ellipsis in the strip's first line and whole in the
table's story; every control, brought into view as the browser brings a focused one, is where a tap
at its centre lands, never under a fixed bar. Each game is set up over the API.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from shipmate.rules.table import NAME_MAX
from tests.api.client import Game
from tests.api.test_serenissima import pick_all
from tests.api.test_voyagers import display
from tests.api.test_whole_game import advance, supply
from tests.api.test_whole_game import me as own_entry

from .helpers import PHONE, Device, at_the_top, close_all
from .layout import HIDDEN_CONTROLS, SMALL_PHONE, fixed_share, open_phone, phone_shot, scroll_away

pytestmark = pytest.mark.e2e

LONG = "Wilhelmina van Oranje-Nassau XIV"[:NAME_MAX]
QUARTER = 0.25
OPEN_ALL = "() => document.querySelectorAll('main details').forEach((d) => { d.open = true; })"


def quest(game: Game) -> str:
    """Quest 1607: the long-named player's turn, rolled, their first quest done and its event drawn,
    an offer from the other player open to them and one of theirs open to the other."""
    game.join(LONG, "netherlands")
    game.join("Bram", "england")
    hero, other = list(game.players)
    game.ok(game.host, {"type": "start"})
    if game.state()["turn"]["player"] != hero:
        game.ok(game.players[other], {"type": "roll"})
        game.ok(game.players[other], {"type": "end_turn"})
    for pid in (hero, other):
        supply(game, pid)
    game.ok(game.players[hero], {"type": "roll"})
    game.ok(game.players[other], {"type": "offer", "to": hero, "give": {"wood": 2}, "get": {"iron": 1}})
    game.ok(game.players[hero], {"type": "offer", "to": other, "give": {"coal": 1}, "get": {"food": 1}})
    for _ in range(8):
        if own_entry(game, hero)["completed"].get("bronze"):
            break
        advance(game, hero)
    else:
        pytest.fail("no quest done")
    state = game.state()
    assert state["event"] and len(state["offers"]) == 2, state
    return hero


def serenissima(game: Game) -> str:
    """Serenissima: phase 2, a sale of cloth offered to the long-named Venice."""
    venice = game.join(LONG, "venice")
    genoa = game.join("Bram", "genoa")
    game.ok(game.host, {"type": "start"})
    game.ok(game.players[venice], {"type": "bid", "ducats": 100})
    game.ok(game.players[genoa], {"type": "bid", "ducats": 300})
    pick_all(game)
    game.ok(game.players[genoa], {"type": "buy", "port": "genova", "good": "cloth", "count": 2})
    game.ok(game.players[genoa], {"type": "move_galley", "galley": 1, "port": "venezia"})
    game.ok(game.players[genoa], {"type": "offer_sale", "to": venice, "good": "cloth", "count": 1,
                                  "price": 50})
    return venice


def voyagers(game: Game) -> str:
    """Voyagers' Venture: a bid named on the display, the long-named p2 to agree or disagree."""
    game.join("Anna", "red")
    game.join(LONG, "blue")
    game.join("Cas", "green")
    game.ok(game.host, {"type": "start"})
    display(game, "y1", "y2")
    game.ok(game.players["p1"], {"type": "name_bid", "cards": ["y1"]})
    return "p2"


BUSIEST: dict[str, Callable[[Game], str]] = {
    "quest1607": quest, "serenissima": serenissima, "voyagers": voyagers}
OPTIONS: dict[str, dict[str, Any]] = {
    "quest1607": {"quests_per_level": 1}, "serenissima": {"house_rules": {"rounds": 1}}, "voyagers": {}}
# What shows once the busiest moment has drawn on the phone.
DRAWN = {"quest1607": "#now .now-fold", "serenissima": "#now .now-item.act", "voyagers": "#now #do-agree"}


@pytest.fixture(params=list(BUSIEST))
def busiest(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[tuple[str, Page]]:
    """The long-named player's phone at the busiest moment of each game."""
    name = request.param
    game = Game.create(base_url, name, **OPTIONS[name])
    pid = BUSIEST[name](game)
    phones: dict[str, Device] = {}
    try:
        page = open_phone(phones, browser, game, pid, "nl-NL" if name == "serenissima" else "en-GB")
        expect(page.locator(DRAWN[name])).to_be_visible()
        yield name, page
    finally:
        close_all(phones.values())


def covered(page: Page, where: str) -> None:
    share, found = fixed_share(page)
    assert share <= QUARTER, f"{where}: {share:.0%} of the screen stays fixed: {found}"


def test_what_stays_fixed_covers_at_most_a_quarter(busiest: tuple[str, Page]) -> None:
    name, page = busiest
    for size in (PHONE, SMALL_PHONE):
        where = f"{name} {size['width']}×{size['height']}"
        page.set_viewport_size(size)
        at_the_top(page)
        page.wait_for_function("() => !document.documentElement.classList.contains('strip-away')")
        covered(page, f"{where}, at the top")
        phone_shot(page, f"busiest-{name}-{size['width']}x{size['height']}")
        scroll_away(page)
        expect(page.locator("#now-line")).to_be_visible()  # the one line of "now" stays
        covered(page, f"{where}, scrolled down")
        phone_shot(page, f"busiest-{name}-{size['width']}x{size['height']}-scrolled")


def test_a_long_name_is_whole_in_the_phones_header_and_in_the_story(busiest: tuple[str, Page]) -> None:
    """One's own name wraps in the header of a small phone, never cut (#39: "Maximiliaan van d…")."""
    name, page = busiest
    page.set_viewport_size(SMALL_PHONE)
    mine = page.locator("#now .me-name")
    expect(mine).to_have_text(LONG)  # the whole name is there for a screen reader
    cut = mine.evaluate("""(el) => ({ cut: el.scrollWidth > el.clientWidth,
      ellipsis: getComputedStyle(el).textOverflow === 'ellipsis',
      lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
    })""")
    assert not cut["cut"] and not cut["ellipsis"] and cut["lines"] <= 3, (name, cut)
    if name != "voyagers":  # the story tells what the long-named player did, with their whole name
        expect(page.locator(".feed-lines", has_text=LONG)).to_be_visible()


def test_no_control_is_ever_under_a_fixed_bar(busiest: tuple[str, Page]) -> None:
    name, page = busiest
    page.evaluate(OPEN_ALL)
    for size in (PHONE, SMALL_PHONE):
        page.set_viewport_size(size)
        at_the_top(page)
        missed = page.evaluate(HIDDEN_CONTROLS)
        assert missed == [], f"{name} {size['width']}×{size['height']}: under a fixed bar: {missed}"
