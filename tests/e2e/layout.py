"""Layout checks that the end-to-end tests share: what a phone's sticky action bar may cover, and a tour
of every page of each game at each stage (test_layout.py and test_axe.py check each page on it)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.api.client import Game
from tests.api.test_end_is_final import SCORE
from tests.api.test_serenissima import pick_all
from tests.api.test_voyagers import year_of_one_card
from tests.api.test_whole_game import play_to_the_winner

from .helpers import Device, settle

# What is drawn just before the bar: its sibling, or the last thing in the page's part before its own
# (a page draws each part in a slot of its own: pwa/js/page.js).
BAR_GAP = """() => {
  const bar = document.querySelector('.actionbar');
  if (!bar) return null;
  let before = bar.previousElementSibling;
  for (let slot = bar.closest('.part'); !before && slot; slot = slot.previousElementSibling) {
    before = slot.previousElementSibling && slot.previousElementSibling.lastElementChild;
  }
  if (!before) return null;
  return bar.getBoundingClientRect().top - before.getBoundingClientRect().bottom;
}"""


def shot_of_the_end(device: Device, label: str) -> None:
    """Scroll to the page's end, check the action bar covers nothing above it, and take a shot."""
    page = device.page
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    gap = page.evaluate(BAR_GAP)
    assert gap is not None, f"{label}: no action bar after the content"
    assert gap > -1, f"{label}: the action bar covers {-gap:.1f} px of the last card"
    device.shot(label)
    page.evaluate("window.scrollTo(0, 0)")

# What stays fixed on a phone: the part of the viewport that position:fixed and sticky elements
# cover, summed (each with what of it is on screen), and which they are.
FIXED = """() => {
  const height = window.innerHeight;
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.position !== 'fixed' && style.position !== 'sticky') continue;
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const box = el.getBoundingClientRect();
    const shown = Math.min(height, box.bottom) - Math.max(0, box.top);
    if (box.width > 0 && shown > 0) found.push([`${el.localName}#${el.id}.${el.className}`, shown]);
  }
  return { share: found.reduce((sum, [, px]) => sum + px, 0) / height, found };
}"""
# Whether a tap at the centre of the element reaches it: on screen, and nothing fixed over it.
REACHED = """(el) => {
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  if (box.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth) return false;
  const hit = document.elementFromPoint(x, y);
  return Boolean(hit) && (hit === el || el.contains(hit));
}"""
# Each control of the page brought into view as the browser brings a focused control or a link's
# target (scrollIntoView, nearest edge): those a tap at their centre then misses (a fixed bar over them).
HIDDEN_CONTROLS = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const reached = """ + REACHED + """;
  const missed = [];
  const controls = [...document.querySelectorAll('main button, main select, main input, main summary')]
    .filter((el) => el.getBoundingClientRect().width > 0);
  for (const el of controls) {
    el.scrollIntoView({ block: 'nearest' });
    await frame();
    if (!reached(el)) missed.push(`${el.localName}#${el.id} ${el.textContent.trim().slice(0, 20)}`);
  }
  return missed;
}"""

SMALL_PHONE = {"width": 360, "height": 740}
PHONE_SHOTS = Path("/tmp/shots/phone")


def open_phone(phones: dict[str, Device], browser: Browser, game: Game, pid: str, locale: str) -> Page:
    """Open player `pid`'s phone (390 × 844) on the game's /play page; `phones` keeps it by id."""
    device = Device(browser, game.base, pid, locale)
    name = next(p["name"] for p in game.state()["players"] if p["id"] == pid)
    device.remember(game.code, {"player": {"id": pid, "token": game.players[pid], "name": name}})
    phones[pid] = device
    page = device.goto(f"/play/{game.code}")
    expect(page.locator("#now")).to_be_visible()
    return page


def phone_shot(page: Page, label: str) -> None:
    """A screenshot of what the phone shows now, kept under /tmp/shots/phone/ to be looked at."""
    PHONE_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PHONE_SHOTS / f"{label}.png"))


def fixed_share(page: Page) -> tuple[float, list[Any]]:
    """The share of the viewport that stays fixed now, and what stays."""
    found = page.evaluate(FIXED)
    return float(found["share"]), list(found["found"])


def reached(locator: Locator) -> bool:
    """Whether the control is on screen and a tap at its centre lands on it."""
    return bool(locator.evaluate(REACHED))


def scroll_away(page: Page) -> None:
    """Scroll to the page's end, where the strip is out of view and its one line stays at the top."""
    page.wait_for_function("""() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return document.documentElement.classList.contains('strip-away');
    }""", polling=100)


