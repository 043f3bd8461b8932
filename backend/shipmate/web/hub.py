"""Push every change to every socket: one Redis subscriber per process, one outbox per socket.

The hub's thread reads the channels of the games that have sockets here and hands each change,
as one shared `Update`, to each socket's `Outbox`. A socket's own writer thread turns the update
into JSON for its viewer — computed once per viewer kind and change, not once per socket — and
sends it. A socket that does not read fills only its own outbox and is closed with 1008 when the
outbox overflows; it resumes later. When Redis comes back after a restart the hub subscribes again
and catches up on what it missed. One timer thread per process queues every socket's keep-alive
ping, so a writer only ever waits for work, never on a timer of its own.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
import redis

from ..rules import Event, State, Viewer
from ..store import GameStore, Unavailable, keys
from ..store.games import dumpb, loads, new_connection, node_url
from .frames import frame_header

log = logging.getLogger(__name__)

TICK_BATCH = 200
"""Sockets the timer handles before it lets other threads run (a process may hold 18,000)."""

SUBSCRIBE_WAIT = 5.0
"""Seconds a new socket waits for its game's subscription before its snapshot (a safety net)."""


Render = Callable[[State, list[Event], Viewer], dict[str, Any]]
"""Show a state and its events to a viewer: ``{"version", "events", "state"}``."""


class Update:
    """One published change, shared by every socket of its game; JSON made once per viewer."""

    def __init__(self, message: dict[str, Any], render: Render) -> None:
        self.version: int = message["version"]
        self.events: list[Event] = message["events"]
        self.state: State = message["state"]
        self.first = self.events[0]["version"] if self.events else self.version
        self._render = render
        self._parts: dict[tuple[Viewer, int], tuple[bytes, bytes]] = {}
        self._payloads: dict[tuple[Viewer, int], bytes] = {}
        self._frames: dict[tuple[Viewer, int], bytes] = {}

    def _parts_for(self, viewer: Viewer, since: int) -> tuple[bytes, bytes]:
        """Return the events after `since` and the state view for `viewer`, each as UTF-8 JSON.

        Made once per viewer and shared by its sockets. Two threads asking at once may both make
        them; both get the same bytes.
        """
        key = (viewer, since)
        parts = self._parts.get(key)
        if parts is None:
            events = [event for event in self.events if event["version"] > since]
            shown = self._render(self.state, events, viewer)
            parts = self._parts[key] = (dumpb(shown["events"]), dumpb(shown["state"]))
        return parts

    def _pieces(self, viewer: Viewer, since: int) -> tuple[bytes, ...]:
        events, state = self._parts_for(viewer, since)
        return (b'{"type":"update","version":', str(self.version).encode(), b',"events":', events,
                b',"state":', state, b"}")

    def payload_for(self, viewer: Viewer, since: int) -> bytes:
        """Return the update message for `viewer` as UTF-8 JSON, with the events after `since`."""
        key = (viewer, max(since, self.first - 1))
        payload = self._payloads.get(key)
        if payload is None:
            payload = self._payloads[key] = b"".join(self._pieces(*key))
        return payload

    def body_for(self, viewer: Viewer) -> dict[str, Any]:
        """Return this change's ``{"version", "events", "state"}`` for `viewer`, made of the very JSON
        its update carries (orjson fragments): an action's answer over a socket costs no view again.
        """
        events, state = self._parts_for(viewer, self.first - 1)
        return {"version": self.version, "events": orjson.Fragment(events), "state": orjson.Fragment(state)}

    def text_for(self, viewer: Viewer, since: int) -> str:
        """Return `payload_for` as text (for sockets that wsproto frames and compresses)."""
        return self.payload_for(viewer, since).decode()

    def frame_for(self, viewer: Viewer, since: int) -> bytes:
        """Return `payload_for` as a whole WebSocket frame, made once (in one copy) and shared."""
        key = (viewer, max(since, self.first - 1))
        frame = self._frames.get(key)
        if frame is None:
            pieces = self._pieces(*key)
            frame = self._frames[key] = b"".join((frame_header(sum(map(len, pieces))), *pieces))
        return frame


@dataclass(frozen=True, slots=True)
class Resume:
    """A client's request for every event after `since` and the current state."""

    since: int


@dataclass(frozen=True, slots=True)
class Close:
    """The last thing a writer does: close the socket with this code and reason."""

    code: int
    reason: str


class Ping:
    """The hub's tick: time for a socket to send `{"type": "ping", "version"}`."""


PING = Ping()


class Probe:
    """The hub's keep-alive tick: time for a socket to send a protocol ping."""


PROBE = Probe()

Item = Update | Resume | Ping | Probe | str | bytes


