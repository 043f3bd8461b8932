"""A socket's outbox: what waits to be written to it, in order, and how the socket ends."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .update import Update


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

    It never waits: whoever hands the socket an item then drains the outbox (web/connection.py).
    """

    def __init__(self, size: int) -> None:
        self._items: deque[Item] = deque()
        self._size = size
        self._final: Close | None = None
        self._ended = False  # the final Close was taken

    def put(self, item: Item) -> bool:
        """Queue an item; False when the outbox is full (the socket is too slow)."""
        if self._final is None:
            if len(self._items) >= self._size:
                return False
            self._items.append(item)
        return True

    def finish(self, final: Close) -> None:
        """Drop whatever waits and make `final` the next and last item (the first finish wins)."""
        if self._final is None:
            self._final = final
            self._items.clear()

    @property
    def finished(self) -> bool:
        """True once the socket is being closed."""
        return self._final is not None

    @property
    def waiting(self) -> bool:
        """Whether `take` has something to return."""
        return bool(self._items) if self._final is None else not self._ended

    def take(self) -> Item | Close | None:
        """Return the next item, or the final Close (once), or None when nothing waits."""
        if self._final is not None:
            if self._ended:
                return None
            self._ended = True
            return self._final
        return self._items.popleft() if self._items else None
