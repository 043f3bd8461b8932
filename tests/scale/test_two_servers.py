"""Two `shipmate serve` processes on different ports behind one Redis serve one table together.

No sticky sessions: the four phones and the shared screen are split between the servers, every
action goes over the acting phone's own socket, and every socket must see every version, in order,
with the same shared view.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import websocket

from shipmate.embedded import dies_with_parent, free_port
from tests.fixtures_server import TEST_LIMITS, wait_for

TIMEOUT = 30.0


@contextlib.contextmanager
def serve(redis_url: str, data_dir: Path, log: Path) -> Iterator[str]:
    """Run `shipmate serve` (one gevent worker) against `redis_url`; yield its URL, stop it by pid."""
    port = free_port()
    env = {**os.environ, **TEST_LIMITS, "REDIS_URL": redis_url}
    command = [sys.executable, "-m", "shipmate.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--data-dir", str(data_dir)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True,
                                   preexec_fn=dies_with_parent())
    url = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        assert process.poll() is None, log.read_text()[-3000:]
        with contextlib.suppress(requests.RequestException):
            return requests.get(f"{url}/healthz", timeout=1).status_code == 200
        return False

    try:
        wait_for(healthy, f"shipmate serve on port {port}", TIMEOUT)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Phone:
    """One socket of the table: every frame it received, and a way to act over it."""

    def __init__(self, base: str, code: str, token: str | None) -> None:
        query = f"?token={token}" if token else ""
        self.ws = websocket.create_connection(f"ws{base[4:]}/ws/games/{code}{query}", timeout=TIMEOUT)
        first = self.receive()
        assert first["type"] == "snapshot"
        self.version = first["version"]
        self.state = first["state"]
        self.versions = [first["version"]]
        self.results: list[dict[str, Any]] = []

    def receive(self) -> dict[str, Any]:
        """Return the next frame that is not a keep-alive ping or presence."""
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv())
            if frame["type"] not in ("ping", "presence"):
                return frame

    def read_until(self, version: int) -> None:
        """Read frames until this socket holds `version` (results are kept aside)."""
        while self.version < version:
            frame = self.receive()
            if frame["type"] == "result":
                self.results.append(frame)
            else:
                assert frame["type"] == "update", frame
                self.version, self.state = frame["version"], frame["state"]
                self.versions.append(frame["version"])

    def act(self, action_id: str, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action over the socket and return its result."""
        self.ws.send(json.dumps({"type": "action", "id": action_id, "action": action}))
        while True:
            for result in self.results:
                if result["id"] == action_id:
                    self.results.remove(result)
                    return result
            frame = self.receive()
            if frame["type"] == "result":
                self.results.append(frame)
            else:
                self.version, self.state = frame["version"], frame["state"]
                self.versions.append(frame["version"])


def shared(view: dict[str, Any]) -> dict[str, Any]:
    """Return the part of a view that every viewer shares (no `you`, `host` or own quest cards)."""
    rest = {k: v for k, v in view.items() if k not in ("you", "host", "players")}
    rest["players"] = [{k: v for k, v in p.items() if k != "quests"} for p in view["players"]]
    return rest


def test_a_table_split_between_two_servers_stays_in_step(redis_url: str, tmp_path: Path) -> None:
    with serve(redis_url, tmp_path / "a", tmp_path / "a.log") as one, \
            serve(redis_url, tmp_path / "b", tmp_path / "b.log") as two:
        created = requests.post(f"{one}/api/games", json={"game": "quest1607"}, timeout=TIMEOUT).json()
        code = created["code"]
        ruleset = requests.get(f"{two}/api/games/{code}/ruleset", timeout=TIMEOUT).json()
        characters = [c["id"] for c in ruleset["characters"][:4]]
        tokens = {}
        for i, character in enumerate(characters):
            base = (one, two)[i % 2]  # joins alternate between the servers too
            joined = requests.post(f"{base}/api/games/{code}/players",
                                   json={"name": f"p{i}", "character": character}, timeout=TIMEOUT).json()
            tokens[joined["player_id"]] = joined["token"]
        started = requests.post(f"{two}/api/games/{code}/actions", json={"type": "start"},
                                headers={"Authorization": f"Bearer {created['host_token']}"}, timeout=TIMEOUT)
        assert started.status_code == 200, started.text
        seating = [p["id"] for p in started.json()["state"]["players"]]

        # Seats 0 and 2 and the screen on the first server, seats 1 and 3 on the second.
        phones = {pid: Phone((one, two)[i % 2], code, tokens[pid]) for i, pid in enumerate(seating)}
        screen = Phone(one, code, None)
        sockets = [*phones.values(), screen]
        start = started.json()["version"]

        version, turns = start, 12
        for turn in range(turns):
            player = seating[turn % 4]
            for step, action in enumerate(({"type": "roll"}, {"type": "end_turn"})):
                result = phones[player].act(f"t{turn}s{step}", action)
                assert result["status"] == 200, result
                version += 1
                assert result["version"] == version
                for phone in sockets:
                    phone.read_until(version)

        for phone in sockets:
            assert phone.versions == list(range(phone.versions[0], version + 1))  # no gap, no repeat
            assert shared(phone.state) == shared(screen.state)
        assert screen.state["round"] == 1 + turns // 4
        assert screen.state["turn"]["player"] == seating[turns % 4]
        for phone in sockets:
            phone.ws.close()


@pytest.mark.parametrize("transport", ["socket", "http"])
def test_an_action_on_either_server_is_answered_alike(redis_url: str, tmp_path: Path, transport: str) -> None:
    """A refusal over a socket on one server has the status and body HTTP gives on the other."""
    with serve(redis_url, tmp_path / "a", tmp_path / "a.log") as one, \
            serve(redis_url, tmp_path / "b", tmp_path / "b.log") as two:
        created = requests.post(f"{one}/api/games", json={"game": "quest1607"}, timeout=TIMEOUT).json()
        code = created["code"]
        ruleset = requests.get(f"{one}/api/games/{code}/ruleset", timeout=TIMEOUT).json()
        character = ruleset["characters"][0]["id"]
        joined = requests.post(f"{two}/api/games/{code}/players", json={"name": "p", "character": character},
                               timeout=TIMEOUT).json()
        refused = requests.post(f"{one}/api/games/{code}/actions", json={"type": "roll"},
                                headers={"Authorization": f"Bearer {joined['token']}"}, timeout=TIMEOUT)
        phone = Phone(two, code, joined["token"])
        if transport == "socket":
            result = phone.act("r1", {"type": "roll"})
            status, body = result.pop("status"), {k: v for k, v in result.items() if k not in ("type", "id")}
        else:
            again = requests.post(f"{two}/api/games/{code}/actions", json={"type": "roll"},
                                  headers={"Authorization": f"Bearer {joined['token']}"}, timeout=TIMEOUT)
            status, body = again.status_code, again.json()
        assert (status, body) == (refused.status_code, refused.json())
        assert status == 422
        phone.ws.close()
