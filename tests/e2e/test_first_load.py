"""The first load of every page of every game, with the API's answers it fetches, stays under 60 KB.

A page's first load is what it needs to draw its first screen: its HTML, the modules and sheets it
loads before it is usable, with the sheets they add (bench/pwa_size.py finds them as the browser
does; modules a page loads beside it later with `import()`, and their sheets, are no part of it;
the sheets are checked against those the page fetches), and every answer of the API the page fetches
here in Chromium until the network is quiet (its view, the ruleset, the rule texts where it shows
them), each gzipped as the server's proxy sends it.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Request, expect

from tests.api.client import Game
from tests.api.test_first_load import pwa_size

from .helpers import PHONE, TV, Device, api
from .layout import DRAWN

pytestmark = pytest.mark.e2e

GAMES = pwa_size.GAMES
# Each page by its route here, and by its name in bench/pwa_size.py
PAGES = {"home": "home", "join": "lobby", "play": "player", "screen": "screen", "host": "host",
         "dice": "dice", "rules": "rulebook"}
CASES = [(page, game) for page in PAGES for game in GAMES if page != "dice" or game == "quest1607"]


@pytest.fixture(scope="module")
def games(base_url: str) -> Iterator[dict[str, dict[str, Any]]]:
    """Per game: one in its lobby (for the join page) and one in play (for the others)."""
    made: dict[str, dict[str, Any]] = {}
    for game in GAMES:
        characters = [c["id"] for c in api(base_url, "GET", f"/api/rulesets/{game}")["characters"]]
        lobby, playing = Game.create(base_url, game), Game.create(base_url, game)
        pid = ""
        for number, character in enumerate(characters[:3], 1):
            lobby.join(f"Captain {number}", character)
            pid = playing.join(f"Captain {number}", character)
        playing.ok(playing.host, {"type": "start"})
        dice = api(base_url, "POST", f"/api/games/{playing.code}/dice-device", playing.host)["token"] \
            if game == "quest1607" else None
        made[game] = {"lobby": lobby, "playing": playing, "pid": pid, "dice": dice}
    yield made


def route(page: str, game: str, table: dict[str, Any]) -> str:
    code = table["playing"].code
    return {"home": "/", "join": f"/join/{table['lobby'].code}", "play": f"/play/{code}",
            "screen": f"/screen/{code}", "host": f"/host/{code}",
            "dice": f"/dice/{code}#device={table['dice']}", "rules": f"/rules/{game}"}[page]


@pytest.mark.parametrize(("page", "game"), CASES)  # only Quest 1607 rolls dice on a table device
def test_a_pages_first_load_with_its_api_answers_is_within_the_budget(
        browser: Browser, base_url: str, games: dict[str, dict[str, Any]], game: str, page: str) -> None:
    table = games[game]
    playing: Game = table["playing"]
    device = Device(browser, base_url, f"{game}-{page}", "en-GB", TV if page == "screen" else PHONE)
    try:
        if page == "play":
            pid = table["pid"]
            seat = {"id": pid, "token": playing.players[pid], "name": "Captain 3"}
            device.remember(playing.code, {"player": seat})
        elif page == "host":
            device.remember(playing.code, {"host": playing.host})
        fetched: list[Request] = []
        device.page.on("requestfinished", lambda request: fetched.append(request))
        device.goto(route(page, game, table))
        expect(device.page.locator(DRAWN.get(page, ".rb-rule")).first).to_be_visible()
        device.page.wait_for_load_state("networkidle")
        files = pwa_size.first_load(PAGES[page], pwa_size.reader(base_url), game)
        sizes = {}
        bodies = {}
        for request in fetched:
            path = request.url[len(base_url):].split("#")[0]
            response = request.response()
            assert response is not None, path
            bodies[path] = response.body()
            if path.startswith("/api/"):
                sizes[path] = len(gzip.compress(bodies[path], compresslevel=6))
        # The sheets the bench counts are those the page adds before it draws; any other it fetched
        # here is added by a module it loads beside it (seats.js, guide.js), which the bench leaves aside.
        sheets = {path for path in bodies if path.endswith(".css")}
        counted = {path for path in files if path.endswith(".css")}
        assert counted <= sheets, counted - sheets
        beside = [body.decode() for path, body in bodies.items()
                  if path.endswith(".js") and path not in files]
        added = sheets - counted
        assert all(any(f"'{sheet}'" in module for module in beside) for sheet in added), added
        sizes.update({path: len(gzip.compress(body, compresslevel=6)) for path, body in files.items()})
        total = sum(sizes.values())
        ranked = sorted(sizes.items(), key=lambda item: item[1])
        listing = "\n".join(f"{size:>8,} B gz  {path}" for path, size in ranked)
        assert any(path.startswith("/api/") for path in sizes) or page == "home", listing
        budget = pwa_size.BUDGET
        answers = sum(size for path, size in sizes.items() if path.startswith("/api/"))
        print(f"/{page} of {game}: {total:,} B gz, of which API answers {answers:,} B")  # the figures of -s
        assert total <= budget, f"/{page} of {game}: {total:,} B gz over {budget:,} B\n{listing}"
        assert device.errors == []
    finally:
        device.context.close()
