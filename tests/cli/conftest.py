"""A real `shipmate serve` in a subprocess: embedded Redis (REDIS_URL removed), data under tmp_path."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from shipmate.embedded import alive, dies_with_parent, free_port
from tests.fixtures_server import wait_for

SHIPMATE = [sys.executable, "-m", "shipmate.cli"]
TIMEOUT = 60.0


def valkey_pid(data_dir: Path) -> int:
    """Return the embedded server's pid from the pid file in `data_dir`."""
    return int((data_dir / "redis" / "redis.pid").read_text().split()[0])


def servers_in(data_dir: Path) -> list[int]:
    """Return the pids of every running valkey-server working in `data_dir` (it chdirs to its data)."""
    folder = (data_dir / "redis").resolve()
    found = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if (proc.name.isdigit() and "valkey" in (proc / "cmdline").read_text(errors="replace")
                    and (proc / "cwd").resolve() == folder and alive(int(proc.name))):
                found.append(int(proc.name))
    return found


class Serve:
    """One `shipmate serve` process on 127.0.0.1 and a free port."""

    def __init__(self, data_dir: Path, log: Path, extra: tuple[str, ...], port: int | None) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.tls = "--tls" in extra
        self.url = f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"
        self.log = log
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        command = [*SHIPMATE, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--data-dir", str(data_dir), "--threads", "8", *extra]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=dies_with_parent(),
            )

    @property
    def verify(self) -> str | bool:
        """What `requests` should trust: the generated certificate under --tls."""
        return str(self.data_dir / "tls" / "cert.pem") if self.tls else True

    def healthy(self) -> bool:
        """Return whether /healthz answers 200 (failing the test if the server has exited)."""
        if self.process.poll() is not None:
            pytest.fail(f"shipmate serve exited with {self.process.returncode}:\n{self.output()}")
        with contextlib.suppress(OSError):  # refused, or the certificate not written yet
            return requests.get(f"{self.url}/healthz", timeout=2, verify=self.verify).status_code == 200
        return False

    def output(self) -> str:
        """Return everything the server printed so far."""
        return self.log.read_text(errors="replace")

    def stop(self, signum: int = signal.SIGTERM, timeout: float = TIMEOUT) -> int:
        """Send `signum` and wait for the exit; return the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signum)
        return self._exit(signum, timeout)

    def interrupt(self, timeout: float = TIMEOUT) -> int:
        """Press Ctrl-C, as a terminal does (SIGINT to the whole process group); return the exit status."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        return self._exit(signal.SIGINT, timeout)

    def _exit(self, signum: int, timeout: float) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"shipmate serve did not stop in {timeout} s on signal {signum}:\n{self.output()}")


StartServe = Callable[..., Serve]

NOISE = ("Traceback", "Warning", "WARNING", "[ERROR]", "Error")


def noise(output: str) -> list[str]:
    """Return the lines of a server's output that look like trouble: tracebacks, warnings, errors."""
    return [line for line in output.splitlines() if any(word in line for word in NOISE)]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """The data folder of the servers of one test."""
    return tmp_path / "data"


@pytest.fixture
def start_serve(data_dir: Path, tmp_path: Path) -> Iterator[StartServe]:
    """Start `shipmate serve` (extra options as arguments) and wait until /healthz answers.

    Whatever a test leaves running is stopped by pid afterwards, the embedded server included.
    """
    started: list[Serve] = []

    def start(*extra: str, port: int | None = None, wait: bool = True) -> Serve:
        server = Serve(data_dir, tmp_path / "serve.log", extra, port)
        started.append(server)
        if wait:
            wait_for(server.healthy, "shipmate serve to answer /healthz")
        return server

    yield start
    for server in started:
        server.stop()
    for pid in servers_in(data_dir):
        os.kill(pid, signal.SIGKILL)
