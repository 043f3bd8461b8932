"""This process's one Redis subscription: it follows the channels of the games that have sockets here.

One thread reads redis-py's PubSub and hands every message to `on_message(code, data)`. A channel's
confirmation goes to `on_subscribed(code)`; after a lost connection every channel is confirmed
again, which is how a room learns that it may have missed changes and must catch up. A quiet table
is not a lost one: when nothing came for `idle_check` seconds the thread pings Redis, and only a
second quiet spell without the pong counts as a lost connection.

A game is followed on two channels at once: its own, and this server's listener channel of the game
(`keys.listener`), on which nobody publishes. Both always go in one SUBSCRIBE and one UNSUBSCRIBE,
which Redis carries out whole, between two other commands, so it counts this server on the listener
channel exactly while it hears the game's channel: a commit of this server is published only when
someone else hears it (store/scripts.py), since this server hands its own changes to its sockets
itself (room/room.py).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis

from . import keys
from .client import node_url

log = logging.getLogger(__name__)


class Subscription:
    """Subscribe and unsubscribe from any thread; one thread of its own reads."""

    def __init__(self, redis_url: str, idle_check: float, on_message: Callable[[str, bytes], None],
                 on_subscribed: Callable[[str], None], server: str = "") -> None:
        # RESP2: each message is a plain reply (under RESP3, redis-py 8's default, a push whose
        # default handler formats it for a debug log line first). A cluster's seed node hears every
        # PUBLISH of the cluster.
        self._client = redis.Redis.from_url(node_url(redis_url), socket_connect_timeout=2, protocol=2)
        self._idle_check = idle_check
        self._on_message = on_message
        self._on_subscribed = on_subscribed
        self._server = server
        self._lock = threading.Lock()
        self._channels: set[str] = set()
        self._pubsub: Any = None
        self._thread: threading.Thread | None = None
        self.idle_checks = 0
        """How often a quiet subscription was checked with a ping (each answered keeps it)."""
        self.reconnects = 0
        """How often the subscription was lost and made again."""

    def _followed_on(self, code: str) -> list[str]:
        """Return the channels a game is followed on: its own, and this server's listener of it."""
        own = keys.channel(code)
        return [own, keys.listener(code, self._server)] if self._server else [own]

    def subscribe(self, code: str) -> None:
        """Ask for a game's changes; `on_subscribed(code)` follows once Redis confirms."""
        channels = self._followed_on(code)
        with self._lock:
            self._channels.update(channels)
            if self._thread is None or not self._thread.is_alive():  # the first game, or a forked child
                self._pubsub = None
                self._thread = threading.Thread(target=self._run, name="shipmate-subscription", daemon=True)
                self._thread.start()
            elif self._pubsub is not None:
                with contextlib.suppress(redis.RedisError, OSError):  # else the reader resubscribes
                    self._pubsub.subscribe(*channels)

    def unsubscribe(self, code: str) -> None:
        """Stop a game's changes."""
        channels = self._followed_on(code)
        with self._lock:
            self._channels.difference_update(channels)
            if self._pubsub is not None:
                with contextlib.suppress(redis.RedisError, OSError):
                    self._pubsub.unsubscribe(*channels)

    def _connect(self) -> Any:
        """Subscribe every channel on a new connection, retrying until Redis answers."""
        delay = 0.05
        while True:
            pubsub = self._client.pubsub()  # type: ignore[no-untyped-call]
            try:
                with self._lock:
                    channels = sorted(self._channels)  # each game's two channels in one command
                    pubsub.subscribe(*channels) if channels else pubsub.ping()
                    self._pubsub = pubsub
                return pubsub
            except (redis.RedisError, OSError):
                with contextlib.suppress(redis.RedisError, OSError):
                    pubsub.close()
            time.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _run(self) -> None:
        pubsub = self._connect()
        pinged = False  # a ping is out, and its pong has not come yet
        while True:
            try:
                message = pubsub.get_message(timeout=self._idle_check)
            except (redis.RedisError, OSError, ValueError) as lost:
                cause: BaseException | str = lost
            else:
                if message is not None:
                    pinged = False
                    self._handle(message)
                    continue
                if not pubsub.subscribed:  # no game here: nothing to hear, nothing to check
                    pinged = False
                    continue
                if not pinged:
                    pinged = True
                    self.idle_checks += 1
                    with contextlib.suppress(redis.RedisError, OSError):
                        pubsub.ping()
                    continue
                cause = "no answer to a ping"
            log.warning("lost the Redis subscription (%s); reconnecting", cause)
            with self._lock:
                self._pubsub = None
            with contextlib.suppress(redis.RedisError, OSError):
                pubsub.close()
            pubsub = self._connect()
            self.reconnects += 1
            pinged = False

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "message":
            self._on_message(keys.channel_code(message["channel"].decode()), message["data"])
        elif kind == "subscribe":
            channel = message["channel"].decode()
            code = keys.channel_code(channel)
            if channel == keys.channel(code):  # not its listener channel, confirmed in the same step
                self._on_subscribed(code)
