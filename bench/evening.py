"""A whole Quest 1607 evening to a winner, on every device of the table, through the pages, with screenshots.

    .venv/bin/python bench/evening.py                        # its own server; screenshots to a new folder
    .venv/bin/python bench/evening.py --base http://127.0.0.1:8000 --out /tmp/evening
    .venv/bin/python bench/evening.py --max-turns 200       # give up after 200 turns (default 120)

Real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright; no browser is ever
downloaded), one browser context per device, each doing what a person at the table does with it:

  - the host's laptop (1280×800, English) creates the game on the home page (Quests per level: 1),
    keeps the lobby open, hands the dice to a device from the lobby's "Dice on a table device" card,
    starts the game, and then, on the host panel (/host/CODE), hands out resources with the
    correction form, corrects a player by mistake and takes it back with Undo (which asks first);
  - four phones open the join link, type a name, pick a land and tap Join: Maximiliaan (30
    characters, English, 390×844), Bram (Dutch, 390×844), Wilhelmina (30 characters, Dutch, 360×740)
    and Cas (English, 360×740);
  - two shared screens (/screen/CODE, 1920×1080 English and 1280×720 Dutch), tapped once to start;
  - a tablet (800×1280, Dutch) that opens the dice link the lobby showed and rolls for whoever's turn
    it is (#table-roll); now and then a player rolls on their own phone instead.

The evening: every turn a roll and a sail (the sail card's counter and button) and an end of turn; in
the first round a trade offered on one phone and accepted on another, one declined, the market, an
upgrade, a quest card bought, and an attack with shots fired and a surrender asked and accepted (or a
sinking, with what the sunk player keeps and the winner fishes); in the second round the host's
correction and its undo; then Wilhelmina works through a quest of each level (buying cards until one
needs no fight, carrying out its steps, upgrading, handing it in: each draws an event) and sails to
the edge of the map. Where the dice or the deck decide (the server rolls from a secret seed), the host
gives resources with the host panel's correction form, as a host would. The HTTP API is only read
(tests/api/client.py's Game): the state, to decide what to tap next and to know when a tap has been
applied. Nothing waits a fixed time: every wait is on an element or on the state's version.

Each tap that changes the game is timed to every other device: each page notes (a MutationObserver,
in an init script) when the newest line of its story (`data-version`) first reaches the tap's
version; the figures are median and max per device. Every device's page errors and console errors
are printed at the end, with a one-line summary per moment and the screenshot folder (each device at
each moment: NN-moment-device.png). Own server: a redis-server and gunicorn on free loopback ports
(bench/compare.py's, with its raised limits), stopped on the way out, Ctrl-C and SIGTERM included.
About 5 to 10 minutes on two cores. Nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from compare import ROOT, redis_server, shipmate, stop_on_sigterm
from playwright.sync_api import Browser, Dialog, Locator, Page, ViewportSize, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

sys.path.insert(0, str(ROOT))
from tests.api.client import Game  # the repository's own client, to read the state

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]  # as tests/e2e/helpers.py's
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
SMALL_PHONE: ViewportSize = {"width": 360, "height": 740}
TV: ViewportSize = {"width": 1920, "height": 1080}
SMALL_TV: ViewportSize = {"width": 1280, "height": 720}
TABLET: ViewportSize = {"width": 800, "height": 1280}
TIMEOUT_MS = 20_000
REACH_MS = 10_000  # a tap not on a device within this is counted as not reached
RESOURCES = ["wood", "cotton", "iron", "coal", "food"]
COSTS = {"sails": {"cotton": 3, "wood": 1}, "cannons": {"coal": 2, "iron": 2}, "crew": {"food": 1, "wood": 1},
         "quest": {"wood": 1, "food": 1, "iron": 1, "cotton": 1}}  # the ruleset's, crew paid with wood
FIGHT = "win_fight"

# (key, name, land, locale, viewport); the order is the join order, which is the turn order
PLAYERS: list[tuple[str, str, str, str, ViewportSize]] = [
    ("maxi", "Maximiliaan van der Berg-Orang", "netherlands", "en-GB", PHONE),
    ("bram", "Bram", "england", "nl-NL", PHONE),
    ("wilma", "Wilhelmina Cornelia de Koopman", "spain", "nl-NL", SMALL_PHONE),
    ("cas", "Cas", "portugal", "en-GB", SMALL_PHONE),
]
HERO = "wilma"  # who works through the quests to the edge of the map
assert all(len(name) == 30 for key, name, *_ in PLAYERS if key in ("maxi", "wilma"))

# In every page before its own scripts: when the page first showed each newest story version
# (Date.now(), the machine's clock, as the tap's), and a count of DOM changes (a page has settled
# when it stops changing, as tests/e2e/helpers.py's SETTLED).
OBSERVE = """(() => {
  const seen = window.__seenVersions = {};
  let top = -1;
  window.__changes = 0;
  const look = () => {
    window.__changes += 1;
    let max = -1;
    for (const el of document.querySelectorAll('[data-version]')) {
      const v = Number(el.getAttribute('data-version'));
      if (v > max) max = v;
    }
    if (max > top) { top = max; seen[max] = Date.now(); }
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true,
                                                 characterData: true });
})();"""
REACHED = """([v]) => {
  const seen = window.__seenVersions || {};
  const at = Object.keys(seen).map(Number).filter((k) => k >= v).sort((a, b) => a - b);
  return at.length ? seen[at[0]] : null;
}"""
SETTLED = """() => {
  const quiet = window.__changes === window.__seen;
  window.__seen = window.__changes;
  const sheets = [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => link.sheet);
  const busy = document.querySelector('main .loading, .rolling, #app[aria-busy="true"]')
    || document.fonts.status !== 'loaded' || !sheets;
  return quiet && !busy;
}"""
TOKENS = "() => JSON.parse(localStorage.getItem('shipmate.games') || '{}')"
# The controls on screen now, on top, that are under 44 px either way (a finger's target; a radio or a
# checkbox counts by its label), and whether the page scrolls sideways: what a moment's screenshot may hide.
SMALL = """() => {
  const shown = (el, r) => { // on top where a finger would land (not a skip link kept out of sight)
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit) && (hit === el || el.contains(hit) || hit.contains(el));
  };
  const seen = [...document.querySelectorAll('button, a[href], input, select, summary, label.chip, '
    + 'label.check, label.character, [role=button]')]
    .filter((el) => !['radio', 'checkbox', 'hidden'].includes(el.type));
  const small = seen.map((el) => [el, el.getBoundingClientRect()])
    .filter(([el, r]) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight
      && (r.width < 44 || r.height < 44) && shown(el, r))
    .map(([el, r]) => {
      const words = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim()
        .replace(/\\s+/g, ' ');
      const inline = el.tagName === 'A' && getComputedStyle(el).display === 'inline' ? ' inline' : '';
      return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${inline} "${words.slice(0, 30)}" `
        + `${Math.round(r.width)}x${Math.round(r.height)}`;
    });
  if (document.documentElement.scrollWidth > innerWidth) small.push(`the page scrolls sideways `
    + `(${document.documentElement.scrollWidth} px wide)`);
  return small;
}"""


class Stuck(Exception):
    """The evening cannot go on: a tap was refused, or a page never showed what it should."""


class Device:
    """One device of the table: a browser context of its own with one page, and what went wrong on it."""

    def __init__(self, browser: Browser, base: str, key: str, locale: str, viewport: ViewportSize) -> None:
        self.key = key
        self.context = browser.new_context(viewport=viewport, locale=locale, base_url=base,
                                           device_scale_factor=1)
        self.context.add_init_script(OBSERVE)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.small: dict[str, str] = {}  # a control under 44 px (or a sideways scroll) → where first seen
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type == "error" else None)
        self.page.on("dialog", self.dialog)

    def dialog(self, dialog: Dialog) -> None:
        """A browser dialog (alert, confirm) is an error here: the app asks in the page."""
        self.errors.append(f"browser dialog: {dialog.message}")
        dialog.dismiss()

    def reached(self, version: int) -> float | None:
        """When (ms since the epoch) this page first showed `version` or later, or None."""
        with contextlib.suppress(PlaywrightError):
            value = self.page.evaluate(REACHED, [version])
            return float(value) if value is not None else None
        return None

    def settle(self) -> None:
        """Wait until the page has stopped drawing and nothing tumbles (bounded: a clock may tick)."""
        with contextlib.suppress(PlaywrightTimeoutError):
            self.page.wait_for_function(SETTLED, polling=200, timeout=6_000)


class Evening:
    """The table: its devices, the game (read over the API), the moments and the taps' timings."""

    def __init__(self, browser: Browser, base: str, out: Path) -> None:
        self.base, self.out = base, out
        self.devices: dict[str, Device] = {}
        self.game: Game | None = None
        self.ids: dict[str, str] = {}  # key → player id
        self.tokens: dict[str, str] = {}  # key → player token (read from each phone's storage, to read)
        self.moments: list[str] = []
        self.latency: dict[str, list[float]] = {}  # device → ms from a tap to its page
        self.missed: dict[str, int] = {}
        self.taps = 0
        self.measuring = False
        self.rolled_on_phone = 0
        self.fight = ""
        self.started = time.monotonic()
        specs: list[tuple[str, str, ViewportSize]] = [("host", "en-GB", LAPTOP)]
        specs += [(key, locale, viewport) for key, _, _, locale, viewport in PLAYERS]
        specs += [("tv", "en-GB", TV), ("tv-small", "nl-NL", SMALL_TV), ("tablet", "nl-NL", TABLET)]
        for key, locale, viewport in specs:
            self.devices[key] = Device(browser, base, key, locale, viewport)

    # ---- reading the game ------------------------------------------------------------------------

    @property
    def code(self) -> str:
        assert self.game is not None
        return str(self.game.code)

    def state(self, key: str | None = None) -> dict[str, Any]:
        assert self.game is not None
        return dict(self.game.state(self.tokens[key] if key else None))

    def me(self, key: str) -> dict[str, Any]:
        return next(p for p in self.state(key)["players"] if p["id"] == self.ids[key])

    def key_of(self, pid: str) -> str:
        return next(k for k, v in self.ids.items() if v == pid)

    def page(self, key: str) -> Page:
        return self.devices[key].page

    def version(self) -> int:
        return int(self.state()["version"]) if self.game else -1

    # ---- taps --------------------------------------------------------------------------------------

    def tap(self, key: str, target: str | Locator, what: str, confirm: bool = False) -> int:
        """Tap `target` on device `key`, a tap that changes the game: wait until the server has applied
        it (the state's version), then time its arrival on every other device. `confirm`: the page asks
        first (the edge of the map, a surrender) and the person says yes."""
        page = self.page(key)
        button = page.locator(target) if isinstance(target, str) else target
        expect(button).to_be_enabled()
        before = self.version()
        tapped = time.time() * 1000
        button.click()
        if confirm:
            page.locator("dialog.ask #end-yes").click()
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while (now := self.version()) <= before:
            if time.monotonic() > deadline:
                strip = page.locator("#now").inner_text() if page.locator("#now").count() else ""
                why = page.locator(".why, .toast").all_inner_texts()
                raise Stuck(f"{key}: {what}: the game did not change ({strip!r}; {why})")
            page.wait_for_timeout(50)  # a poll of the server's version, not a wait for time to pass
        self.taps += 1
        if self.measuring:
            self.reach(key, now, tapped)
        return now

    def reach(self, tapper: str, version: int, tapped: float) -> None:
        """Wait until every other device shows `version`; note how long each took from the tap."""
        for key, device in self.devices.items():
            if key == tapper:
                continue
            try:
                device.page.wait_for_function(REACHED, arg=[version], polling=100, timeout=REACH_MS)
            except PlaywrightTimeoutError:
                self.missed[key] = self.missed.get(key, 0) + 1
                continue
            at = device.reached(version)
            if at is not None:
                self.latency.setdefault(key, []).append(max(0.0, at - tapped))

    def click(self, key: str, selector: str) -> None:
        """A tap that changes only the page (a counter, a card that opens)."""
        self.page(key).locator(selector).click()

    def unfold(self, key: str, card: str) -> None:
        page = self.page(key)
        if page.locator(card).get_attribute("open") is None:
            page.locator(f"{card} summary").click()
        expect(page.locator(card)).to_have_attribute("open", "")

    # ---- moments -------------------------------------------------------------------------------------

    def moment(self, slug: str, summary: str, full_page: tuple[str, ...] = ()) -> None:
        """Screenshots of every device now, and a line that says what happened."""
        number = len(self.moments) + 1
        for key, device in self.devices.items():
            device.settle()
            path = self.out / f"{number:02d}-{slug}-{key}.png"
            with contextlib.suppress(PlaywrightError):
                if key in full_page:  # from the top: the fixed header is drawn where the page is scrolled
                    device.page.evaluate("() => window.scrollTo(0, 0)")
                device.page.screenshot(path=str(path), full_page=key in full_page)
                for what in device.page.evaluate(SMALL):
                    device.small.setdefault(str(what), path.name)
        line = f"{number:02d} {slug}: {summary}"
        self.moments.append(line)
        print(f"[evening] {line} ({time.monotonic() - self.started:.0f} s)", flush=True)

    # ---- the lobby -------------------------------------------------------------------------------------

    def lobby(self) -> None:
        host = self.page("host")
        host.goto("/")
        host.locator("label.chip", has=host.locator("input[name=quests][value='1']")).click()
        create = host.locator("#create-form button[type=submit]")
        expect(create).to_be_enabled()  # the game's options have come
        create.click()
        host.wait_for_url("**/join/*")
        code = host.url.rstrip("/").rsplit("/", 1)[-1]
        expect(host.locator(".big-code")).to_have_text(code)
        self.game = Game(self.base, code, str(host.evaluate(TOKENS)[code]["host"]))
        options = self.state().get("options") or {}
        assert options.get("quests_per_level", 1) == 1, options
        host.locator("#dice-make").click()  # "Hand the dice to a device"
        link = str(host.locator("#dice-url").get_attribute("href"))
        self.moment("home-created", f"game {code} created on the laptop; the dice link is {link}")
        for key, name, land, _, _ in PLAYERS:
            page = self.page(key)
            page.goto(f"/join/{code}")
            page.locator("#player-name").fill(name)
            page.locator(f"label.character[data-key='land-{land}']").click()
            page.locator("#join-form button[type=submit]").click()
            expect(page.locator(".players")).to_contain_text(name)
        expect(host.locator(".players li")).to_have_count(len(PLAYERS))
        for key in ("tv", "tv-small"):
            screen = self.page(key)
            screen.goto(f"/screen/{code}")
            screen.locator("#screen-start").click()  # tapped once: it may speak and stay awake
            expect(screen.locator("#screen-start")).to_have_count(0)
        split = urlsplit(link)  # the link carries the laptop's address on the Wi-Fi; here, the server's
        if f"{split.scheme}://{split.netloc}" != self.base:
            print(f"[evening] note: the dice link's address {split.netloc} is not the server's ({self.base});"
                  " the tablet opens its path", flush=True)
        tablet = self.page("tablet")
        tablet.goto(split.path + (f"#{split.fragment}" if split.fragment else ""))
        expect(tablet.locator("#dice-note")).to_be_visible()
        state = self.state()
        self.ids = {key: next(p["id"] for p in state["players"] if p["name"] == name)
                    for key, name, *_ in PLAYERS}
        for key, *_ in PLAYERS:
            self.tokens[key] = str(self.page(key).evaluate(TOKENS)[code]["player"]["token"])
        self.moment("lobby", "four phones joined through the join page; the screens started; "
                             "the tablet holds the dice")
        self.tap("host", "#start", "start")
        host.wait_for_url(f"**/host/{code}")
        for key, *_ in PLAYERS:
            self.page(key).wait_for_url(f"**/play/{code}")
            expect(self.page(key).locator("#now")).to_be_visible()
        expect(tablet.locator("#table-roll")).to_be_visible()
        self.measuring = True
        first = self.key_of(self.state()["turn"]["player"])
        self.moment("started", f"the host started; the host panel opened; {self.name(first)} begins")

    def name(self, key: str) -> str:
        return next(name for k, name, *_ in PLAYERS if k == key)

    # ---- the host panel --------------------------------------------------------------------------------

    def correct(self, key: str, resources: dict[str, int], reason: str) -> int:
        """The host's correction form: the player, each resource's change, a reason, Apply."""
        host = self.page("host")
        host.locator("#adjust-player").select_option(self.ids[key])
        for resource, n in resources.items():
            if n:
                host.locator(f"#adjust-{resource}").fill(str(n))
        host.locator("#adjust-reason").fill(reason)
        return self.tap("host", "#adjust-form button[type=submit]", f"correct {key} {resources}")

    def supply(self, key: str, need: dict[str, int], reason: str, margin: int = 0) -> None:
        """The host gives `key` what they lack of `need` (plus `margin` of each), if anything."""
        have = self.me(key)["resources"]
        short = {r: max(0, n + margin - have.get(r, 0)) for r, n in need.items()}
        if any(short.values()):
            self.correct(key, short, reason)

    def correction_and_undo(self) -> None:
        bram = self.ids["bram"]
        food = next(p for p in self.state()["players"] if p["id"] == bram)["resources"]["food"]
        self.correct("bram", {"food": 3}, "a crate of fish found")
        self.moment("host-correction", f"the host gave Bram 3 Food on the host panel ({food} → {food + 3})")
        host = self.page("host")
        host.locator("#host-undo").click()
        question = host.locator("#undo-ask")
        expect(question).to_be_visible()
        question.locator("#undo-reason").fill("it was Cas's crate")
        self.moment("host-undo-asks", "the host tapped Undo; the panel asks first, with a reason")
        self.tap("host", question.locator("#undo-confirm"), "undo")
        expect(question).to_have_count(0)
        after = next(p for p in self.state()["players"] if p["id"] == bram)["resources"]["food"]
        assert after == food, (food, after)
        self.moment("host-undone", f"the correction is taken back: Bram has {after} Food again")

    # ---- a turn ------------------------------------------------------------------------------------

    def roll(self, key: str, on_phone: bool) -> None:
        if on_phone:
            self.tap(key, "#do-roll", "roll on the phone")
            self.rolled_on_phone += 1
        else:
            self.tap("tablet", "#table-roll", f"roll for {key} on the tablet")

    def sail(self, key: str) -> None:
        page = self.page(key)
        self.unfold(key, "#sail-form")
        more = page.locator("#sail-form [data-step='sail.1'][data-d='1']")
        if more.is_enabled():
            more.click()  # two squares, if the allowance has them
        self.tap(key, "#sail-1", "sail")

    def end_turn(self, key: str) -> None:
        self.tap(key, "#end-turn", "end turn")

    # ---- the first round's moments ------------------------------------------------------------------

    def trades(self, key: str) -> None:
        """The active player offers one player a trade, who accepts, and another, who declines."""
        others = [k for k, *_ in PLAYERS if k != key]
        taker, decliner = others[0], others[-1]
        page = self.page(key)
        self.unfold(key, "#offer-form")
        page.locator("#offer-to").select_option(self.ids[taker])
        self.click(key, "[data-step='offer.give.wood'][data-d='1']")
        self.click(key, "[data-step='offer.get.food'][data-d='1']")
        self.tap(key, "#offer-send", "offer")
        offer = self.page(taker).locator("#trade .offer")
        expect(offer).to_have_count(1)
        self.moment("trade-offered", f"{self.name(key)} offered {self.name(taker)} 1 Wood for 1 Food")
        self.tap(taker, offer.locator("button[data-act=accept]"), "accept")
        expect(page.locator("#trade .offer")).to_have_count(0)
        self.moment("trade-accepted", f"{self.name(taker)} accepted on their phone")
        page.locator("#offer-to").select_option(self.ids[decliner])
        self.click(key, "[data-step='offer.give.cotton'][data-d='1']")
        self.click(key, "[data-step='offer.get.iron'][data-d='1']")
        self.click(key, "[data-step='offer.get.iron'][data-d='1']")
        self.tap(key, "#offer-send", "offer")
        offer = self.page(decliner).locator("#trade .offer")
        expect(offer).to_have_count(1)
        self.tap(decliner, offer.locator("button[data-act=decline]"), "decline")
        expect(page.locator("#trade .offer")).to_have_count(0)
        self.moment("trade-declined", f"{self.name(decliner)} declined 1 Cotton for 2 Iron")

    def market_and_upgrade(self, key: str) -> None:
        page = self.page(key)
        self.unfold(key, "#market-form")
        page.locator("#market-give").select_option("wood")
        page.locator("#market-get").select_option("coal")
        self.tap(key, "#market-send", "market")
        self.moment("market", f"{self.name(key)} exchanged 4 Wood for 1 Coal at the market")
        self.supply(key, COSTS["sails"], "for the sails")
        self.tap(key, "#up-1-sails", "upgrade sails")
        self.moment("upgrade", f"{self.name(key)} upgraded ship 1's Sails")

    def attack(self, key: str) -> None:
        """The active player attacks the first player's ship; shots until one side surrenders (accepted)
        or a ship sinks (the sunk player keeps, the winner fishes)."""
        target = next(k for k, *_ in PLAYERS if k != key)
        page = self.page(key)
        self.unfold(key, "#attack-form")
        page.locator("#attack-target").select_option(self.ids[target])
        self.tap(key, "#attack-send", "attack")
        expect(self.page("tv").locator(".screen-combat")).to_be_visible()
        self.moment("fight-started", f"{self.name(key)} attacked {self.name(target)}")
        shots = 0
        asked = False
        for _ in range(60):
            combat = self.state()["combat"]
            if combat is None or combat["stage"] not in ("firing", "surrender_offered"):
                break
            if combat["stage"] == "surrender_offered":
                winner = self.key_of(combat["attacker"]["player"] if combat["surrendering"] ==
                                     combat["defender"]["player"] else combat["defender"]["player"])
                self.moment("fight-surrender-asked", f"{self.name(self.key_of(combat['surrendering']))} "
                                                     f"offered to surrender after {shots} shots")
                self.tap(winner, "#accept-surrender", "accept the surrender")
                self.fight = f"surrender after {shots} shots"
                continue
            defender = self.key_of(combat["defender"]["player"])
            if shots >= 2 and not asked and self.page(defender).locator("#surrender").count():
                asked = True
                self.tap(defender, "#surrender", "surrender", confirm=True)
                continue
            shooter = self.key_of(combat["shooter"])
            self.tap(shooter, "#fire", "fire")
            shots += 1
            if shots == 2:
                self.moment("fight-shots", "two shots fired")
        combat = self.state()["combat"]
        if combat is not None and combat["stage"] == "salvage":
            self.salvage(combat)
        expect(self.page(key).locator(".combat")).to_have_count(0)
        self.moment("fight-over", f"the fight is over: {self.fight}")

    def salvage(self, combat: dict[str, Any]) -> None:
        """C7: the sunk player picks what to keep, then the winner fishes from the water."""
        sunk, winner = self.key_of(combat["sunk"]), self.key_of(combat["winner"])
        self.fight = f"{self.name(sunk)}'s ship sank"
        self.moment("fight-sunk", f"{self.name(sunk)}'s ship sank; they choose what to keep")
        held = self.me(sunk)["resources"]
        need = combat["keep"]
        for resource, n in held.items():
            for _ in range(min(n, need)):
                self.click(sunk, f"[data-step='keep.{resource}'][data-d='1']")
            need -= min(n, need)
        self.tap(sunk, "#keep-send", "keep")
        water = self.state()["combat"]["water"]
        want = min(2, sum(water.values()))
        for resource, n in water.items():
            for _ in range(min(n, want)):
                self.click(winner, f"[data-step='fish.{resource}'][data-d='1']")
            want -= min(n, want)
        self.tap(winner, "#fish-send", "fish")

    # ---- the hero's quests --------------------------------------------------------------------------

    def quests(self, key: str) -> bool:
        """One step on the way to the win, on the hero's turn: the edge if every level is done, else a
        quest of the level bought (until one needs no fight) and carried out. True once won."""
        mine = self.me(key)
        if mine["level"] == "done":
            self.tap(key, "#edge", "reach the edge", confirm=True)
            return True
        level = mine["level"]
        for _ in range(8):
            doable = [q for q in mine["quests"] if q["level"] == level
                      and all(r["kind"] != FIGHT or p["done"]
                              for r, p in zip(q["requirements"], q["progress"], strict=True))]
            if doable:
                break
            self.supply(key, COSTS["quest"], f"a {level} quest card")
            self.tap(key, f"#buy-{level}", f"buy a {level} quest")
            mine = self.me(key)
            self.moment(f"quest-bought-{level}", f"{self.name(key)} bought a {level} quest card "
                                                 f"({len(mine['quests'])} held)")
        else:
            raise Stuck(f"no {level} quest without a fight after 8 cards")
        self.carry_out(key, doable[0])
        return False

    def carry_out(self, key: str, quest: dict[str, Any]) -> None:
        qid, level = quest["id"], quest["level"]
        need: dict[str, int] = {}

        def add(cost: dict[str, int], times: int = 1) -> None:
            for resource, n in cost.items():
                need[resource] = need.get(resource, 0) + n * times

        ships = self.me(key)["ships"]
        for requirement in quest["requirements"]:
            if requirement["kind"] == "deliver":
                add(requirement["resources"])
            elif requirement["kind"] == "ship_level":
                part = requirement["part"]
                add(COSTS[part], max(0, requirement["at_least"] - max(s[part] for s in ships)))
            elif requirement["kind"] == "fleet":
                add(COSTS["crew"], max(0, 7 - ships[0]["crew"]))  # ship 2 comes at Crew 7 (U2)
        self.supply(key, need, f"for the {level} quest", margin=1)
        page = self.page(key)
        for index, requirement in enumerate(quest["requirements"]):
            kind = requirement["kind"]
            step = f"#step-{qid}-{index}"
            if kind == "visit":
                self.tap(key, step, "a visit")
            elif kind == "cargo":
                self.tap(key, step, "load")
                expect(page.locator(step)).to_be_visible()
                self.tap(key, step, "deliver")
            elif kind == "ship_level":
                part = requirement["part"]
                while max(s[part] for s in self.me(key)["ships"]) < requirement["at_least"]:
                    self.upgrade(key, part)
            elif kind == "fleet":
                while len(self.me(key)["ships"]) < requirement["ships"]:
                    self.upgrade(key, "crew")
        steps = ", ".join(r["kind"] for r in quest["requirements"])
        self.moment(f"quest-ready-{level}", f"{self.name(key)} carried out {quest['card']} ({steps})")
        complete = page.locator(f"#complete-{qid}")
        if not complete.is_enabled():  # an event may have raised a price: the host tops up
            self.supply(key, need, "the quest's price went up", margin=2)
        before = self.state()["event"]
        self.tap(key, complete, f"complete the {level} quest")
        event = self.state()["event"]
        expect(self.page("tv").locator(".screen-event")).to_be_visible()
        self.moment(f"quest-done-{level}", f"{self.name(key)} completed the {level} quest; event "
                                           f"{event['id'] if event else '?'} drawn"
                                           f"{' (replacing ' + before['id'] + ')' if before else ''}")

    def upgrade(self, key: str, part: str) -> None:
        button = self.page(key).locator(f"#up-1-{part}")
        if not button.is_enabled():  # an event's price, or a loss: the host tops up
            self.supply(key, {r: n + 2 for r, n in COSTS[part].items()}, f"for {part}")
        self.tap(key, button, f"upgrade {part}")

    # ---- the evening ----------------------------------------------------------------------------------

    def play(self, max_turns: int) -> None:
        self.lobby()
        for turn in range(max_turns):
            state = self.state()
            if state["winner"]:
                break
            key = self.key_of(state["turn"]["player"])
            round_ = state["round"]
            if turn == len(PLAYERS):
                self.correction_and_undo()
            if not state["turn"]["rolled"]:
                self.roll(key, on_phone=turn % 5 == 1)
            if turn < 8 or key == HERO:
                where = " on their phone" if turn % 5 == 1 else " on the tablet"
                self.moment(f"t{turn:02d}-rolled-{key}",
                            f"round {round_}: {self.name(key)} rolled {self.dice()}{where}")
            self.sail(key)
            if turn == 0:
                self.moment("t00-sailed", f"{self.name(key)} sailed with the sail card's counter and button")
                for player, *_ in PLAYERS:
                    self.supply(player, {"wood": 6, "cotton": 4, "food": 3, "iron": 2, "coal": 2},
                                "the evening's start")
                self.moment("host-supplies", "the host handed every player a start with the correction form")
                self.trades(key)
            elif turn == 1:
                self.market_and_upgrade(key)
            elif turn == 3:
                self.attack(key)
            elif key == HERO and turn >= len(PLAYERS) and self.quests(key):
                break
            self.end_turn(key)
            if turn < 8:
                nxt = self.key_of(self.state()["turn"]["player"])
                self.moment(f"t{turn + 1:02d}-turn-start-{nxt}", f"{self.name(key)} ended the turn; "
                                                                 f"{self.name(nxt)}'s turn begins")
        else:
            raise Stuck(f"no winner after {max_turns} turns")
        self.the_end()

    def dice(self) -> str:
        dice = self.state()["turn"]["dice"]
        return f"{dice['move']['value']} + " + ", ".join(str(d["value"]) for d in dice["white"])

    def the_end(self) -> None:
        state = self.state()
        winner = self.name(self.key_of(state["winner"]))
        for key, device in self.devices.items():
            with contextlib.suppress(PlaywrightTimeoutError):
                device.page.wait_for_function("([name]) => document.body.innerText.includes(name)",
                                              arg=[winner], timeout=TIMEOUT_MS)
            if key in self.ids:
                device.page.evaluate("() => window.scrollTo(0, 0)")
        host = self.page("host")
        expect(host.locator(".report")).to_be_visible()
        self.moment("the-end", f"{winner} reached the edge of the map and won (round {state['round']})",
                    full_page=("host",))
        report = self.out / f"{len(self.moments):02d}-the-end-host-report.png"
        host.evaluate("() => window.scrollTo(0, 0)")  # not the element's own screenshot: it scrolls the
        box = host.locator(".report").bounding_box()  # report under the fixed header
        assert box is not None
        host.screenshot(path=str(report), full_page=True, clip=box)

    # ---- the figures ---------------------------------------------------------------------------------

    def report(self) -> str:
        lines = [f"Screenshots: {self.out}", "", "Moments:", *(f"  {m}" for m in self.moments), ""]
        lines.append(f"Taps that changed the game: {self.taps} (rolls on a phone: {self.rolled_on_phone}); "
                     "tap → shown on each other device, ms:")
        every: list[float] = []
        for key in self.devices:
            values = self.latency.get(key, [])
            every += values
            missed = self.missed.get(key, 0)
            shown = (f"median {statistics.median(values):6.0f}  max {max(values):6.0f}  (n={len(values)})"
                     if values else "none")
            late = f"  not shown within {REACH_MS} ms: {missed}" if missed else ""
            lines.append(f"  {key:<9} {shown}{late}")
        if every:
            lines.append(f"  {'all':<9} median {statistics.median(every):6.0f}  max {max(every):6.0f}  "
                         f"(n={len(every)})")
        lines += ["", "Controls under 44 px on screen at a moment (first screenshot that shows it):"]
        for key, device in self.devices.items():
            lines += ([f"  {key}: {what}  ({path})" for what, path in device.small.items()]
                      or [f"  {key}: none"])
        lines += ["", "Page and console errors:"]
        for key, device in self.devices.items():
            lines += [f"  {key}: {e[:300]}" for e in dict.fromkeys(device.errors)] or [f"  {key}: none"]
        return "\n".join(lines)

    def close(self) -> None:
        for device in self.devices.values():
            with contextlib.suppress(PlaywrightError):
                device.context.close()


@contextlib.contextmanager
def served(log: Path) -> Iterator[str]:
    """This tree's server with its own Redis (bench/compare.py's, with the raised limits); its URL."""
    with tempfile.TemporaryDirectory(prefix="shipmate-evening-redis-") as folder, \
            redis_server(Path(folder), "everysec") as (redis_url, _), \
            shipmate(redis_url, 1, log) as (url, _):
        yield url


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="a running server's URL (default: start one of this tree's)")
    parser.add_argument("--out", type=Path, help="the screenshots' folder (default: a new one under /tmp)")
    parser.add_argument("--max-turns", type=int, default=120,
                        help="give up after this many turns (default 120)")
    args = parser.parse_args()
    stop_on_sigterm()
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="shipmate-evening-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"[evening] screenshots go to {out}", flush=True)
    expect.set_options(timeout=TIMEOUT_MS)
    failed = ""
    with contextlib.ExitStack() as stack:
        base = args.base.rstrip("/") if args.base else stack.enter_context(served(out / "server.log"))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        stack.callback(browser.close)
        evening = Evening(browser, base, out)
        stack.callback(evening.close)
        try:
            evening.play(args.max_turns)
        except (Stuck, PlaywrightError, AssertionError) as exc:
            for key, device in evening.devices.items():
                with contextlib.suppress(PlaywrightError):
                    device.page.screenshot(path=str(out / f"failed-{key}.png"))
            failed = f"{type(exc).__name__}: {str(exc)[:1500]}"
        print(evening.report())
    if failed:
        print(f"\nThe evening stopped: {failed} (screenshots failed-*.png in {out})")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the context managers have stopped the browser, the server and Redis
        print("[evening] interrupted: the browser, the server and its Redis are stopped", file=sys.stderr)
        sys.exit(130)
