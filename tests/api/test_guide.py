"""The first evening's guide over a real server: the host ticks, every device sees it, others may not."""

from __future__ import annotations

import requests

from tests.api.client import TIMEOUT, Game, unchanged


def test_the_host_ticks_the_guide_and_the_screen_and_phones_see_it(live_server: str) -> None:
    game = Game.create(live_server)
    game.join("Anna", "netherlands")
    steps = requests.get(f"{game.url}/ruleset", timeout=TIMEOUT).json()["rules"]["guide"]
    assert [s["id"] for s in steps][:3] == ["ship_card", "daeventra", "bronze"]
    screen = game.socket()
    assert screen.receive()["state"]["guide"] == {"done": [], "skipped": False}
    game.ok(game.host, {"type": "guide", "step": "ship_card"})
    assert screen.until("update")["state"]["guide"] == {"done": ["ship_card"], "skipped": False}
    assert game.state(game.players["p1"])["guide"]["done"] == ["ship_card"]
    with unchanged(game):
        refused = game.act(game.players["p1"], {"type": "guide", "step": "daeventra"})
        assert refused.status_code == 403
        unknown = game.act(game.host, {"type": "guide", "step": "board"}, language="nl")
        assert unknown.status_code == 400 and "ship_card" in unknown.json()["fields"]["step"][0]
        neither = game.act(game.host, {"type": "guide"})
        assert neither.status_code == 400 and list(neither.json()["fields"]) == ["step"]
    game.ok(game.host, {"type": "guide", "skip": True})
    assert game.state()["guide"]["skipped"] is True
    screen.close()
