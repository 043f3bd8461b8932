"""The fan-out without a server: JSON once per viewer kind, and a slow socket closed alone."""

from __future__ import annotations

import json
import threading
import time
import tracemalloc
from typing import Any

from shipmate.rules import PUBLIC, Event, State, Viewer
from shipmate.web.connection import Connection
from shipmate.web.outbox import Close, Outbox
from shipmate.web.service import Caller
from shipmate.web.update import Update

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
    assert outbox.take() == "a" and outbox.waiting
    outbox.finish(Close(1008, "slow"))
    outbox.finish(Close(1000, "bye"))  # the first reason stays
    assert outbox.put("d") and outbox.waiting
    assert outbox.take() == Close(1008, "slow")
    assert not outbox.waiting and outbox.take() is None  # the close is taken once


class FakeSocket:
    """A WebSocket (web/transport.py) stand-in whose sends can be held up, like a peer that stops reading:
    then `offer` takes nothing and `send` waits."""

    pending = False
    broken = False

    def __init__(self, blocked: bool) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.released = threading.Event()
        self.done = threading.Event()
        self.offered = 0
        if not blocked:
            self.released.set()

    def offer(self, text: str) -> bool:
        if self.broken:
            raise RuntimeError("a fault in this socket's message")
        if not self.released.is_set():
            return False
        self.offered += 1
        self.sent.append(text)
        return True

    def flush(self) -> None:
        """Nothing is left half written."""

    def send(self, text: str) -> None:
        self.released.wait()
        self.sent.append(text)

    def close(self, reason: int, message: str) -> None:
        self.closed_with = reason
        self.done.set()

    def shutdown(self) -> None:
        self.released.set()  # like a cut TCP socket: the blocked send returns


class FakeRooms:
    """Rooms that only know versions."""

    def latest(self, code: str) -> int:
        return -1


def connection(ws: FakeSocket, queue_size: int) -> Connection:
    """A socket's connection once its snapshot went out, as `serve` begins it."""
    settings = {**SETTINGS, "WS_QUEUE_SIZE": queue_size}
    conn = Connection(ws, "K7QX2M", Caller(PUBLIC, None, {}), None, "en", FakeRooms(), None,  # type: ignore[arg-type]
                      settings)
    conn.begin()
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
    while len(fast_ws.sent) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [json.loads(text)["version"] for text in fast_ws.sent] == list(range(20))
    assert fast_ws.offered == 20  # each written at once by the thread that handed it over
    assert fast_ws.closed_with is None


def test_a_fault_in_one_sockets_message_closes_that_socket_and_hands_the_change_on(caplog: Any) -> None:
    broken_ws, fine_ws = FakeSocket(blocked=False), FakeSocket(blocked=False)
    broken_ws.broken = True
    broken, fine = connection(broken_ws, 10), connection(fine_ws, 10)
    update = Update(message(0), Plain())
    for conn in (broken, fine):
        conn.deliver(update)  # as the room's fan-out does, one socket after the other: never raises
    assert broken_ws.done.wait(10) and broken_ws.closed_with == 1011
    assert [json.loads(text)["version"] for text in fine_ws.sent] == [0]
    assert "closing it" in caplog.text


def test_a_retired_seat_is_told_before_the_socket_closes_with_4401() -> None:
    ws = FakeSocket(blocked=False)
    conn = connection(ws, 10)
    conn.deliver(Update(message(0), Plain()))
    conn.retire("p2")
    assert ws.done.wait(10) and ws.closed_with == 4401
    assert json.loads(ws.sent[-1]) == {"type": "seat_moved", "player": "p2"}


def test_settings_from_the_environment_take_the_type_of_their_default() -> None:
    from shipmate.web.config import from_environment

    settings = from_environment({"WS_QUEUE_SIZE": "8", "WS_CLOSE_GRACE": "0.5", "HUB_IDLE_CHECK": "2"})
    assert settings == {"WS_QUEUE_SIZE": 8, "WS_CLOSE_GRACE": 0.5, "HUB_IDLE_CHECK": 2.0}


def test_a_ping_message_goes_only_to_a_socket_not_just_told_the_newest_version() -> None:
    ws = FakeSocket(blocked=False)
    conn = connection(ws, 10)
    conn.version = 2  # its snapshot's
    conn.deliver(Update(message(3), Plain()))
    deadline = time.monotonic() + 10
    while conn.version < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    conn.ping(3)  # it was just sent version 3: nothing to tell
    conn.ping(4)  # a newer version it has not seen: told
    conn.told_at -= SETTINGS["WS_PING_INTERVAL"]
    conn.ping(3)  # told too long ago: the keep-alive is due
    while len(ws.sent) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [json.loads(text)["type"] for text in ws.sent] == ["update", "ping", "ping"]
