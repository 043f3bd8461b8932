"""Every page of the three games opens at its top, a phone's controls take a finger, a TV crops nothing.

The tour (layout.py) opens each page at each stage of each game: the phones at 390 × 844, the shared
screen at 1920 × 1080 and again at 1280 × 720. A page fails when it opens scrolled or its first heading
is not at the top; on a phone, when a visible control (button, link, field, summary) is under 44 × 44 px
(a radio or checkbox counts with its label, which takes the tap); on a TV, when a box that clips
(overflow hidden or clip) cuts a line of text through (a line that gives way whole is no crop), text
lies outside a screen that does not scroll, or text is under 18 px. The host's own path is walked by
taps too: Create opens the lobby at its top, and Start opens the host panel at its top.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .helpers import Device, api
from .layout import DRAWN, GAMES, TV_SIZES, Stop, settle, tour

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
# line that gives way whole is no crop), text outside a screen that does not scroll, or under 18 px.
CROPPED = """() => {
  NAME
  const scrolls = document.scrollingElement.scrollHeight > window.innerHeight + 1
    && getComputedStyle(document.body).overflowY !== 'hidden';
  const clips = (v) => v === 'hidden' || v === 'clip';
  const cut = (line, lo, hi, start, end) => (line[lo] < start - 1 && line[hi] > start + 1)
    || (line[lo] < end - 1 && line[hi] > end + 1);
  const cropped = [], outside = [], small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim().slice(0, 40);
    const el = node.parentElement;
    const shown = el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    if (!text || !shown || el.closest('.skip')) continue;  // the skip link shows when it has focus
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // visually hidden (a screen reader's text)
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 17.5) small.push(`${name(el)} ${size}px: "${text}"`);
    const off = box.left < -1 || box.top < -1 || box.right > window.innerWidth + 1
      || box.bottom > window.innerHeight + 1;
    const at = [box.left, box.top, box.right, box.bottom].map(Math.round).join(',');
    if (!scrolls && off) outside.push(`${name(el)} at ${at}: "${text}"`);
    const lines = [...range.getClientRects()];
    for (let clip = el; clip && clip !== document.body; clip = clip.parentElement) {
      const style = getComputedStyle(clip);
      if (!clips(style.overflowX) && !clips(style.overflowY)) continue;
      const outer = clip.getBoundingClientRect();
      const left = outer.left + clip.clientLeft, top = outer.top + clip.clientTop;
      const right = left + clip.clientWidth, bottom = top + clip.clientHeight;
      const wide = clips(style.overflowX) && lines.some((l) => cut(l, 'left', 'right', left, right));
      const tall = clips(style.overflowY) && lines.some((l) => cut(l, 'top', 'bottom', top, bottom));
      if (wide || tall) cropped.push(`${name(clip)} cuts ${wide ? 'across' : 'through'} "${text}"`);
    }
  }
  const some = (lines) => [...new Set(lines)].slice(0, 8);
  return { cropped: some(cropped), outside: some(outside), small: some(small) };
}""".replace("NAME", NAME)


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
