"""What a phone's and the TV's pages cost the browser's main thread: this tree against another revision.

    .venv/bin/python bench/phone_cost.py                   # this tree against HEAD, one round
    .venv/bin/python bench/phone_cost.py --base 7db0d15 --rounds 3
    .venv/bin/python bench/phone_cost.py --only-base        # HEAD alone (this tree's pwa/ mid-edit)
    .venv/bin/python bench/phone_cost.py --only-tree        # this tree alone

Real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright; no browser is ever
downloaded), measured through the Chrome DevTools Protocol. For each tree a server of its own (its
code and its pwa/, with its own real redis-server on free loopback ports, as bench/compare.py
starts them) holds a Quest 1607 game of four players (Anna, Bram, Cas, Dirk) brought mid-game
through the HTTP API: a few turns rolled and ended, so there is a story and stock. Then:

  1. Anna's phone (/play/CODE, 390×844, her token in localStorage as a join leaves it), CPU
     throttled 4× (Emulation.setCPUThrottlingRate): 12 times the host corrects Bram's wood (+1,
     then −1, over the API), and the main thread's work of a fixed window of 1.0 s from just
     before the change is read from Performance.getMetrics (TaskDuration, ScriptDuration),
     alternated with 12 windows of the same length with no change (the idle baseline);
  2. the long tasks (> 50 ms, a buffered `longtask` PerformanceObserver) that started in those
     12 change windows;
  3. on the same phone, the trade card's offer form opened as a person does (its summary tapped),
     a `+` of a count tapped 12 times (real mouse clicks through CDP): the main thread's work of a
     0.6 s window from just before each tap, and the Event Timing entries of the tap (`click`,
     `pointerup`: duration, i.e. until the next paint, and processingEnd − processingStart);
     Event Timing reports no entry under 16 ms, shown as "< 16";
  4. the TV (/screen/CODE, 1920×1080), not throttled: the same 12 changes, 1.0 s windows;
  5. the first load of the phone's and the TV's pages: bench/pwa_size.py's gzipped totals for the
     tree's pwa/ on disk (the tree's own copy of the script; this tree's when the revision has none).

Each page first gets one change (one tap) that is not counted, so the code it runs is loaded and
compiled. Every window is of fixed length, the same for every tree, and nothing runs in the page
during it (no polling): whether the phone drew each change is checked after its window (a
`data-version` of the change's version on the page, else any change of the DOM); between windows
the page is let settle (no DOM change for 250 ms). Per-window figures go to figures.json in the
run's log folder, with each server's log. The VM this is measured on runs at
different speeds from one hour to the next, so both trees are measured in the same run, one after
the other in each round, the order swapped from round to round (`--rounds`); figures are pooled
over the rounds. The base revision is checked out in a temporary git worktree and served with this
tree's virtualenv (as bench/ab.py does). A tree whose page fails is reported as failed, and the
other is still measured. Every server, Redis and worktree is stopped and removed on the way out,
Ctrl-C and SIGTERM included. About a minute and a half per tree and round. Nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import requests
from ab import worktree
from compare import ROOT, redis_server, shipmate, stop_on_sigterm
from playwright.sync_api import Browser, CDPSession, Page, ViewportSize, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]  # as tests/e2e/helpers.py's
PHONE: ViewportSize = {"width": 390, "height": 844}
TV: ViewportSize = {"width": 1920, "height": 1080}
PLAYERS = [("Anna", "netherlands"), ("Bram", "england"), ("Cas", "spain"), ("Dirk", "portugal")]
TURNS = 8  # two rounds of rolls and ends of turn; then Anna, at her turn again, rolls
THROTTLE = 4
CHANGES = 12
TAPS = 12
WINDOW_S = 1.0  # a change's window, the same for every tree (phone and TV)
TAP_WINDOW_S = 0.6  # a tap's window
WARM_UP = 1  # changes (and taps) before the counted ones: the code they run is loaded and compiled
LONG_TASK_MS = 50
TIMEOUT = 10

# Targets (the issue's): a change at most 8 ms of the phone's main thread (median), no long task
# while changes arrive, a counter tap at most 16 ms of main thread and 50 ms to the next paint, the
# TV at most 4 ms per change, a first load at most 60 KB gzipped (bench/pwa_size.py's budget).
TARGET_CHANGE_MS = 8.0
TARGET_TAP_MS = 16.0
TARGET_PAINT_MS = 50.0
TARGET_TV_MS = 4.0
TARGET_LOAD_B = 60 * 1024
EVENT_THRESHOLD_MS = 16

# Installed in every page before its own scripts: the long tasks and Event Timing entries (buffered,
# so none is missed before the observer runs), and a count of the page's DOM changes, by which a
# page is known to have settled and a change to have been drawn.
OBSERVE = """(() => {
  const pc = window.__pc = { long: [], events: [], changes: 0 };
  const watch = (options, keep) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(keep)).observe(options);
    } catch (e) { /* not in this browser */ }
  };
  watch({ type: 'longtask', buffered: true }, (e) => pc.long.push([e.startTime, e.duration]));
  const event = (e) => pc.events.push({ type: e.entryType, name: e.name, start: e.startTime,
    duration: e.duration, processing: e.processingEnd - e.processingStart,
    interaction: e.interactionId || 0 });
  watch({ type: 'event', durationThreshold: THRESHOLD, buffered: true }, event);
  watch({ type: 'first-input', buffered: true }, event);
  new MutationObserver(() => { pc.changes += 1; })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();""".replace("THRESHOLD", str(EVENT_THRESHOLD_MS))

# As tests/e2e/helpers.py's SETTLED: true once nothing changed since the last poll, nothing is
# loading, the fonts and sheets are in, and `selector` is on the page.
SETTLED = """([selector]) => {
  const quiet = window.__pc.changes === window.__seen;
  window.__seen = window.__pc.changes;
  const sheets = [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => link.sheet);
  const busy = document.querySelector('main .loading, .rolling, #app[aria-busy="true"]')
    || document.fonts.status !== 'loaded' || !sheets;
  return quiet && !busy && Boolean(document.querySelector(selector));
}"""

# After a change's window: the change's version on the page (the story's newest line carries it), or,
# on a page that shows no version, any change of the DOM since the window began.
DRAWN = """([version, seen]) => document.querySelector(`[data-version="${version}"]`) !== null
  || (document.querySelector('[data-version]') === null && window.__pc.changes > seen)"""

# The `+` a person taps in the offer form (pwa/js/views/quest1607/phone/trade.js): a count of what
# Anna asks for; any other `+` of the trade card if the form has changed.
OFFER_FORM = "#offer-form"
PLUS = [f"{OFFER_FORM} button[data-step^='offer.get.'][data-d='1']:not([disabled])",
        "#trade button[data-step][data-d='1']:not([disabled])"]


# What each window keeps, in ms: sums of Performance.getMetrics' counters. `task` is the main thread's
# busy time (throttled, as a slow phone spends it); `cpu` the main thread's CPU time (ThreadTime), which
# the machine's other work hardly touches: a steadier figure of the TV's work. Under the CPU throttle
# the thread burns CPU while it is held back (~400 ms of a 1 s window with no change), so the phone's
# `cpu` says nothing and is only kept in figures.json.
SAMPLED = {"task": ("TaskDuration",), "script": ("ScriptDuration",),
           "style_layout": ("RecalcStyleDuration", "LayoutDuration"), "cpu": ("ThreadTime",)}
Sample = dict[str, float]


class Failed(Exception):
    """A part of a tree's measurement that could not be done (its page failed, or its server)."""


