"""A test run cut short leaves no server behind: neither the test servers nor their Redis.

A run of one test that holds a live server (gunicorn, its worker, the embedded Redis) is stopped by
Ctrl-C, SIGTERM (a CI timeout), a closed terminal (SIGHUP) or SIGKILL. On the first three, pytest
tears its fixtures down, so every server is stopped before the run exits; a killed run cannot, and
the kernel stops them instead (`shipmate.embedded.dies_with_parent`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from shipmate.embedded import alive, dies_with_parent
from tests.fixtures_server import wait_for

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0

HELD = '''
import signal
from pathlib import Path


def test_held_until_stopped(live_server: str) -> None:
    Path(__file__).with_name("ready").write_text(live_server)
    signal.pause()
'''


def as_from_a_terminal() -> Callable[[], None]:
    """A `preexec_fn` for the run: Ctrl-C as a terminal delivers it, and the run dies with this test.

    A run started in the background of a shell (as this suite may be) inherits SIGINT ignored, and
    Python then never turns it into KeyboardInterrupt."""
    with_parent = dies_with_parent()

    def preexec() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if with_parent is not None:
            with_parent()

    return preexec


def descendants(pid: int) -> list[int]:
    """Return the processes started by `pid`, their children and theirs."""
    found: list[int] = []
    parents = [pid]
    while parents:
        parent = parents.pop()
        with contextlib.suppress(OSError):
            children = [int(c) for c in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]
            found += children
            parents += children
    return found


def command_of(pid: int) -> str:
    """Return a process's command line ('' once it is gone)."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace").replace("\0", " ")
    return ""


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=lambda s: signal.Signals(s).name)
def test_a_run_cut_short_leaves_no_server_behind(tmp_path: Path, signum: int) -> None:
    (tmp_path / "test_held.py").write_text(HELD)
    log = tmp_path / "run.log"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}  # the run starts its own Redis
    with log.open("wb") as out:
        run = subprocess.Popen(
            [sys.executable, "-m", "pytest", str(tmp_path / "test_held.py"), "-p", "tests.conftest",
             "-p", "no:cacheprovider", "-q"],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=as_from_a_terminal(),
        )
    started: list[int] = []
    try:
        wait_for(lambda: (tmp_path / "ready").exists() or run.poll() is not None, "the run's server")
        assert run.poll() is None, log.read_text()
        started = descendants(run.pid)
        commands = " ".join(command_of(pid) for pid in started)
        assert "gunicorn" in commands and "valkey-server" in commands, commands

        os.kill(run.pid, signum)
        code = run.wait(timeout=TIMEOUT)
        if signum == signal.SIGKILL:
            wait_for(lambda: not any(alive(pid) for pid in started), "the kernel to stop the run's servers")
        else:
            assert code == pytest.ExitCode.INTERRUPTED, log.read_text()
            left = [command_of(pid) for pid in started if alive(pid)]
            assert left == [], f"still running when the run exited: {left}"
    finally:
        for pid in [run.pid, *started]:
            with contextlib.suppress(ProcessLookupError):
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
        run.wait()
