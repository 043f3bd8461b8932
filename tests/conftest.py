"""Fixtures every test level shares: a real Redis (REDIS_URL, else the embedded one).

A run stopped by SIGTERM (a CI timeout, `timeout`, `kill`) or by its terminal closing (SIGHUP)
stops as on Ctrl-C: pytest tears every fixture down, and with it every server and Redis a test
started. A run killed outright cannot; the kernel then stops them (`dies_with_parent`).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
import redis

from shipmate.embedded import EmbeddedRedis

pytest_plugins = ["tests.fixtures_server"]


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def pytest_configure(config: pytest.Config) -> None:
    """Stop on SIGTERM and SIGHUP as on Ctrl-C, so that every fixture is torn down."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _interrupt)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a real Redis: `REDIS_URL` when set, else an embedded server for this run.

    The embedded one syncs its append-only file each second, not before each answer: a sync costs a
    write some 15 ms on a busy disk, and the tests that lose power (tests/reliability) start servers
    of their own that sync as Shipmate does."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    data_dir: Path = tmp_path_factory.mktemp("redis")
    with EmbeddedRedis(data_dir, appendfsync="everysec") as server:
        yield server.url


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client of the test Redis (decoded responses off: the store speaks bytes)."""
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()
