"""One room per game with sockets in this process, and the one registry that holds them.

A room lives from its first socket's handshake to its last socket's end. It owns its sockets, the
newest change handed to them (whose state the next action is decided on), the players' presence,
and the game's channel of the process's one Redis subscription. Every field of every room is read
and written under the registry's lock. A change reaches a room from the process that committed it
(`committed`, at once), and from its publish, which only the other processes that follow the game
hear (store/scripts.py); a change that comes both ways (the publish of a commit made while this
process was still subscribing) is handed out once, the other recognised by its version and
dropped unparsed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter
from typing import Any, Protocol

from ..codec import dumpb, loads
from ..rules import Event, State, Viewer
from ..store import GameStore, Presence, Seen, Unavailable
from .subscription import Subscription
from .update import SHOWN, Show, Update

SUBSCRIBE_WAIT = 5.0
"""Seconds a new socket waits for its game's subscription before its snapshot (a safety net)."""

CHANGE_PREFIX = b'{"version":'
PRESENCE_PREFIX = b'{"presence":'
SEAT_PREFIX = b'{"seat":'


def version_of(data: bytes) -> int:
    """Return the version of a published change, read off the start of its JSON (-1 if it has none)."""
    end = data.find(b",", len(CHANGE_PREFIX))
    if not data.startswith(CHANGE_PREFIX) or end < 0:
        return -1
    return int(data[len(CHANGE_PREFIX):end])


class Socket(Protocol):
    """What a room needs of a connected socket."""

    code: str
    viewer: Viewer
    token_hash: str | None

    def deliver(self, update: Update) -> None:
        """Queue a change for the socket without ever blocking."""

    def notify(self, message: str) -> None:
        """Queue a message that is no change (presence, the ping message) without ever blocking."""

    def retire(self, player: str) -> None:
        """Tell the socket its seat moved to another device, and close it."""

    def ping(self, version: int) -> None:
        """Queue the ``{"type": "ping", "version"}`` message without ever blocking."""


class Room:
    """One game's sockets here and what they were handed.

    `claims` counts the sockets between their handshake and their end; `sockets` those attached.
    `last` is the newest change handed out (nothing older is handed out after it), `newest` the
    newest state known here (a snapshot may be newer than any update). `subscribed` is set once
    Redis confirmed the game's channel. `here` counts the players' sockets here (what this server
    says of presence); `seen` is the newest word on the game's presence, received at `seen_at`
    (monotonic), and `players` the seated players of the newest state, whom presence speaks of.
    """

    def __init__(self) -> None:
        self.claims = 0
        self.sockets: set[Socket] = set()
        self.subscribed = threading.Event()
        self.last: Update | None = None
        self.newest: State | None = None
        self.here: Counter[str] = Counter()
        self.seen: Seen | None = None
        self.seen_at = 0.0
        self.players: list[str] = []

    @property
    def latest(self) -> int:
        """The newest version known here (-1 for none)."""
        return -1 if self.newest is None else int(self.newest["version"])

    @property
    def handed(self) -> int:
        """The version of the newest change handed to the sockets (-1 for none)."""
        return -1 if self.last is None else self.last.version

    def know(self, state: State) -> None:
        """Take a state that may be newer than any this room knows."""
        if state["version"] > self.latest:
            self.newest = state
            self.players = list(state["players"])

    def presence(self) -> str | None:
        """Return the ``{"type": "presence", "online", "away"}`` message of the newest word, if any."""
        if self.seen is None:
            return None
        later = (time.monotonic() - self.seen_at) * 1000
        return dumpb({"type": "presence", "online": list(self.seen.online),
                      "away": self.seen.away(self.players, later)}).decode()


