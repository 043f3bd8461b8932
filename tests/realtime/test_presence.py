"""Presence on real servers: who has a socket open, told to every socket of the game, on every server.

Presence is no change of the game: it raises no version and enters no event. A player whose last
socket closed stays online for a grace (PRESENCE_GRACE, 15 s): the tests that are not about it
shorten it to nothing.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from shipmate.web.config import DEFAULTS
from tests.api.client import Game, Socket
from tests.fixtures_server import TEST_LIMITS, StartServer
from tests.scale.test_two_servers import serve

NO_GRACE = {**TEST_LIMITS, "PRESENCE_GRACE": "0"}


@pytest.fixture(scope="module")
def no_grace(start_shared_server: StartServer) -> str:
    """A server that tells the table at once that a player's last socket closed."""
    return start_shared_server(**NO_GRACE)


@pytest.fixture
def game(no_grace: str) -> Game:
    """A game in play with three players, none of them connected yet."""
    game = Game.create(no_grace)
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


def test_a_reload_within_the_grace_is_no_news_to_the_table(live_server: str) -> None:
    game = Game.create(live_server)  # the grace of every server: 15 s
    game.seat(3)
    screen = game.socket()
    phone = game.socket(game.players["p2"])
    presence(screen, online=["p2"])
    phone.close()  # the page reloads, or goes to another page of the app
    again = game.socket(game.players["p2"])
    assert again.receive()["type"] == "snapshot"
    assert again.until("presence")["online"] == ["p2"]  # still online: the grace holds
    other = game.socket(game.players["p1"])
    # The screen's next word is p1's arrival: p2's reload was never told, as away nor as back.
    assert screen.until("presence") == {"type": "presence", "online": ["p1", "p2"], "away": {"p3": None}}
    for sock in (screen, again, other):
        sock.close()


def test_a_phone_closed_longer_than_the_grace_is_away_after_it_then_back(start_server: StartServer) -> None:
    grace = 1.0
    game = Game.create(start_server(PRESENCE_GRACE=str(grace), **TEST_LIMITS))
    game.seat(2)
    screen = game.socket()
    phone = game.socket(game.players["p1"])
    presence(screen, online=["p1"])
    closed = time.monotonic()
    phone.close()
    gone = screen.until("presence")
    assert time.monotonic() - closed >= grace  # not a word before the grace was up …
    assert gone["online"] == [] and gone["away"]["p1"] >= 0  # … then away, since the close
    back = game.socket(game.players["p1"])
    assert screen.until("presence") == {"type": "presence", "online": ["p1"], "away": {"p2": None}}
    for sock in (screen, back):
        sock.close()


def test_by_default_a_vanished_phone_is_shown_away_within_a_minute() -> None:
    # missed pongs are noticed within two keep-alive intervals; then the grace runs (the contract: a
    # phone that vanished without closing is away within a minute)
    worst = 2 * DEFAULTS["WS_KEEPALIVE"] + DEFAULTS["PRESENCE_GRACE"]
    assert worst <= 60, f"a vanished phone may be shown away only after {worst} s"


def test_a_phone_that_vanished_without_closing_is_away_after_a_missed_pong(start_server: StartServer) -> None:
    base = start_server(WS_KEEPALIVE="1", **NO_GRACE)
    game = Game.create(base)
    game.seat(2)
    screen = game.socket()
    phone = game.socket(game.players["p1"])  # reads nothing from now on: it answers no protocol ping
    presence(screen, online=["p1"])
    assert "p1" in presence(screen, online=[])["away"]
    phone.ws.shutdown()
    screen.close()


def test_two_servers_behind_one_redis_agree_on_who_is_online(redis_url: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # Each server renews its word often here, and two phones attach on one server at once: a word
    # on who is here must reach Redis in the order it was read (room/rooms.py), or an older one puts
    # back a player who left, or drops one who came, until the next renewal (it flaked so, in CI).
    monkeypatch.setenv("PRESENCE_GRACE", "0")
    monkeypatch.setenv("PRESENCE_REFRESH", "0.05")
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
