"""The TV read from across the room (#39 items 11 and 9): at 1280 × 720 the players' rows and the
story were 18–20 px, the active row's long name was cut by an ellipsis and "0 questkaarten" split
over two lines.

What the room reads is counted as every player's row (name, ships, quests, stock, badges) and every
line of the story; the join code, the sound hint and the chart's labels are small print. Each game's
TV holds its most players (Quest 1607 six, Venice's four, Voyagers' five), two of them with names of
30 characters, the player at turn one of those; it is checked in English and in Dutch at 1280 × 720
and again at 1920 × 1080, where what the room reads is larger.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.api.client import Game
from tests.api.test_voyagers import display
from tests.api.test_whole_game import play_to_the_winner

from .helpers import Device, close_all, settle
from .layout import TV_SIZES

pytestmark = pytest.mark.e2e

LONG = ("Maximiliaan van den Bergh-Oost", "Geertruida Oldenbarnevelt-Hals")  # 30 characters each
SMALL_TV, BIG_TV = TV_SIZES[1], TV_SIZES[0]
# The least a glyph the room reads may be, in px, at each TV's width
READ_FROM_AFAR = {SMALL_TV["width"]: 24, BIG_TV["width"]: 32}


@dataclass
class Tv:
    """Where a game's TV shows what the room reads: its rows, the active row's name, the story, its units."""

    rows: str
    active: str
    name: str
    story: str
    units: str


def quest1607(base: str) -> tuple[Game, str]:
    """Six players; the first long name has rolled on their turn, after three others had theirs."""
    game = Game.create(base)
    names = ("Bram", LONG[1], "Cas", LONG[0], "Daan", "Eva")
    lands = ("netherlands", "england", "spain", "portugal", "france", "venice")
    hero = [game.join(name, land) for name, land in zip(names, lands, strict=True)][names.index(LONG[0])]
    game.ok(game.host, {"type": "start"})
    while (turn := game.state()["turn"]["player"]) != hero:
        game.ok(game.players[turn], {"type": "roll"})
        game.ok(game.players[turn], {"type": "end_turn"})
    game.ok(game.players[hero], {"type": "roll"})
    return game, LONG[0]


def serenissima(base: str) -> tuple[Game, str]:
    """Four powers; the first long name bid most and trades first."""
    game = Game.create(base, "serenissima")
    names = (LONG[0], "Bram", LONG[1], "Cas")
    for name, power in zip(names, ("venice", "genoa", "spain", "turkey"), strict=True):
        game.join(name, power)
    game.ok(game.host, {"type": "start"})
    for pid, ducats in zip(game.players, (400, 100, 300, 200), strict=True):
        game.ok(game.players[pid], {"type": "bid", "ducats": ducats})
    for position, pid in enumerate(game.state()["bidding"]["pick_order"], start=1):
        game.ok(game.players[pid], {"type": "pick_position", "position": position})
    assert game.state()["active"] == "p1", game.state()["active"]
    return game, LONG[0]


def voyagers(base: str) -> tuple[Game, str]:
    """Five captains; the first long name names the year's bid."""
    game = Game.create(base, "voyagers")
    names = (LONG[0], "Bram", LONG[1], "Cas", "Daan")
    for name, colour in zip(names, ("red", "blue", "green", "yellow", "purple"), strict=True):
        game.join(name, colour)
    game.ok(game.host, {"type": "start"})
    display(game, "c1", "c2", "c3")
    assert game.state()["waiting_for"] == "p1", game.state()["waiting_for"]
    return game, LONG[0]


GAMES: dict[str, tuple[Callable[[str], tuple[Game, str]], Tv]] = {
    "quest1607": (quest1607, Tv("#q-players .sp", ".sp.active", ".sp-name", "#q-side .feed-lines li",
                                ".sp-cards, .sp .level, .mini-ship > span, .sp .tag")),
    "serenissima": (serenissima, Tv(".tv-ledger", ".tv-ledger.active", "header strong",
                                    ".screen-side .feed-lines li", ".tv-ledger .tag, .tv-stats strong")),
    "voyagers": (voyagers, Tv("#vv-players li", "#vv-players li.active", "strong", ".vv-main .feed-lines li",
                              "#vv-players .tag, #vv-players .count")),
}

# A page's function that says whether an element is cut: by the screen's edge or an ancestor's box that
# clips (the two measures below share it).
CLIPPED = """
  const outside = (box, edge) => box.top < edge.top - 1 || box.left < edge.left - 1
    || box.bottom > edge.bottom + 1 || box.right > edge.right + 1;
  const clipped = (el) => {
    const box = el.getBoundingClientRect();
    if (outside(box, { top: 0, left: 0, bottom: innerHeight, right: innerWidth })) return true;
    for (let up = el.parentElement; up; up = up.parentElement) {
      const clips = getComputedStyle(up).overflow !== 'visible';
      if (clips && outside(box, up.getBoundingClientRect())) return true;
    }
    return false;
  };
"""

