"""A commit whose reply is lost on the wire: the client library sends it again, and it counts once."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

import pytest
from redis.backoff import NoBackoff
from redis.retry import Retry

from shipmate.codec import dumpb
from shipmate.room import Remember, Room
from shipmate.rules import Viewer, create, replay
from shipmate.store import GameStore, client_for, hash_token, keys
from tests.reliability.proxy import Proxy
from tests.store import counter_game  # noqa: F401  (registers the test game)


@pytest.mark.parametrize("keyed", [False, True], ids=["bare", "under an Idempotency-Key"])
def test_a_resent_commit_is_applied_once(redis_url: str, keyed: bool) -> None:
    address = urlsplit(redis_url)
    proxy = Proxy((address.hostname or "127.0.0.1", address.port or 6379)).start()
    # a client that sends a command again when its connection broke, as redis-py does when told to
    client = client_for(f"redis://127.0.0.1:{proxy.port}/0", socket_connect_timeout=2, socket_timeout=10,
                        retry=Retry(NoBackoff(), retries=1))
    store = GameStore(client, idle_ttl=600)
    try:
        code = secrets.token_hex(4).upper()
        state, event = create("test-counter", code, {}, secrets.token_hex(32))
        store.create(code, state, event, hash_token("host"))
        Room(code, store).act({"type": "add", "n": 1}, Viewer(player="p1"))  # the script is loaded now
        remember = Remember(keys.idempotency(code, "t", "k"), lambda c: dumpb(c.state["version"]),
                            lambda exc: b"refused") if keyed else None

        proxy.lose_reply_to(b"EVALSHA")  # Redis commits, the reply never arrives, redis-py retries
        change = Room(code, store).act({"type": "add", "n": 5}, Viewer(player="p1"), remember=remember)

        assert change.state["version"] == 2  # its own commit recognised: a change, not a retry's answer
        stored = store.load(code)
        assert stored is not None and (stored["version"], stored["purse"]) == (2, 6)
        events = store.events_since(code, -1)
        assert [e["version"] for e in events] == [0, 1, 2]
        assert replay(events) == stored
        if remember is not None:
            assert store.client.get(remember.name) == change.answer == b"2"
    finally:
        store.close()
        proxy.close()
