"""The store's Redis client under a crowd: more commands at once than it keeps connections."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from shipmate.store import client_for
from shipmate.store.client import MAX_CONNECTIONS


def test_commands_beyond_the_pool_wait_for_a_connection_instead_of_failing(redis_url: str) -> None:
    client = client_for(redis_url, socket_connect_timeout=2, socket_timeout=10)
    crowd = MAX_CONNECTIONS + 50  # each holds its connection for a blocking pop of 0.2 s
    with ThreadPoolExecutor(crowd) as pool:
        answers = list(pool.map(lambda n: client.blpop([f"nothing-{n}"], timeout=0.2), range(crowd)))
    assert answers == [None] * crowd
    assert client.connection_pool.max_connections == MAX_CONNECTIONS
    client.close()