@dataclass
class Figures:
    """What one tree measured, pooled over the rounds; `errors` says which parts failed and why."""

    change: list[Sample] = field(default_factory=list)  # the phone's change windows
    idle: list[Sample] = field(default_factory=list)
    drawn: list[bool] = field(default_factory=list)
    long_tasks: list[int] = field(default_factory=list)  # per change window
    tap: list[Sample] = field(default_factory=list)
    tap_counted: list[bool] = field(default_factory=list)
    click: list[float | None] = field(default_factory=list)  # None: under the 16 ms threshold
    click_processing: list[float | None] = field(default_factory=list)
    pointerup: list[float | None] = field(default_factory=list)
    tv: list[Sample] = field(default_factory=list)
    load: dict[str, int] = field(default_factory=dict)  # page → bytes gzipped
    errors: list[str] = field(default_factory=list)


# ---- the server and the game ------------------------------------------------------------------------


@contextlib.contextmanager
def served(tree: Path, log: Path) -> Iterator[str]:
    """Serve `tree` (its backend/ and pwa/) with a Redis of its own; yield the base URL."""
    with tempfile.TemporaryDirectory(prefix="shipmate-phone-cost-redis-") as folder, \
            redis_server(Path(folder), "everysec") as (redis_url, _), \
            shipmate(redis_url, 1, log, root=tree) as (url, _):
        yield url