class Rooms:
    """Every room of this process, its Redis subscription, and one timer for them all.

    The timer sends every socket its ping message every `pings` seconds and renews this server's
    word on presence every `presence_refresh` seconds.
    """

    def __init__(self, redis_url: str, store: GameStore, presence: Presence | None = None,
                 show: Show = SHOWN, *, pings: float, presence_refresh: float = 20.0,
                 idle_check: float = 30.0) -> None:
        self._store = store
        self._presence = presence
        self._show = show
        self._pings = pings
        self._presence_refresh = presence_refresh
        self._lock = threading.Lock()
        self._rooms: dict[str, Room] = {}
        self._timer: threading.Thread | None = None
        self.subscription = Subscription(redis_url, idle_check, self._published, self._subscribed,
                                         store.server)

    # ---- a socket's life ------------------------------------------------------------------------

    def claim(self, code: str, most: int) -> bool:
        """Count a socket's handshake in its game's room; False (nothing counted) past `most`."""
        with self._lock:
            room = self._rooms.get(code)
            opened = room is None
            if room is None:
                room = self._rooms[code] = Room()
            elif room.claims >= most:
                return False
            room.claims += 1
            self._start_timer()
        if opened:
            self.subscription.subscribe(code)
        return True

    def release(self, code: str) -> None:
        """Count a socket out (it closed, or its upgrade failed); the last one closes the room."""
        with self._lock:
            room = self._rooms.get(code)
            if room is None:
                return
            room.claims -= 1
            if room.claims > 0:
                return
            del self._rooms[code]
        self.subscription.unsubscribe(code)

    def attach(self, sock: Socket) -> None:
        """Start handing a game's changes to `sock`; return once the game's channel is subscribed."""
        with self._lock:
            room = self._rooms[sock.code]
            room.sockets.add(sock)
            player = sock.viewer.player
            if player is not None:
                room.here[player] += 1
            said = room.seen is not None and (player is None or room.here[player] > 1)
        room.subscribed.wait(SUBSCRIBE_WAIT)
        if not said:  # a player arrived here, or the room has no word on presence yet
            self._say_presence(sock.code)

    def detach(self, sock: Socket) -> None:
        """Stop handing changes to `sock`; a player whose last socket here it was is away now."""
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
        if left:  # away at once, unless another server holds a socket of theirs
            self._say_presence(sock.code)

    def saw(self, code: str, state: State) -> None:
        """Note a state a socket's snapshot was made of."""
        with self._lock:
            room = self._rooms.get(code)
            if room is not None:
                room.know(state)

    def state(self, code: str) -> State | None:
        """Return the newest state of a game known here (to decide its next action on), if any."""
        with self._lock:
            room = self._rooms.get(code)
            return None if room is None else room.newest

    def latest(self, code: str) -> int:
        """Return the newest version of a game known here (-1 when none)."""
        with self._lock:
            room = self._rooms.get(code)
            return -1 if room is None else room.latest

    def presence(self, code: str) -> str | None:
        """Return the game's presence message for a socket that just had its snapshot, if known."""
        with self._lock:
            room = self._rooms.get(code)
            return None if room is None else room.presence()

    # ---- changes --------------------------------------------------------------------------------

    def committed(self, code: str, state: State, events: list[Event]) -> None:
        """Hand a change this process just committed to its sockets at once, ahead of its publish."""
        self._fan_out(code, {"version": state["version"], "events": events, "state": state})

    def shown(self, code: str, state: State, viewer: Viewer) -> dict[str, Any] | None:
        """Return the change to `state` as its update shows it to `viewer` (`Update.body_for`), or
        None when it is not the newest change handed to the sockets here."""
        with self._lock:
            room = self._rooms.get(code)
            update = None if room is None else room.last
        return update.body_for(viewer) if update is not None and update.state is state else None

    def _published(self, code: str, data: bytes) -> None:
        """Act on a message of the game's channel: a change, a word on presence, a seat's move."""
        if data.startswith(PRESENCE_PREFIX):
            self._heard(code, Seen.announced(data))
        elif data.startswith(SEAT_PREFIX):
            self._retire(code, loads(data))
        else:
            version = version_of(data)
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
            update = room.last = Update(message, self._show, room.last)
            room.know(update.state)
            sockets = list(room.sockets)
        for sock in sockets:
            sock.deliver(update)

    def _subscribed(self, code: str) -> None:
        """Redis confirmed a game's channel: the first time, sockets may start; again (after a lost
        connection), the room catches up on what was published meanwhile."""
        with self._lock:
            room = self._rooms.get(code)
            if room is None:
                return
            again = room.subscribed.is_set()
            room.subscribed.set()
            known = room.latest
        if again:
            with contextlib.suppress(Unavailable):
                self._catch_up(code, known)

    def _catch_up(self, code: str, known: int) -> None:
        self._recheck_seats(code)
        self._say_presence(code)
        state = self._store.load(code)
        if state is None or state["version"] <= known:
            return
        events = [e for e in self._store.events_since(code, known) if e["version"] <= state["version"]]
        self._fan_out(code, {"version": state["version"], "events": events, "state": state})

    # ---- seats and presence ---------------------------------------------------------------------

    def _retire(self, code: str, said: dict[str, Any]) -> None:
        """Close the sockets of the tokens a seat's hand-over retired."""
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
        moved = {h for h, role in zip(hashes, self._store.roles(code, hashes), strict=True)
                 if role is not None and "moved" in role}
        for sock in sockets:
            if sock.token_hash in moved:
                sock.retire(str(sock.viewer.player))

    def _say_presence(self, code: str) -> None:
        """Tell Redis which players have a socket here, and pass on what it says back."""
        if self._presence is None:
            return
        with self._lock:
            room = self._rooms.get(code)
            here = list(room.here) if room is not None else []
        try:
            _, seen = self._presence.update(code, here)
        except Unavailable:  # Redis is away: the next refresh says it
            return
        self._heard(code, seen)

    def _heard(self, code: str, seen: Seen) -> None:
        """Take the newest word on a game's presence; pass it on when who is online, or since when
        someone is away, changed."""
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

    # ---- the timer ------------------------------------------------------------------------------

    def _start_timer(self) -> None:
        if self._timer is None or not self._timer.is_alive():  # the first socket, or a forked child
            self._timer = threading.Thread(target=self._tick, name="shipmate-timer", daemon=True)
            self._timer.start()

    def _tick(self) -> None:
        timer = self._timer
        pings_due = time.monotonic() + self._pings
        presence_due = time.monotonic() + self._presence_refresh
        while timer is self._timer:
            time.sleep(max(0.0, min(pings_due, presence_due) - time.monotonic()))
            now = time.monotonic()
            if now >= pings_due:
                pings_due = now + self._pings
                self._ping_all()
            if now >= presence_due:
                presence_due = now + self._presence_refresh
                self._refresh_presence()

    def _ping_all(self) -> None:
        with self._lock:
            pinged = [(sock, room.latest) for room in self._rooms.values() for sock in room.sockets]
        for count, (sock, version) in enumerate(pinged, 1):
            sock.ping(version)
            if count % 200 == 0:
                time.sleep(0)  # let the tables play between batches of thousands

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
