"""`shipmate serve`: health, every way it stops (quietly), its data across restarts, TLS, a crash."""

from __future__ import annotations

import signal
import socket
import struct
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
import requests

from shipmate.embedded import alive
from shipmate.net import is_loopback, lan_address

from .conftest import TIMEOUT, StartServe, noise, servers_in, valkey_pid


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


def test_a_taken_port_says_so_in_one_line_and_exits_at_once(start_serve: StartServe, data_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = start_serve(port=port, wait=False)
        assert server.process.wait(timeout=TIMEOUT) == 1
    (said,) = server.output().splitlines()
    assert f"port {port} is already in use" in said and "--port" in said
    assert servers_in(data_dir) == [] and not (data_dir / "redis").exists(), "no Redis was started"


def test_a_start_and_ctrl_c_are_quiet(start_serve: StartServe) -> None:
    server = start_serve()
    assert "Shipmate is ready." in server.output()
    assert server.interrupt() == 0
    assert noise(server.output()) == []


def test_games_are_kept_as_long_as_keep_days_says(start_serve: StartServe, data_dir: Path) -> None:
    server = start_serve("--keep-days", "2")
    assert "kept 2 days after its last change" in server.output()
    code = requests.post(f"{server.url}/api/games", json={}, timeout=5).json()["code"]
    port = (data_dir / "redis" / "redis.pid").read_text().split()[2]
    with redis.Redis(port=int(port)) as client:
        ttls = [client.ttl(key) for key in client.scan_iter(match=f"game:{{{code}}}:*")]
    assert ttls and all(86400 < ttl <= 2 * 86400 for ttl in ttls)


def links_of(port: int, host: str) -> tuple[str, str]:
    """Create a game over http://host:port; return the hosts of its join link and its dice link."""
    made = requests.post(f"http://{host}:{port}/api/games", json={}, timeout=5).json()
    dice = requests.post(f"http://{host}:{port}/api/games/{made['code']}/dice-device",
                         headers={"Authorization": f"Bearer {made['host_token']}"}, timeout=5).json()
    qr = requests.get(f"http://{host}:{port}/api/games/{made['code']}/qr.svg", timeout=5)
    assert qr.status_code == 200 and qr.headers["Cache-Control"] == "no-cache"
    join, device = urlsplit(made["join_url"]), urlsplit(dice["url"])
    assert join.port == device.port == port
    return str(join.hostname), str(device.hostname)


def test_a_server_on_loopback_hands_out_links_only_this_computer_opens(start_serve: StartServe) -> None:
    server = start_serve()  # --host 127.0.0.1: no phone reaches it, so no link may pretend one could
    assert f"open:  http://127.0.0.1:{server.port}/" in server.output()
    assert "Only this computer can open it" in server.output()
    assert links_of(server.port, "127.0.0.1") == ("127.0.0.1", "127.0.0.1")
    assert links_of(server.port, "localhost") == ("localhost", "localhost")


def test_a_server_on_every_address_asked_over_loopback_hands_out_the_lan_address(
    start_serve: StartServe,
) -> None:
    server = start_serve("--host", "0.0.0.0")  # it listens everywhere; the test speaks over loopback
    lan = lan_address()
    assert f"open:  http://{lan}:{server.port}/" in server.output()
    shown = "127.0.0.1" if is_loopback(lan) else lan
    assert links_of(server.port, "127.0.0.1") == (shown, shown)


def test_plain_http_to_the_tls_port_is_redirected_and_a_refused_certificate_is_quiet(
    start_serve: StartServe,
) -> None:
    server = start_serve("--tls")
    assert "certificate is not trusted" in server.output()
    plain = requests.get(f"http://127.0.0.1:{server.port}/join/K7QX2M?lang=nl", allow_redirects=False,
                         timeout=5)
    assert plain.status_code == 307
    assert plain.headers["Location"] == f"https://127.0.0.1:{server.port}/join/K7QX2M?lang=nl"
    with pytest.raises(requests.exceptions.SSLError):  # the system's trust store does not know it
        requests.get(f"{server.url}/healthz", timeout=5)
    made = requests.post(f"{server.url}/api/games", json={}, verify=server.verify, timeout=5)
    assert made.status_code == 201 and made.json()["join_url"].startswith("https://")
    assert server.interrupt() == 0
    assert noise(server.output()) == []


def test_a_phone_that_drops_before_its_snapshot_is_not_an_error(start_serve: StartServe) -> None:
    server = start_serve()
    code = requests.post(f"{server.url}/api/games", json={}, timeout=5).json()["code"]
    for _ in range(20):  # each resets the connection right after asking for the upgrade
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as phone:
            phone.sendall(
                f"GET /ws/games/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    assert server.healthy()
    assert server.interrupt() == 0
    assert noise(server.output()) == []
