"""What the store raises when Redis cannot be reached."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import redis


class Unavailable(Exception):
    """Redis cannot be reached right now; nothing was changed."""


@contextmanager
def redis_errors() -> Iterator[None]:
    """Turn redis-py's errors of an unreachable Redis into Unavailable, for the block's length."""
    try:
        yield
    except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError) as exc:
        raise Unavailable(str(exc)) from exc
