"""Push every change to every socket: one Redis subscriber per process, one outbox per socket.

The hub's thread reads the channels of the games that have sockets here and hands each change,
as one shared `Update`, to each socket's `Outbox`. A socket's own writer thread turns the update
into JSON for its viewer — computed once per viewer kind and change, not once per socket — and
sends it. A socket that does not read fills only its own outbox and is closed with 1008 when the
outbox overflows; it resumes later. When Redis comes back after a restart the hub subscribes again
and catches up on what it missed. One timer thread per process queues every socket's keep-alive
ping, so a writer only ever waits for work, never on a timer of its own.

The same channel carries two other announcements: who is online (``{"presence": …}``, see
store/presence.py), which each room passes on to its sockets as ``{"type": "presence"}``, and a
seat's hand-over (``{"seat", "revoked"}``, store/seats.py), which closes the sockets of the retired
tokens with 4401.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
import redis

from ..codec import dumpb, loads
from ..rules import Event, State, Viewer, Views, event_view_for
from ..store import GameStore, Presence, Seen, Unavailable, keys
from ..store.games import node_url
from ..store.wire import new_connection
from .frames import frame_header
from .patches import ViewPatches, ViewsOf

log = logging.getLogger(__name__)

TICK_BATCH = 200
"""Sockets the timer handles before it lets other threads run (a process may hold 18,000)."""

SUBSCRIBE_WAIT = 5.0
"""Seconds a new socket waits for its game's subscription before its snapshot (a safety net)."""


class Show(Protocol):
    """How a change is shown: the views of its state, and its events as each viewer may see them."""

    def views(self, state: State, before: ViewsOf | None) -> ViewsOf:
        """Return the views of `state`; `before`, the views of the version before, may be reused."""

    def events(self, state: State, events: list[Event], viewer: Viewer) -> list[Event]:
        """Return `events` as `viewer` may see them."""


class Shown:
    """The game's own views and event views (`rules.Views`, `rules.event_view_for`)."""

    def views(self, state: State, before: ViewsOf | None) -> ViewsOf:
        """Return the views of `state`, sharing what the change left alone with `before`."""
        return Views(state, before if isinstance(before, Views) else None)

    def events(self, state: State, events: list[Event], viewer: Viewer) -> list[Event]:
        """Return `events` as `viewer` may see them."""
        return [event_view_for(state, event, viewer) for event in events]


SHOWN = Shown()