# ---- the tour: every page of each game, in the lobby, in play, in a fight (Quest), after the end ----

GAMES = ("quest1607", "serenissima", "voyagers")
TV_SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
# What each page shows once it has drawn
DRAWN = {"home": "#create-form button[type=submit]", "join": "#lobby-players", "play": "#now, .turnbar",
         "host": "main h1", "screen": ".screen", "dice": ".dice-device, .screen"}
@dataclass
class Stop:
    """One page of the tour, drawn: which game, stage and route, on which device (a phone or the TV)."""

    game: str
    stage: str
    route: str
    device: Device
    tv: bool
    settled: bool = True

    @property
    def label(self) -> str:
        return f"{self.game} {self.stage} /{self.route}"


class _Options:
    """A browser whose contexts take extra options (bypass_csp: a test's script tag may run)."""

    def __init__(self, browser: Browser, **options: Any) -> None:
        self.browser, self.options = browser, options

    def new_context(self, **options: Any) -> BrowserContext:
        return self.browser.new_context(**self.options, **options)


class Tour:
    """The devices of one game's tour: a player's phone, the host's phone, a stranger's phone, the TV."""

    def __init__(self, browser: Browser, base: str, game: str, **context: Any) -> None:
        opened: Any = _Options(browser, **context)
        self.base, self.game = base, game
        self.phone = Device(opened, base, f"{game}-player", "en-GB")
        self.host = Device(opened, base, f"{game}-host", "en-GB")
        self.stranger = Device(opened, base, f"{game}-stranger", "nl-NL")
        self.tv = Device(opened, base, f"{game}-tv", "en-GB", TV_SIZES[0])

    @property
    def devices(self) -> tuple[Device, ...]:
        return (self.phone, self.host, self.stranger, self.tv)

    def seat(self, game: Game, host: bool = True) -> None:
        """Give the phone the first player's token and the host's phone the host's, for `game`."""
        pid, token = next(iter(game.players.items()))
        name = next(p["name"] for p in game.state()["players"] if p["id"] == pid)
        self.phone.remember(game.code, {"player": {"id": pid, "token": token, "name": name}})
        if host:
            self.host.remember(game.code, {"host": game.host})

    def stop(self, stage: str, device: Device, path: str) -> Stop:
        """Open `path` on `device` and wait until it has drawn and stopped changing."""
        route = path.strip("/").split("/")[0] or "home"
        device.goto(path)
        try:
            settle(device.page, DRAWN[route])
        except PlaywrightTimeoutError:  # told as a problem of the page; the tour goes on
            return Stop(self.game, stage, route, device, device is self.tv, settled=False)
        return Stop(self.game, stage, route, device, device is self.tv)

    def pages(self, stage: str, code: str, routes: Iterable[str]) -> Iterator[Stop]:
        """The game's own pages at this stage: the player's phone, the host panel, the TV, the dice."""
        for route in routes:
            if route == "dice" and self.game != "quest1607":
                continue
            device = {"play": self.phone, "host": self.host, "screen": self.tv}.get(route, self.stranger)
            yield self.stop(stage, device, f"/{route}/{code}")

    def close(self) -> None:
        for device in self.devices:  # the checks tell each page's errors
            device.context.close()