class Table:
    """A Quest 1607 game on a server: its code, the host's and the players' tokens, played over the API."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()
        created = self.post("/api/games", {"game": "quest1607", "options": {}})
        self.code: str = created["code"]
        self.host: str = created["host_token"]
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        for name, character in PLAYERS:
            joined = self.post(f"/api/games/{self.code}/players", {"name": name, "character": character})
            self.ids[name], self.tokens[name] = joined["player_id"], joined["token"]
        self.act(self.host, {"type": "start"})
        self.wood = 0  # what the changes added to Bram's wood so far

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.post(self.base + path, json=body, headers=headers, timeout=TIMEOUT)
        if response.status_code >= 300:
            raise Failed(f"{path} {body}: {response.status_code} {response.text[:300]}")
        answer: dict[str, Any] = response.json()
        return answer

    def act(self, token: str, action: dict[str, Any]) -> dict[str, Any]:
        return self.post(f"/api/games/{self.code}/actions", action, token)

    def state(self) -> dict[str, Any]:
        response = self.http.get(f"{self.base}/api/games/{self.code}", timeout=TIMEOUT)
        response.raise_for_status()
        state: dict[str, Any] = response.json()
        return state

    def mid_game(self) -> None:
        """Play TURNS turns (each player rolls and ends the turn), give everyone some stock, then the
        next player (Anna, after whole rounds) rolls: a story, stock, and a turn under way."""
        by_id = {pid: name for name, pid in self.ids.items()}
        for name in self.ids:
            self.act(self.host, {"type": "adjust", "player": self.ids[name],
                                 "resources": {"wood": 2, "cotton": 2, "food": 1}, "reason": "a start"})
        for turn in range(TURNS + 1):
            active = by_id[self.state()["turn"]["player"]]
            self.act(self.tokens[active], {"type": "roll"})
            if turn < TURNS:
                self.act(self.tokens[active], {"type": "end_turn"})

    def change(self) -> int:
        """The host corrects Bram's wood by +1 or −1 (alternately); return the game's version after it."""
        delta = -1 if self.wood else 1
        answer = self.act(self.host, {"type": "adjust", "player": self.ids["Bram"],
                                      "resources": {"wood": delta}, "reason": "a counted plank"})
        self.wood += delta
        version = answer.get("version")
        return int(version) if isinstance(version, int) else -1


# ---- the browser ------------------------------------------------------------------------------------


@contextlib.contextmanager
def device(browser: Browser, base: str, viewport: ViewportSize,
           storage: dict[str, Any] | None = None) -> Iterator[tuple[Page, CDPSession, list[str]]]:
    """A browser context of its own with one page and its CDP session; yield them and the page's errors."""
    context = browser.new_context(viewport=viewport, locale="en-GB", base_url=base, device_scale_factor=1)
    try:
        context.add_init_script(OBSERVE)
        if storage:  # as a join leaves them, before any page loads (tests/e2e/helpers.py's Device.remember)
            script = "([key, value]) => { if (!localStorage.getItem(key)) localStorage.setItem(key, value); }"
            pairs = [[key, json.dumps(value)] for key, value in storage.items()]
            context.add_init_script("".join(f"({script})({json.dumps(pair)});" for pair in pairs))
        page = context.new_page()
        page.set_default_timeout(20_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        yield page, cdp, errors
    finally:
        context.close()


def settle(page: Page, selector: str = "body", timeout: float = 30_000) -> None:
    """Wait until the page shows `selector`, has nothing loading and has stopped changing."""
    page.wait_for_function(SETTLED, arg=[selector], polling=250, timeout=timeout)


def metrics(cdp: CDPSession) -> dict[str, float]:
    """The renderer's counters (Performance.getMetrics): TaskDuration, ScriptDuration… in seconds."""
    answer = cdp.send("Performance.getMetrics")
    return {m["name"]: float(m["value"]) for m in answer["metrics"]}


def window(cdp: CDPSession, seconds: float, do: Callable[[], Any] | None = None) -> tuple[Sample, Any]:
    """The main thread's work of `seconds` from just before `do()` (SAMPLED, in ms), and what `do`
    returned. Nothing runs in the page meanwhile but the page itself."""
    before = metrics(cdp)
    start = time.monotonic()
    done = do() if do else None
    time.sleep(max(0.0, seconds - (time.monotonic() - start)))
    after = metrics(cdp)
    sample = {name: sum(after[m] - before[m] for m in counters) * 1000 for name, counters in SAMPLED.items()}
    return sample, done


def page_clock(page: Page) -> float:
    """The epoch time in ms of the page's performance.now() = 0, so a time of Python's maps onto it."""
    return float(page.evaluate("performance.timeOrigin"))


def fail_on(errors: list[str], what: str) -> None:
    if errors:
        raise Failed(f"{what}: page errors: {errors[:3]}")


def measure_phone(browser: Browser, table: Table, out: Figures) -> None:
    """Parts 1-3: changes, idle windows and long tasks, then the counter's taps, on Anna's phone."""
    entry = {table.code: {"player": {"id": table.ids["Anna"], "token": table.tokens["Anna"], "name": "Anna"}}}
    with device(browser, table.base, PHONE, {"shipmate.games": entry}) as (page, cdp, errors):
        page.goto(f"/play/{table.code}")
        try:  # the trade card comes with the cards below the first screenful, which load beside the page
            settle(page, "#trade", 15_000)
        except PlaywrightTimeoutError:  # a phone without it still gets its changes measured
            settle(page)
        fail_on(errors, "the phone")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        try:
            settle(page)
            origin = page_clock(page)
            for _ in range(WARM_UP):
                window(cdp, WINDOW_S, table.change)
            spans: list[tuple[float, float]] = []
            for _ in range(CHANGES):
                settle(page)
                seen = int(page.evaluate("window.__pc.changes"))
                start = time.time() * 1000 - origin
                sample, version = window(cdp, WINDOW_S, table.change)
                spans.append((start, time.time() * 1000 - origin))
                out.change.append(sample)
                out.drawn.append(bool(page.evaluate(DRAWN, [version, seen])))
                settle(page)
                out.idle.append(window(cdp, WINDOW_S)[0])
            long = page.evaluate("window.__pc.long")
            out.long_tasks += [sum(1 for begin, length in long if a <= begin <= b and length > LONG_TASK_MS)
                               for a, b in spans]
            fail_on(errors, "the phone, changes")
            tap(page, cdp, origin, out)
            fail_on(errors, "the phone, taps")
        finally:
            with contextlib.suppress(Exception):
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})


