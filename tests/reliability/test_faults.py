"""Faults on real processes: Redis killed mid-game, a server killed mid-burst, a phone gone silent.

(The embedded Redis's data folder surviving a restart of `shipmate serve` is
tests/cli/test_serve.py::test_games_survive_a_restart.)
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
import websocket

from shipmate.embedded import EmbeddedRedis
from shipmate.store import GameStore
from shipmate.store.scripts import COMMIT_SCRIPT
from tests import fixtures_server
from tests.api.client import Game, Socket
from tests.fixtures_server import TEST_LIMITS, ServerProcess, StartServer
from tests.ledger import audit
from tests.reliability.proxy import Proxy

wait_for = partial(fixtures_server.wait_for, timeout=90.0)
"""Wait as the other tests do, with more time: a Redis or a server comes back from a fault."""


@dataclasses.dataclass
class Table:
    """Players taking turns (roll, end_turn) and a host handing out supplies, each in a thread.

    A device whose request fails (503, or no answer at all) tries the same action again, under the
    same Idempotency-Key, on the next server of `bases`, until the action is answered.
    """

    game: Game
    bases: list[str]
    acknowledged: list[tuple[int, list[str]]] = dataclasses.field(default_factory=list)
    failures: int = 0
    requests: int = 0
    stop: threading.Event = dataclasses.field(default_factory=threading.Event)
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def send(self, token: str, action: dict[str, Any], device: int) -> None:
        """Send until answered; note the change when it was made."""
        key, attempt = str(uuid.uuid4()), 0
        while not self.stop.is_set():
            base = self.bases[(device + attempt) % len(self.bases)]
            try:
                response = dataclasses.replace(self.game, base=base).act(token, action, key=key)
            except requests.RequestException:
                response = None
            with self.lock:
                self.requests += 1
            if response is not None and response.status_code < 500:
                break
            with self.lock:
                self.failures += 1
            attempt += 1
            time.sleep(0.1)
        else:
            return
        assert response.status_code in (200, 422), response.text
        if response.status_code == 200:
            body = response.json()
            with self.lock:
                self.acknowledged.append((body["version"], [e["type"] for e in body["events"]]))

    def player(self, pid: str, device: int) -> None:
        """Take turns whenever it is this captain's turn."""
        token = self.game.players[pid]
        while not self.stop.is_set():
            try:
                turn = dataclasses.replace(self.game, base=self.bases[device % len(self.bases)],
                                           http=requests.Session()).state()["turn"]
            except (requests.RequestException, AssertionError):
                time.sleep(0.1)
                continue
            if turn["player"] != pid:
                time.sleep(0.01)
                continue
            self.send(token, {"type": "end_turn" if turn["rolled"] else "roll"}, device)

    def host(self, device: int) -> None:
        """Hand out supplies, each with a reason of its own (a double would show in the stream)."""
        while not self.stop.is_set():
            self.send(self.game.host, {"type": "adjust", "player": "p1", "resources": {"wood": 1},
                                       "reason": f"supply {uuid.uuid4()}"}, device)

    def run(self) -> list[threading.Thread]:
        """Start every device."""
        targets: list[tuple[Callable[..., None], tuple[Any, ...]]] = [
            (self.player, (pid, i)) for i, pid in enumerate(self.game.players)]
        targets += [(self.host, (i,)) for i in range(len(targets), len(targets) + 2)]
        threads = [threading.Thread(target=fn, args=args, daemon=True) for fn, args in targets]
        for thread in threads:
            thread.start()
        return threads

    def count(self) -> int:
        """Return how many changes were acknowledged so far."""
        with self.lock:
            return len(self.acknowledged)

    def check(self, client: redis.Redis) -> dict[str, int]:
        """Audit the stored game: every acknowledged change is there, nothing is there twice."""
        store = GameStore(client)
        state = store.load(self.game.code)
        assert state is not None
        events = store.events_since(self.game.code, -1)
        checked = audit(events, state)
        stream = {v: [e["type"] for e in events if e["version"] == v] for v, _ in self.acknowledged}
        assert all(stream[v] == types for v, types in self.acknowledged), "an acknowledged change is lost"
        assert len({v for v, _ in self.acknowledged}) == len(self.acknowledged)
        reasons = [e["reason"] for e in events if e["type"] == "ResourcesAdjusted"]
        assert len(reasons) == len(set(reasons)), "a supply was handed out twice"
        return checked


