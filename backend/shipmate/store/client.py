"""Clients of the Redis that holds the games: one plain server, or a Redis Cluster."""

from __future__ import annotations

from typing import Any, cast

import redis

CLUSTER_SCHEME = "redis+cluster://"
"""A REDIS_URL that starts with this names one node of a Redis Cluster (``redis+cluster://host:port``)."""

MAX_CONNECTIONS = 100
"""Connections a process keeps to a plain Redis; a command beyond them waits for one to come free.

redis-py's default pool refuses a command outright past its 100 connections (MaxConnectionsError,
which players would see as 503): a busy server, whose commands take longer, would fail exactly when
it is busiest. A command holds its connection for one round trip, so a short wait costs less."""

POOL_WAIT = 10.0
"""Seconds a command waits for a free connection before the store counts Redis as unavailable."""


def client_for(url: str, **options: Any) -> redis.Redis:
    """Return a client of the Redis at `url`: a cluster client for a ``redis+cluster://`` URL.

    Every key of a game carries its code in a hash tag, so the commit script touches one slot and
    runs on whichever shard holds the game; the cluster client routes each command there.
    """
    if url.startswith(CLUSTER_SCHEME):
        from redis.cluster import RedisCluster

        # The cluster client offers the same commands; the store types its client as redis.Redis.
        return cast(redis.Redis, RedisCluster.from_url(node_url(url), **options))
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS, timeout=POOL_WAIT,
                                                 **options)
    return redis.Redis.from_pool(pool)  # the client owns its pool: closing it closes the connections


def node_url(url: str) -> str:
    """Return a plain ``redis://`` URL of the node `url` names (a cluster's seed node).

    A subscriber needs only one node: Redis Cluster forwards every PUBLISH to every node.
    """
    return "redis://" + url.removeprefix(CLUSTER_SCHEME) if url.startswith(CLUSTER_SCHEME) else url

