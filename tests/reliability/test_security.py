"""Security on a live server: tokens, who may act, guessing, headers, socket origins and caps.

(Guessing join codes without a token → 429 is tests/api/test_limits_and_outage.py.)
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
import redis
import requests
import websocket

from shipmate.store import hash_token
from tests.api.client import TIMEOUT, Game
from tests.fixtures_server import TEST_LIMITS, StartServer

# One body per Quest 1607 action type (docs/PROTOCOL.md); o1 is p1's open offer to p3.
ACTIONS: dict[str, dict[str, Any]] = {
    "start": {}, "roll": {}, "sail": {"ship": 1, "squares": 1},
    "offer": {"to": "p3", "give": {"wood": 1}, "get": {}}, "accept": {"offer_id": "o1"},
    "decline": {"offer_id": "o1"}, "withdraw": {"offer_id": "o1"},
    "market": {"give": "wood", "get": "food"}, "bank": {"give": {"wood": 5}, "get": "iron"},
    "upgrade": {"ship": 1, "part": "sails"}, "buy_quest": {"level": "bronze"},
    "quest_step": {"quest_id": "q1", "step": 0, "ship": 1}, "complete_quest": {"quest_id": "q1"},
    "attack": {"ship": 1, "target": "p1", "target_ship": 1}, "fire": {}, "surrender": {},
    "accept_surrender": {}, "keep": {"resources": {}}, "fish": {"resources": {}}, "end_turn": {},
    "reach_edge": {"ship": 1}, "undo": {},
    "adjust": {"player": "p1", "resources": {"wood": 9}, "reason": "mine now"},
}


@pytest.fixture
def table(live_server: str) -> Game:
    """Three captains; p1 has rolled, has wood, and offers p3 a trade."""
    game = Game.create(live_server)
    game.seat(3)
    game.ok(game.players["p1"], {"type": "roll"})
    game.ok(game.host, {"type": "adjust", "player": "p1", "resources": {"wood": 9}, "reason": "x"})
    game.ok(game.players["p1"], {"type": "offer", "to": "p3", "give": {"wood": 1}, "get": {}})
    return game


@pytest.mark.parametrize("kind", sorted(ACTIONS))
def test_no_token_acts_for_another_player_or_as_host(table: Game, kind: str) -> None:
    action = {"type": kind, **ACTIONS[kind]}
    views = [table.state(token) for token in (None, table.host, *table.players.values())]
    # p2 (not the active player, not the offer's receiver), and the host for a player's action
    # (the host's token may roll for the active player: that is the table's dice device, T1)
    host_may = ("start", "undo", "adjust", "roll")
    callers = [table.players["p2"]] + ([table.host] if kind not in host_may else [])
    for token in callers:
        response = table.act(token, action)
        assert response.status_code in (403, 422), (kind, response.text)
    assert [table.state(token) for token in (None, table.host, *table.players.values())] == views


def test_tokens_are_128_random_bits_and_only_their_hash_is_stored(
    live_server: str, redis_client: redis.Redis
) -> None:
    games = [Game.create(live_server) for _ in range(64)]
    tokens = [g.host for g in games] + [games[0].players[games[0].join("Anna", "spain")]]
    raw = [base64.urlsafe_b64decode(t + "=" * (-len(t) % 4)) for t in tokens]
    assert all(len(r) == 16 for r in raw) and len(set(raw)) == len(raw)
    ones = sum(bin(byte).count("1") for r in raw for byte in r)
    bits = 128 * len(raw)
    assert abs(ones - bits / 2) < 6 * (bits / 4) ** 0.5  # unbiased bits, six standard deviations
    game = games[0]
    stored = b""
    for key in redis_client.scan_iter(f"game:{{{game.code}}}:*"):
        kind = redis_client.type(key)
        if kind == b"hash":
            stored += b"".join(k + v for k, v in redis_client.hgetall(key).items())
        elif kind == b"string":
            stored += redis_client.get(key) or b""
        elif kind == b"stream":
            stored += b"".join(v for _, fields in redis_client.xrange(key) for v in fields.values())
        stored += key
    for token in (game.host, *game.players.values()):
        assert token.encode() not in stored
        assert hash_token(token).encode() in stored


def test_guessing_tokens_of_a_real_game_is_429(start_server: StartServer) -> None:
    base = start_server(**{**TEST_LIMITS, "RATE_LIMIT_LOOKUPS": "5"})  # counters are shared in Redis
    game = Game.create(base)
    statuses = [game.act(f"guess-{i}", {"type": "start"}).status_code for i in range(12)]
    assert statuses[-1] == 429 and set(statuses) <= {401, 429}, statuses
    assert game.act(game.host, {"type": "start"}).status_code != 429  # a valid token is never slowed


def test_every_answer_carries_the_security_headers(live_server: str) -> None:
    for response in (requests.get(f"{live_server}/", timeout=TIMEOUT),
                     requests.post(f"{live_server}/api/games/ZZZZZZ/actions", json={}, timeout=TIMEOUT),
                     requests.get(f"{live_server}/ws/games/ZZZZZZ", timeout=TIMEOUT)):
        csp = response.headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'" and "unsafe-inline" not in csp
        assert directives["frame-ancestors"] == "'none'"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("origin", ["null", "http://evil.example", "http://127.0.0.1.evil.example"])
def test_a_socket_from_another_origin_is_refused(table: Game, origin: str) -> None:
    url = f"{table.base.replace('http://', 'ws://')}/ws/games/{table.code}"
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(url, timeout=TIMEOUT, origin=origin)
    assert refused.value.status_code == 403


def test_sockets_are_capped_per_game_and_per_address(start_server: StartServer) -> None:
    base = start_server(WS_MAX_PER_GAME="3", WS_MAX_PER_ADDRESS="4", **TEST_LIMITS)
    first, second = Game.create(base), Game.create(base)
    held = [first.socket() for _ in range(3)]
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        first.socket()
    assert refused.value.status_code == 429  # the game is full
    held.append(second.socket())
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        second.socket()
    assert refused.value.status_code == 429  # the address is full, though this game is not
    for sock in held:
        sock.close()