class Update:
    """One published change, shared by every socket of its game; JSON made once per viewer.

    `before` is the update of the version just before, when known: its views are shared with this
    one's where the change left them alone, and a patch socket at that version gets a patch
    (RFC 6902) instead of the whole view. Only one step back is kept, so no chain of versions builds up.
    """

    def __init__(self, message: dict[str, Any], show: Show = SHOWN, before: Update | None = None) -> None:
        self.version: int = message["version"]
        self.events: list[Event] = message["events"]
        self.state: State = message["state"]
        self.first = self.events[0]["version"] if self.events else self.version
        self._show = show
        follows = before is not None and before.version == self.first - 1 and self.first == self.version
        self.before = before if follows else None
        if self.before is not None:
            self.before.before = None
        self.views: ViewsOf = show.views(self.state, self.before.views if self.before is not None else None)
        self._events: dict[tuple[Viewer, int], bytes] = {}
        self._states: dict[Viewer, bytes] = {}
        self._payloads: dict[tuple[Viewer, int], bytes] = {}
        self._frames: dict[tuple[Viewer, int], bytes] = {}
        self._patches: dict[Viewer, bytes] = {}
        self._view_patches: ViewPatches | None = None
        self._patch_frames: dict[Viewer, bytes] = {}

    def _events_json(self, viewer: Viewer, since: int) -> bytes:
        """Return the events after `since` as `viewer` may see them, as UTF-8 JSON, made once.

        Two threads asking at once may both make it; both get the same bytes.
        """
        key = (viewer, since)
        made = self._events.get(key)
        if made is None:
            events = [event for event in self.events if event["version"] > since]
            made = self._events[key] = dumpb(self._show.events(self.state, events, viewer))
        return made

    def _state_json(self, viewer: Viewer) -> bytes:
        made = self._states.get(viewer)
        if made is None:
            made = self._states[viewer] = dumpb(self.views.of(viewer))
        return made

    def _pieces(self, viewer: Viewer, since: int) -> tuple[bytes, ...]:
        return (b'{"type":"update","version":', str(self.version).encode(), b',"events":',
                self._events_json(viewer, since), b',"state":', self._state_json(viewer), b"}")

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
        return {"version": self.version, "events": orjson.Fragment(self._events_json(viewer, self.first - 1)),
                "state": orjson.Fragment(self._state_json(viewer))}

    def frame_for(self, viewer: Viewer, since: int) -> bytes:
        """Return `payload_for` as a whole WebSocket frame, made once (in one copy) and shared."""
        key = (viewer, max(since, self.first - 1))
        frame = self._frames.get(key)
        if frame is None:
            pieces = self._pieces(*key)
            frame = self._frames[key] = b"".join((frame_header(sum(map(len, pieces))), *pieces))
        return frame

    def patch_for(self, viewer: Viewer, since: int) -> bytes | None:
        """Return the patch message for a socket of `viewer` at version `since` (UTF-8 JSON), or None
        when this update is not the one change after `since`, or its version before is not known here."""
        before = self.before
        if before is None or since != before.version:
            return None
        made = self._patches.get(viewer)
        if made is None:
            if self._view_patches is None:
                self._view_patches = ViewPatches(before.views, self.views)
            patch = self._view_patches.of(viewer)
            made = self._patches[viewer] = b"".join((
                b'{"type":"patch","version":', str(self.version).encode(), b',"base":', str(since).encode(),
                b',"events":', self._events_json(viewer, since), b',"patch":', dumpb(patch), b"}"))
        return made

    def patch_frame_for(self, viewer: Viewer, since: int) -> bytes | None:
        """Return `patch_for` as a whole WebSocket frame, made once and shared; None as `patch_for`."""
        frame = self._patch_frames.get(viewer)
        if frame is None:
            payload = self.patch_for(viewer, since)
            if payload is None:
                return None
            frame = self._patch_frames[viewer] = frame_header(len(payload)) + payload
        return frame if since == self.version - 1 else None


@dataclass(frozen=True, slots=True)
class Resume:
    """A client's request for every event after `since` and the current state."""

    since: int


@dataclass(frozen=True, slots=True)
class Close:
    """The last thing a writer does: send `last` (if any), then close the socket with this code and reason."""

    code: int
    reason: str
    last: str | None = None


SEAT_MOVED = 4401
"""The close code of a socket whose token was retired by a hand-over of its seat."""


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
    viewer: Viewer
    token_hash: str | None

    def notify(self, message: bytes) -> None:
        """Queue a message that is no change (presence) without ever blocking."""

    def retire(self, player: str) -> None:
        """Tell the socket its seat moved to another device, and close it (SEAT_MOVED)."""

    def deliver(self, update: Update) -> None:
        """Queue a change for the socket without ever blocking."""

    def tick(self) -> None:
        """Queue a ping message for the socket without ever blocking."""

    def probe(self) -> None:
        """Close the socket if its last protocol ping went unanswered, else queue the next one."""


PUBLISHED_PREFIX = b'{"version":'
PRESENCE_PREFIX = b'{"presence":'
SEAT_PREFIX = b'{"seat":'


def _version_of(data: bytes) -> int:
    """Return the version of a published change, read off the start of its JSON (-1 if it has none)."""
    end = data.find(b",", len(PUBLISHED_PREFIX))
    if not data.startswith(PUBLISHED_PREFIX) or end < 0:
        return -1
    return int(data[len(PUBLISHED_PREFIX):end])


def subscriber(redis_url: str, idle_check: float) -> redis.Redis:
    """Return the client whose settings a `Subscription`'s connection takes.

    RESP2 (`protocol=2`): each message is a plain reply. Under RESP3, redis-py 8's default, it is a
    push notification, whose default handler formats the whole message for a debug log line before
    handing it over. A read times out after `idle_check` seconds of silence.
    """
    return redis.Redis.from_url(node_url(redis_url), socket_connect_timeout=2, socket_timeout=idle_check,
                                protocol=2)


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