# What the TV shows of `tv` (a Tv's selectors): the smallest glyph the room reads and where, the rows
# and story lines cut by the screen's edge or a box's, the active row's name, and the units that wrap.
MEASURE = """([rows, active, name, story, units]) => {""" + CLIPPED + """
  const shown = (el) => el.getClientRects().length > 0;
  const text = (el) => el.textContent.trim().slice(0, 40);
  const all = (selector) => [...document.querySelectorAll(selector)];
  const own = (el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const read = all(`${rows}, ${story}`).flatMap((el) => [el, ...el.querySelectorAll('*')]);
  const sizes = read.filter((el) => shown(el) && own(el))
    .map((el) => [parseFloat(getComputedStyle(el).fontSize), text(el)]);
  const smallest = sizes.reduce((a, b) => (b[0] < a[0] ? b : a), [Infinity, '']);
  const cut = clipped;
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const half = parseFloat(getComputedStyle(el).fontSize) * 0.6;
    const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top)
      .sort((a, b) => a - b);
    return tops.filter((top, i) => i === 0 || top - tops[i - 1] > half).length;
  };
  const who = document.querySelector(active)?.querySelector(name);
  const page = document.documentElement;
  return {
    smallest,
    rows: all(rows).length,
    cutRows: all(rows).filter(cut).map(text),
    story: all(story).length,
    cutStory: all(story).filter(cut).map(text),
    name: who ? who.textContent.trim() : null,
    nameCut: !who || who.scrollWidth > who.clientWidth + 1 || cut(who),
    broken: all(units).filter((el) => shown(el) && lines(el) > 1).map(text),
    scrolls: page.scrollHeight > innerHeight || page.scrollWidth > innerWidth,
  };
}"""


def measure(device: Device, tv: Tv) -> dict[str, Any]:
    """What the TV shows now, once it has drawn and stopped changing."""
    settle(device.page, tv.active)
    found: dict[str, Any] = device.page.evaluate(MEASURE, [tv.rows, tv.active, tv.name, tv.story, tv.units])
    return found


@pytest.mark.parametrize("locale", ["nl-NL", "en-GB"])
@pytest.mark.parametrize("game", GAMES)
def test_the_room_reads_every_row_and_the_story_whole_from_across_the_room(browser: Browser, base_url: str,
                                                                           game: str, locale: str) -> None:
    """Every player's row and the story are at least 24 px at 1280 × 720 and larger at 1920 × 1080;
    the player at turn's 30-character name shows whole, no label breaks inside itself, no row is cut."""
    setup, tv = GAMES[game]
    table, active = setup(base_url)
    players = len(table.players)
    phones = [table.socket(token) for token in table.players.values()]  # every phone at the table
    device = Device(browser, base_url, f"tail-tv-{game}", locale, SMALL_TV)
    try:
        page = device.page
        smallest = {}
        for tap, size in (("#screen-start", SMALL_TV), ("main", BIG_TV)):  # each TV opens at its own size
            page.set_viewport_size(size)
            device.goto(f"/screen/{table.code}")
            expect(page.locator(tv.rows)).to_have_count(players)
            # started once, as the host does at the evening's start; after a reload a tap brings the sound
            page.locator(tap).click(position={"x": 1, "y": 1})
            expect(page.locator("#screen-start, #screen-hint")).to_have_count(0)
            found = measure(device, tv)
            device.shot(f"tail-tv-{game}-{locale}-{size['width']}")
            label = f"{game} {locale} {size['width']}×{size['height']}"
            smallest[size["width"]] = found["smallest"][0]
            assert found["smallest"][0] >= READ_FROM_AFAR[size["width"]], (label, found["smallest"])
            assert found["rows"] == players, (label, found)
            assert found["cutRows"] == [], (label, "rows cut", found["cutRows"])
            assert found["story"] >= 1 and found["cutStory"] == [], (label, "story", found)
            assert found["name"] == active and not found["nameCut"], (label, "the name is cut", found)
            assert found["broken"] == [], (label, "a label breaks inside itself", found["broken"])
            assert not found["scrolls"], (label, "the TV scrolls")
        assert smallest[BIG_TV["width"]] > smallest[SMALL_TV["width"]], smallest
    finally:
        close_all([device])
        for phone in phones:
            phone.close()