def seated(base: str, players: int = 3) -> Game:
    """Return a started game on `base`."""
    game = Game.create(base)
    game.seat(players)
    return game


@pytest.mark.slow
def test_redis_killed_mid_game_loses_nothing_acknowledged(
    start_server: StartServer, tmp_path: Path
) -> None:
    redis_server = EmbeddedRedis(tmp_path / "redis").start()  # AOF, synced before each answer
    try:
        base = start_server(redis_server.url, **TEST_LIMITS)
        table = Table(seated(base), [base])
        threads = table.run()
        wait_for(lambda: table.count() >= 100, "100 changes before the fault")

        assert redis_server.process is not None
        redis_server.process.kill()  # SIGKILL: no goodbye, no final flush
        redis_server.process.wait()
        wait_for(lambda: table.failures >= 5, "the clients to notice the outage")
        before = table.count()
        redis_server = EmbeddedRedis(tmp_path / "redis", port=redis_server.port).start()
        wait_for(lambda: table.count() >= before + 100, "100 changes after the restart")
        table.stop.set()
        for thread in threads:
            thread.join()

        client = redis.Redis.from_url(redis_server.url)
        checked = table.check(client)
        client.close()
        print(f"\nRedis SIGKILL: {table.requests} requests, {table.failures} failed and retried, "
              f"{len(table.acknowledged)} acknowledged, {checked}")
    finally:
        redis_server.stop()


@pytest.mark.slow
def test_a_server_killed_mid_burst_leaves_no_half_action(
    start_server: StartServer, redis_client: redis.Redis, tmp_path: Path
) -> None:
    survivor = start_server(**TEST_LIMITS)
    doomed = ServerProcess(_url_of(redis_client), tmp_path, dict(TEST_LIMITS))
    doomed_base = doomed.start()
    try:
        table = Table(seated(survivor), [doomed_base, survivor])
        threads = table.run()
        wait_for(lambda: table.count() >= 100, "100 changes before the fault")
        assert doomed.process is not None
        os.killpg(doomed.process.pid, signal.SIGKILL)  # the master and its worker, mid-burst
        doomed.process.wait()
        before = table.count()
        wait_for(lambda: table.count() >= before + 100, "100 changes on the other server")
        table.stop.set()
        for thread in threads:
            thread.join()
        checked = table.check(redis_client)
        print(f"\nserver SIGKILL: {table.requests} requests, {table.failures} failed and retried, "
              f"{len(table.acknowledged)} acknowledged, {checked}")
    finally:
        doomed.stop()


