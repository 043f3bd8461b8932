"""The store's lean path to a plain Redis: its two hot commands (the commit's EVALSHA and GET) packed
and read on connections of its own, beside redis-py's client.

Why it exists: redis-py's client checks a pooled connection out for every command and first polls
its socket for readability (in case an interrupted caller left a reply unread), then wraps the
command in retry and observability layers. Under the table-sync load that machinery cost more than
the command. In an alternated A/B (bench/compare, 3 rounds of each, 10 s, 2026-12-01) the store on
redis-py's client (`client.evalsha`, `client.get`) carried 10.7 % fewer actions/s at 10 games and
12.9 % fewer at 50 than on this path, so it stays. Only the store's hot commands use it; everything
else, and a Redis Cluster, goes through redis-py's client.

It uses redis-py's public Connection (`send_packed_command`, `read_response`, `disconnect`) and
its exceptions. `tests/store/test_wire.py` pins it to redis-py: the same bytes on the wire as
redis-py packs, and the same replies and errors as the client gives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import redis
from redis.backoff import ExponentialBackoff


def new_connection(client: redis.Redis) -> Any:
    """Return a new, unconnected redis-py connection with `client`'s settings (URL, timeouts, checks)."""
    pool = client.connection_pool
    return pool.connection_class(**pool.connection_kwargs)


def pack(args: tuple[Any, ...]) -> bytes:
    """Return a command in the Redis protocol (RESP): its arguments as bulk strings.

    redis-py packs every command in several generic steps; the store's commands are bytes, text
    and integers only.
    """
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts += (b"$%d\r\n" % len(data), data, b"\r\n")
    return b"".join(parts)


class Commands:
    """The store's hot commands on one plain Redis, without redis-py's per-command machinery.

    redis-py's client checks out a pooled connection per command and, to catch a reply that an
    interrupted caller left unread, first polls the socket for readability; under load that poll
    and the wrappers around each command cost more than the command. Here a connection that saw any
    exception other than a Redis error reply is closed, never reused, so an idle connection cannot
    hold a stale reply and needs no poll. Connection errors are retried like `connect`'s client
    retries them (a commit carries its id, so a retried commit whose first reply was lost counts
    once). The connections are made with the client's own settings (timeouts, health checks).
    """

    def __init__(self, client: redis.Redis, retries: int = 2) -> None:
        self._make: Callable[[], Any] = lambda: new_connection(client)
        self._idle: list[Any] = []  # redis.Connection, whose methods are untyped
        self._backoff = ExponentialBackoff(cap=0.2, base=0.02)
        self._retries = retries

    def __call__(self, *args: Any) -> Any:
        """Send one command and return its raw reply; redis-py's exceptions as its client raises them."""
        failures = 0
        while True:
            try:
                connection = self._idle.pop()
            except IndexError:
                connection = self._make()
            try:
                connection.send_packed_command([pack(args)])
                reply = connection.read_response()
            except redis.ResponseError:
                self._idle.append(connection)  # an error reply was read whole: the connection is clean
                raise
            except (redis.ConnectionError, redis.TimeoutError):
                connection.disconnect()
                failures += 1
                if failures > self._retries:
                    raise
                time.sleep(self._backoff.compute(failures))
                continue
            except BaseException:
                connection.disconnect()  # interrupted mid-command: its reply may still be on the wire
                raise
            self._idle.append(connection)
            return reply

    def close(self) -> None:
        """Close the idle connections."""
        while self._idle:
            self._idle.pop().disconnect()