class Room:
    """One game's place in this process: its sockets, what they were handed, and its commits under way.

    Every field is read and written under the hub's lock. A room exists exactly while the game has
    sockets here, and its channel is subscribed meanwhile (`subscribed` is set once Redis confirmed
    it). `last` is the newest change handed to the sockets: nothing older is handed out after it.
    `latest` is the newest version this process knows of, never older than `last` (a socket's
    snapshot may be newer than any update). While `committing` counts commits of this process under
    way, the game's publishes wait in `held`: they go out, in order, once the commit has handed out
    its own change (whose publish is then recognised and dropped), or when the commit ends.
    `here` counts the players' sockets here (what this server says of presence); `seen` is the
    newest word on the game's presence, received at `seen_at` (monotonic), and `players` the
    seated players of the newest state seen, whom presence speaks of.
    """

    def __init__(self) -> None:
        self.sockets: set[Socket] = set()
        self.subscribed = threading.Event()
        self.latest = -1
        self.last: Update | None = None
        self.committing = 0
        self.held: list[bytes] = []
        self.here: Counter[str] = Counter()
        self.seen: Seen | None = None
        self.seen_at = 0.0
        self.players: list[str] = []

    def presence(self) -> bytes | None:
        """Return the ``{"type": "presence", "online", "away"}`` message of the newest word, if any."""
        if self.seen is None:
            return None
        later = (time.monotonic() - self.seen_at) * 1000
        return dumpb({"type": "presence", "online": list(self.seen.online),
                      "away": self.seen.away(self.players, later)})

    @property
    def handed(self) -> int:
        """The version of the newest change handed to the sockets (-1 for none)."""
        return -1 if self.last is None else self.last.version


class Holding:
    """`Hub.committing`: while the block runs, the game's publishes wait (see `Room`)."""

    def __init__(self, hub: Hub, code: str) -> None:
        self._hub = hub
        self._code = code
        self._room: Room | None = None

    def __enter__(self) -> None:
        self._room = self._hub._hold(self._code)

    def __exit__(self, *_: object) -> None:
        if self._room is not None:
            self._hub._unhold(self._code, self._room)


