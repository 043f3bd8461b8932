"""POST /api/games/{code}/dice-device: the host hands the dice to a table device with a link (T1)."""

from __future__ import annotations

import urllib.parse

import requests

from tests.api.client import Game, bearer, unchanged


def link(game: Game, token: str | None) -> requests.Response:
    return requests.post(f"{game.url}/dice-device", headers=bearer(token), timeout=10)


def test_the_host_links_a_device_that_rolls_for_whoever_s_turn_it_is(live_server: str) -> None:
    game = Game.create(live_server)
    game.seat(2)
    response = link(game, game.host)
    assert response.status_code == 201, response.text
    device = response.json()
    # a loopback link: the test server listens on 127.0.0.1 only (BIND_HOST)
    assert device["url"] == f"{live_server}/dice/{game.code}#device={device['token']}"
    assert device["qr"].startswith("data:image/svg+xml;")  # an image the page may show (CSP: data:)
    assert urllib.parse.unquote(device["qr"]).count("<path") >= 1
    view = game.state(device["token"])
    assert view["host"] is False and view["you"] is None
    assert all(p["quests"] is None for p in view["players"])  # a table device sees no secret
    answer = game.ok(device["token"], {"type": "roll"})
    assert answer["state"]["turn"]["rolled"] and answer["state"]["turn"]["player"] == "p1"
    with unchanged(game):
        for action in ({"type": "end_turn"}, {"type": "undo"},
                       {"type": "adjust", "player": "p1", "resources": {"wood": 1}, "reason": "x"}):
            assert game.act(device["token"], action).status_code == 403


def test_only_the_host_links_a_dice_device_and_only_in_a_game_with_dice(live_server: str) -> None:
    game = Game.create(live_server)
    pid = game.join("Anna", "netherlands")
    with unchanged(game):
        assert link(game, game.players[pid]).status_code == 403
        assert link(game, None).status_code == 401
        assert link(game, "not-a-token").status_code == 401
    other = Game.create(live_server, game="voyagers")
    refused = link(other, other.host)
    assert refused.status_code == 400 and "dice" in refused.json()["fields"]["game"][0]
    gone = requests.post(f"{live_server}/api/games/ZZZZZZ/dice-device", headers=bearer(game.host),
                         timeout=10)
    assert gone.status_code in (401, 404)
