"""A first evening, guided, in real Chromium: the host ticks the set-up steps and the parts of a turn
on their device, one tap each, and the shared screen follows; one tap skips the whole guide; a reload
of either keeps how far the table is; every game shows its own steps; axe-core finds no serious or
critical violation on the TV with the guide nor on the host's checklist."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, expect

from tests.api.client import Game

from .helpers import TV, Device, close_all
from .layout import _Options
from .test_axe import told, violations

pytestmark = pytest.mark.e2e

PLAYERS = {"quest1607": (("Anna", "netherlands"), ("Bram", "england")),
           "serenissima": (("Anna", "venice"), ("Bram", "genoa")),
           "voyagers": (("Anna", "red"), ("Bram", "blue"))}


def steps_of(base: str, code: str) -> list[dict[str, Any]]:
    """The game's guide as its ruleset serves it."""
    ruleset = requests.get(f"{base}/api/games/{code}/ruleset", timeout=10).json()
    return list(ruleset["rules"]["guide"])


@pytest.fixture()
def table(browser: Browser, base_url: str, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """A game in its lobby (`request.param`, Quest 1607 by default) with the host's phone on the host
    panel and the TV on the shared screen; axe's script tag may run on both."""
    kind = getattr(request, "param", "quest1607")
    game = Game.create(base_url, kind)
    for name, character in PLAYERS[kind]:
        game.join(name, character)
    opened: Any = _Options(browser, bypass_csp=True)
    host = Device(opened, base_url, "host", "en-GB")
    host.remember(game.code, {"host": game.host})
    tv = Device(opened, base_url, "tv", "en-GB", TV)
    host.goto(f"/host/{game.code}")
    tv.goto(f"/screen/{game.code}")
    yield {"game": game, "host": host, "tv": tv, "steps": steps_of(base_url, game.code)}
    close_all((host, tv))


def no_violation(device: Device, label: str) -> None:
    found = violations(device.page)
    assert not found, told(label, found)


def test_the_host_ticks_through_the_steps_and_the_tv_follows(table: dict[str, Any]) -> None:
    host, tv, steps = table["host"].page, table["tv"].page, table["steps"]
    titles = [s["title"]["en"] for s in steps]
    expect(tv.locator("#guide-now")).to_have_text(titles[0])
    expect(tv.locator("#guide .guide-steps li")).to_have_count(len(steps))
    expect(host.locator("#guide [data-guide-step]")).to_have_count(len(steps))
    no_violation(table["tv"], "the TV with the guide")
    no_violation(table["host"], "the host's checklist")

    host.locator('[data-guide-step="ship_card"]').click()
    expect(tv.locator("#guide-now")).to_have_text(titles[1])
    expect(host.locator('[data-guide-step="ship_card"]')).to_have_attribute("aria-pressed", "true")
    expect(tv.locator("#guide .guide-steps li.done")).to_have_count(1)

    tv.reload()
    host.reload()
    expect(tv.locator("#guide-now")).to_have_text(titles[1])  # how far the table is survives a reload
    expect(host.locator('[data-guide-step="ship_card"]')).to_have_attribute("aria-pressed", "true")

    host.locator('[data-guide-step="ship_card"]').click()  # a second tap unticks
    expect(tv.locator("#guide-now")).to_have_text(titles[0])
    expect(host.locator('[data-guide-step="ship_card"]')).to_have_attribute("aria-pressed", "false")

    for i, step in enumerate(steps):
        expect(tv.locator("#guide-now")).to_have_text(titles[i])
        expect(tv.locator("#guide .guide-steps li.done")).to_have_count(i)
        host.locator(f'[data-guide-step="{step["id"]}"]').click()
    expect(tv.locator("#guide")).to_have_count(0)  # every step done: the guide is gone
    expect(host.locator("#guide")).to_have_count(0)
    expect(tv.locator(".screen")).to_be_visible()


def test_once_the_game_has_started_the_guide_goes_on_with_a_turn_ticked_set_up_or_not(
        table: dict[str, Any]) -> None:
    """The TV said "First evening · Set-up 1 of 3" through the first fight when nobody ticked the set-up."""
    game, tv, steps = table["game"], table["tv"].page, table["steps"]
    setup = [s for s in steps if s["part"] == "setup"]
    expect(tv.locator("#guide-h")).to_contain_text(f"Set-up 1 of {len(setup)}")
    game.ok(game.host, {"type": "start"})
    first_part = next(s for s in steps if s["part"] == "turn")
    expect(tv.locator("#guide-now")).to_have_text(first_part["title"]["en"])
    expect(tv.locator("#guide-h")).to_contain_text("A turn, part 1 of")
    expect(tv.locator("#guide .guide-steps li.done")).to_have_count(len(setup))
    expect(table["host"].page.locator(f'[data-guide-step="{setup[0]["id"]}"]')).to_have_attribute(
        "aria-pressed", "true")


@pytest.mark.parametrize("table", ["quest1607", "serenissima", "voyagers"], indirect=True)
def test_each_game_shows_its_steps_and_one_tap_skips_them(table: dict[str, Any]) -> None:
    host, tv, steps = table["host"].page, table["tv"].page, table["steps"]
    assert {s["part"] for s in steps} == {"setup", "turn"}
    expect(tv.locator("#guide-now")).to_have_text(steps[0]["title"]["en"])
    expect(tv.locator("#guide .guide-steps li")).to_contain_text([s["title"]["en"] for s in steps])
    expect(host.locator("#guide [data-guide-step]")).to_contain_text([s["title"]["en"] for s in steps])

    host.locator("#guide-skip").click()
    expect(tv.locator("#guide")).to_have_count(0)
    expect(host.locator("#guide")).to_have_count(0)
    assert table["game"].state()["guide"]["skipped"] is True
    tv.reload()
    host.reload()
    expect(tv.locator(".screen")).to_be_visible()
    expect(host.locator("main h1")).to_be_visible()
    expect(tv.locator("#guide")).to_have_count(0)
    expect(host.locator("#guide")).to_have_count(0)