def test_retries_after_a_crash_mid_commit_are_answered_within_3_s_and_applied_once(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """A server dies while its requests under Idempotency-Keys are at their commits; the cut-off
    requests, sent again with their keys to it once restarted, are answered within 3 s each (no key
    was locked by the dead server) and applied once."""
    address = redis_client.connection_pool.connection_kwargs
    proxy = Proxy((address["host"], address["port"])).start()
    through_proxy = f"redis://127.0.0.1:{proxy.port}/{address.get('db', 0)}"
    doomed = ServerProcess(through_proxy, tmp_path, dict(TEST_LIMITS))
    base = doomed.start()
    try:
        game = seated(base)
        proxy.hold(hashlib.sha1(COMMIT_SCRIPT.encode()).hexdigest().encode())  # the commits hang
        cut_off = {str(uuid.uuid4()): {"type": "adjust", "player": "p1", "resources": {"wood": 1},
                                       "reason": f"cut off {i}"} for i in range(6)}
        for key, action in cut_off.items():
            threading.Thread(target=_send_into_the_void, args=(game, key, action), daemon=True).start()
        # the game's commits take one connection in turn: the first is held, the others wait behind it
        wait_for(lambda: proxy.held > 0, "a commit to reach the proxy")
        assert doomed.process is not None
        os.killpg(doomed.process.pid, signal.SIGKILL)  # the master and its worker, mid-commit
        doomed.process.wait()
        proxy.close()
        doomed.redis_url = _url_of(redis_client)
        doomed.start()  # the same server again, on the same port and data
        answers: dict[str, tuple[int, float]] = {}

        def resend(key: str, action: dict[str, Any]) -> None:
            started = time.monotonic()
            response = game.act(game.host, action, key=key)
            answers[key] = (response.status_code, time.monotonic() - started)

        threads = [threading.Thread(target=resend, args=item) for item in cut_off.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert {status for status, _ in answers.values()} == {200}, answers
        slowest = max(seconds for _, seconds in answers.values())
        assert slowest < 3.0, answers
        events = GameStore(redis_client).events_since(game.code, -1)
        reasons = [e["reason"] for e in events if e["type"] == "ResourcesAdjusted"]
        assert sorted(reasons) == sorted(a["reason"] for a in cut_off.values())  # each exactly once
        print(f"\ncrash with {len(cut_off)} requests cut off: every retry answered, slowest {slowest:.2f} s")
    finally:
        doomed.stop()
        proxy.close()


def _send_into_the_void(game: Game, key: str, action: dict[str, Any]) -> None:
    """A request whose server dies before it answers: its client gives up on it."""
    with contextlib.suppress(requests.RequestException):
        game.act(game.host, action, key=key)


def _url_of(client: redis.Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"


def test_a_silent_phone_is_noticed_and_resumes_with_exactly_the_missed_events(
    start_server: StartServer
) -> None:
    base = start_server(WS_KEEPALIVE="1", WS_MAX_PER_GAME="1", **TEST_LIMITS)
    game = seated(base, 2)
    port = int(base.rsplit(":", 1)[1])
    proxy = Proxy(("127.0.0.1", port)).start()
    try:
        phone = game.socket(game.players["p2"], base=f"http://127.0.0.1:{proxy.port}")
        seen = phone.receive()["version"]
        game.ok(game.players["p1"], {"type": "roll"})
        seen = phone.until("update")["version"]

        proxy.freeze()  # the phone leaves the Wi-Fi: no close, no pongs, nothing
        frozen_at = time.monotonic()
        game.ok(game.players["p1"], {"type": "end_turn"})
        game.ok(game.players["p2"], {"type": "roll"})
        wait_for(proxy.server_closed.is_set, "the server to close the silent socket")
        assert time.monotonic() - frozen_at < 60  # the contract: noticed within a minute

        sockets: list[Socket] = []
        wait_for(lambda: _connect(game, game.players["p2"], sockets), "the silent socket's place to free up")
        again = sockets[0]
        assert again.receive()["type"] == "snapshot"
        again.send({"type": "resume", "since": seen})
        update = again.until("update")
        assert [e["version"] for e in update["events"]] == [seen + 1, seen + 2]
        assert [e["type"] for e in update["events"]] == ["TurnEnded", "DiceRolled"]
        game.ok(game.players["p2"], {"type": "end_turn"})
        following = again.until("update")
        assert [e["version"] for e in following["events"]] == [seen + 3]  # in order, no duplicate
        again.close()
        phone.ws.close()
    finally:
        proxy.close()


def _connect(game: Game, token: str, into: list[Socket]) -> bool:
    """Open a socket into `into`; False while the game's one place is taken (429)."""
    try:
        into.append(game.socket(token))
    except websocket.WebSocketBadStatusException as refused:
        assert refused.status_code == 429
        return False
    return True
