"""A small client of a real server for tests: games, players, actions and sockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import requests
import websocket

CHARACTERS = ["netherlands", "england", "spain", "portugal", "france", "venice"]
RESOURCES = ["wood", "cotton", "iron", "coal", "food"]
TIMEOUT = 10
ASIDE = ("ping", "presence")
"""What a socket sends beside the game's changes and answers: keep-alive pings and presence."""


def bearer(token: str | None) -> dict[str, str]:
    """Return the Authorization header of a token (none without one)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class Game:
    """A game on a real server, with the tokens of its host and players."""

    base: str
    code: str
    host: str
    players: dict[str, str] = field(default_factory=dict)
    http: requests.Session = field(default_factory=requests.Session)

    @classmethod
    def create(cls, base: str, game: str = "quest1607", **options: Any) -> Game:
        """Create a game of `game` with `options` (e.g. quests_per_level=1)."""
        response = requests.post(f"{base}/api/games", json={"game": game, "options": options},
                                 timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        body = response.json()
        return cls(base, body["code"], body["host_token"])

    @property
    def url(self) -> str:
        """The game's API URL."""
        return f"{self.base}/api/games/{self.code}"

    def join(self, name: str, character: str) -> str:
        """Join as a new player; return their player id (their token goes to `players`)."""
        response = self.http.post(f"{self.url}/players", json={"name": name, "character": character},
                                  timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        body = response.json()
        self.players[body["player_id"]] = body["token"]
        return str(body["player_id"])

    def seat(self, count: int) -> list[str]:
        """Join `count` players and start the game in join order; return their ids."""
        ids = [self.join(f"Captain {i + 1}", CHARACTERS[i]) for i in range(count)]
        self.ok(self.host, {"type": "start"})
        return ids

    def act(self, token: str | None, action: Any, key: str | None = None,
            language: str | None = None) -> requests.Response:
        """Post an action with `token` (and an Idempotency-Key)."""
        headers = bearer(token)
        if key:
            headers["Idempotency-Key"] = key
        if language:
            headers["Accept-Language"] = language
        return self.http.post(f"{self.url}/actions", json=action, headers=headers, timeout=TIMEOUT)

    def ok(self, token: str | None, action: dict[str, Any]) -> dict[str, Any]:
        """Post an action that must succeed; return the answer."""
        response = self.act(token, action)
        assert response.status_code == 200, (action, response.text)
        answer: dict[str, Any] = response.json()
        return answer

    def state(self, token: str | None = None) -> dict[str, Any]:
        """Return the state view for `token` (public without one)."""
        response = self.http.get(self.url, headers=bearer(token), timeout=TIMEOUT)
        assert response.status_code == 200, response.text
        state: dict[str, Any] = response.json()
        return state

    def events(self, since: int = -1) -> list[dict[str, Any]]:
        """Return the public event stream after version `since` (all of it by default)."""
        response = self.http.get(f"{self.url}/events", params={"since": since}, timeout=TIMEOUT)
        assert response.status_code == 200, response.text
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    def token_of_active(self) -> tuple[str, str]:
        """Return the active player's id and token."""
        pid = self.state()["turn"]["player"]
        return pid, self.players[pid]

    def socket(self, token: str | None = None, base: str | None = None, **options: Any) -> Socket:
        """Open a WebSocket to the game (on another server with `base`)."""
        ws_base = (base or self.base).replace("http://", "ws://")
        query = f"?token={token}" if token else ""
        return Socket(websocket.create_connection(f"{ws_base}/ws/games/{self.code}{query}",
                                                  timeout=TIMEOUT, **options))


@contextmanager
def unchanged(game: Game) -> Iterator[None]:
    """Check that the game's version and every view stay exactly as they were."""
    tokens = [None, game.host, *game.players.values()]
    before = [game.state(token) for token in tokens]
    yield
    assert [game.state(token) for token in tokens] == before


def refused(game: Game, pid: str, action: dict[str, Any], rule: str, language: str = "en") -> str:
    """Post an action that a rule refuses; check the 422, its rule and that nothing changed."""
    with unchanged(game):
        response = game.act(game.players[pid], action, language=language)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "rule_violation" and body["rule"] == rule
    message: str = body["message"]
    return message


class Socket:
    """A test's end of a WebSocket: JSON messages, pings skipped unless asked for."""

    def __init__(self, ws: websocket.WebSocket) -> None:
        self.ws = ws

    def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message."""
        self.ws.send(json.dumps(message))

    def receive(self, skip: tuple[str, ...] = ASIDE) -> dict[str, Any]:
        """Return the next message whose type is not in `skip` (waiting up to the socket's timeout)."""
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv())
            if message["type"] not in skip:
                return message

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        """Return the next message of type `kind` (with the given fields), skipping others."""
        while True:
            message = self.receive(skip=())
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    def close_code(self) -> int:
        """Read what is left until the server's close frame; return its close code."""
        while True:
            opcode, frame = self.ws.recv_data_frame(True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return int.from_bytes(frame.data[:2], "big")

    def close(self) -> None:
        """Close the socket."""
        self.ws.close()