class Hub:
    """The one Redis subscriber of this process: subscribes while a game has sockets here."""

    def __init__(self, redis_url: str, store: GameStore, show: Show = SHOWN, *, pings: float,
                 keepalive: float, idle_check: float = 30.0, presence: Presence | None = None,
                 presence_refresh: float = 20.0) -> None:
        # Whose settings the subscriber connection takes. Errors surface at once (no silent
        # reconnects), so every reconnect is followed by a catch-up. A read that times out is a
        # quiet table, not a loss: the hub then pings Redis (`_run`). For a cluster, its seed node
        # hears every PUBLISH.
        self._client = subscriber(redis_url, idle_check)
        self._store = store
        self._show = show
        self._intervals = {"tick": pings, "probe": keepalive}
        self._presence = presence
        self._presence_refresh = presence_refresh
        self._lock = threading.Lock()
        self._rooms: dict[str, Room] = {}
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
            room = self._rooms.get(sock.code)
            if room is None:
                room = self._rooms[sock.code] = Room()
                self._store.follow(sock.code)
                if self._subscription is not None:  # else the hub thread subscribes when it connects
                    with contextlib.suppress(redis.RedisError):  # ... or reconnects
                        self._subscription.subscribe(keys.channel(sock.code))
            room.sockets.add(sock)
            player = sock.viewer.player
            if player is not None:
                room.here[player] += 1
            said = room.seen is not None and (player is None or room.here[player] > 1)
        room.subscribed.wait(SUBSCRIBE_WAIT)
        if not said:  # a player arrived here, or the room has no word on presence yet
            self._say_presence(sock.code)

    def detach(self, sock: Socket) -> None:
        """Stop sending to `sock`; unsubscribe from its game when it was the last socket here."""
        with self._lock:
            room = self._rooms.get(sock.code)
            if room is None or sock not in room.sockets:
                return
            room.sockets.discard(sock)
            player = sock.viewer.player
            if player is not None:
                room.here[player] -= 1
                room.here = +room.here
            left = player is not None and not room.here[player]
            if not room.sockets:
                del self._rooms[sock.code]
                self._store.unfollow(sock.code)
                if self._subscription is not None:
                    with contextlib.suppress(redis.RedisError):
                        self._subscription.unsubscribe(keys.channel(sock.code))
        if left:  # the player's last socket here closed: away at once, unless another server has one
            self._say_presence(sock.code, room)

    # ---- presence ------------------------------------------------------------------------------

    def _say_presence(self, code: str, room: Room | None = None) -> None:
        """Tell Redis which players have a socket here (of the room, or of `room` just closed)."""
        if self._presence is None:
            return
        with self._lock:
            room = self._rooms.get(code, room)
            here = list(room.here) if room is not None else []
        try:
            _, seen = self._presence.update(code, here)
        except Unavailable:  # Redis is away: the next refresh says it
            return
        self._heard(code, seen)

    def _refresh_presence(self) -> None:
        """Renew this server's word on every room's players, and pass on what changed meanwhile."""
        if self._presence is None:
            return
        with self._lock:
            games = {code: list(room.here) for code, room in self._rooms.items()}
        try:
            heard = self._presence.refresh(games)
        except Unavailable:
            return
        for code, (_, seen) in heard.items():
            self._heard(code, seen)

    def presence(self, code: str) -> bytes | None:
        """Return the game's presence message for a socket that just had its snapshot, if known."""
        with self._lock:
            room = self._rooms.get(code)
            return None if room is None else room.presence()

    def _heard(self, code: str, seen: Seen) -> None:
        """Take the newest word on a game's presence; pass it on when who is online, or since
        when someone is away, changed."""
        with self._lock:
            room = self._rooms.get(code)
            if room is None or (room.seen is not None and room.seen.now >= seen.now):
                return
            before = room.seen
            room.seen, room.seen_at = seen, time.monotonic()
            if before is not None and before.online == seen.online and all(
                    before.seen.get(p) == seen.seen.get(p) for p in room.players if p not in seen.online):
                return
            message = room.presence()
            sockets = list(room.sockets)
        assert message is not None
        for sock in sockets:
            sock.notify(message)

    def _retire(self, code: str, data: bytes) -> None:
        """Close the sockets of the tokens a seat's hand-over retired."""
        said = loads(data)
        revoked = set(said["revoked"])
        with self._lock:
            room = self._rooms.get(code)
            sockets = [s for s in room.sockets if s.token_hash in revoked] if room is not None else []
        for sock in sockets:
            sock.retire(said["seat"])

    def _recheck_seats(self, code: str) -> None:
        """Close the sockets whose tokens were retired while the subscription was down."""
        with self._lock:
            room = self._rooms.get(code)
            sockets = [s for s in room.sockets if s.viewer.player] if room is not None else []
        hashes = [s.token_hash for s in sockets if s.token_hash is not None]
        roles = self._store.roles(code, hashes)
        moved = {h for h, role in zip(hashes, roles, strict=True) if role is not None and "moved" in role}
        for sock in sockets:
            if sock.token_hash in moved:
                sock.retire(str(sock.viewer.player))

    def saw(self, code: str, state: State) -> None:
        """Note that this version of a game exists (a socket's snapshot), for pings and catch-ups."""
        with self._lock:
            room = self._rooms.get(code)
            if room is not None and state["version"] >= room.latest:
                room.latest = state["version"]
                room.players = list(state["players"])

    def latest(self, code: str) -> int:
        """Return the newest version of a game this process knows of (-1 when none)."""
        with self._lock:
            room = self._rooms.get(code)
            return -1 if room is None else room.latest

    def _tick(self) -> None:
        """One timer for every socket here: its ping message, and its keep-alive probe.

        Every `pings` seconds each socket sends `{"type": "ping", "version"}`; every `keepalive`
        seconds each socket checks that its last protocol ping was answered (else it is closed)
        and sends the next one.
        """
        thread = self._thread
        due = {name: time.monotonic() + interval for name, interval in self._intervals.items()}
        presence_due = time.monotonic() + self._presence_refresh
        while thread is self._thread:  # a forked child starts its own hub and ticker
            time.sleep(max(0.0, min(*due.values(), presence_due) - time.monotonic()))
            now = time.monotonic()
            if now >= presence_due:
                presence_due = now + self._presence_refresh
                self._refresh_presence()
            with self._lock:
                sockets = [sock for room in self._rooms.values() for sock in room.sockets]
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
        """Act on one pub/sub reply: a change to hand out, a confirmed subscription, or a pong."""
        kind = reply[0]
        if kind == b"message":
            code = keys.channel_code(reply[1].decode())
            data: bytes = reply[2]
            if data.startswith(PRESENCE_PREFIX):
                self._heard(code, Seen.announced(data))
                return
            if data.startswith(SEAT_PREFIX):
                self._retire(code, data)
                return
            with self._lock:
                room = self._rooms.get(code)
                if room is None:
                    return
                if room.committing:
                    room.held.append(reply[2])
                    return
            self._hand_out(code, reply[2])
        elif kind == b"subscribe":
            with self._lock:
                room = self._rooms.get(keys.channel_code(reply[1].decode()))
            if room is not None:
                room.subscribed.set()

    def committing(self, code: str) -> Holding:
        """Hold back a game's published changes while this process commits one of its own.

        The publish of a change this process commits often arrives before the commit's reply. Held
        back, it is dropped unparsed once the commit has handed its change to the sockets here
        (`committed`); changes of other processes held meanwhile go out first, in order, and
        whatever is still held when the commit ends (a refusal, an error) goes out then.
        """
        return Holding(self, code)

    def _hold(self, code: str) -> Room | None:
        with self._lock:
            room = self._rooms.get(code)
            if room is not None:
                room.committing += 1
            return room

    def _unhold(self, code: str, room: Room) -> None:
        with self._lock:
            room.committing -= 1
        self._release(code, room)

    def committed(self, code: str, state: State, events: list[Event]) -> None:
        """Hand a change this process just committed to its sockets at once, ahead of its publish.

        The publish still reaches every other process; here it is then recognised by its version
        and dropped unparsed. Whichever of the two comes first is handed out, the other skipped.
        """
        with self._lock:
            room = self._rooms.get(code)
        if room is None:
            return
        self._release(code, room, before=state["version"])
        self._fan_out(code, {"version": state["version"], "events": events, "state": state})

    def shown(self, code: str, state: State, viewer: Viewer) -> dict[str, Any] | None:
        """Return the change to `state` as its update shows it to `viewer` (`Update.body_for`), or
        None when it is not the newest change handed to the sockets here."""
        with self._lock:
            room = self._rooms.get(code)
            update = None if room is None else room.last
        return update.body_for(viewer) if update is not None and update.state is state else None

    def _release(self, code: str, room: Room, before: int | None = None) -> None:
        """Hand out the held-back changes of a game (those older than `before` when given)."""
        with self._lock:
            held, room.held = room.held, []
            if before is not None:
                room.held = [data for data in held if _version_of(data) >= before]
                held = [data for data in held if _version_of(data) < before]
        for data in held:
            self._hand_out(code, data)

    def _hand_out(self, code: str, data: bytes) -> None:
        """Hand a published change to the sockets here, unless it was handed out already (unparsed)."""
        version = _version_of(data)
        with self._lock:
            room = self._rooms.get(code)
            if room is None or 0 <= version <= room.handed:
                return
        self._fan_out(code, loads(data))

    def _fan_out(self, code: str, message: dict[str, Any]) -> None:
        with self._lock:
            room = self._rooms.get(code)
            if room is None or message["version"] <= room.handed:
                return
            update = Update(message, self._show, room.last)
            room.last = update
            room.latest = max(update.version, room.latest)
            room.players = list(update.state["players"])
            sockets = list(room.sockets)
        self._store.saw(code, update.state)  # before any socket has it: its next action decides on it
        for sock in sockets:
            sock.deliver(update)

    def _connect(self, first: bool) -> Subscription:
        """Connect (retrying until Redis answers), subscribe to every game here, and catch up.

        After a lost connection, what was published meanwhile is handed out from the store.
        """
        delay = 0.05
        while True:
            subscription = Subscription(self._client)
            try:
                subscription.connect()
                with self._lock:
                    codes = list(self._rooms)
                    if codes:
                        subscription.subscribe(*(keys.channel(code) for code in codes))
                    self._subscription = subscription
                    known = {code: room.latest for code, room in self._rooms.items() if room.latest >= 0}
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
        """Hand out what was published while the subscription was down, one update per game."""
        self._refresh_presence()
        for code in known:
            self._recheck_seats(code)
        for code, version in known.items():
            state = self._store.load(code)
            if state is None or state["version"] <= version:
                continue
            events = [e for e in self._store.events_since(code, version) if e["version"] <= state["version"]]
            self._fan_out(code, {"version": state["version"], "events": events, "state": state})
