"""The WebSocket on a real server: snapshot, updates per viewer, resume, actions, keep-alive, origin."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import uuid
from typing import Any

import pytest
import websocket
from wsproto import WSConnection
from wsproto.connection import ConnectionType
from wsproto.events import AcceptConnection, CloseConnection, Message, Ping, Pong, Request, TextMessage
from wsproto.extensions import PerMessageDeflate

from tests.api.client import Game
from tests.fixtures_server import TEST_LIMITS, StartServer


@pytest.fixture
def game(live_server: str) -> Game:
    """A game in play: p1 to roll."""
    game = Game.create(live_server)
    game.seat(2)
    return game


def versions(update: dict[str, Any]) -> list[int]:
    """Return the versions of an update's events."""
    return [int(e["version"]) for e in update["events"]]


def test_a_socket_gets_a_snapshot_then_each_change_filtered_for_its_viewer(game: Game) -> None:
    public, own, other = game.socket(), game.socket(game.players["p1"]), game.socket(game.players["p2"])
    version = game.state()["version"]
    for sock, you in ((public, None), (own, "p1"), (other, "p2")):
        snapshot = sock.receive()
        assert snapshot["type"] == "snapshot" and snapshot["version"] == version
        assert snapshot["state"]["you"] == you
    game.ok(game.players["p1"], {"type": "roll"})
    game.ok(game.host, {"type": "adjust", "player": "p1", "resources": dict.fromkeys(
        ["wood", "food", "iron", "cotton"], 1), "reason": "test"})
    game.ok(game.players["p1"], {"type": "buy_quest", "level": "bronze"})
    for sock, you in ((public, None), (own, "p1"), (other, "p2")):
        updates = [sock.receive() for _ in range(3)]
        assert [u["type"] for u in updates] == ["update"] * 3
        assert [u["version"] for u in updates] == [version + 1, version + 2, version + 3]
        assert [versions(u) for u in updates] == [[version + 1], [version + 2], [version + 3]]
        bought = updates[-1]["events"][0]
        assert bought["type"] == "QuestBought"
        assert ("card" in bought["quest"]) is (you == "p1")  # the drawn card is the buyer's secret
        mine = next(p for p in updates[-1]["state"]["players"] if p["id"] == "p1")
        assert (mine["quests"] is not None) is (you == "p1")
    for sock in (public, own, other):
        sock.close()


def test_resume_after_a_drop_delivers_exactly_the_missed_events_in_order(game: Game) -> None:
    first = game.socket(game.players["p2"])
    seen = first.receive()["version"]
    game.ok(game.players["p1"], {"type": "roll"})
    seen = first.receive()["version"]
    first.close()  # the phone loses its connection ...
    game.ok(game.players["p1"], {"type": "end_turn"})
    game.ok(game.players["p2"], {"type": "roll"})
    again = game.socket(game.players["p2"])  # ... and comes back
    assert again.receive()["type"] == "snapshot"
    again.send({"type": "resume", "since": seen})
    update = again.receive()
    assert update["type"] == "update" and update["version"] == seen + 2
    assert versions(update) == [seen + 1, seen + 2]
    assert [e["type"] for e in update["events"]] == ["TurnEnded", "DiceRolled"]
    game.ok(game.players["p2"], {"type": "end_turn"})
    following = again.receive()
    assert following["type"] == "update" and versions(following) == [seen + 3]  # no duplicate
    again.send({"type": "resume", "since": seen + 100})
    ahead = again.receive()
    assert ahead["type"] == "snapshot" and ahead["version"] == seen + 3
    again.close()


def test_a_success_over_the_socket_answers_with_the_body_of_its_update(game: Game) -> None:
    sock = game.socket(game.players["p1"])
    sock.receive()
    sock.send({"type": "action", "id": 3, "action": {"type": "roll"}})  # no Idempotency-Key
    update, result = sock.until("update"), sock.until("result", id=3)
    assert result["status"] == 200
    assert {k: v for k, v in result.items() if k not in ("type", "id", "status")} == \
        {k: v for k, v in update.items() if k != "type"}
    events = game.http.get(f"{game.url}/events?since={update['version'] - 1}",
                           headers={"Authorization": f"Bearer {game.players['p1']}"}, timeout=10).json()
    assert result["events"] == events["events"] and result["state"] == game.state(game.players["p1"])
    sock.close()


