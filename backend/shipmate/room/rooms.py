"""Every room of this process: the registry of the games with sockets here, their one Redis
subscription, and one timer for them all.

A room is listed from its first socket's handshake to its last socket's end (room/room.py). A
change reaches a room from the process that committed it (the room's own action, at once), and from
its publish, which only the other processes that follow the game hear (store/scripts.py); a change
that comes both ways (the publish of a commit made while this process was still subscribing) is
handed out once, the other recognised by its version and dropped unparsed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

from ..codec import loads
from ..rules import State
from ..store import GameStore, Presence, Seen, Subscription, Unavailable
from .room import Room, Socket
from .update import RULES_SHOW, Show

SUBSCRIBE_WAIT = 5.0
"""Seconds a new socket waits for its game's subscription before its snapshot (a safety net)."""

# How long after a grace is up its player is asked about again: a timer may wake a little before its
# time (gevent's loop keeps its own clock, a step behind), and Redis, which decides, keeps the real one:
# asked a moment early, the player was still online, and stayed so until the next refresh.
GRACE_MARGIN = 0.25

CHANGE_PREFIX = b'{"version":'
PRESENCE_PREFIX = b'{"presence":'
SEAT_PREFIX = b'{"seat":'


def version_of(data: bytes) -> int:
    """Return the version of a published change, read off the start of its JSON (-1 if it has none)."""
    end = data.find(b",", len(CHANGE_PREFIX))
    if not data.startswith(CHANGE_PREFIX) or end < 0:
        return -1
    return int(data[len(CHANGE_PREFIX):end])


class Rooms:
    """Every room of this process, its Redis subscription, and one timer for them all.

    The timer sends every socket its ping message every `pings` seconds and renews this server's
    word on presence every `presence_refresh` seconds.
    """

    def __init__(self, redis_url: str, store: GameStore, presence: Presence | None = None,
                 show: Show = RULES_SHOW, *, pings: float, presence_refresh: float = 20.0,
                 idle_check: float = 30.0) -> None:
        self._store = store
        self._presence = presence
        self._show = show
        self._pings = pings
        self._presence_refresh = presence_refresh
        self._lock = threading.Lock()
        # One word on presence at a time: the players here are read and said together, so that an
        # older reading never reaches Redis after a newer one (a player who just left, put back).
        self._saying = threading.Lock()
        self._rooms: dict[str, Room] = {}
        self._timer: threading.Thread | None = None
        self.subscription = Subscription(redis_url, idle_check, self._published, self._subscribed,
                                         store.server)

    # ---- a socket's life ------------------------------------------------------------------------

    def count_in(self, code: str, most: int) -> bool:
        """Count a socket's handshake in its game's room; False (nothing counted) past `most`."""
        with self._lock:
            room = self._rooms.get(code)
            opened = room is None
            if room is None:
                room = self._rooms[code] = Room(code, self._store, self._show, self._lock, self._rooms)
            elif room.counted >= most:
                return False
            room.counted += 1
            self._start_timer()
        if opened:
            self.subscription.subscribe(code)
        return True

    def count_out(self, code: str) -> None:
        """Count a socket out (it closed, or its upgrade failed); the last one closes the room."""
        with self._lock:
            room = self._rooms.get(code)
            if room is None:
                return
            room.counted -= 1
            if room.counted > 0:
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
        """Stop handing changes to `sock`; a player whose last socket here it was is away after the grace."""
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
        if left:  # online for the grace (a reload is no news), then asked again: away, unless back
            self._say_presence(sock.code)
            if self._presence is not None:
                later = threading.Timer(self._presence.grace + GRACE_MARGIN, self._say_presence, (sock.code,))
                later.daemon = True
                later.start()

    def saw(self, code: str, state: State) -> None:
        """Note a state a socket's snapshot was made of."""
        with self._lock:
            room = self._rooms.get(code)
            if room is not None:
                room.know(state)

    def room(self, code: str) -> Room:
        """Return the game's room here, or a passing one, never listed, for an action on a game
        without sockets here."""
        with self._lock:
            room = self._rooms.get(code)
        return room if room is not None else Room(code, self._store, self._show, self._lock, self._rooms)

    def version(self, code: str) -> int:
        """Return the newest version of a game known here (-1 when none)."""
        with self._lock:
            room = self._rooms.get(code)
            return -1 if room is None else room.version

    def presence(self, code: str) -> str | None:
        """Return the game's presence message for a socket that just had its snapshot, if known."""
        with self._lock:
            room = self._rooms.get(code)
            return None if room is None else room.presence()

    # ---- changes --------------------------------------------------------------------------------

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
                if room is None or 0 <= version <= room.handed_version:
                    return
            room.hand_out(loads(data))

    def _subscribed(self, code: str) -> None:
        """Redis confirmed a game's channel: the first time, sockets may start; again (after a lost
        connection), the room catches up on what was published meanwhile."""
        with self._lock:
            room = self._rooms.get(code)
            if room is None:
                return
            again = room.subscribed.is_set()
            room.subscribed.set()
            known = room.version
        if again:
            with contextlib.suppress(Unavailable):
                self._catch_up(room, known)

    def _catch_up(self, room: Room, known: int) -> None:
        code = room.code
        self._recheck_seats(code)
        self._say_presence(code)
        state = self._store.load(code)
        if state is None or state["version"] <= known:
            return
        events = self._store.events_since(code, known, upto=state["version"])
        room.hand_out({"version": state["version"], "events": events, "state": state})

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
        with self._saying:
            with self._lock:
                room = self._rooms.get(code)
                here = list(room.here) if room is not None else []
            try:
                _, seen = self._presence.update(code, here)
            except Unavailable:  # Redis is away: the next refresh says it
                return
        self._heard(code, seen)

    def _heard(self, code: str, seen: Seen) -> None:
        """Hand the newest word on a game's presence to its room, if it has one here."""
        with self._lock:
            room = self._rooms.get(code)
        if room is not None:
            room.heard(seen)

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
            pinged = [(sock, room.version) for room in self._rooms.values() for sock in room.sockets]
        for count, (sock, version) in enumerate(pinged, 1):
            sock.ping(version)
            if count % 200 == 0:
                time.sleep(0)  # let the tables play between batches of thousands

    def _refresh_presence(self) -> None:
        """Renew this server's word on every room's players, and pass on what changed meanwhile."""
        if self._presence is None:
            return
        with self._saying:
            with self._lock:
                games = {code: list(room.here) for code, room in self._rooms.items()}
            try:
                heard = self._presence.refresh(games)
            except Unavailable:
                return
        for code, (_, seen) in heard.items():
            self._heard(code, seen)
