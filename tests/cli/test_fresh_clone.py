"""README's serve command on a fresh clone, as a host runs it on a first evening.

The clone is the work tree's files (`git ls-files`, untracked ones included) in a new folder with no
.venv: `bash scripts/serve` makes its own (pip's cache makes that quick). The module makes the clone
and its first start once; each test then starts from there.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests

from shipmate.embedded import dies_with_parent, free_port
from shipmate.net import is_loopback, lan_address
from tests.fixtures_server import wait_for

from .conftest import noise

ROOT = Path(__file__).resolve().parents[2]
SETUP_TIMEOUT = 600.0
SETTING_UP = "Installing Shipmate's packages"  # what scripts/setup says when it sets .venv up
"""Seconds the first start may take: it makes the virtualenv and installs every pinned package."""


def copy_work_tree(target: Path) -> None:
    """Copy the files git knows of (and untracked, unignored ones) into `target`, as a clone has them."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.split(b"\0")):
        source = ROOT / os.fsdecode(name)
        if source.is_file():  # not a file deleted from the work tree and not yet from git
            (target / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / os.fsdecode(name))


def host_environment() -> dict[str, str]:
    """Return the environment of a host's terminal: none of this checkout's virtualenv, no REDIS_URL."""
    venv = str(ROOT / ".venv")
    path = [part for part in os.environ.get("PATH", "").split(os.pathsep) if not part.startswith(venv)]
    dropped = {"REDIS_URL", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "IDLE_TTL", "PUBLIC_URL", "BIND_HOST"}
    return {**{k: v for k, v in os.environ.items() if k not in dropped}, "PATH": os.pathsep.join(path)}


class Serve:
    """`bash scripts/serve` in a clone, in a session of its own, as a terminal runs it."""

    def __init__(self, clone: Path, port: int, log: Path) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                ["bash", "scripts/serve", "--port", str(port), "--data-dir", str(clone.parent / "data")],
                cwd=clone, env=host_environment(), stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=dies_with_parent(),
            )

    def output(self) -> str:
        """Return what the server printed so far."""
        return self.log.read_text(errors="replace")

    def ready(self) -> bool:
        """Return whether /healthz answers (failing the test if the server exited)."""
        if self.process.poll() is not None:
            pytest.fail(f"scripts/serve exited with {self.process.returncode}:\n{self.output()}")
        try:
            return requests.get(f"{self.url}/healthz", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def wait_ready(self, timeout: float) -> None:
        """Wait until /healthz answers (a bound for a failure, not a measure)."""
        wait_for(self.ready, "scripts/serve to answer /healthz", timeout=timeout)

    def ctrl_c(self) -> int:
        """Press Ctrl-C (SIGINT to the process group); return the exit status once it stopped."""
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            status = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"scripts/serve did not stop on Ctrl-C:\n{self.output()}")
        return status

    def kill(self) -> None:
        """Stop whatever is left of it (the embedded Redis stops by its pid file on the next start)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh clone of the work tree, without a virtualenv."""
    target = tmp_path_factory.mktemp("host") / "shipmate"
    copy_work_tree(target)
    assert not (target / ".venv").exists()
    return target


@pytest.fixture(scope="module")
def first_start(clone: Path) -> Iterator[Serve]:
    """The first `bash scripts/serve` of the clone, which sets it up; it runs until a test stops it."""
    server = Serve(clone, free_port(), clone.parent / "first.log")
    try:
        server.wait_ready(SETUP_TIMEOUT)
        yield server
    finally:
        server.kill()


def test_the_first_start_sets_up_quietly_and_hands_out_links_phones_can_open(first_start: Serve) -> None:
    said = first_start.output()
    assert SETTING_UP in said and "Shipmate is ready." in said and "Phones on this network open:" in said
    assert noise(said) == []
    # README's server listens on every address (0.0.0.0): asked over loopback, it hands out the LAN
    # address, as its banner does
    made = requests.post(f"http://localhost:{first_start.port}/api/games", json={}, timeout=10).json()
    lan = lan_address()
    assert f"open:  http://{lan}:{first_start.port}/" in said
    link = urlsplit(made["join_url"])
    assert link.hostname == ("localhost" if is_loopback(lan) else lan)
    assert link.port == first_start.port and link.path == f"/join/{made['code']}"


def test_ctrl_c_stops_it_and_the_next_start_is_quick(first_start: Serve, clone: Path) -> None:
    # quick: the next start sets nothing up again (how long it takes is a measure, not a test)
    assert first_start.ctrl_c() == 0
    assert noise(first_start.output()) == []

    again = Serve(clone, first_start.port, clone.parent / "second.log")
    try:
        again.wait_ready(60)
        assert SETTING_UP not in again.output()
        taken = Serve(clone, first_start.port, clone.parent / "third.log")
        assert taken.process.wait(timeout=60) == 1
        (line,) = taken.output().splitlines()  # a port in use is said in one line, nothing set up
        assert "--port" in line and f"port {first_start.port} is already in use" in line
        assert again.ctrl_c() == 0
        assert noise(again.output()) == []
    finally:
        again.kill()