def tap(page: Page, cdp: CDPSession, origin: float, out: Figures) -> None:
    """Part 3: open the offer form as a person does, then tap a `+` of a count TAPS times."""
    form = page.locator(OFFER_FORM)
    if form.count() and form.evaluate("(el) => el.tagName === 'DETAILS' && !el.open"):
        summary = form.locator("summary").first
        summary.scroll_into_view_if_needed()
        summary.click()
    settle(page)
    plus = next((page.locator(s).first for s in PLUS if page.locator(s).count()), None)
    if plus is None:
        raise Failed("the phone: no `+` of a count in the trade card")
    plus.scroll_into_view_if_needed()
    selector = plus.evaluate("(el) => `[data-step=\"${el.dataset.step}\"][data-d=\"1\"]`")
    plus = page.locator(selector).first
    spans: list[tuple[float, float]] = []
    for number in range(WARM_UP + TAPS):
        settle(page, selector)
        box = plus.bounding_box()
        if box is None:
            raise Failed("the phone: the `+` is not on screen")
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        seen = int(page.evaluate("window.__pc.changes"))
        start = time.time() * 1000 - origin
        sample, _ = window(cdp, TAP_WINDOW_S, functools.partial(page.mouse.click, x, y))
        if number < WARM_UP:
            continue
        spans.append((start, time.time() * 1000 - origin))
        out.tap.append(sample)
        out.tap_counted.append(int(page.evaluate("window.__pc.changes")) > seen)
    events = page.evaluate("window.__pc.events")
    for a, b in spans:
        mine = [e for e in events if e["type"] == "event" and a <= e["start"] <= b]
        clicks = [e for e in mine if e["name"] == "click"]
        ups = [e for e in mine if e["name"] == "pointerup"]
        out.click.append(max(e["duration"] for e in clicks) if clicks else None)
        out.click_processing.append(max(e["processing"] for e in clicks) if clicks else None)
        out.pointerup.append(max(e["duration"] for e in ups) if ups else None)


def measure_tv(browser: Browser, table: Table, out: Figures) -> None:
    """Part 4: the same changes on the TV's page, not throttled."""
    with device(browser, table.base, TV) as (page, cdp, errors):
        page.goto(f"/screen/{table.code}")
        settle(page, "main")
        fail_on(errors, "the TV")
        for _ in range(WARM_UP):
            window(cdp, WINDOW_S, table.change)
        for _ in range(CHANGES):
            settle(page)
            out.tv.append(window(cdp, WINDOW_S, table.change)[0])
        fail_on(errors, "the TV, changes")


