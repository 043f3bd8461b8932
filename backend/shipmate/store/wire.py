"""The store's lean path to a plain Redis: its two hot commands (the commit's EVALSHA and GET) packed
and read on connections of its own, beside redis-py's client.

Why it exists: redis-py's client checks a pooled connection out for every command and first polls
its socket for readability (in case an interrupted caller left a reply unread), then wraps the
command in retry and observability layers. Under the table-sync load that machinery cost more than
the command. In an alternated A/B (bench/compare, 3 rounds of each, 10 s, 2026-12-01) the store on
redis-py's client (`client.evalsha`, `client.get`) carried 10.7 % fewer actions/s at 10 games and
12.9 % fewer at 50 than on this path, so it stays. Only the store's hot commands use it; everything
else, and a Redis Cluster, goes through redis-py's client.

Group commits: the commands of different games that arrive within one turn of the event loop go as
one pipeline (`Commands`). In an alternated A/B (3 rounds, 10 s, 2026-12-01 04:00 UTC) they carried
16 % more actions/s at 50 games (1,940 against 1,668, p99 54 ms against 64 ms) and the same at 10
games within the noise (2,179 against 2,226), so they stay.

It uses redis-py's public Connection (`send_packed_command`, `read_response`, `disconnect`) and
its exceptions. `tests/store/test_wire.py` pins it to redis-py: the same bytes on the wire as
redis-py packs, and the same replies and errors as the client gives.
"""

from __future__ import annotations

import threading
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


class Waiting:
    """A command in a group: its bytes, then its reply or its error."""

    __slots__ = ("answered", "done", "error", "packed", "reply")

    def __init__(self, packed: bytes) -> None:
        self.packed = packed
        self.reply: Any = None
        self.error: BaseException | None = None
        self.answered = False
        self.done = threading.Event()


class Commands:
    """The store's hot commands on one plain Redis, without redis-py's per-command machinery, in groups.

    redis-py's client checks out a pooled connection per command and, to catch a reply that an
    interrupted caller left unread, first polls the socket for readability; under load that poll
    and the wrappers around each command cost more than the command. Here a connection that saw any
    exception other than a Redis error reply is closed, never reused, so an idle connection cannot
    hold a stale reply and needs no poll. Connection errors are retried like `connect`'s client
    retries them (a commit carries its id, so a retried commit whose first reply was lost counts
    once). The connections are made with the client's own settings (timeouts, health checks).

    Commands of different games sent at about the same time go as one group: the first one waits a
    turn of the event loop for others to join, then sends them all in one write and reads their
    replies in order (a pipeline; each command, and each commit script, still runs alone and whole
    in Redis). An error reply belongs to its own command; a connection lost mid-group fails every
    command of the group that had no reply yet, and each is retried alone.
    """

    def __init__(self, client: redis.Redis, retries: int = 2) -> None:
        self._make: Callable[[], Any] = lambda: new_connection(client)
        self._idle: list[Any] = []  # redis.Connection, whose methods are untyped
        self._backoff = ExponentialBackoff(cap=0.2, base=0.02)
        self._retries = retries
        self._lock = threading.Lock()
        self._group: list[Waiting] = []
        self._gathering = False

    def __call__(self, *args: Any) -> Any:
        """Send one command and return its raw reply; redis-py's exceptions as its client raises them."""
        packed = pack(args)
        failures = 0
        while True:
            try:
                return self._in_a_group(packed)
            except (redis.ConnectionError, redis.TimeoutError):
                failures += 1
                if failures > self._retries:
                    raise
                time.sleep(self._backoff.compute(failures))

    def _in_a_group(self, packed: bytes) -> Any:
        mine = Waiting(packed)
        with self._lock:
            self._group.append(mine)
            lead = not self._gathering
            self._gathering = True
        if lead:
            try:
                time.sleep(0)  # a turn of the event loop: whoever is about to send a command joins
            finally:  # even when interrupted: the others in the group must not wait for ever
                with self._lock:
                    group, self._group, self._gathering = self._group, [], False
                self._send(group)
        else:
            mine.done.wait()
        if mine.error is not None:
            raise mine.error
        return mine.reply

    def _send(self, group: list[Waiting]) -> None:
        try:
            connection = self._idle.pop()
        except IndexError:
            connection = self._make()
        try:
            connection.send_packed_command([waiting.packed for waiting in group])
            for waiting in group:
                try:
                    waiting.reply = connection.read_response()
                except redis.ResponseError as refused:  # an error reply, read whole: the next ones follow
                    waiting.error = refused
                waiting.answered = True
        except BaseException as cut:
            connection.disconnect()  # cut off mid-group: replies may still be on the wire
            lost = cut if isinstance(cut, redis.ConnectionError | redis.TimeoutError) else \
                redis.ConnectionError(f"the group's connection was cut off ({type(cut).__name__})")
            for waiting in group:
                if not waiting.answered:
                    waiting.error = lost
            if not isinstance(cut, Exception):
                raise
        else:
            self._idle.append(connection)
        finally:
            for waiting in group:
                waiting.done.set()

    def close(self) -> None:
        """Close the idle connections."""
        while self._idle:
            self._idle.pop().disconnect()
