"""The fan-out without a server: JSON once per viewer kind, an outbox, and a socket's writer on
simple-websocket's server over a socket pair."""

from __future__ import annotations

import json
import socket
import threading
import time
import tracemalloc
from typing import Any

from simple_websocket import Server
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Request, TextMessage

from shipmate.room import Update
from shipmate.rules import DICE, HOST, PUBLIC, Event, State, Viewer
from shipmate.web.connection import Connection
from shipmate.web.outbox import Close, Outbox
from shipmate.web.service import Caller
from tests.fixtures_server import wait_for

SETTINGS = {"WS_KEEPALIVE": 3600.0, "WS_CLOSE_GRACE": 0.05, "WS_PING_INTERVAL": 20.0}


def message(version: int) -> dict[str, Any]:
    """A published change of one version."""
    return {"version": version, "events": [{"type": "Happened", "version": version}],
            "state": {"version": version}}


class Same:
    """Every viewer's view of a state is the state itself (and each one made is noted)."""

    def __init__(self, state: State, made: list[Viewer]) -> None:
        self.state = state
        self.made = made

    def of(self, viewer: Viewer) -> State:
        self.made.append(viewer)
        return self.state

    def shared(self) -> None:
        """No part shared apart: each patch compares two views whole."""

    def parts(self, viewer: Viewer) -> None:
        """No part shared apart."""


class Plain:
    """A Show that shows states and events as they are."""

    def __init__(self) -> None:
        self.made: list[Viewer] = []

    def views(self, state: State, before: Any) -> Same:
        return Same(state, self.made)

    def events(self, state: State, events: list[Event], viewer: Viewer) -> list[Event]:
        return events


def test_each_viewer_kind_is_rendered_once_per_change() -> None:
    show = Plain()
    rendered = show.made
    update = Update(message(4), show)
    viewers = [PUBLIC, PUBLIC, PUBLIC, Viewer(host=True), Viewer(player="p1"), Viewer(player="p1"),
               Viewer(player="p2")]
    payloads = [update.message_for(viewer, 3) for viewer in viewers]
    assert len(rendered) == 4 and set(rendered) == set(viewers)
    assert payloads[0] is payloads[1] is payloads[2]


def test_the_host_the_dice_device_and_the_public_view_hash_apart() -> None:
    # Viewers key each change's views and JSON: the three views without a player must not collide.
    assert len({hash(viewer) for viewer in (PUBLIC, HOST, DICE)}) == 3
    assert hash(Viewer(player="p1")) == hash(Viewer(player="p1"))