def test_actions_over_the_socket_answer_like_http(game: Game) -> None:
    sock = game.socket(game.players["p1"])
    sock.receive()
    key = str(uuid.uuid4())
    sock.send({"type": "action", "id": 7, "action": {"type": "roll"}, "idempotency_key": key})
    result = sock.until("result")
    assert result["id"] == 7 and result["status"] == 200
    assert result["version"] == result["state"]["version"] and result["events"][0]["type"] == "DiceRolled"
    sock.send({"type": "action", "id": 8, "action": {"type": "roll"}, "idempotency_key": key})
    replay = sock.until("result", id=8)
    assert {k: v for k, v in replay.items() if k != "id"} == {k: v for k, v in result.items() if k != "id"}
    # the same key over HTTP gets the same answer: one code path
    http = game.act(game.players["p1"], {"type": "roll"}, key=key)
    assert http.json() == {k: v for k, v in result.items() if k not in ("type", "id", "status")}
    sock.send({"type": "action", "id": 9, "action": {"type": "roll"}})
    refused = sock.until("result", id=9)
    assert (refused["status"], refused["error"], refused["rule"]) == (422, "rule_violation", "T1")
    sock.send({"type": "action", "id": 10, "action": {"type": "fly"}})
    assert sock.until("result", id=10)["status"] == 400
    sock.send({"type": "action", "id": 11, "action": {"type": "adjust", "player": "p1", "resources": {},
                                                      "reason": "x"}})
    assert sock.until("result", id=11)["status"] == 403
    sock.send({"type": "action", "id": 12, "action": {"type": "end_turn", "expected_version": 0}})
    assert sock.until("result", id=12)["status"] == 409
    assert game.state()["version"] == result["version"]
    sock.close()


def test_an_action_frame_may_name_the_language_of_its_refusal(game: Game) -> None:
    sock = game.socket(game.players["p2"])  # the handshake asks for no language: English
    sock.receive()
    sock.send({"type": "action", "id": 1, "action": {"type": "roll"}, "language": "nl"})
    dutch = sock.until("result", id=1)
    http = game.act(game.players["p2"], {"type": "roll"}, language="nl")
    assert (dutch["status"], dutch["rule"], dutch["message"]) == (422, "T5", http.json()["message"])
    sock.send({"type": "action", "id": 2, "action": {"type": "roll"}, "language": "xx"})
    english = sock.until("result", id=2)
    assert english["message"] == game.act(game.players["p2"], {"type": "roll"}).json()["message"]
    assert english["message"] != dutch["message"]
    sock.close()


def test_a_public_socket_cannot_act_and_bad_messages_get_errors(game: Game) -> None:
    sock = game.socket()
    version = sock.receive()["version"]
    sock.send({"type": "action", "id": "a", "action": {"type": "roll"}})
    assert sock.until("result")["status"] == 401
    sock.ws.send("{nope")
    error = sock.until("error")
    assert error["status"] == 400 and "_body" in error["fields"]
    sock.send({"type": "dance"})
    assert sock.until("error")["fields"]["type"]
    sock.send({"type": "resume", "since": "yesterday"})
    assert sock.until("error")["fields"]["since"]
    sock.send({"type": "ping"})
    assert sock.until("pong")["version"] == version
    assert game.state()["version"] == version
    sock.close()


def test_the_handshake_refuses_unknown_games_tokens_and_foreign_origins(game: Game, live_server: str) -> None:
    ws_base = live_server.replace("http://", "ws://")
    cases = [
        (f"{ws_base}/ws/games/ZZZZZZ", {}, 404),
        (f"{ws_base}/ws/games/{game.code}?token=forged", {}, 401),
        (f"{ws_base}/ws/games/{game.code}", {"origin": "http://evil.example"}, 403),
    ]
    for url, options, status in cases:
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            websocket.create_connection(url, timeout=10, **options)
        assert refused.value.status_code == status
    same_site = game.socket(origin=live_server)
    assert same_site.receive()["type"] == "snapshot"
    same_site.close()


def test_pings_carry_the_latest_version(start_server: StartServer) -> None:
    base = start_server(WS_PING_INTERVAL="0.2", **TEST_LIMITS)
    game = Game.create(base)
    game.seat(2)
    sock = game.socket()
    version = sock.receive()["version"]
    assert sock.until("ping")["version"] == version
    game.ok(game.players["p1"], {"type": "roll"})
    assert sock.until("ping", version=version + 1)
    sock.close()


