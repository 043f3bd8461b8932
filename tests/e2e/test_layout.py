"""Every page of the three games opens at its top, a phone's controls take a finger, a TV crops nothing.

The tour (layout.py) opens each page at each stage of each game: the phones at 390 × 844, the shared
screen at 1920 × 1080 and again at 1280 × 720. A page fails when it opens scrolled or its first heading
is not at the top; on a phone, when a visible control (button, link, field, summary) is under 44 × 44 px
(a radio or checkbox counts with its label, which takes the tap); on a TV, when a box that clips
(overflow hidden or clip) cuts a line of text through or hides a text's last lines (a line that gives
way whole is no crop, nor a name that ends in an ellipsis where its line is short), text
lies outside a screen that does not scroll, or text is under 18 px. The host's own path is walked by
taps too: Create opens the lobby at its top, and Start opens the host panel at its top.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from shipmate import cli
from tests.api.client import Game, Socket
from tests.api.test_serenissima import pick_all
from tests.api.test_whole_game import play_to_the_winner
from tests.fixtures_server import TEST_LIMITS, StartServer

from .helpers import Device, api, settle
from .layout import DRAWN, GAMES, TV_SIZES, Stop, tour

pytestmark = pytest.mark.e2e

TOP = """() => {
  const headings = [...document.querySelectorAll('main h1, main h2, main h3')];
  const heading = headings.find((h) => h.checkVisibility());
  const box = heading && heading.getBoundingClientRect();
  return { y: window.scrollY, heading: heading ? heading.textContent.trim().slice(0, 60) : null,
           top: box ? box.top : null, bottom: box ? box.bottom : null, height: window.innerHeight };
}"""
# How the checks name an element: tag#id.class "its text".
NAME = """const name = (el) => {
  const classes = typeof el.className === 'string' && el.className.trim();
  const dotted = classes ? '.' + classes.split(/\\s+/).join('.') : '';
  return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${dotted}`;
};"""
# Each visible control smaller than 44 × 44 px; a radio or checkbox is measured with its label.
SMALL = """() => {
  NAME
  const controls = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]';
  const out = [];
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    let box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.right <= 0 || box.left >= window.innerWidth) continue;
    if (el.type === 'radio' || el.type === 'checkbox') {
      const label = el.closest('label') || (el.id && document.querySelector(`[for="${CSS.escape(el.id)}"]`));
      if (label) box = label.getBoundingClientRect();
    }
    const text = (el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 30);
    if (box.width < 43.5 || box.height < 43.5) {
      out.push(`${name(el)} "${text}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return out;
}""".replace("NAME", NAME)
# Text a TV does not show whole: a line cut through by a box that clips (overflow hidden or clip; a
# line that gives way whole is no crop, nor a name cut short with an ellipsis; a text whose first lines
# show and the rest not is), text outside a screen that does not scroll, or under 18 px.
CROPPED = """() => {
  NAME
  const scrolls = document.scrollingElement.scrollHeight > window.innerHeight + 1
    && getComputedStyle(document.body).overflowY !== 'hidden';
  const clips = (v) => v === 'hidden' || v === 'clip';
  const cut = (line, lo, hi, start, end) => (line[lo] < start - 1 && line[hi] > start + 1)
    || (line[lo] < end - 1 && line[hi] > end + 1);
  const ancestors = (el) => {
    const up = [];
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) up.push(e);
    return up;
  };
  const cropped = [], outside = [], small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim().slice(0, 40);
    const el = node.parentElement;
    const shown = el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    if (!text || !shown || el.closest('.skip')) continue;  // the skip link shows when it has focus
    const range = document.createRange();
    range.selectNodeContents(node);
    // a name cut short with "…" shows across its own box only, and says that it was cut
    const short = [el, ...ancestors(el)].find((e) => {
      const style = getComputedStyle(e);
      return style.textOverflow === 'ellipsis' && clips(style.overflowX);
    });
    const edge = short && short.getBoundingClientRect();
    const within = (r) => (edge ? DOMRect.fromRect({
      x: Math.max(r.left, edge.left), y: r.top, height: r.height,
      width: Math.max(0, Math.min(r.right, edge.right) - Math.max(r.left, edge.left)) }) : r);
    const box = within(range.getBoundingClientRect());
    if (box.width <= 1 || box.height <= 1) continue;  // visually hidden (a screen reader's text)
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 17.5) small.push(`${name(el)} ${size}px: "${text}"`);
    const off = box.left < -1 || box.top < -1 || box.right > window.innerWidth + 1
      || box.bottom > window.innerHeight + 1;
    const at = [box.left, box.top, box.right, box.bottom].map(Math.round).join(',');
    if (!scrolls && off) outside.push(`${name(el)} at ${at}: "${text}"`);
    const lines = [...range.getClientRects()].map(within);
    for (let clip = el; clip && clip !== document.body; clip = clip.parentElement) {
      const style = getComputedStyle(clip);
      if (!clips(style.overflowX) && !clips(style.overflowY)) continue;
      const outer = clip.getBoundingClientRect();
      const left = outer.left + clip.clientLeft, top = outer.top + clip.clientTop;
      const right = left + clip.clientWidth, bottom = top + clip.clientHeight;
      const wide = clips(style.overflowX) && lines.some((l) => cut(l, 'left', 'right', left, right));
      const tall = clips(style.overflowY) && lines.some((l) => cut(l, 'top', 'bottom', top, bottom));
      const seen = lines.filter((l) => l.top >= top - 1 && l.bottom <= bottom + 1).length;
      const half = clips(style.overflowY) && seen > 0 && seen < lines.length;  // a text's first lines only
      const how = wide ? 'across' : tall ? 'through' : 'off';
      if (wide || tall || half) cropped.push(`${name(clip)} cuts ${how} "${text}"`);
    }
  }
  const some = (lines) => [...new Set(lines)].slice(0, 8);
  return { cropped: some(cropped), outside: some(outside), small: some(small) };
}""".replace("NAME", NAME)


# ---- a crowded table: 4 to 6 players with long names on both TVs -----------------------------------

LONG_NAMES = ("Maximiliaan van Oldenbarnevelt", "Bartholomeus Wolfswinkel-Smits",
              "Christoffel Columbus de Jongere", "Wilhelmina Theodora Vanderbilts",
              "Johannes Vermeer van Delft-Oost", "Alexandrina Victoria Saxe-Coburg")
SEATS = {"quest1607": ("netherlands", "england", "spain", "portugal", "france", "venice"),
         "serenissima": ("venice", "genoa", "spain", "turkey"),
         "voyagers": ("red", "blue", "green", "yellow", "purple")}
# Each player's card on the TV of each game
CARDS = {"quest1607": "#q-cards .sp", "serenissima": ".ledger-grid .tv-ledger",
         "voyagers": "#vv-players .vv-list li"}
# A card the screen shows whole: on the screen and not cut by a box that clips; a badge on one line.
CARDS_WHOLE = """([selector]) => {
  const clips = (v) => v === 'hidden' || v === 'clip';
  const problems = [];
  const cards = [...document.querySelectorAll(selector)];
  for (const card of cards) {
    const box = card.getBoundingClientRect();
    const who = (card.querySelector('strong') || card).textContent.trim();
    const off = box.top < -1 || box.left < -1 || box.bottom > window.innerHeight + 1
      || box.right > window.innerWidth + 1;
    if (off) problems.push(`${who}: the card is not on the screen whole`);
    for (let up = card.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (!clips(style.overflowX) && !clips(style.overflowY)) continue;
      const outer = up.getBoundingClientRect();
      const cut = box.top < outer.top - 1 || box.bottom > outer.bottom + 1 || box.left < outer.left - 1
        || box.right > outer.right + 1;
      if (cut) problems.push(`${who}: the card is cut by ${up.id || up.className}`);
    }
  }
  for (const badge of document.querySelectorAll('.tag, .level')) {
    if (!badge.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(badge);
    const lines = [...range.getClientRects()].filter((r) => r.width > 1);
    if (lines.some((a) => lines.some((b) => b.top >= a.bottom - 2))) {
      problems.push(`the badge "${badge.textContent.trim()}" breaks over lines`);
    }
  }
  return { cards: cards.length, problems };
}"""


class Crowd:
    """A game of `n` players with long names, on a TV at 1920 × 1080 and another at 1280 × 720."""

    def __init__(self, browser: Browser, base: str, game: str, n: int, **options: Any) -> None:
        self.game, self.n = game, n
        self.table = Game.create(base, game, **options)
        self.ids = [self.table.join(name, seat) for name, seat in zip(LONG_NAMES[:n], SEATS[game][:n],
                                                                       strict=True)]
        self.tvs = [Device(browser, base, f"crowded-{game}-{n}-{size['width']}", "en-GB", size)
                    for size in TV_SIZES]
        self.phones: list[Socket] = []

    def seat_phones(self) -> None:
        """Every player's phone at the table (a socket each), as at a real table: the TVs then show
        nobody away. Without them the players were never seen, and whether a TV had heard that yet
        when it was measured decided whether a banner of four long names pushed the cards down."""
        self.phones = [self.table.socket(self.table.players[pid]) for pid in self.ids]

    def open(self) -> None:
        self.seat_phones()
        for tv in self.tvs:
            tv.goto(f"/screen/{self.table.code}")

    def problems(self, stage: str) -> list[str]:
        """What either TV does not show whole at this stage (each settled first); a shot of each."""
        found = []
        for tv in self.tvs:
            settle(tv.page, CARDS[self.game])
            size = tv.page.viewport_size or {}
            at = f"{self.game} with {self.n} players, {stage}, at {size.get('width')}×{size.get('height')}"
            tv.shot(f"crowded-{self.game}-{self.n}-{stage}-{size.get('width')}")
            whole = tv.page.evaluate(CARDS_WHOLE, [CARDS[self.game]])
            if whole["cards"] != self.n:
                found.append(f"{at}: {whole['cards']} player cards for {self.n} players")
            found += [f"{at}: {line}" for line in whole["problems"]]
            found += [f"{at}: {kind}: {line}" for kind, lines in tv.page.evaluate(CROPPED).items()
                      for line in lines]
            found += [f"{at}: page errors: {tv.errors}"] if tv.errors else []
        return found

    def close(self) -> None:
        for tv in self.tvs:
            tv.context.close()
        for phone in self.phones:
            phone.close()


OVER = {"quest1607": "The game is over: Anna won", "serenissima": "The game is over",
        "voyagers": "The game is over"}


def opened_at_the_top(page: Page, label: str) -> list[str]:
    """The page is not scrolled, and its first heading shows whole in the first screenful."""
    top = page.evaluate(TOP)
    problems = []
    if top["y"] != 0:
        problems.append(f"{label}: opens scrolled {top['y']} px down")
    if top["heading"] is None:
        problems.append(f"{label}: no heading")
    elif top["top"] < 0 or top["bottom"] > top["height"]:
        where = f"{top['top']:.0f}–{top['bottom']:.0f} px"
        problems.append(f"{label}: its first heading “{top['heading']}” is at {where}, not at the top")
    return problems


def checked(stop: Stop) -> list[str]:
    """What is wrong with the layout of one page of the tour."""
    page = stop.device.page
    errors = [f"{stop.label}: page errors: {stop.device.errors}"] if stop.device.errors else []
    if not stop.settled:
        return [*errors, f"{stop.label}: never showed {DRAWN[stop.route]!r} and stopped changing"]
    problems = errors + opened_at_the_top(page, stop.label)
    shot = f"layout-{stop.game}-{stop.stage}-{stop.route}"
    if not stop.tv:
        problems += [f"{stop.label}: under 44 × 44 px: {c}" for c in page.evaluate(SMALL)]
        stop.device.shot(f"{shot}-{stop.device.name.rsplit('-', 1)[-1]}")
        return problems
    for size in TV_SIZES:
        page.set_viewport_size(size)
        settle(page, "main")
        stop.device.shot(f"{shot}-{size['width']}")
        found: dict[str, list[str]] = page.evaluate(CROPPED)
        at = f"{stop.label} at {size['width']}×{size['height']}"
        problems += [f"{at}: {kind}: {line}" for kind, lines in found.items() for line in lines]
    page.set_viewport_size(TV_SIZES[0])
    return problems


@pytest.mark.parametrize("game", GAMES)
def test_every_page_opens_at_its_top_takes_a_finger_and_fits_the_tv(browser: Browser, base_url: str,
                                                                     game: str) -> None:
    problems = []
    for stop in tour(browser, base_url, game):
        problems += checked(stop)
        if (stop.stage, stop.route) == ("finished", "host"):  # the end's command works as shown
            command = shlex.split(stop.device.page.locator("#record").inner_text().splitlines()[0])
            assert command[:2] == ["shipmate", "verify"], command
            assert cli.main(command[1:]) == cli.OK, command
        if (stop.stage, stop.route) == ("finished", "home"):  # the phone's games, told in words
            games = stop.device.page.locator("#your-games")
            expect(games).to_contain_text(OVER[game])
            expect(games).to_contain_text(f"You play as {'Anna' if game != 'voyagers' else 'Captain 1'}, ")
    print("\n".join(problems))
    assert not problems, "\n".join(problems)


def test_create_opens_the_lobby_at_its_top_and_start_the_host_panel(browser: Browser, base_url: str) -> None:
    host = Device(browser, base_url, "layout-host", "en-GB")
    try:
        page = host.goto("/")
        create = page.locator("#create-form button[type=submit]")
        expect(create).to_be_enabled()
        create.scroll_into_view_if_needed()
        assert page.evaluate("window.scrollY") > 0, "the Create button is in the first screenful"
        create.click()
        settle(page, ".lobby-head")
        problems = opened_at_the_top(page, "the lobby after Create")
        code = page.url.rstrip("/").rsplit("/", 1)[-1]
        for name, land in (("Anna", "netherlands"), ("Bram", "england")):
            api(base_url, "POST", f"/api/games/{code}/players", body={"name": name, "character": land})
        start = page.locator("#start")
        expect(start).to_be_enabled()
        start.scroll_into_view_if_needed()
        start.click()
        expect(page).to_have_url(f"{base_url}/host/{code}")
        settle(page, "main h1")
        problems += opened_at_the_top(page, "the host panel after Start")
        assert not problems, "\n".join(problems)
        # Home lists the game in words: which game, this phone's part in it, where it stands.
        page.locator("a.brand").click()
        game = page.locator(f"#your-games li[data-key='game-{code}']")
        expect(game).to_contain_text(f"Quest 1607 {code}")
        expect(game).to_contain_text("You host this game")
        expect(game).to_contain_text("Playing · round 1")
        game.scroll_into_view_if_needed()
        host.shot("layout-home-your-games")
        assert host.errors == []
    finally:
        host.context.close()


def _keep_and_fish(game: Game) -> None:
    """The sunk ship's player keeps what the rules let them, the winner fishes what they may."""
    combat = game.state()["combat"]
    held = next(p for p in game.state()["players"] if p["id"] == combat["sunk"])["resources"]
    keep, need = {}, combat["keep"]
    for resource, n in held.items():
        if need and n:
            keep[resource] = min(n, need)
            need -= keep[resource]
    game.ok(game.players[combat["sunk"]], {"type": "keep", "resources": keep})
    combat = game.state()["combat"]
    if combat and combat["stage"] == "fishing":
        fish, want = {}, min(2, sum(combat["water"].values()))
        for resource, n in combat["water"].items():
            if want and n:
                fish[resource] = min(n, want)
                want -= fish[resource]
        game.ok(game.players[combat["winner"]], {"type": "fish", "resources": fish})


@pytest.mark.parametrize("n", [4, 6])
def test_a_crowded_quest_tv_tells_every_shot_and_crops_nothing(browser: Browser, base_url: str,
                                                               n: int) -> None:
    """4 or 6 players with names of 30 to 32 characters: in play, in a fight shot by shot (the
    headline tells each shot with its dice, then the sinking), after it and after the end, both
    TVs show every player's card whole, each badge on one line, nothing cropped."""
    assert all(30 <= len(name) <= 32 for name in LONG_NAMES)
    crowd = Crowd(browser, base_url, "quest1607", n, quests_per_level=1)
    game = crowd.table
    try:
        game.ok(game.host, {"type": "start"})
        hero = game.state()["turn"]["player"]
        target = next(pid for pid in crowd.ids if pid != hero)
        game.ok(game.players[hero], {"type": "roll"})
        crowd.open()
        news = [tv.page.locator("#q-news") for tv in crowd.tvs]
        for tv in crowd.tvs:
            expect(tv.page.locator("h1")).to_contain_text(f"{LONG_NAMES[crowd.ids.index(hero)]}’s turn")
        problems = crowd.problems("playing")
        game.ok(game.host, {"type": "adjust", "player": hero, "resources": {"coal": 10, "iron": 10},
                            "reason": "guns"})
        game.ok(game.host, {"type": "adjust", "player": target, "resources": {"food": 2, "wood": 2},
                            "reason": "cargo"})
        for _ in range(5):
            game.ok(game.players[hero], {"type": "upgrade", "ship": 1, "part": "cannons"})
        game.ok(game.players[hero], {"type": "attack", "ship": 1, "target": target, "target_ship": 1})
        for line in news:
            expect(line).to_contain_text("attacks")
        told = [news[0].inner_text()]
        while (combat := game.state()["combat"]) and combat["stage"] == "firing":
            assert len(told) <= 40, "the fight went on for 40 shots"
            game.ok(game.players[combat["shooter"]], {"type": "fire"})
            for line in news:
                expect(line).to_contain_text(f"Shot {len(told)}: ")
            told.append(news[0].inner_text())
            assert told[-1] != told[-2], told
            problems += crowd.problems(f"shot-{len(told) - 1}")
        assert combat is not None and combat["stage"] == "salvage", combat
        for line in news:
            expect(line).to_contain_text("sinks!")
        _keep_and_fish(game)
        for tv in crowd.tvs:
            outcome = tv.page.locator("#q-outcome")
            expect(outcome).to_contain_text("ship 1 sank.")
            expect(outcome).not_to_contain_text("nothing sank")
        problems += crowd.problems("after-the-fight")
        game.ok(game.players[hero], {"type": "end_turn"})
        play_to_the_winner(game, hero)
        assert game.state()["winner"] == hero
        for tv in crowd.tvs:  # a screen behind the burst of turns catches up by the next ping (25 s)
            expect(tv.page.locator("h1")).to_contain_text("wins!", timeout=60_000)
        problems += crowd.problems("finished")
        assert not problems, "\n".join(problems)
    finally:
        crowd.close()


def test_a_crowded_serenissima_tv_crops_nothing(browser: Browser, base_url: str) -> None:
    crowd = Crowd(browser, base_url, "serenissima", 4, house_rules={"rounds": 1})
    game = crowd.table
    try:
        game.ok(game.host, {"type": "start"})
        crowd.open()
        problems = crowd.problems("bidding")
        for bid, pid in enumerate(crowd.ids):
            game.ok(game.players[pid], {"type": "bid", "ducats": 100 - 10 * bid})
        order = pick_all(game)
        for tv in crowd.tvs:
            expect(tv.page.locator(".tv-ledger .tag", has_text="Position IV")).to_have_count(1)
        problems += crowd.problems("trading")
        while game.state()["phase"] != "finished":
            for pid in order:
                game.ok(game.players[pid], {"type": "finish_phase"})
        for tv in crowd.tvs:
            expect(tv.page.locator("#se-head")).to_contain_text("The game is over")
        problems += crowd.problems("finished")
        assert not problems, "\n".join(problems)
    finally:
        crowd.close()


@pytest.mark.parametrize("n", [4, 5])
def test_a_crowded_voyagers_tv_crops_nothing(browser: Browser, base_url: str, n: int) -> None:
    crowd = Crowd(browser, base_url, "voyagers", n)
    try:
        crowd.table.ok(crowd.table.host, {"type": "start"})
        crowd.open()
        problems = crowd.problems("playing")
        assert not problems, "\n".join(problems)
    finally:
        crowd.close()


def test_a_short_name_away_on_its_turn_keeps_its_name_on_the_small_dutch_tv(
        browser: Browser, start_server: StartServer) -> None:
    """Cas, whose turn it is, is away among three long names: on a 1280 × 720 TV in Dutch his card's
    header (the name, "▶ Aan de beurt" and the away mark on one line) once gave the whole line to the
    tags and cut his name to nothing, and the away mark off the card. The card now says "offline"
    alone; how long is in the banner of whom the game waits on."""
    base = start_server(PRESENCE_GRACE="1", **TEST_LIMITS)
    game = Game.create(base, quests_per_level=1)
    names = (*LONG_NAMES[:3], "Cas")
    ids = [game.join(name, seat) for name, seat in zip(names, SEATS["quest1607"][:4], strict=True)]
    game.ok(game.host, {"type": "start"})
    cas = ids[3]
    while game.state()["turn"]["player"] != cas:
        _, token = game.token_of_active()
        game.ok(token, {"type": "roll"})
        game.ok(token, {"type": "end_turn"})
    present = [game.socket(game.players[pid]) for pid in ids[:3]]
    game.socket(game.players[cas]).close()  # seen, then gone for longer than the grace
    tv = Device(browser, base, "crowded-away-nl-1280", "nl-NL", TV_SIZES[1])
    try:
        tv.goto(f"/screen/{game.code}")
        card = tv.page.locator("#q-cards .sp", has_text="Aan de beurt")
        expect(card.locator(".tag.away")).to_contain_text("offline")
        settle(tv.page, CARDS["quest1607"])
        tv.shot("crowded-away-nl-1280")
        name = card.locator(".sp-name")
        expect(name).to_have_text("Cas")
        box, line = name.bounding_box(), card.bounding_box()
        # the name's own text to the subpixel (a scrollWidth is rounded to a whole pixel), on one line
        text = name.evaluate("""n => { const r = document.createRange(); r.selectNodeContents(n);
          return [r.getBoundingClientRect().width, r.getClientRects().length]; }""")
        assert box and line and box["width"] >= text[0] > 0 and text[1] == 1, (box, text)
        whole = tv.page.evaluate(CARDS_WHOLE, [CARDS["quest1607"]])
        cropped = [f"{kind}: {text}" for kind, lines in tv.page.evaluate(CROPPED).items() for text in lines]
        assert not whole["problems"] and not cropped, (whole, cropped)
        assert tv.errors == []
    finally:
        tv.context.close()
        for socket in present:
            socket.close()