TOTAL = re.compile(r"^\s*([\d,]+) B gz .* total:", re.M)


def first_loads(tree: Path, out: Figures) -> None:
    """Part 5: bench/pwa_size.py's gzipped total of the player's and the screen's first load."""
    script = tree / "bench" / "pwa_size.py"
    if script.exists():
        command = [sys.executable, str(script)]
    else:  # a revision from before the script: this tree's, reading that tree's pwa/
        command = [sys.executable, "-c", "import sys; from pathlib import Path; import pwa_size; "
                   f"pwa_size.PWA = Path({str(tree / 'pwa')!r}); sys.exit(pwa_size.main(sys.argv[1:]))"]
    for page in ("player", "screen"):
        done = subprocess.run([*command, "--page", page], cwd=ROOT / "bench", capture_output=True, text=True,
                              timeout=60, check=False)
        found = TOTAL.search(done.stdout)
        if not found:
            raise Failed(f"pwa_size.py --page {page}: {(done.stderr or done.stdout).strip()[-300:]}")
        out.load[page] = int(found.group(1).replace(",", ""))


def measure(browser: Browser, tree: Path, name: str, log_dir: Path, round_number: int, out: Figures) -> None:
    """Every part for one tree, one round; a part that fails is noted in `out.errors`, and the rest go on."""
    def part(what: str, run: Callable[[], None]) -> None:
        try:
            run()
        except Exception as exc:  # a tree's failure is reported, not the end of the run
            trace = log_dir / f"{name.replace(' ', '-')}-{round_number}-{what.replace(' ', '-')}.txt"
            trace.write_text(traceback.format_exc())
            out.errors.append(f"round {round_number}, {what}: {type(exc).__name__}: {str(exc).strip()[:300]}")

    log = log_dir / f"gunicorn-{name.replace(' ', '-')}-{round_number}.log"
    try:
        with served(tree, log) as base:
            table = Table(base)
            table.mid_game()
            part("phone", lambda: measure_phone(browser, table, out))
            part("TV", lambda: measure_tv(browser, table, out))
    except Exception as exc:
        out.errors.append(f"round {round_number}, server or game: {type(exc).__name__}: {str(exc)[:300]}")
    if round_number == 1:
        part("first load", lambda: first_loads(tree, out))


# ---- the table --------------------------------------------------------------------------------------


def spread(values: list[float]) -> str:
    if not values:
        return "failed"
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})"


def median_max(values: list[float]) -> str:
    if not values:
        return "failed"
    return f"{statistics.median(values):.1f} / {max(values):.1f}"


def timed(values: list[float | None]) -> str:
    """Median / max of Event Timing figures, where None (no entry: under the threshold) is '< 16'."""
    if not values:
        return "failed"
    ordered = sorted(-1.0 if v is None else v for v in values)  # -1: no entry, under the threshold

    def shown(value: float) -> str:
        return f"< {EVENT_THRESHOLD_MS}" if value < 0 else f"{value:.0f}"

    return f"{shown(statistics.median_low(ordered))} / {shown(ordered[-1])}"


def count(flags: list[bool]) -> str:
    return f"{sum(flags)} of {len(flags)}" if flags else "failed"