def test_a_socket_that_does_not_read_holds_up_nobody(game: Game) -> None:
    idle = game.socket(game.players["p2"])  # never reads again
    reader = game.socket(game.players["p1"])
    start = reader.receive()["version"]
    game.ok(game.players["p1"], {"type": "roll"})
    for _ in range(20):
        game.ok(game.host, {"type": "adjust", "player": "p2", "resources": {"wood": 1}, "reason": "flood"})
    got = [reader.receive()["version"] for _ in range(21)]
    assert got == list(range(start + 1, start + 22))
    idle.close()
    reader.close()


def test_two_servers_on_one_redis_share_changes(game: Game, start_server: StartServer) -> None:
    other = start_server(worker="gthread", **TEST_LIMITS)  # real threads beside gevent
    sock = game.socket(game.players["p2"], base=other)
    version = sock.receive()["version"]
    game.ok(game.players["p1"], {"type": "roll"})  # sent to the first server
    update = sock.until("update")
    assert update["version"] == version + 1 and update["events"][0]["type"] == "DiceRolled"
    sock.close()


def raw_socket(base: str, code: str, receive_buffer: int | None = None) -> socket.socket:
    """Open a WebSocket by hand (no extension offered) and return it once the server said 101;
    `receive_buffer` shrinks its kernel buffer (as a phone's that stopped reading fills up soon)."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.settimeout(10)
    raw.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((f"GET /ws/games/{code} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: the frames after the handshake stay in the socket
    assert answer.startswith(b"HTTP/1.1 101")
    return raw


def test_a_frame_that_breaks_the_protocol_closes_the_socket_with_1002(game: Game) -> None:
    raw = raw_socket(game.base, game.code)
    raw.sendall(bytes((0x81, 0x02)) + b"{}")  # a client frame without a mask
    data = b""
    while chunk := raw.recv(65536):  # the snapshot, then the close frame, then the end
        data += chunk
    payloads, rest = frames(data)
    close = next(i for i, p in enumerate(payloads) if p[:2] == (1002).to_bytes(2, "big"))
    assert b"mask" in payloads[close][2:] and rest == b""  # the reason names what was wrong
    raw.close()


ROUNDS = 100
"""Turns played past a socket that stops reading."""


def frames(data: bytes) -> tuple[list[bytes], bytes]:
    """Split a server's unmasked WebSocket frames off `data`: (payloads, what is left)."""
    payloads = []
    while len(data) >= 2:
        size, start = data[1] & 0x7F, 2
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, start = int.from_bytes(data[2:10], "big"), 10
        if len(data) < start + size:
            break
        payloads.append(data[start:start + size])
        data = data[start + size:]
    return payloads, data


def test_a_socket_that_stops_reading_holds_up_nobody_and_gets_every_frame_whole_later(
    start_server: StartServer,
) -> None:
    # A phone that stops reading must hold up no one, and get every frame whole and in order.
    base = start_server(**TEST_LIMITS)
    game = Game.create(base)
    game.seat(2)
    stuck = raw_socket(base, game.code)
    reader = game.socket()
    start = reader.receive()["version"]
    seen = []
    for _ in range(ROUNDS):
        _, token = game.token_of_active()
        game.ok(token, {"type": "roll"})
        game.ok(token, {"type": "end_turn"})
        seen += [reader.receive()["version"], reader.receive()["version"]]
    assert seen == list(range(start + 1, start + 2 * ROUNDS + 1))  # the table played on
    reader.close()
    data = b""
    versions_seen: list[int] = []
    while not versions_seen or versions_seen[-1] < start + 2 * ROUNDS:
        data += stuck.recv(65536)
        payloads, data = frames(data)
        messages = [json.loads(p) for p in payloads if p[:1] == b"{"]
        versions_seen += [m["version"] for m in messages if m["type"] in ("snapshot", "update")]
    assert versions_seen == list(range(start, start + 2 * ROUNDS + 1))
    stuck.close()



