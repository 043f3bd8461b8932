"""A calm table, in Chromium: a reload, a page change or a look at the rulebook is nobody's news.

Bram's phone reloads, goes to the rulebook's page and back, and opens the whole rulebook over the
game and closes it: the TV is never told he is away, so it never tells that he is back. Anna's
phone is closed for longer than the server's grace (PRESENCE_GRACE, 15 s): the TV shows her away,
and once her phone opens the game again its story tells that she is back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocket, expect

from .helpers import close_all, quest_table, strip

pytestmark = pytest.mark.e2e

PHONES = {"anna": ("Anna", "netherlands", "en-GB"), "bram": ("Bram", "england", "en-GB")}


@pytest.fixture
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    """A Quest 1607 game in play, its TV opened anew to record every presence frame it receives."""
    game = quest_table(browser, base_url, PHONES)
    tv = game["devices"]["tv"]
    frames: list[dict[str, Any]] = []

    def listen(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.extend(
            [m for m in [json.loads(payload)] if m["type"] == "presence"]))

    tv.reopen().on("websocket", listen)
    tv.goto(f"/screen/{game['code']}")
    yield {**game, "base": base_url, "frames": frames}
    close_all(game["devices"].values())


def test_a_reload_a_page_change_and_the_rulebook_are_no_news_but_a_long_absence_is(
        table: dict[str, Any]) -> None:
    devices, ids, code, frames = table["devices"], table["ids"], table["code"], table["frames"]
    tv, bram, anna = devices["tv"].page, devices["bram"], devices["anna"]
    marks = tv.locator("away-mark .tag.away")
    story = tv.locator(".feed-big")
    expect(tv.locator(".sp")).to_have_count(2)
    expect(marks).to_have_count(0)  # both phones are at the table
    expect(strip(bram)).to_be_visible()

    bram.page.reload()  # a reload closes the phone's socket for a moment
    expect(strip(bram)).to_be_visible()
    bram.page.goto(f"/rules/quest1607?code={code}")  # the rulebook's own page: another page
    expect(bram.page.locator(".rb-rule").first).to_be_visible()
    bram.page.go_back()
    expect(strip(bram)).to_be_visible()
    # A rule opened over the phone, then the whole rulebook over the game, and back to the game
    bram.page.evaluate("""() => document.body.insertAdjacentHTML(
      'beforeend', '<a class="rule-link" href="/rules/quest1607#U3">U3</a>')""")
    bram.page.locator("a.rule-link[href$='#U3']").click()
    bram.page.locator("dialog.rule-dialog").get_by_role("link", name="Whole rulebook").click()
    book = bram.page.locator("dialog.rule-book[open]")
    expect(book.locator("#U3.lit")).to_be_in_viewport()
    book.get_by_role("button", name="Back to the game").click()
    expect(bram.page.locator("dialog")).to_have_count(0)
    expect(bram.page).to_have_url(f"{table['base']}/play/{code}")

    anna.page.close()  # Anna's phone is put away for longer than the grace
    anna_away = tv.locator(f"away-mark[player='{ids['anna']}'] .tag.away")
    expect(anna_away).to_contain_text("offline", timeout=60_000)
    devices["tv"].shot("calm-tv-anna-away")
    # By now Bram's three absences, had any been news, would have been told long ago
    expect(marks).to_have_count(1)
    expect(story).not_to_contain_text("Bram is back")
    bram_online = [ids["bram"] in frame["online"] for frame in frames]
    assert bram_online and all(bram_online[bram_online.index(True):]), frames  # online once there, throughout

    anna.reopen()
    anna.goto(f"/play/{code}")
    expect(story).to_contain_text("Anna is back")
    expect(marks).to_have_count(0)
    expect(story).not_to_contain_text("Bram is back")
    devices["tv"].shot("calm-tv-anna-back")
