"""`shipmate serve`: health, every way it stops, its data across restarts, TLS, a crashed run's leftover."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import pytest
import requests

from shipmate.embedded import alive

from .conftest import TIMEOUT, StartServe, servers_in, valkey_pid


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_server_leaves_no_redis_behind(
    start_serve: StartServe, data_dir: Path, signum: int
) -> None:
    server = start_serve()
    health = requests.get(f"{server.url}/healthz", timeout=5)
    assert health.status_code == 200
    assert health.json() == {"ok": True, "redis": "ok"}
    assert "embedded Redis" in server.output()
    pid = valkey_pid(data_dir)
    assert alive(pid)

    assert server.stop(signum) == 0
    assert not alive(pid)
    assert servers_in(data_dir) == []
    assert not (data_dir / "redis" / "redis.pid").exists()


def test_games_survive_a_restart(start_serve: StartServe) -> None:
    server = start_serve()
    created = requests.post(f"{server.url}/api/games", json={"game": "quest1607"}, timeout=5)
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    server.stop()

    again = start_serve()
    game = requests.get(f"{again.url}/api/games/{code}", timeout=5)
    assert game.status_code == 200, game.text
    assert game.json()["code"] == code


def test_tls_serves_https_with_a_reused_certificate(start_serve: StartServe, data_dir: Path) -> None:
    server = start_serve("--tls")
    assert requests.get(f"{server.url}/healthz", verify=server.verify, timeout=5).status_code == 200
    cert = (data_dir / "tls" / "cert.pem").read_bytes()
    server.stop()

    start_serve("--tls")
    assert (data_dir / "tls" / "cert.pem").read_bytes() == cert


def test_a_start_after_a_crash_stops_the_leftover_redis(start_serve: StartServe, data_dir: Path) -> None:
    crashed = start_serve()
    leftover = valkey_pid(data_dir)
    crashed.stop(signal.SIGKILL)
    assert alive(leftover), "a SIGKILLed serve cannot stop its Redis: the next start must"

    start_serve()
    assert not alive(leftover)
    assert valkey_pid(data_dir) != leftover


def test_a_second_server_on_the_same_data_leaves_the_first_alone(
    start_serve: StartServe, data_dir: Path
) -> None:
    first = start_serve()
    pid = valkey_pid(data_dir)
    second = start_serve(wait=False)
    assert second.process.wait(timeout=TIMEOUT) == 1
    assert "in use" in second.output()
    assert alive(pid)
    assert first.healthy()


def test_a_failed_start_stops_the_redis(start_serve: StartServe, data_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server = start_serve(port=taken.getsockname()[1], wait=False)
        assert server.process.wait(timeout=TIMEOUT) != 0
    assert "in use" in server.output()
    assert (data_dir / "redis" / "redis.log").exists(), "the embedded Redis was started"
    assert servers_in(data_dir) == []