def tour(browser: Browser, base: str, game: str, **context: Any) -> Iterator[Stop]:
    """Every page of `game` at every stage, each drawn: the caller checks each stop as it comes."""
    walk = Tour(browser, base, game, **context)
    try:
        yield walk.stop("start", walk.stranger, "/")
        yield from STAGES[game](walk)
    finally:
        walk.close()


def _lobby(walk: Tour, game: Game) -> Iterator[Stop]:
    """The lobby: joining (a stranger), the host's lobby, a joined player's, the game's own pages."""
    walk.seat(game)
    yield walk.stop("lobby", walk.stranger, f"/join/{game.code}")
    yield walk.stop("lobby", walk.host, f"/join/{game.code}")
    yield walk.stop("lobby", walk.phone, f"/join/{game.code}")
    yield walk.stop("lobby", walk.host, "/")
    yield from walk.pages("lobby", game.code, ("host", "screen", "dice"))


def _finished(walk: Tour, code: str) -> Iterator[Stop]:
    yield from walk.pages("finished", code, ("play", "host", "screen", "dice"))
    yield walk.stop("finished", walk.stranger, f"/join/{code}")
    yield walk.stop("finished", walk.phone, "/")


def quest1607(walk: Tour) -> Iterator[Stop]:
    game = Game.create(walk.base, quests_per_level=1)
    for name, land in (("Anna", "netherlands"), ("Bram", "england"), ("Cas", "spain")):
        game.join(name, land)
    yield from _lobby(walk, game)
    first, second, _ = game.players
    game.ok(game.host, {"type": "start"})
    game.ok(game.players[first], {"type": "roll"})
    yield from walk.pages("playing", game.code, ("play", "host", "screen", "dice"))
    yield walk.stop("playing", walk.stranger, f"/join/{game.code}")
    game.ok(game.players[first], {"type": "attack", "ship": 1, "target": second, "target_ship": 1})
    yield from walk.pages("fight", game.code, ("play", "host", "screen", "dice"))
    ended = Game.create(walk.base, quests_per_level=1)
    hero = ended.join("Anna", "netherlands")
    ended.join("Bram", "england")
    ended.ok(ended.host, {"type": "start"})
    walk.seat(ended)
    play_to_the_winner(ended, hero)
    yield from _finished(walk, ended.code)


def serenissima(walk: Tour) -> Iterator[Stop]:
    game = Game.create(walk.base, "serenissima", house_rules={"rounds": 1})
    game.join("Anna", "venice")
    game.join("Bram", "genoa")
    yield from _lobby(walk, game)
    game.ok(game.host, {"type": "start"})
    yield from walk.pages("playing", game.code, ("play", "host", "screen"))
    game.ok(game.players["p1"], {"type": "bid", "ducats": 100})
    game.ok(game.players["p2"], {"type": "bid", "ducats": 50})
    order = pick_all(game)
    yield from walk.pages("trading", game.code, ("play", "host", "screen"))
    while game.state()["phase"] != "finished":
        for pid in order:
            game.ok(game.players[pid], {"type": "finish_phase"})
    yield from _finished(walk, game.code)


def voyagers(walk: Tour) -> Iterator[Stop]:
    game = Game.create(walk.base, "voyagers")
    for number, colour in enumerate(["red", "blue", "green"], start=1):
        game.join(f"Captain {number}", colour)
    yield from _lobby(walk, game)
    game.ok(game.host, {"type": "start"})
    yield from walk.pages("playing", game.code, ("play", "host", "screen"))
    for year in range(1, 7):
        year_of_one_card(game, f"y{year}")
        if year < 6:
            game.ok(game.host, {"type": "turn_order", "order": ["p1", "p2", "p3"]})
    game.ok(game.host, {"type": "close_purchases"})
    yield from walk.pages("scoring", game.code, ("play", "host", "screen"))
    for tips, pid in enumerate(["p1", "p2", "p3"]):
        game.ok(game.host, {**SCORE, "player": pid, "tips": tips})
    yield from _finished(walk, game.code)


STAGES = {"quest1607": quest1607, "serenissima": serenissima, "voyagers": voyagers}
