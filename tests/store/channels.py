"""Following a game's channel as a server does (store/subscription.py), for the store's tests."""

from __future__ import annotations

from typing import Any

import redis

from shipmate.store import keys


def follow(client: redis.Redis, code: str, server: str) -> Any:
    """Subscribe the game's channel and `server`'s listener of it in one SUBSCRIBE; return the PubSub
    once Redis confirmed both."""
    pubsub = client.pubsub()
    pubsub.subscribe(keys.channel(code), keys.listener(code, server))
    assert [pubsub.get_message(timeout=5)["type"] for _ in range(2)] == ["subscribe"] * 2
    return pubsub


def next_message(pubsub: Any) -> bytes:
    """Return the data of the next message on a followed game's channel."""
    message = pubsub.get_message(timeout=5)
    assert message is not None and message["type"] == "message"
    return bytes(message["data"])
