"""The hub's one Redis subscription lasts: a quiet table is checked with a ping, not reconnected."""

from __future__ import annotations

import logging
import secrets

import pytest
import redis

from shipmate.rules import PUBLIC, Viewer, create
from shipmate.store import GameStore, hash_token
from shipmate.web.hub import Hub, Subscription, Update, subscriber
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

    def notify(self, message: bytes) -> None:
        """No presence in this test (the hub has none)."""

    def retire(self, player: str) -> None:
        """No seat moves in this test."""

    def tick(self) -> None:
        """No ping messages in this test."""

    def probe(self) -> None:
        """No keep-alive probes in this test."""


def test_an_idle_subscription_survives_its_read_timeouts_without_reconnecting(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = GameStore(redis.Redis.from_url(redis_url), idle_ttl=600)
    code = secrets.token_hex(4).upper()
    state, event = create("test-counter", code, {}, secrets.token_hex(32))
    store.create(code, state, event, hash_token("host"))
    hub = Hub(redis_url, store, pings=3600, keepalive=3600, idle_check=0.2)
    listener = Listener(code)
    with caplog.at_level(logging.WARNING, logger="shipmate.web.hub"):
        hub.attach(listener)
        wait_for(lambda: hub.idle_checks >= 5, "five quiet spells, each checked with a ping")
        assert hub.reconnects == 0
        GameStore(redis.Redis.from_url(redis_url)).act(code, {"type": "add", "n": 2}, Viewer(player="p1"))
        wait_for(lambda: listener.versions == [1], "the change to come through the same subscription")
        wait_for(lambda: hub.idle_checks >= 8, "more quiet after it")
    assert hub.reconnects == 0
    assert [r.message for r in caplog.records] == []  # nothing that looks like a failure
    hub.detach(listener)


def test_the_subscription_reads_what_redis_pys_own_pubsub_reads(redis_url: str) -> None:
    """`hub.Subscription` reads a plain connection (RESP2): pinned to redis-py's PubSub on the same
    messages, a subscription's confirmation, a change's bytes as published, and a ping's pong."""
    client = subscriber(redis_url, 5)
    channel = f"pin-{secrets.token_hex(4)}"
    ours = Subscription(client)
    ours.connect()
    their_client = redis.Redis.from_url(redis_url)
    theirs = their_client.pubsub()
    try:
        ours.subscribe(channel)
        theirs.subscribe(channel)
        confirmed = theirs.get_message(timeout=5)
        assert confirmed is not None
        name = channel.encode()
        assert ours.read() == [b"subscribe", name, 1]
        assert (confirmed["type"], confirmed["channel"], confirmed["data"]) == ("subscribe", name, 1)
        data = '{"version":7,"é":"\u2603"}'.encode() + bytes(range(256))
        assert client.publish(channel, data) == 2
        message = theirs.get_message(timeout=5)
        assert message is not None and message["type"] == "message"
        assert message["data"] == data
        assert ours.read() == [b"message", name, data]
        ours.ping()
        assert ours.read()[0] == b"pong"
    finally:
        ours.close()
        theirs.close()
        their_client.close()
        client.close()