def table_text(columns: dict[str, Figures]) -> str:
    """The figures, one column per tree, and the target of each beside them."""
    def of(part: str, key: str) -> Callable[[Figures], list[float]]:
        return lambda f: [sample[key] for sample in getattr(f, part)]

    def less_idle(f: Figures) -> str:
        change, idle = of("change", "task")(f), of("idle", "task")(f)
        return f"{statistics.median(change) - statistics.median(idle):.1f}" if change and idle else "failed"

    def long_tasks(f: Figures) -> str:
        windows = f.long_tasks
        if not windows:
            return "failed"
        return f"{sum(windows)} (in {sum(1 for n in windows if n)} of {len(windows)})"

    def load(page: str) -> Callable[[Figures], str]:
        return lambda f: f"{f.load[page] / 1024:.1f}" if page in f.load else "failed"

    phone, tap = f"phone ×{THROTTLE}: a change", f"phone ×{THROTTLE}: a + tap"
    rows: list[tuple[str, Callable[[Figures], str], str]] = [
        (f"{phone}, main thread ms, median (min–max)", lambda f: spread(of("change", "task")(f)),
         f"≤ {TARGET_CHANGE_MS:g}"),
        (f"{phone}, script ms", lambda f: spread(of("change", "script")(f)), ""),
        (f"{phone}, style + layout ms", lambda f: spread(of("change", "style_layout")(f)), ""),
        (f"phone ×{THROTTLE}: no change, main thread ms (idle)", lambda f: spread(of("idle", "task")(f)), ""),
        (f"{phone} less the idle, median ms", less_idle, ""),
        (f"{phone}: drawn", lambda f: count(f.drawn), f"all {CHANGES}"),
        (f"{phone}: long tasks (> {LONG_TASK_MS} ms) in the windows", long_tasks, "0"),
        (f"{tap}, main thread ms, median / max", lambda f: median_max(of("tap", "task")(f)),
         f"≤ {TARGET_TAP_MS:g}"),
        (f"{tap}, script ms, median / max", lambda f: median_max(of("tap", "script")(f)), ""),
        (f"{tap}, style + layout ms, median / max", lambda f: median_max(of("tap", "style_layout")(f)), ""),
        (f"{tap}: drawn", lambda f: count(f.tap_counted), f"all {TAPS}"),
        (f"{tap}: click to next paint ms, median / max", lambda f: timed(f.click), f"≤ {TARGET_PAINT_MS:g}"),
        (f"{tap}: click handling ms, median / max", lambda f: timed(f.click_processing), ""),
        (f"{tap}: pointerup to next paint ms, median / max", lambda f: timed(f.pointerup), ""),
        ("TV ×1: a change, main thread ms, median (min–max)", lambda f: spread(of("tv", "task")(f)),
         f"≤ {TARGET_TV_MS:g}"),
        ("TV ×1: a change, script ms", lambda f: spread(of("tv", "script")(f)), ""),
        ("TV ×1: a change, style + layout ms", lambda f: spread(of("tv", "style_layout")(f)), ""),
        ("TV ×1: a change, main thread CPU ms", lambda f: spread(of("tv", "cpu")(f)), ""),
        ("first load /play/CODE, KB gzipped (pwa_size.py)", load("player"), f"≤ {TARGET_LOAD_B // 1024}"),
        ("first load /screen/CODE, KB gzipped (pwa_size.py)", load("screen"), f"≤ {TARGET_LOAD_B // 1024}"),
    ]
    head = ["figure", *columns, "target"]
    body = [[label, *(show(f) for f in columns.values()), target] for label, show, target in rows]
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in [head, *body]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    for name, figures in columns.items():
        lines += [f"{name} failed: {error}" for error in figures.errors]
    return "\n".join(lines)


# ---- the run ----------------------------------------------------------------------------------------


def main() -> int:
    """Measure the trees round by round and print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds, the order of the trees swapped each time (default 1)")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--only-base", action="store_true", help="measure the base revision alone")
    only.add_argument("--only-tree", action="store_true", help="measure this work tree alone")
    args = parser.parse_args()
    stop_on_sigterm()
    log_dir = Path(tempfile.mkdtemp(prefix="shipmate-phone-cost-"))
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        trees: dict[str, Path] = {}
        if not args.only_base:
            trees["this tree"] = ROOT
        if not args.only_tree:
            trees[f"base {args.base}"] = stack.enter_context(worktree(args.base))
        columns = {name: Figures() for name in trees}
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        stack.callback(browser.close)
        names = list(trees)
        for round_number in range(1, args.rounds + 1):
            order = names if round_number % 2 else names[::-1]
            for name in order:
                print(f"[phone_cost] round {round_number}: {name}", file=sys.stderr, flush=True)
                measure(browser, trees[name], name, log_dir, round_number, columns[name])
    (log_dir / "figures.json").write_text(json.dumps({n: asdict(f) for n, f in columns.items()}, indent=1))
    base_commit = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True,
                                 text=True, check=False).stdout.strip()
    print(f"Main-thread cost of Shipmate's pages in headless Chromium ({args.rounds} round(s), "
          f"{time.monotonic() - started:.0f} s; base {args.base} = {base_commit}; "
          f"phone CPU throttled {THROTTLE}×, windows of {WINDOW_S:g} s per change and {TAP_WINDOW_S:g} s "
          f"per tap; logs in {log_dir})\n")
    print(table_text(columns))
    return 1 if any(f.errors for f in columns.values()) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the `finally`s and context managers have stopped everything by now
        print("[phone_cost] interrupted: its servers, Redis and worktree are stopped and removed",
              file=sys.stderr)
        sys.exit(130)
