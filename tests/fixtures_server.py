"""A real Shipmate server for tests: gunicorn on a free port, stopped by pid.

A server outlives no test run: each is stopped by its fixture's teardown, which a run stopped by
Ctrl-C, SIGTERM or a closed terminal still reaches (tests/conftest.py), and the kernel stops it
when the run itself is killed (`dies_with_parent`).

The worker is gevent's, as in production (deploy/gunicorn.conf.py); `start_server(worker="gthread")`
starts one with real threads, which the app supports too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from shipmate.embedded import dies_with_parent, free_port

GUNICORN = Path(sys.executable).with_name("gunicorn")

StartServer = Callable[..., str]


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll `condition` until it holds; fail the test after a generous `timeout`."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop a process a test started, by its pid: SIGTERM, then SIGKILL if it lingers."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class ServerProcess:
    """One gunicorn process serving `shipmate.web:create_app()` on 127.0.0.1."""

    def __init__(self, redis_url: str, log_dir: Path, env: dict[str, str] | None = None,
                 worker: str = "gevent") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.redis_url = redis_url
        self.log_path = log_dir / f"gunicorn-{self.port}.log"
        self.extra_env = env or {}
        self.worker = ["-k", "gthread", "--threads", "32"] if worker == "gthread" else ["-k", worker]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> str:
        """Start the server and wait until /healthz answers; return its base URL."""
        # BIND_HOST as `shipmate serve --host 127.0.0.1` sets it: links carry this loopback address
        env = {**os.environ, "REDIS_URL": self.redis_url, "BIND_HOST": "127.0.0.1", **self.extra_env}
        command = [
            str(GUNICORN), *self.worker, "-w", "1",
            "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", "2",
            # as `shipmate serve`: idle connections kept 75 s, and no control socket shared by all
            "--keep-alive", "75", "--no-control-socket",
            "shipmate.web:create_app()",
        ]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=dies_with_parent(),
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log_path.read_text()[-3000:]}")
            with contextlib.suppress(requests.RequestException):
                if requests.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self.url
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not answer:\n{self.log_path.read_text()[-3000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server by its pid (SIGTERM, then SIGKILL if it lingers)."""
        process, self.process = self.process, None
        if process is not None:
            stop_process(process)


@pytest.fixture(scope="session")
def server_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of every test server's log."""
    return tmp_path_factory.mktemp("servers")


def _servers(redis_url: str, log_dir: Path) -> Iterator[StartServer]:
    """A `start(redis_url=None, worker="gevent", **env)` that returns a base URL; every server it
    started is stopped when the generator is closed."""
    servers: list[ServerProcess] = []

    def start(url: str | None = None, worker: str = "gevent", **env: str) -> str:
        server = ServerProcess(url or redis_url, log_dir, env, worker)
        servers.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def start_server(redis_url: str, server_logs: Path) -> Iterator[StartServer]:
    """Start extra servers for one test: each is stopped when the test ends (an idle server left
    running keeps its timers, pings and presence renewals going for the rest of the run)."""
    yield from _servers(redis_url, server_logs)


@pytest.fixture(scope="session")
def start_shared_server(redis_url: str, server_logs: Path) -> Iterator[StartServer]:
    """Start servers that a module's or the session's tests share: stopped at the end of the session."""
    yield from _servers(redis_url, server_logs)


# Tests create many games and players from one address: the rate limits have their own test.
TEST_LIMITS = {"RATE_LIMIT_GAMES": "100000", "RATE_LIMIT_JOINS": "100000", "RATE_LIMIT_LOOKUPS": "100000"}


@pytest.fixture(scope="module")
def base_url(request: pytest.FixtureRequest) -> str:
    """The server the browser tests open: SHIPMATE_E2E_URL when set, else the session's live server."""
    url = os.environ.get("SHIPMATE_E2E_URL")
    return url.rstrip("/") if url else str(request.getfixturevalue("live_server"))


@pytest.fixture(scope="session")
def live_server(start_shared_server: StartServer) -> str:
    """The base URL ("http://127.0.0.1:PORT") of a real server on the test Redis.

    A browser answers the server's protocol pings at once; a test's socket answers them only while the
    test reads it, and a test may leave one unread while it works elsewhere for longer than two pings.
    Keep-alive has its own tests, on servers of their own."""
    return start_shared_server(WS_KEEPALIVE="600", **TEST_LIMITS)