class Outbox:
    """A socket's bounded queue of outgoing items; once finished, it yields only its `Close`.

    It is a deque and an event, with no lock or timer of its own: `put` and `get` are the cheapest
    way for one producer thread to wake one writer thread, under gevent as under real threads.
    The event is cleared before the deque is looked at, so a wake-up is never lost.
    """

    def __init__(self, size: int) -> None:
        self._items: deque[Item] = deque()
        self._size = size
        self._final: Close | None = None
        self._wake = threading.Event()
        self.working = True
        """True until the writer first calls `done`, then from `get` handing out an item until `done`."""

    def put(self, item: Item) -> bool:
        """Queue an item; False when the outbox is full (the socket is too slow)."""
        if self._final is None:
            if len(self._items) >= self._size:
                return False
            self._items.append(item)
            self._wake.set()
        return True

    def finish(self, final: Close) -> None:
        """Drop whatever waits and make `final` the next and last item (the first finish wins)."""
        if self._final is None:
            self._final = final
            self._items.clear()
            self._wake.set()

    @property
    def finished(self) -> bool:
        """True once the socket is being closed."""
        return self._final is not None

    @property
    def idle(self) -> bool:
        """True when nothing is queued, the writer is between items and the socket is open."""
        return not self._items and not self.working and self._final is None

    def done(self) -> None:
        """The writer is ready: it has started, or finished the item `get` gave it."""
        self.working = False

    def get(self, timeout: float | None = None) -> Item | Close | None:
        """Return the next item, the final Close, or None when `timeout` passes first."""
        while True:
            if self._final is not None:
                return self._final
            if self._items:
                self.working = True
                return self._items.popleft()
            if not self._wake.wait(timeout):
                return None
            self._wake.clear()


class Socket(Protocol):
    """What the hub needs of a connected socket."""

    code: str

    def deliver(self, update: Update) -> None:
        """Queue a change for the socket without ever blocking."""

    def tick(self) -> None:
        """Queue a ping message for the socket without ever blocking."""

    def probe(self) -> None:
        """Close the socket if its last protocol ping went unanswered, else queue the next one."""


PUBLISHED_PREFIX = b'{"version":'


def _version_of(data: bytes) -> int:
    """Return the version of a published change, read off the start of its JSON (-1 if it has none)."""
    end = data.find(b",", len(PUBLISHED_PREFIX))
    if not data.startswith(PUBLISHED_PREFIX) or end < 0:
        return -1
    return int(data[len(PUBLISHED_PREFIX):end])


def _as_is(reply: Any) -> Any:
    return reply


class Subscription:
    """One pub/sub connection, read directly.

    redis-py's PubSub passes every message through layers of retry, health-check and dispatch code
    that cost more than the message; here a blocking read returns the raw reply
    (``[b"message", channel, data]``). Other threads subscribe on the same connection while the
    hub's thread reads it; a write lock keeps their commands whole.
    """

    def __init__(self, client: redis.Redis) -> None:
        self._connection: Any = new_connection(client)
        self._writing = threading.Lock()

    def connect(self) -> None:
        """Open the connection (redis.ConnectionError when Redis cannot be reached)."""
        self._connection.connect()
        # hiredis hands each message over as a push notification, and redis-py's default handler
        # formats the whole message for a debug log line before returning it: take it as it is
        # (PubSub installs its push_handler_func the same way).
        self._connection._parser.set_pubsub_push_handler(_as_is)

    def subscribe(self, *channels: str) -> None:
        """Ask for the channels' messages; each is confirmed by a ``subscribe`` reply."""
        with self._writing:
            self._connection.send_command("SUBSCRIBE", *channels)

    def unsubscribe(self, channel: str) -> None:
        """Stop the channel's messages."""
        with self._writing:
            self._connection.send_command("UNSUBSCRIBE", channel)

    def ping(self) -> None:
        """Ask Redis for a ``pong`` reply: a silent connection shows whether it is still alive."""
        with self._writing:
            self._connection.send_command("PING")

    def read(self) -> list[Any]:
        """Wait for the next reply and return it; redis.TimeoutError after the client's socket
        timeout of silence (the connection stays usable)."""
        reply: list[Any] = self._connection.read_response(disconnect_on_error=False, push_request=True)
        return reply

    def close(self) -> None:
        """Close the connection."""
        self._connection.disconnect()


class Holding:
    """`Hub.committing` as a context manager (a class: cheaper than a generator, once per action)."""

    def __init__(self, hub: Hub, code: str) -> None:
        self._hub = hub
        self._code = code

    def __enter__(self) -> None:
        self._hub._hold(self._code)

    def __exit__(self, *_: object) -> None:
        self._hub._unhold(self._code)


