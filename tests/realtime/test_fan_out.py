"""The hub's fan-out without a server: JSON once per viewer kind, and a slow socket closed alone."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from shipmate.rules import PUBLIC, Event, State, Viewer
from shipmate.web.frames import Wire
from shipmate.web.hub import Close, Outbox, Update
from shipmate.web.service import Caller
from shipmate.web.ws import Connection
from tests.realtime.test_socket import frames

SETTINGS = {"WS_PING_INTERVAL": 3600.0, "WS_CLOSE_GRACE": 0.05}


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
    payloads = [update.payload_for(viewer, 3) for viewer in viewers]
    assert len(rendered) == 4 and set(rendered) == set(viewers)
    assert payloads[0] is payloads[1] is payloads[2]


def test_an_outbox_is_bounded_and_its_close_comes_first() -> None:
    outbox = Outbox(2)
    assert outbox.put("a") and outbox.put("b") and not outbox.put("c")
    assert outbox.get(timeout=0) == "a"
    outbox.finish(Close(1008, "slow"))
    outbox.finish(Close(1000, "bye"))  # the first reason stays
    assert outbox.get(timeout=0) == Close(1008, "slow")
    assert outbox.put("d") and outbox.get(timeout=0) == Close(1008, "slow")


class FakeSocket:
    """A simple-websocket stand-in (and its `sock`) whose sends can be held up, like a peer that stops
    reading."""

    def __init__(self, blocked: bool) -> None:
        self.wire = b""
        self.closed_with: int | None = None
        self.connected = True
        self.close_reason = self.close_message = None
        self.released = threading.Event()
        self.done = threading.Event()
        self.sock = self
        if not blocked:
            self.released.set()

    def send(self, frame: bytes) -> int:
        self.released.wait()
        self.wire += frame
        return len(frame)

    def close(self, reason: int, message: str) -> None:
        self.closed_with = reason
        self.connected = False
        self.done.set()

    def shutdown(self, how: int) -> None:
        self.released.set()  # like a cut TCP socket: the blocked send returns


class FakeHub:
    """A hub that only knows versions."""

    def latest(self, code: str) -> int:
        return -1


def connection(ws: Any, queue_size: int) -> Connection:
    """A socket's connection with its writer running, as `serve` starts it."""
    settings = {**SETTINGS, "WS_QUEUE_SIZE": queue_size}
    conn = Connection(Wire(ws), "K7QX2M", Caller(PUBLIC, None, {}), None, "en", FakeHub(), None,  # type: ignore[arg-type]
                      settings)
    threading.Thread(target=conn._write, daemon=True).start()
    return conn


def test_a_socket_that_does_not_read_is_closed_with_1008_while_the_others_get_everything() -> None:
    slow_ws, fast_ws = FakeSocket(blocked=True), FakeSocket(blocked=False)
    slow, fast = connection(slow_ws, 3), connection(fast_ws, 50)
    for version in range(20):
        update = Update(message(version), Plain())
        slow.deliver(update)
        fast.deliver(update)
    assert slow.outbox.finished
    assert slow_ws.done.wait(10) and slow_ws.closed_with == 1008  # cut loose after the grace period
    deadline = time.monotonic() + 10
    while len(frames(fast_ws.wire)[0]) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [json.loads(payload)["version"] for payload in frames(fast_ws.wire)[0]] == list(range(20))
    assert fast_ws.closed_with is None


def test_a_shared_frame_is_the_frame_wsproto_would_send() -> None:
    from wsproto.connection import Connection as Protocol
    from wsproto.connection import ConnectionType
    from wsproto.events import TextMessage

    from shipmate.web.frames import text_frame

    server = Protocol(ConnectionType.SERVER)
    for size in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        text = ("é" * size)[:size] if size % 2 else "x" * size
        assert text_frame(text.encode()) == server.send(TextMessage(data=text))


def test_frames_are_made_once_per_viewer_and_carry_the_text() -> None:
    update = Update(message(7), Plain())
    frame = update.frame_for(PUBLIC, 6)
    assert update.frame_for(PUBLIC, 6) is frame
    assert frame.endswith(update.payload_for(PUBLIC, 6)) and frame[0] == 0x81


class ShortSocket:
    """A gevent-like socket whose buffer takes `room` bytes of a send that must not wait."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.wire = b""
        self.connected = True
        self.close_reason = self.close_message = None
        self.sock = self

    def send(self, data: bytes, flags: int = 0, timeout: float | None = None) -> int:
        taken = data[:self.room] if timeout == 0.0 else data  # a send that may wait takes it all
        self.wire += taken
        return len(taken)

    def sendall(self, data: bytes) -> None:  # the writer's: waits until all is taken
        self.wire += data

    def close(self, reason: int, message: str) -> None:
        self.connected = False


def test_a_frame_the_buffer_takes_in_part_is_finished_by_the_writer_before_anything_later() -> None:
    ws = ShortSocket(room=10)
    conn = connection(ws, 50)
    conn.wire.direct = True  # as under gevent
    deadline = time.monotonic() + 10
    while not conn.outbox.idle and time.monotonic() < deadline:  # the writer has started
        time.sleep(0.01)
    updates = [Update(message(version), Plain()) for version in range(5)]
    for update in updates:
        conn.deliver(update)
    expected = b"".join(update.frame_for(PUBLIC, version - 1) for version, update in enumerate(updates))
    while ws.wire != expected and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ws.wire == expected  # the first 10 bytes at once, every other byte by the writer, in order


def test_settings_from_the_environment_take_the_type_of_their_default() -> None:
    from shipmate.web.config import from_environment

    settings = from_environment({"WS_QUEUE_SIZE": "8", "WS_CLOSE_GRACE": "0.5", "HUB_IDLE_CHECK": "2"})
    assert settings == {"WS_QUEUE_SIZE": 8, "WS_CLOSE_GRACE": 0.5, "HUB_IDLE_CHECK": 2.0}
