"""A server that comes back behind its phones (an older backup restored): the phone that saw a newer
version takes the server's state, says so in its language, and sends the tap it made meanwhile once.

The server runs on the test Redis; the game's keys are saved (DUMP) after the start and put back
(RESTORE) while the server is down, after a correction the phone had already shown: the server that
comes back has lost that change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Browser, expect

from tests.api.client import Game
from tests.fixtures_server import TEST_LIMITS, ServerProcess, wait_for

from .helpers import Device, api, close_all

pytestmark = pytest.mark.e2e


@pytest.fixture()
def server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(redis_url, tmp_path, TEST_LIMITS)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def outbox(device: Device) -> list[dict[str, object]]:
    """The taps this phone still waits on an answer for (the outbox it keeps in localStorage)."""
    slots = json.loads(device.page.evaluate("localStorage.getItem('shipmate.outbox') || '{}'"))
    return [entry for entry in slots.values() for entry in entry]


def test_a_phone_ahead_of_the_server_takes_its_state_says_so_and_sends_its_tap_once(
        server: ServerProcess, redis_url: str, browser: Browser) -> None:
    base = server.url
    game = Game.create(base)
    anna = game.join("Anna", "netherlands")
    bram = game.join("Bram", "england")
    started = game.ok(game.host, {"type": "start"})["version"]
    store = redis.Redis.from_url(redis_url)
    saved = {key: (store.dump(key), store.pttl(key)) for key in store.scan_iter(f"game:{{{game.code}}}:*")}

    phone = Device(browser, base, "Anna", "nl-NL")
    try:
        phone.remember(game.code, {"player": {"id": anna, "token": game.players[anna], "name": "Anna"}})
        phone.goto(f"/play/{game.code}")
        expect(phone.page.locator("#do-roll")).to_be_visible()
        corrected = game.ok(game.host, {"type": "adjust", "player": bram, "resources": {"wood": 1},
                                        "reason": "a crate"})["version"]
        expect(phone.page.locator(".feed-lines li.newest")).to_have_attribute("data-version", str(corrected))

        phone.context.set_offline(True)
        server.stop()
        store.delete(*store.keys(f"game:{{{game.code}}}:*"))
        for key, (dumped, ttl) in saved.items():
            store.restore(key, max(ttl, 0), dumped, replace=True)
        phone.page.locator("#do-roll").click()  # no network: the tap waits in the outbox
        assert [entry["action"] for entry in outbox(phone)] == [{"type": "roll"}]

        server.start()
        phone.context.set_offline(False)
        said = "De server is teruggekomen van een eerdere opslag en is de laatste wijziging kwijt"
        expect(phone.page.locator("#now").get_by_text(said)).to_be_visible()
        newest = phone.page.locator(".feed-lines li.newest")
        expect(newest).to_have_attribute("data-version", str(started + 1))
        wait_for(lambda: outbox(phone) == [], "the phone's tap to be answered")
        changes = api(base, "GET", f"/api/games/{game.code}/events?since={started}", game.host)["events"]
        assert [event["type"] for event in changes] == ["DiceRolled"]  # the roll once; the correction is lost
        assert game.state()["version"] == started + 1
        assert phone.errors == []
    finally:
        close_all([phone])
        store.close()
