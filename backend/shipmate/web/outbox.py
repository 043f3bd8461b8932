"""A socket's outbox: what waits to be written to it, in order, and how the socket ends."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from ..room import Update


@dataclass(frozen=True, slots=True)
class Resume:
    """A client's request for every event after `since` and the current state."""

    since: int


@dataclass(frozen=True, slots=True)
class Close:
    """The last thing a writer does: send `last` (if any), then close the socket with this code."""

    code: int
    reason: str
    last: str | None = None


class Ping:
    """Time to send ``{"type": "ping", "version"}``."""


PING = Ping()

Item = Update | Resume | Ping | str


class Outbox:
    """A socket's bounded queue of outgoing items; once finished, it yields only its `Close`.

    Handing an item over never waits (a full outbox says so instead); the socket's one writer waits
    in `take` for the next item (web/connection.py).
    """

    def __init__(self, size: int) -> None:
        self._items: deque[Item] = deque()
        self._size = size
        self._final: Close | None = None
        self._ended = False  # the final Close was taken
        self._ready = threading.Condition()

    def put(self, item: Item) -> bool:
        """Queue an item; False when the outbox is full (the socket is too slow)."""
        with self._ready:
            if self._final is None:
                if len(self._items) >= self._size:
                    return False
                self._items.append(item)
                self._ready.notify()
            return True

    def finish(self, final: Close) -> None:
        """Drop whatever waits and make `final` the next and last item (the first finish wins)."""
        with self._ready:
            if self._final is None:
                self._final = final
                self._items.clear()
                self._ready.notify()

    @property
    def finished(self) -> bool:
        """True once the socket is being closed."""
        return self._final is not None

    def take(self, timeout: float | None = None) -> Item | Close | None:
        """Return the next item, or the final Close (once), waiting up to `timeout` seconds (None:
        as long as it takes) for one; None when nothing came, or the Close was taken already."""
        with self._ready:
            if not self._ready.wait_for(lambda: self._items or self._final is not None, timeout):
                return None
            if self._final is None:
                return self._items.popleft()
            if self._ended:
                return None
            self._ended = True
            return self._final
