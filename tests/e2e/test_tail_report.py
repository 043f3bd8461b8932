"""The host's end-of-game report (#39 item 1): its charts hold six players with long names.

The tester's laptop showed the dice luck's names run into one line ("Maximiliaan van der BergAnna (16)…"),
a name run out of its chart, a value sit on the dashed "expected" line and "Bronze" sit over the quest
chart's axis. Each chart is measured on the laptop and on two phones, in English and in Dutch: no two of
its words overlap, each lies inside its chart, none crosses a line of the chart, a bar or a marker.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from shipmate.rules.table import NAME_MAX
from tests.api.client import CHARACTERS, Game
from tests.api.test_whole_game import play_to_the_winner

from .helpers import PHONE, SHOTS, Device, close_all, settle
from .layout import SMALL_PHONE

pytestmark = pytest.mark.e2e

NAMES = [
    "Maximiliaan van der Berg-Oranje",  # 30 characters, as the tester's
    "Anna",
    "Jan-Willem Hendriksz van Amstel",
    "Bob",
    "Geertruida Wilhelmina Oosterhout"[:NAME_MAX],  # the longest a name may be
    "Wolfgang Wilhelm Wuppertal-Mwm",  # wide letters
]
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": PHONE, "small-phone": SMALL_PHONE}

# Every word the charts under `selector` show (an SVG text, or the lines of a text of the figure's HTML: a
# Range's boxes), each chart's box, and what the words may not cross: its lines (grid, axis, the
# dashed "expected" line: with their stroke), its bars and its markers. Client pixels.
MEASURE = """(selector) => [...document.querySelectorAll(`${selector} figure.chart`)].map((figure) => {
  const svg = figure.querySelector('svg[role=img]');
  const box = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  const words = [];
  for (const text of svg.querySelectorAll('text')) {
    const at = box(text.getBoundingClientRect());
    if (text.textContent.trim()) words.push({ id: words.length, text: text.textContent, box: at, svg: true });
  }
  const clip = (el) => { // what of a text its box shows (a clamped label hides its further lines)
    for (let e = el; e !== figure; e = e.parentElement) {
      if (getComputedStyle(e).overflow !== 'visible') return e.getBoundingClientRect();
    }
    return figure.getBoundingClientRect();
  };
  const walker = document.createTreeWalker(figure, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || svg.contains(node) || node.parentElement.closest('title')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const id = words.length;
    const shown = clip(node.parentElement);
    for (const r of range.getClientRects()) {
      const seen = { left: Math.max(r.left, shown.left), right: Math.min(r.right, shown.right),
                     top: Math.max(r.top, shown.top), bottom: Math.min(r.bottom, shown.bottom) };
      if (seen.right - seen.left < 1 || seen.bottom - seen.top < 1) continue;
      words.push({ id, text: node.textContent, box: seen, svg: false });
    }
  }
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const lines = [...svg.querySelectorAll('line')].map((line) => {
    const r = line.getBoundingClientRect();
    const half = (parseFloat(getComputedStyle(line).strokeWidth) || 1) * scale / 2;
    return { text: `line.${line.getAttribute('class')}`,
             box: { left: r.left, right: r.right, top: r.top - half, bottom: r.bottom + half } };
  });
  const shapes = [...svg.querySelectorAll('.chart-bar, .marker')].map((s) => ({
    text: `${s.localName}.${s.getAttribute('class')}`, box: box(s.getBoundingClientRect()) }));
  return { title: svg.getAttribute('aria-label'), svg: box(svg.getBoundingClientRect()),
           figure: box(figure.getBoundingClientRect()), words, lines, shapes };
})"""

SLACK = 0.5  # a pixel's rounding
CLEAR = 1.0  # the least room around a word the chart draws: closer, it sits on what it touches


def overlap(a: dict[str, float], b: dict[str, float], room: float = -SLACK) -> bool:
    """Whether boxes a and b overlap, or come closer than `room` (the page's text runs on, box to box)."""
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > -room
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > -room)


def inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] >= b["left"] - SLACK and a["right"] <= b["right"] + SLACK
            and a["top"] >= b["top"] - SLACK and a["bottom"] <= b["bottom"] + SLACK)


def faults(chart: dict[str, Any]) -> list[str]:
    """What is wrong with one measured chart, in words."""
    found = []
    words = chart["words"]
    for i, word in enumerate(words):
        where = chart["svg"] if word["svg"] else chart["figure"]
        if not inside(word["box"], where):
            found.append(f"{word['text']!r} leaves its chart")
        found += [f"{word['text']!r} overlaps {other['text']!r}" for other in words[i + 1:]
                  if other["id"] != word["id"]
                  and overlap(word["box"], other["box"], CLEAR if word["svg"] or other["svg"] else -SLACK)]
        if word["svg"]:
            things = chart["lines"] + chart["shapes"]
            found += [f"{word['text']!r} sits on {thing['text']}" for thing in things
                      if overlap(word["box"], thing["box"], CLEAR)]
    return [f"{chart['title']}: {fault}" for fault in found]