def whole_messages(data: bytes) -> tuple[list[dict[str, Any]], int | None, bool]:
    """Read a server's frames as a browser would: (the whole messages before the first frame that is
    not a message whole, the close code if a close frame came, whether the stream was torn)."""
    payloads, rest = frames(data)
    messages: list[dict[str, Any]] = []
    for payload in payloads:
        if payload[:1] != b"{":  # a close frame: its code, then its reason
            return messages, int.from_bytes(payload[:2], "big"), False
        try:
            messages.append(json.loads(payload))
        except ValueError:  # a frame written in part, the next frame's bytes read as its end
            return messages, None, True
    return messages, None, rest != b""


def client_frame(payload: bytes) -> bytes:
    """Return a client's masked text frame of a short payload (under 126 bytes)."""
    mask = os.urandom(4)
    return bytes((0x81, 0x80 | len(payload))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


RESUMES = 200
"""Resumes from the start a phone asks for and does not read: more than the kernel's buffers hold."""


def test_a_phone_that_stops_reading_is_cut_and_resumes_with_nothing_lost(start_server: StartServer) -> None:
    # A short grace: the server gives up on a send that waits within seconds.
    base = start_server(WS_CLOSE_GRACE="1", **TEST_LIMITS)
    game = Game.create(base)
    game.seat(2)
    for _ in range(ROUNDS):  # a long game: each answer to a resume from the start is large
        _, token = game.token_of_active()
        game.ok(token, {"type": "roll"})
        game.ok(token, {"type": "end_turn"})
    phone = raw_socket(base, game.code, receive_buffer=4096)
    # It asks for the whole game again and again, and stops reading: the answers fill the kernel's
    # buffers, its writer waits, its outbox fills.
    phone.sendall(client_frame(b'{"type":"resume","since":0}') * RESUMES)
    reader = game.socket()
    start = reader.receive()["version"]
    for _ in range(3):
        _, token = game.token_of_active()
        game.ok(token, {"type": "roll"})
        game.ok(token, {"type": "end_turn"})
    last = start + 6
    assert [reader.receive()["version"] for _ in range(6)] == list(range(start + 1, last + 1))
    reader.close()  # the table played on, held up by nobody

    data = b""
    phone.settimeout(60)
    while chunk := phone.recv(65536):  # what the phone had, until the server ended the connection
        data += chunk
    phone.close()
    messages, code, torn = whole_messages(data)
    told = [m for m in messages if m["type"] != "presence"]
    assert told[0]["type"] == "snapshot" and 1 < len(told) < RESUMES + 1, (code, torn, len(data))
    assert all(m["type"] == "update" and len(m["events"]) == m["version"] for m in told[1:])
    # More than its buffers held, then a frame written in part (simple-websocket 1.1.0's `send`
    # writes what the socket takes once: upstream #45) and the end of the stream: a browser fails the
    # socket on the torn frame and reconnects, as it does when the server ends the stream.
    assert code is None and torn and len(data) > 1 << 20
    have = max(m["version"] for m in told)
    assert have < last

    again = game.socket()  # the phone comes back with the version it has
    assert again.receive()["type"] == "snapshot"
    again.send({"type": "resume", "since": have})
    update = again.until("update")
    assert versions(update) == list(range(have + 1, last + 1)) and update["version"] == last
    again.close()

class Client:
    """A test's WebSocket client on wsproto (its frames made and read by the library)."""

    def __init__(self, base: str, code: str, token: str | None, **request: Any) -> None:
        self.raw = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=10)
        self.ws = WSConnection(ConnectionType.CLIENT)
        query = f"?token={token}" if token else ""
        self.raw.sendall(self.ws.send(Request(host="x", target=f"/ws/games/{code}{query}", **request)))
        self.events: list[Any] = []
        self.messages: list[dict[str, Any]] = []
        self.parts: list[str] = []

    def send(self, event: Any) -> None:
        self.raw.sendall(self.ws.send(event))

    def _read(self) -> None:
        data = self.raw.recv(65536)
        if not data:
            raise ConnectionError("closed")
        self.ws.receive_data(data)
        for event in self.ws.events():
            if isinstance(event, TextMessage):  # a message may come in parts, as the bytes arrive
                self.parts.append(event.data)
                if event.message_finished:
                    self.messages.append(json.loads("".join(self.parts)))
                    self.parts.clear()
            else:
                self.events.append(event)

    def until(self, kind: str) -> dict[str, Any]:
        """Return the next message of type `kind`, reading as needed."""
        while not any(m["type"] == kind for m in self.messages):
            self._read()
        return self.messages.pop(next(i for i, m in enumerate(self.messages) if m["type"] == kind))

    def closed_with(self) -> int:
        """Read until the server's close frame; return its code."""
        while not any(isinstance(e, CloseConnection) for e in self.events):
            self._read()
        return int(next(e for e in self.events if isinstance(e, CloseConnection)).code)

    def close(self) -> None:
        self.raw.close()


