"""Seats that move (a dead phone, a borrowed one): hand-over links on a real server, and what they retire."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import redis
import requests
import websocket

from shipmate.store import keys
from shipmate.store.seats import secret_hash
from tests.api.client import TIMEOUT, Game, bearer, unchanged
from tests.fixtures_server import wait_for


@pytest.fixture
def game(live_server: str) -> Game:
    """A game in play with three players: p1 to roll."""
    game = Game.create(live_server)
    game.seat(3)
    return game


def hand_over(game: Game, player: str, token: str | None, language: str = "en") -> requests.Response:
    return game.http.post(f"{game.url}/players/{player}/handover",
                          headers={**bearer(token), "Accept-Language": language}, timeout=TIMEOUT)


def secret_of(link: dict[str, object]) -> str:
    """Return the one-time secret a hand-over link carries in its fragment."""
    return str(link["url"]).split("#handover=", 1)[1]


def claim(game: Game, secret: object, language: str = "en") -> requests.Response:
    return requests.post(f"{game.url}/seat", json={"handover": secret}, headers={"Accept-Language": language},
                         timeout=TIMEOUT)


def test_the_host_hands_a_seat_to_a_new_phone_which_then_plays_as_that_player(game: Game) -> None:
    asked = datetime.now(UTC)
    response = hand_over(game, "p2", game.host)
    assert response.status_code == 201, response.text
    link = response.json()
    assert link["url"].startswith(f"{game.base}/join/{game.code}#handover=")  # a server on 127.0.0.1
    assert link["expires_in"] == 600
    expires = datetime.fromisoformat(link["expires_at"].replace("Z", "+00:00"))
    assert asked + timedelta(seconds=590) <= expires <= asked + timedelta(seconds=610)
    assert link["qr"].startswith("data:image/svg+xml")

    before = game.state(game.host), game.state()
    taken = claim(game, secret_of(link))
    assert (game.state(game.host), game.state()) == before  # a hand-over is no change of the game
    assert taken.status_code == 201, taken.text
    seat = taken.json()
    assert seat["player_id"] == "p2" and seat["token"] != game.players["p2"]
    assert game.state(seat["token"])["you"] == "p2"
    game.ok(game.players["p1"], {"type": "roll"})
    game.ok(game.players["p1"], {"type": "end_turn"})
    game.ok(seat["token"], {"type": "roll"})  # the new phone plays p2's turn


def test_every_earlier_token_of_the_player_answers_401_in_the_players_language(game: Game) -> None:
    old = game.players["p1"]
    taken = claim(game, secret_of(hand_over(game, "p1", old).json()))  # a planned switch: p1 moves itself
    assert taken.status_code == 201
    game.players["p1"] = taken.json()["token"]
    for language, words in (("en", "another phone"), ("nl", "ander toestel")):
        seen = game.http.get(game.url, headers={**bearer(old), "Accept-Language": language}, timeout=TIMEOUT)
        assert seen.status_code == 401 and seen.json()["error"] == "seat_moved"
        assert words in seen.json()["message"]
    with unchanged(game):
        acted = game.act(old, {"type": "roll"})
    assert acted.status_code == 401 and acted.json()["error"] == "seat_moved"
    assert hand_over(game, "p1", old).status_code == 401  # nor can the lost phone take the seat back
    # A second hand-over retires the token the first one gave.
    second = claim(game, secret_of(hand_over(game, "p1", game.host).json()))
    assert game.act(taken.json()["token"], {"type": "roll"}).status_code == 401
    game.ok(second.json()["token"], {"type": "roll"})


def test_a_link_works_once(game: Game) -> None:
    secret = secret_of(hand_over(game, "p3", game.host).json())
    assert claim(game, secret).status_code == 201
    for language, words in (("en", "used already or has expired"), ("nl", "al gebruikt of verlopen")):
        again = claim(game, secret, language)
        assert again.status_code == 410
        assert again.json()["error"] == "gone" and words in again.json()["message"]


def test_an_expired_link_answers_410_and_changes_nothing(game: Game, redis_client: redis.Redis) -> None:
    secret = secret_of(hand_over(game, "p3", game.host).json())
    record = keys.handover(game.code, secret_hash(secret))
    assert redis_client.pexpire(record, 1)  # its ten minutes are up
    wait_for(lambda: not redis_client.exists(record), "the link to expire")
    with unchanged(game):
        assert claim(game, secret).status_code == 410
    assert game.state(game.players["p3"])["you"] == "p3"  # the old phone keeps its seat


def test_bad_hand_overs_get_clear_errors_and_change_nothing(game: Game, live_server: str) -> None:
    with unchanged(game):
        unknown = hand_over(game, "p9", game.host, "nl")
        assert unknown.status_code == 404 and "p9" in unknown.json()["message"]
        others = hand_over(game, "p2", game.players["p1"])
        assert others.status_code == 403 and others.json()["error"] == "forbidden"
        assert hand_over(game, "p2", None).status_code == 401
        assert hand_over(game, "p2", "not-a-token").status_code == 401
        device = game.http.post(f"{game.url}/dice-device", headers=bearer(game.host), timeout=TIMEOUT).json()
        assert hand_over(game, "p2", device["token"]).status_code == 403
        missing = requests.post(f"{game.url}/seat", json={}, headers={"Accept-Language": "nl"},
                                timeout=TIMEOUT)
        assert missing.status_code == 400
        assert missing.json()["fields"] == {"handover": ["Dit veld is verplicht."]}
        assert claim(game, 12345).status_code == 400
        assert claim(game, "x" * 40).status_code == 410  # no such link
        nowhere = requests.post(f"{live_server}/api/games/ZZZZZZ/seat", json={"handover": "x" * 40},
                                timeout=TIMEOUT)
        assert nowhere.status_code == 404
    for pid, token in game.players.items():
        assert game.state(token)["you"] == pid


def test_two_phones_opening_the_same_link_at_once_one_gets_the_seat(game: Game) -> None:
    for _ in range(10):
        secret = secret_of(hand_over(game, "p2", game.host).json())
        start = threading.Barrier(2)
        answers: list[requests.Response] = []

        def open_link(secret: str = secret, start: threading.Barrier = start,
                      answers: list[requests.Response] = answers) -> None:
            start.wait()
            answers.append(claim(game, secret))

        phones = [threading.Thread(target=open_link) for _ in range(2)]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
        assert sorted(a.status_code for a in answers) == [201, 410]
        winner = next(a.json()["token"] for a in answers if a.status_code == 201)
        assert game.state(winner)["you"] == "p2"
        game.players["p2"] = winner


def test_the_old_phones_socket_is_told_and_closed_and_cannot_come_back(game: Game) -> None:
    old = game.players["p2"]
    phone, screen = game.socket(old), game.socket()
    assert phone.receive()["type"] == "snapshot" and screen.receive()["type"] == "snapshot"
    taken = claim(game, secret_of(hand_over(game, "p2", game.host).json()))
    assert phone.until("seat_moved") == {"type": "seat_moved", "player": "p2"}
    assert phone.close_code() == 4401
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        game.socket(old)
    assert refused.value.status_code == 401
    new_phone = game.socket(taken.json()["token"])
    assert new_phone.receive()["state"]["you"] == "p2"
    game.ok(game.players["p1"], {"type": "roll"})
    assert screen.until("update")["version"] == new_phone.until("update")["version"]
    phone.ws.shutdown()
    for sock in (screen, new_phone):
        sock.close()
