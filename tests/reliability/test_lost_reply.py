"""A commit whose reply is lost on the wire: the client library sends it again, and it counts once."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from shipmate.rules import Viewer, create, replay
from shipmate.store import GameStore, connect, hash_token
from tests.reliability.proxy import Proxy
from tests.store import counter_game  # noqa: F401  (registers the test game)


def test_a_resent_commit_is_applied_once(redis_url: str) -> None:
    address = urlsplit(redis_url)
    proxy = Proxy((address.hostname or "127.0.0.1", address.port or 6379)).start()
    store = GameStore(connect(f"redis://127.0.0.1:{proxy.port}/0"), idle_ttl=600)
    try:
        code = secrets.token_hex(4).upper()
        state, event = create("test-counter", code, {}, secrets.token_hex(32))
        store.create(code, state, event, hash_token("host"))
        store.act(code, {"type": "add", "n": 1}, Viewer(player="p1"))  # the script is loaded now

        proxy.lose_reply_to(b"EVALSHA")  # Redis commits, the reply never arrives, redis-py retries
        change = store.act(code, {"type": "add", "n": 5}, Viewer(player="p1"))

        assert change.state["version"] == 2
        stored = store.load(code)
        assert stored is not None and (stored["version"], stored["purse"]) == (2, 6)
        events = store.events_since(code, -1)
        assert [e["version"] for e in events] == [0, 1, 2]
        assert replay(events) == stored
    finally:
        store.close()
        proxy.close()
