"""Presence on real servers: who has a socket open, told to every socket of the game, on every server.

Presence is no change of the game: it raises no version and enters no event.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.client import Game, Socket
from tests.fixtures_server import TEST_LIMITS, StartServer
from tests.scale.test_two_servers import serve


@pytest.fixture
def game(live_server: str) -> Game:
    """A game in play with three players, none of them connected yet."""
    game = Game.create(live_server)
    game.seat(3)
    return game


def presence(sock: Socket, **expected: Any) -> dict[str, Any]:
    """Return the socket's next presence message that says what `expected` says (skipping others)."""
    while True:
        message = sock.until("presence")
        if all(message[key] == value for key, value in expected.items()):
            return message


def away(message: dict[str, Any]) -> set[str]:
    return set(message["away"])


def test_the_screen_is_told_who_is_online_after_its_snapshot_and_whenever_it_changes(game: Game) -> None:
    version, events = game.state()["version"], game.http.get(f"{game.url}/events?since=-1").json()
    screen = game.socket()
    assert screen.receive(skip=("ping",))["type"] == "snapshot"
    first = screen.receive(skip=("ping",))
    assert first == {"type": "presence", "online": [], "away": {"p1": None, "p2": None, "p3": None}}

    phone = game.socket(game.players["p2"])
    assert phone.receive()["type"] == "snapshot"
    mine = phone.receive(skip=("ping",))
    assert mine["type"] == "presence" and mine["online"] == ["p2"]
    assert presence(screen, online=["p2"])["away"] == {"p1": None, "p3": None}

    second = game.socket(game.players["p2"])  # a reload opens a second socket before the first closes
    phone.close()
    other = game.socket(game.players["p1"])
    said = presence(screen, online=["p1", "p2"])  # p2 never went away: a socket of theirs stayed open
    assert away(said) == {"p3"}
    second.close()
    left = presence(screen, online=["p1"])
    assert isinstance(left["away"]["p2"], int) and left["away"]["p2"] >= 0  # away at once, for 0 s so far
    assert left["away"]["p3"] is None

    assert game.state()["version"] == version  # presence raised no version …
    assert game.http.get(f"{game.url}/events?since=-1").json() == events  # … and entered no event
    for sock in (screen, other):
        sock.close()


def test_every_viewer_is_told_presence(game: Game) -> None:
    game.http.post(f"{game.url}/dice-device", headers={"Authorization": f"Bearer {game.host}"})
    host, player = game.socket(game.host), game.socket(game.players["p1"])
    for sock in (host, player):
        assert sock.receive()["type"] == "snapshot"
    presence(host, online=["p1"])
    presence(player, online=["p1"])
    for sock in (host, player):
        sock.close()


def test_a_phone_that_vanished_without_closing_is_away_after_a_missed_pong(start_server: StartServer) -> None:
    base = start_server(WS_KEEPALIVE="1", **TEST_LIMITS)
    game = Game.create(base)
    game.seat(2)
    screen = game.socket()
    phone = game.socket(game.players["p1"])  # reads nothing from now on: it answers no protocol ping
    presence(screen, online=["p1"])
    assert "p1" in presence(screen, online=[])["away"]
    phone.ws.shutdown()
    screen.close()


def test_two_servers_behind_one_redis_agree_on_who_is_online(redis_url: str, tmp_path: Path) -> None:
    with serve(redis_url, tmp_path / "a", tmp_path / "a.log") as one, \
            serve(redis_url, tmp_path / "b", tmp_path / "b.log") as two:
        game = Game.create(one)
        game.seat(3)
        screen = game.socket(base=two)
        presence(screen, online=[])
        phones = {pid: game.socket(token, base=(one, two)[i % 2])
                  for i, (pid, token) in enumerate(game.players.items())}
        presence(screen, online=["p1", "p2", "p3"])
        host = game.socket(game.host, base=one)
        assert presence(host, online=["p1", "p2", "p3"])["away"] == {}

        phones["p1"].close()  # on the first server: the screen on the second hears it
        assert away(presence(screen, online=["p2", "p3"])) == {"p1"}
        phones["p2"].close()  # on the second server: the host on the first hears it
        assert away(presence(host, online=["p3"])) == {"p1", "p2"}
        back = game.socket(game.players["p1"], base=two)
        assert away(presence(screen, online=["p1", "p3"])) == {"p2"}
        for sock in (screen, host, back, phones["p3"]):
            sock.close()
