"""Fixtures every test level shares: a real Redis (REDIS_URL, else the embedded one)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from shipmate.embedded import EmbeddedRedis

pytest_plugins = ["tests.fixtures_server"]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a real Redis: `REDIS_URL` when set, else an embedded server for this run."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    data_dir: Path = tmp_path_factory.mktemp("redis")
    with EmbeddedRedis(data_dir) as server:
        yield server.url


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client of the test Redis (decoded responses off: the store speaks bytes)."""
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()