# A quest chart of a long game, drawn into the host's page: forty rounds, six long names.
LONG_GAME = """async ([names, levels]) => {
  const { lineChart } = await import('/js/charts.js');
  const rounds = Array.from({ length: 40 }, (_, i) => String(i + 1));
  const level = (i, k) => Math.min(3, Math.floor(i / (8 + k)));
  const series = names.map((name, k) => ({
    name, colour: '#56B4E9', values: rounds.map((_, i) => level(i, k)) }));
  const box = document.createElement('div');
  box.id = 'long-game';
  box.innerHTML = lineChart({ title: 'Levels', x: rounds, series, width: 480, height: 280, yLabels: levels });
  document.body.append(box); // the page's own draws leave it alone
}"""


@pytest.fixture(scope="module")
def finished(base_url: str) -> Iterator[Game]:
    """A game of six, some with the longest names, played to its winner over the API."""
    assert all(len(name) >= 30 for name in NAMES[0::2] + NAMES[5:])
    game = Game.create(base_url, quests_per_level=1)
    ids = [game.join(name, land) for name, land in zip(NAMES, CHARACTERS, strict=True)]
    game.ok(game.host, {"type": "start"})
    play_to_the_winner(game, ids[0])
    yield game


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
@pytest.mark.parametrize("size", SIZES)
def test_the_reports_charts_hold_six_long_names(browser: Browser, finished: Game, size: str,
                                                locale: str) -> None:
    host = Device(browser, finished.base, f"report-{size}-{locale}", locale, SIZES[size])
    try:
        host.remember(finished.code, {"host": finished.host})
        page = host.goto(f"/host/{finished.code}")
        expect(page.locator("#report svg[role=img]")).to_have_count(3)
        settle(page, "#report")
        charts = page.evaluate(MEASURE, "#report")
        assert len(charts) == 3
        for chart in charts:
            shown = " ".join(word["text"] for word in chart["words"])
            assert all(name in shown for name in NAMES), f"{chart['title']}: a name is cut: {shown}"
        page.locator("#report figure.chart").last.evaluate("(el) => el.scrollIntoView({ block: 'end' })")
        host.shot(f"report-{size}-{locale}")
        page.locator("#report").screenshot(path=str(SHOTS / f"report-{size}-{locale}-whole.png"))
        problems = [fault for chart in charts for fault in faults(chart)]
        assert not problems, "\n".join(problems)
    finally:
        close_all([host])


def test_a_long_games_rounds_are_marked_where_they_have_room(browser: Browser, finished: Game) -> None:
    """Forty rounds on a small phone: a round's number only every few rounds, none touching the next."""
    host = Device(browser, finished.base, "report-long-game", "nl-NL", SMALL_PHONE)
    try:
        host.remember(finished.code, {"host": finished.host})
        page = host.goto(f"/host/{finished.code}")
        expect(page.locator("#report svg[role=img]")).to_have_count(3)
        page.evaluate(LONG_GAME, [NAMES, ["Brons", "Zilver", "Goud", "Klaar"]])
        (chart,) = page.evaluate(MEASURE, "#long-game")
        rounds = [w["text"] for w in chart["words"] if w["svg"] and w["text"].isdigit()]
        assert rounds[0] == "1" and 4 <= len(rounds) < 40, rounds
        page.locator("#long-game").screenshot(path=str(SHOTS / "report-long-game-small-phone-nl-NL.png"))
        problems = faults(chart)
        assert not problems, "\n".join(problems)
    finally:
        close_all([host])


def test_players_on_the_same_level_each_have_a_line_of_their_own(browser: Browser, finished: Game) -> None:
    """Three players who stayed at Bronze were drawn on top of one another: only one line showed."""
    host = Device(browser, finished.base, "report-levels-apart", "en-GB", SIZES["laptop"])
    try:
        host.remember(finished.code, {"host": finished.host})
        page = host.goto(f"/host/{finished.code}")
        expect(page.locator("#report svg[role=img]")).to_have_count(3)
        levels = page.locator("#report figure.chart").nth(1)
        expect(levels).to_contain_text("Quest levels over the rounds")
        lines = levels.locator("polyline").evaluate_all("(els) => els.map((el) => el.getAttribute('points'))")
        assert len(lines) == len(NAMES) and len(set(lines)) == len(lines), lines
    finally:
        close_all([host])
