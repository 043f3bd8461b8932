"""The one Redis subscription lasts: a quiet table is checked with a ping, not reconnected; a lost
connection is made again, and its rooms catch up on what was published meanwhile."""

from __future__ import annotations

import logging
import secrets

import pytest
import redis

from shipmate.room import Room, Rooms, Update
from shipmate.rules import PUBLIC, Viewer, create
from shipmate.store import GameStore, hash_token
from tests.fixtures_server import wait_for
from tests.store import counter_game  # noqa: F401  (registers the test game)


class Listener:
    """A socket stand-in that notes the versions it is handed."""

    viewer = PUBLIC
    token_hash = None

    def __init__(self, code: str) -> None:
        self.code = code
        self.versions: list[int] = []

    def deliver(self, update: Update) -> None:
        self.versions.append(update.version)

    def notify(self, message: str) -> None:
        """No presence in this test (the rooms have none)."""

    def retire(self, player: str) -> None:
        """No seat moves in this test."""

    def ping(self, version: int) -> None:
        """No ping messages in this test."""


def new_game(store: GameStore) -> str:
    code = secrets.token_hex(4).upper()
    state, event = create("test-counter", code, {}, secrets.token_hex(32))
    store.create(code, state, event, hash_token("host"))
    return code


def test_an_idle_subscription_survives_its_quiet_spells_without_reconnecting(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = GameStore(redis.Redis.from_url(redis_url), idle_ttl=600)
    code = new_game(store)
    rooms = Rooms(redis_url, store, pings=3600, idle_check=0.2)
    listener = Listener(code)
    with caplog.at_level(logging.WARNING, logger="shipmate.store.subscription"):
        assert rooms.count_in(code, 10)
        rooms.attach(listener)
        wait_for(lambda: rooms.subscription.idle_checks >= 5, "five quiet spells, each checked with a ping")
        assert rooms.subscription.reconnects == 0
        elsewhere = GameStore(redis.Redis.from_url(redis_url))  # another process's
        Room(code, elsewhere).act({"type": "add", "n": 2}, Viewer(player="p1"))
        wait_for(lambda: listener.versions == [1], "the change to come through the same subscription")
        wait_for(lambda: rooms.subscription.idle_checks >= 8, "more quiet after it")
    assert rooms.subscription.reconnects == 0
    assert [r.message for r in caplog.records] == []  # nothing that looks like a failure
    rooms.detach(listener)
    rooms.count_out(code)


def test_a_lost_subscription_is_made_again_and_its_rooms_catch_up(redis_url: str) -> None:
    store = GameStore(redis.Redis.from_url(redis_url), idle_ttl=600)
    code = new_game(store)
    rooms = Rooms(redis_url, store, pings=3600, idle_check=0.2)
    listener = Listener(code)
    assert rooms.count_in(code, 10)
    rooms.attach(listener)
    admin = redis.Redis.from_url(redis_url)
    killed = admin.client_kill_filter(_type="pubsub")
    assert killed >= 1
    room = Room(code, store)  # a passing room: another process's action
    room.act({"type": "add", "n": 2}, Viewer(player="p1"))  # published while it was down, perhaps
    room.act({"type": "add", "n": 3}, Viewer(player="p1"))
    wait_for(lambda: rooms.subscription.reconnects >= 1 or listener.versions[-1:] == [2], "the reconnect")
    wait_for(lambda: listener.versions[-1:] == [2], "both changes, missed or not")
    assert listener.versions == sorted(set(listener.versions))  # in order, none twice
    rooms.detach(listener)
    rooms.count_out(code)


def test_two_servers_of_one_game_hand_each_others_changes_to_their_sockets_once(redis_url: str) -> None:
    # Each server hands its own change to its sockets itself (its room's action); its commit is
    # published only because the other server follows the game too.
    client = redis.Redis.from_url(redis_url)
    stores = [GameStore(client, idle_ttl=600, server=server) for server in ("s1", "s2")]
    code = new_game(stores[0])
    servers = [Rooms(redis_url, store, pings=3600) for store in stores]
    listeners = [Listener(code), Listener(code)]
    for rooms, listener in zip(servers, listeners, strict=True):
        assert rooms.count_in(code, 10)
        rooms.attach(listener)  # returns once the game's channels are subscribed
    for n, rooms in enumerate(servers, start=1):
        rooms.room(code).act({"type": "add", "n": n}, Viewer(player="p1"))
        wait_for(lambda n=n: all(listener.versions == list(range(1, n + 1)) for listener in listeners),
                 f"version {n} on both servers' sockets, once each")
    for rooms, listener in zip(servers, listeners, strict=True):
        rooms.detach(listener)
        rooms.count_out(code)