def test_a_browsers_compression_offer_is_declined_and_the_socket_plays_on(game: Game) -> None:
    """Browsers offer permessage-deflate; no extension is negotiated (frames go uncompressed: web/ws.py
    says why)."""
    client = Client(game.base, game.code, game.players["p1"], extensions=[PerMessageDeflate()])
    snapshot = client.until("snapshot")
    accepted = next(e for e in client.events if isinstance(e, AcceptConnection))
    assert accepted.extensions == []
    client.send(TextMessage(data=json.dumps({"type": "action", "id": 1, "action": {"type": "roll"}})))
    update, result = client.until("update"), client.until("result")
    assert update["version"] == result["version"] == snapshot["version"] + 1 and result["status"] == 200
    client.close()


def test_a_message_in_fragments_with_a_ping_between_them_is_answered_whole(game: Game) -> None:
    client = Client(game.base, game.code, game.players["p1"])
    client.until("snapshot")
    action = json.dumps({"type": "action", "id": 5, "action": {"type": "roll"}})
    client.send(Message(data=action[:10], message_finished=False))
    client.send(Ping(b"between"))
    client.send(Message(data=action[10:], message_finished=True))
    assert client.until("result")["status"] == 200
    while not any(isinstance(e, Pong) for e in client.events):
        client._read()
    assert next(e for e in client.events if isinstance(e, Pong)).payload == b"between"
    client.close()


def test_text_that_is_not_utf8_closes_the_socket_with_1007(game: Game) -> None:
    raw = raw_socket(game.base, game.code)
    raw.sendall(client_frame(b"\xff\xfe"))
    data = b""
    while chunk := raw.recv(65536):
        data += chunk
    payloads, _ = frames(data)
    assert any(p[:2] == (1007).to_bytes(2, "big") for p in payloads)
    raw.close()


def test_a_message_over_the_size_limit_closes_the_socket_with_1009(start_server: StartServer) -> None:
    base = start_server(MAX_CONTENT_LENGTH="1024", **TEST_LIMITS)
    game = Game.create(base)
    client = Client(base, game.code, None)
    client.until("snapshot")
    client.send(TextMessage(data=json.dumps({"type": "ping", "pad": "x" * 2000})))
    assert client.closed_with() == 1009
    client.close()


BURST = 40
"""Actions a phone sends while the host's changes reach its socket."""


def test_many_threads_handing_one_socket_messages_at_once_leave_every_frame_whole_and_in_order(
    start_server: StartServer,
) -> None:
    # The phone's answers and pongs (its reader) and the host's changes (the fan-out of other
    # requests) all go to one socket at once; its writer alone sends.
    base = start_server(**TEST_LIMITS)
    game = Game.create(base)
    game.seat(2)
    phone = Client(base, game.code, game.players["p1"])
    start = phone.until("snapshot")["version"]

    def host_adjusts() -> None:
        for _ in range(BURST):
            game.ok(game.host, {"type": "adjust", "player": "p2", "resources": {"wood": 1}, "reason": "x"})

    host = threading.Thread(target=host_adjusts)
    host.start()
    for number in range(BURST):
        phone.send(TextMessage(data=json.dumps({"type": "action", "id": number, "action": {"type": "roll"}})))
        phone.send(TextMessage(data=json.dumps({"type": "ping"})))
    host.join(120)
    last = game.state()["version"]
    while not any(m["type"] == "update" and m["version"] == last for m in phone.messages) or \
            sum(m["type"] == "result" for m in phone.messages) < BURST:
        phone._read()  # wsproto fails on any frame that is not whole
    updates = [m["version"] for m in phone.messages if m["type"] == "update"]
    assert updates == list(range(start + 1, last + 1)) and last == start + BURST + 1
    results = [m for m in phone.messages if m["type"] == "result"]
    assert [m["id"] for m in results] == list(range(BURST))  # answered in the order asked
    assert [m["status"] for m in results].count(200) == 1  # one roll; the others are refused (T5)
    assert sum(m["type"] == "pong" for m in phone.messages) == BURST
    phone.close()