# Each element of `selector` shown: its text, whether it is cut (by its own box or an ancestor's that
# clips), and the tops of the boxes of `boxes` within it.
WHOLE = """([selector, boxes]) => {""" + CLIPPED + """
  const cut = (el) => el.scrollWidth > el.clientWidth + 1 || clipped(el);
  const page = document.documentElement;
  return {
    found: [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length > 0)
      .map((el) => ({
      text: el.textContent.trim(), cut: cut(el),
      tops: [...el.querySelectorAll(boxes || ':scope')].map((b) => Math.round(b.getBoundingClientRect().top)),
      square: [...el.querySelectorAll(boxes || ':scope')].every((b) => {
        const r = b.getBoundingClientRect();
        return r.width > 0 && Math.abs(r.width - r.height) < 1;
      }),
    })),
    scrolls: page.scrollHeight > innerHeight || page.scrollWidth > innerWidth,
  };
}"""

# How many lines the head's news takes
NEWS_LINES = """() => {
  const el = document.querySelector('#q-news');
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
  return new Set(tops).size;
}"""


def whole_on_each_tv(browser: Browser, base_url: str, table: Game, label: str, selector: str,
                     boxes: str | None = None,
                     ready: Callable[[Device], None] | None = None) -> list[dict[str, Any]]:
    """What the TV shows of `selector` at 1280 × 720 and 1920 × 1080, each TV opened at its size, every
    phone at the table."""
    phones = [table.socket(token) for token in table.players.values()]
    device = Device(browser, base_url, f"tail-tv-{label}", "en-GB", SMALL_TV)
    seen = []
    try:
        page = device.page
        for tap, size in (("#screen-start", SMALL_TV), ("main", BIG_TV)):  # started once, as in the evening
            page.set_viewport_size(size)
            device.goto(f"/screen/{table.code}")
            expect(page.locator(selector).first).to_be_visible()
            page.locator(tap).click(position={"x": 1, "y": 1})
            expect(page.locator("#screen-start, #screen-hint")).to_have_count(0)
            if ready:
                ready(device)
            settle(page, selector)
            found = page.evaluate(WHOLE, [selector, boxes])
            device.shot(f"tail-tv-{label}-{size['width']}")
            assert not found["scrolls"], (label, size, "the TV scrolls")
            seen.append({"size": size["width"], **found})
    finally:
        close_all([device])
        for phone in phones:
            phone.close()
    return seen


def test_the_final_ranking_shows_a_30_character_winner_and_runner_up_whole(browser: Browser,
                                                                           base_url: str) -> None:
    """The end of a Quest game: the ranking names the winner and the runner-up whole."""
    game = Game.create(base_url, quests_per_level=1)
    hero = game.join(LONG[0], "netherlands")
    game.join(LONG[1], "england")
    game.join("Bram", "spain")
    game.ok(game.host, {"type": "start"})
    play_to_the_winner(game, hero)
    assert game.state()["winner"] == hero
    for seen in whole_on_each_tv(browser, base_url, game, "final", "#q-final .q-ranking strong"):
        assert [n["text"] for n in seen["found"]][:2] == list(LONG), seen
        assert not any(n["cut"] for n in seen["found"]), seen


def test_serenissimas_turn_order_shows_30_character_names_whole(browser: Browser, base_url: str) -> None:
    table, _ = serenissima(base_url)
    order = ".se-positions .positions li strong"
    for seen in whole_on_each_tv(browser, base_url, table, "se-order", order):
        assert sorted(n["text"] for n in seen["found"] if len(n["text"]) == 30) == sorted(LONG), seen
        assert not any(n["cut"] for n in seen["found"]), seen


def test_the_dice_of_a_roll_share_one_row_under_a_three_line_headline(browser: Browser,
                                                                      base_url: str) -> None:
    """The dice of this turn's roll stay on one row, however long the headline above them."""
    table, hero = quest1607(base_url)
    pid = next(p["id"] for p in table.state()["players"] if p["name"] == hero)
    reason = ("the storm that swept the harbour last night took the timber, the cotton and the coal the crew "
              "had stacked on the quay, so the host gives it back as the table agreed")
    table.ok(table.host, {"type": "adjust", "player": pid, "resources": {"wood": 1}, "reason": reason})

    def three_lines(device: Device) -> None:
        expect(device.page.locator("#q-news")).to_contain_text("storm")
        device.page.wait_for_function(f"() => ({NEWS_LINES})() >= 3")

    for seen in whole_on_each_tv(browser, base_url, table, "dice-row", "#dice-row", ".die", three_lines):
        assert len(seen["found"]) == 1 and len(seen["found"][0]["tops"]) == 3, seen
        assert len(set(seen["found"][0]["tops"])) == 1, ("the dice wrap", seen)
        assert seen["found"][0]["square"], ("a die shrank out of shape", seen)