class Hub:
    """The one Redis subscriber of this process: subscribes while a game has sockets here."""

    def __init__(self, redis_url: str, store: GameStore, render: Render, *, pings: float,
                 keepalive: float, idle_check: float = 30.0) -> None:
        # Whose settings the subscriber connection takes. Errors surface at once (no silent
        # reconnects), so every reconnect is followed by a catch-up. A read that times out is a
        # quiet table, not a loss: the hub then pings Redis (`_run`). For a cluster, its seed node
        # hears every PUBLISH.
        self._client = redis.Redis.from_url(node_url(redis_url), socket_connect_timeout=2,
                                            socket_timeout=idle_check)
        self._store = store
        self._render = render
        self._intervals = {"tick": pings, "probe": keepalive}
        self._lock = threading.Lock()
        self._sockets: dict[str, set[Socket]] = {}
        self._subscribed: dict[str, threading.Event] = {}
        self._latest: dict[str, int] = {}
        self._fanned: dict[str, int] = {}  # per game, the newest version handed to the sockets here
        self._last: dict[str, Update] = {}  # per game, the newest change handed to the sockets here
        self._committing: Counter[str] = Counter()  # games with commits of this process under way
        self._held: dict[str, list[bytes]] = {}  # their publishes, held back meanwhile
        self._subscription: Subscription | None = None  # None while (re)connecting
        self._thread: threading.Thread | None = None
        self.idle_checks = 0
        """How often a silent subscription was checked with a ping (each answered keeps it)."""
        self.reconnects = 0
        """How often the subscription was lost and made again."""

    def attach(self, sock: Socket) -> None:
        """Start sending a game's changes to `sock`; return once the game's channel is subscribed."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():  # first socket, or a forked child
                self._subscription = None
                self._thread = threading.Thread(target=self._run, name="shipmate-hub", daemon=True)
                self._thread.start()
                threading.Thread(target=self._tick, name="shipmate-pings", daemon=True).start()
            sockets = self._sockets.setdefault(sock.code, set())
            if not sockets:
                self._store.follow(sock.code)
                self._subscribed[sock.code] = threading.Event()
                if self._subscription is not None:  # else the hub thread subscribes when it connects
                    with contextlib.suppress(redis.RedisError):  # ... or reconnects
                        self._subscription.subscribe(keys.channel(sock.code))
            sockets.add(sock)
            subscribed = self._subscribed[sock.code]
        subscribed.wait(SUBSCRIBE_WAIT)

    def detach(self, sock: Socket) -> None:
        """Stop sending to `sock`; unsubscribe from its game when it was the last socket here."""
        with self._lock:
            sockets = self._sockets.get(sock.code, set())
            sockets.discard(sock)
            if sockets:
                return
            self._sockets.pop(sock.code, None)
            self._store.unfollow(sock.code)
            self._subscribed.pop(sock.code, None)
            self._latest.pop(sock.code, None)
            self._fanned.pop(sock.code, None)
            self._last.pop(sock.code, None)
            if self._subscription is not None:
                with contextlib.suppress(redis.RedisError):
                    self._subscription.unsubscribe(keys.channel(sock.code))

    def saw(self, code: str, version: int) -> None:
        """Note that `version` of a game exists (a socket's snapshot), for pings and catch-ups."""
        with self._lock:
            if code in self._sockets:
                self._latest[code] = max(version, self._latest.get(code, -1))

    def latest(self, code: str) -> int:
        """Return the newest version of a game this process knows of (-1 when none)."""
        with self._lock:
            return self._latest.get(code, -1)

    def _tick(self) -> None:
        """One timer for every socket here: its ping message, and its keep-alive probe.

        Every `pings` seconds each socket sends `{"type": "ping", "version"}`; every `keepalive`
        seconds each socket checks that its last protocol ping was answered (else it is closed)
        and sends the next one.
        """
        thread = self._thread
        due = {name: time.monotonic() + interval for name, interval in self._intervals.items()}
        while thread is self._thread:  # a forked child starts its own hub and ticker
            time.sleep(max(0.0, min(due.values()) - time.monotonic()))
            now = time.monotonic()
            with self._lock:
                sockets = [sock for group in self._sockets.values() for sock in group]
            for name, interval in self._intervals.items():
                if now >= due[name]:
                    due[name] = now + interval
                    for count, sock in enumerate(sockets, 1):
                        getattr(sock, name)()
                        if count % TICK_BATCH == 0:
                            time.sleep(0)  # let the tables play between batches of thousands

    def _run(self) -> None:
        subscription = self._connect(first=True)
        pinged = False  # a ping is out, and its pong has not come yet
        while True:
            try:
                reply = subscription.read()
            except redis.TimeoutError as silence:
                if not pinged:  # a quiet while: ask Redis whether the connection still carries
                    pinged = True
                    self.idle_checks += 1
                    with contextlib.suppress(redis.RedisError, OSError):
                        subscription.ping()
                    continue
                cause: BaseException = silence
            except (redis.RedisError, OSError) as lost:
                cause = lost
            else:
                pinged = False
                self._handle(reply)
                continue
            log.warning("lost the Redis subscription (%s: %s); reconnecting", type(cause).__name__, cause)
            with self._lock:
                self._subscription = None
            subscription.close()
            subscription = self._connect(first=False)
            self.reconnects += 1
            pinged = False

    def _handle(self, reply: list[Any]) -> None:
        """Act on one pub/sub reply: a change to fan out, a confirmed subscription, or a pong."""
        kind = reply[0]
        if kind == b"message":
            code = keys.channel_code(reply[1].decode())
            with self._lock:
                if code in self._committing:
                    self._held.setdefault(code, []).append(reply[2])
                    return
            if not self._fanned_already(code, reply[2]):
                self._fan_out(code, Update(loads(reply[2]), self._render))
        elif kind == b"subscribe":
            with self._lock:
                subscribed = self._subscribed.get(keys.channel_code(reply[1].decode()))
            if subscribed is not None:
                subscribed.set()

    def committing(self, code: str) -> Holding:
        """Hold back a game's published changes while this process commits one of its own.

        The publish of a change this process commits often arrives before the commit's reply. Held
        back, it is dropped unparsed once the commit has handed its change to the sockets here
        (`committed`); changes of other processes held meanwhile go out first, in order, and
        whatever is still held when the commit ends (a refusal, an error) goes out then.
        """
        return Holding(self, code)

    def _hold(self, code: str) -> None:
        with self._lock:
            self._committing[code] += 1

    def _unhold(self, code: str) -> None:
        with self._lock:
            self._committing[code] -= 1
            if self._committing[code] <= 0:
                del self._committing[code]
        self._release(code)

    def committed(self, code: str, state: State, events: list[Event]) -> None:
        """Hand a change this process just committed to its sockets at once, ahead of its publish.

        The publish still reaches every other process; here it is then recognised by its version
        and dropped unparsed. Whichever of the two comes first is fanned out, the other skipped.
        """
        with self._lock:
            if code not in self._sockets:
                return
        self._release(code, before=state["version"])
        self._fan_out(code, Update({"version": state["version"], "events": events, "state": state},
                                   self._render))

    def shown(self, code: str, state: State, viewer: Viewer) -> dict[str, Any] | None:
        """Return the change to `state` as its update shows it to `viewer` (`Update.body_for`), or
        None when it is not the newest change handed to the sockets here."""
        with self._lock:
            update = self._last.get(code)
        return update.body_for(viewer) if update is not None and update.state is state else None

    def _release(self, code: str, before: int | None = None) -> None:
        """Fan out the held-back changes of a game (those older than `before` when given)."""
        with self._lock:
            held = self._held.pop(code, [])
            if before is not None:
                later = [data for data in held if _version_of(data) >= before]
                if later:
                    self._held[code] = later
                held = [data for data in held if _version_of(data) < before]
        for data in held:
            if not self._fanned_already(code, data):
                self._fan_out(code, Update(loads(data), self._render))

    def _fanned_already(self, code: str, data: bytes) -> bool:
        """Return whether a published change was fanned out here."""
        version = _version_of(data)
        with self._lock:
            return 0 <= version <= self._fanned.get(code, -1)

    def _fan_out(self, code: str, update: Update) -> None:
        with self._lock:
            if update.version <= self._fanned.get(code, -1):
                return
            sockets = list(self._sockets.get(code, ()))
            if sockets:
                self._fanned[code] = update.version
                self._last[code] = update
                self._latest[code] = max(update.version, self._latest.get(code, -1))
        self._store.saw(code, update.state)  # before any socket has it: its next action decides on it
        for sock in sockets:
            sock.deliver(update)

    def _connect(self, first: bool) -> Subscription:
        """Connect (retrying until Redis answers), subscribe to every game here, and catch up.

        After a lost connection, what was published meanwhile is fanned out from the store.
        """
        delay = 0.05
        while True:
            subscription = Subscription(self._client)
            try:
                subscription.connect()
                with self._lock:
                    codes = list(self._sockets)
                    if codes:
                        subscription.subscribe(*(keys.channel(code) for code in codes))
                    self._subscription = subscription
                    known = {code: self._latest[code] for code in codes if code in self._latest}
                if not first:
                    self._catch_up(known)
                return subscription
            except (redis.RedisError, OSError, Unavailable):
                with self._lock:
                    self._subscription = None
                subscription.close()
            time.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _catch_up(self, known: dict[str, int]) -> None:
        """Fan out what was published while the subscription was down, one update per game."""
        for code, version in known.items():
            state = self._store.load(code)
            if state is None or state["version"] <= version:
                continue
            events = [e for e in self._store.events_since(code, version) if e["version"] <= state["version"]]
            self._fan_out(code, Update({"version": state["version"], "events": events, "state": state},
                                       self._render))