def test_the_json_an_update_keeps_takes_its_own_length_in_memory() -> None:
    # orjson hands back its working buffer (4 kB or more) however short the JSON: a table's update
    # keeps five such parts, and a thousand tables kept 20 MB of nothing.
    updates = [Update(message(version), Plain()) for version in range(1000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for update in updates:
            update.message_for(PUBLIC, update.version - 1)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 1000 * 1024, f"{kept / 1000:.0f} B per update"


def test_an_outbox_is_bounded_and_its_close_comes_first() -> None:
    outbox = Outbox(2)
    assert outbox.put("a") and outbox.put("b") and not outbox.put("c")
    assert outbox.take() == "a"
    outbox.finish(Close(1008, "slow"))
    outbox.finish(Close(1000, "bye"))  # the first reason stays
    assert outbox.put("d") and outbox.finished
    assert outbox.take() == Close(1008, "slow")
    assert outbox.take(timeout=0) is None  # the close is taken once


def test_a_writer_waiting_on_an_empty_outbox_wakes_for_the_next_item() -> None:
    outbox = Outbox(2)
    assert outbox.take(timeout=0) is None
    taken: list[Any] = []
    waiter = threading.Thread(target=lambda: taken.append(outbox.take(timeout=60)))
    waiter.start()
    assert outbox.put("a")
    waiter.join(60)
    assert taken == ["a"]


class Hidden(Plain):
    """Shows every viewer the state, except one whose view cannot be made (a fault in one message)."""

    def __init__(self, hidden: Viewer) -> None:
        super().__init__()
        self.hidden = hidden

    def views(self, state: State, before: Any) -> Same:
        hidden = self.hidden

        class Faulty(Same):
            def of(self, viewer: Viewer) -> State:
                if viewer == hidden:
                    raise RuntimeError("a fault in this socket's message")
                return super().of(viewer)

        return Faulty(state, self.made)


class Table:
    """The rooms a writer asks: only the newest version."""

    def version(self, code: str) -> int:
        return -1


def opened(viewer: Viewer, queue_size: int = 10) -> tuple[Connection, socket.socket, WSConnection]:
    """A Connection on simple-websocket's real server over a socket pair, its writer started as once
    its snapshot went out, and the wsproto client on the other end."""
    server_sock, client_sock = socket.socketpair()
    client = WSConnection(ConnectionType.CLIENT)
    request = client.send(Request(host="table.local", target="/ws/games/K7QX2M"))
    lines = request.decode("latin-1").split("\r\n")[1:]
    environ = {"HTTP_" + name.upper().replace("-", "_"): value.strip()
               for name, value in (line.split(":", 1) for line in lines if ":" in line)}
    ws = Server({**environ, "werkzeug.socket": server_sock})
    client_sock.settimeout(30)
    client.receive_data(client_sock.recv(65536))
    assert any(isinstance(event, AcceptConnection) for event in client.events())
    conn = Connection(ws, "K7QX2M", Caller(viewer, None, {}), None, "en", Table(), None,  # type: ignore[arg-type]
                      {**SETTINGS, "WS_QUEUE_SIZE": queue_size})
    conn.version = 0
    conn.writer.start()
    return conn, client_sock, client


def received(client_sock: socket.socket, client: WSConnection) -> tuple[list[str], int | None]:
    """Read until the server closes, then close the client: (its messages, its close code)."""
    messages: list[str] = []
    with client_sock:
        while True:
            data = client_sock.recv(65536)
            client.receive_data(data or None)
            for event in client.events():
                if isinstance(event, TextMessage):
                    messages.append(event.data)
                elif isinstance(event, CloseConnection):
                    return messages, event.code
            if not data:
                return messages, None


def test_a_fault_in_one_sockets_message_closes_that_socket_with_1011_and_hands_the_change_on(
        caplog: Any) -> None:
    broken_viewer = Viewer(player="p2")
    show = Hidden(broken_viewer)
    broken, broken_sock, broken_client = opened(broken_viewer)
    fine, fine_sock, fine_client = opened(PUBLIC)
    update = Update(message(1), show)
    for conn in (broken, fine):
        conn.deliver(update)  # as the room's fan-out does, one socket after the other: never raises
    wait_for(lambda: fine.version == 1, "the update to go out")
    fine.retire("p1")
    assert received(broken_sock, broken_client)[1] == 1011
    messages, code = received(fine_sock, fine_client)
    assert [json.loads(text).get("version") for text in messages] == [1, None] and code == 4401
    assert json.loads(messages[-1]) == {"type": "seat_moved", "player": "p1"}  # told before the close
    assert "closing it" in caplog.text


def test_settings_from_the_environment_take_the_type_of_their_default() -> None:
    from shipmate.web.config import from_environment

    settings = from_environment({"WS_QUEUE_SIZE": "8", "WS_CLOSE_GRACE": "0.5",
                                 "SUBSCRIPTION_IDLE_CHECK": "2"})
    assert settings == {"WS_QUEUE_SIZE": 8, "WS_CLOSE_GRACE": 0.5, "SUBSCRIPTION_IDLE_CHECK": 2.0}


def test_a_ping_message_goes_only_to_a_socket_not_just_told_the_newest_version() -> None:
    conn, client_sock, client = opened(PUBLIC)
    conn.deliver(Update(message(1), Plain()))
    wait_for(lambda: conn.version == 1, "the update to go out")
    conn.ping(1)  # it was just sent version 1: nothing to tell
    updated_at = conn.told_at
    conn.ping(2)  # a newer version it has not seen: told
    wait_for(lambda: conn.told_at != updated_at, "the first ping")
    conn.told_at -= SETTINGS["WS_PING_INTERVAL"]
    conn.ping(1)  # told too long ago: the keep-alive is due
    wait_for(lambda: time.monotonic() - conn.told_at < SETTINGS["WS_PING_INTERVAL"], "the second ping")
    conn.retire("p1")
    messages, _ = received(client_sock, client)
    assert [json.loads(text)["type"] for text in messages] == ["update", "ping", "ping", "seat_moved"]
