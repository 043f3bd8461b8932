"""Rate limits (429) and a Redis outage (503): both answer in the error shape and recover."""

from __future__ import annotations

from pathlib import Path

import requests

from shipmate.embedded import EmbeddedRedis
from tests.api.client import TIMEOUT, Game
from tests.fixtures_server import StartServer


def test_too_many_joins_or_games_from_one_address_are_429(start_server: StartServer) -> None:
    base = start_server(RATE_LIMIT_JOINS="3", RATE_LIMIT_GAMES="3", RATE_LIMIT_LOOKUPS="3")
    statuses = []
    for _ in range(10):  # the counters may be shared with other servers: 429 comes at the latest here
        response = requests.post(f"{base}/api/games/ZZZZZZ/players", json={"name": "A", "character": "spain"},
                                 timeout=TIMEOUT)
        statuses.append(response.status_code)
        if response.status_code == 429:
            break
    assert statuses[-1] == 429, statuses
    assert set(statuses[:-1]) <= {404}
    body = response.json()
    assert body["error"] == "rate_limited" and int(response.headers["Retry-After"]) > 0
    for _ in range(10):
        response = requests.post(f"{base}/api/games", json={}, timeout=TIMEOUT)
        if response.status_code == 429:
            break
    assert response.status_code == 429


def test_guessing_codes_without_a_token_is_429(start_server: StartServer) -> None:
    base = start_server(RATE_LIMIT_LOOKUPS="3")
    statuses = [requests.get(f"{base}/api/games/ZZZZZ{i}", timeout=TIMEOUT).status_code for i in range(6)]
    assert statuses[-1] == 429 and set(statuses) <= {404, 429}


def test_without_redis_the_api_answers_503_and_recovers(start_server: StartServer, tmp_path: Path) -> None:
    redis_server = EmbeddedRedis(tmp_path / "redis").start()
    try:
        base = start_server(redis_server.url, RATE_LIMIT_GAMES="1000", RATE_LIMIT_JOINS="1000")
        game = Game.create(base)
        game.seat(2)
        socket = game.socket(game.players["p1"])
        assert socket.receive()["type"] == "snapshot"
        version = game.state()["version"]

        redis_server.stop()
        health = requests.get(f"{base}/healthz", timeout=TIMEOUT)
        assert (health.status_code, health.json()) == (503, {"ok": False, "redis": "down"})
        for response in (game.act(game.players["p1"], {"type": "roll"}),
                         requests.get(game.url, timeout=TIMEOUT),
                         requests.post(f"{base}/api/games", json={}, timeout=TIMEOUT)):
            assert response.status_code == 503
            assert response.json()["error"] == "unavailable"

        redis_server = EmbeddedRedis(tmp_path / "redis", port=redis_server.port).start()
        assert requests.get(f"{base}/healthz", timeout=TIMEOUT).json() == {"ok": True, "redis": "ok"}
        answer = game.ok(game.players["p1"], {"type": "roll"})
        assert answer["version"] == version + 1
        # the hub subscribed again: the socket that lived through the outage sees the roll
        update = socket.until("update", version=version + 1)
        assert [e["type"] for e in update["events"]] == ["DiceRolled"]
        socket.close()
    finally:
        redis_server.stop()
