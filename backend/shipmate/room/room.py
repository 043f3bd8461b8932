"""One game's room in this process: its sockets, its newest change, their views, its players' presence,
and its actions, each run end to end.

An action is decided through the game's rules on the newest state the room knows, committed through
the store in one version-checked step (decided again when the state turned out stale), handed to
the room's sockets at once, and answered. Its change also reaches the other processes that follow
the game, by the commit's publish (store/scripts.py); this process hands its own changes out itself.

A room is listed among the rooms here (room/rooms.py) from its first socket's handshake to its last
socket's end, and every field of every room is read and written under their one lock. An action on
a game without sockets here runs in a passing room that is never listed. A change is handed to the
game's room listed when it is committed: the acting one, unless a socket opened another meanwhile.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..codec import dumpb
from ..rules import Action, Event, ShipmateError, State, Viewer, apply
from ..store import Answered, Conflict, GameStore, Seen
from .update import RULES_SHOW, Show, Update


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


@dataclass(frozen=True, slots=True)
class Change:
    """One applied change: the state after it, the events it produced, the answer (JSON) its commit
    stored under the request's Idempotency-Key, if any, and the update the room's sockets were
    handed, if the room made one (an answer made of it carries the very JSON the sockets received)."""

    state: State
    events: list[Event]
    answer: bytes | None = None
    update: Update | None = None


@dataclass(frozen=True, slots=True)
class Remember:
    """An Idempotency-Key whose first answer `Room.act` stores: its record's name, and how the
    request's answer (JSON ``{"status", "body"}``) is made of a change, or of a refusal (the rules'
    ShipmateError, or Conflict for a stale expected version).

    Each is made before the step that stores it (a change's by its own commit), and made again when
    the game moved on before that step ran; what is stored is exactly what the request answers.
    """

    name: str
    success: Callable[[Change], bytes]
    refusal: Callable[[Exception], bytes]


NewToken = Callable[[list[Event]], "tuple[str, dict[str, Any]] | None"]
"""Given a change's events, the token (hash, role) to store in the same step, if any (a join)."""


class Room:
    """One game's sockets here, what they were handed, and the game's actions.

    `counted` counts the sockets between their handshake and their end; `sockets` those attached.
    `handed_out` is the newest change handed out (nothing older is handed out after it), `state` the
    newest state known here (a snapshot may be newer than any update), and `version` its version.
    `subscribed` is set once Redis confirmed the game's channel. `here` counts the players' sockets
    here (what this server says of presence); `seen` is the newest word on the game's presence,
    received at `seen_at` (monotonic), and `players` the seated players of the newest state, whom
    presence speaks of.
    """

    def __init__(self, code: str, store: GameStore, show: Show = RULES_SHOW,
                 lock: threading.Lock | None = None, listed: dict[str, Room] | None = None) -> None:
        self.code = code
        self._store = store
        self._show = show
        self._lock = lock if lock is not None else threading.Lock()
        self._listed = listed if listed is not None else {}  # the rooms here, by game, under `lock`
        self.counted = 0
        self.sockets: set[Socket] = set()
        self.subscribed = threading.Event()
        self.handed_out: Update | None = None
        self.state: State | None = None
        self.here: Counter[str] = Counter()
        self.seen: Seen | None = None
        self.seen_at = 0.0
        self.players: list[str] = []

    @property
    def version(self) -> int:
        """The newest version known here (-1 for none)."""
        return -1 if self.state is None else int(self.state["version"])

    @property
    def handed_version(self) -> int:
        """The version of the newest change handed to the sockets (-1 for none)."""
        return -1 if self.handed_out is None else self.handed_out.version

    def know(self, state: State) -> None:
        """Take a state that may be newer than any this room knows (under the lock)."""
        if state["version"] > self.version:
            self.state = state
            self.players = list(state["players"])

    def newest(self) -> State | None:
        """Return the newest state of the game known here (to decide its next action on), if any."""
        with self._lock:
            return self.state

    def presence(self) -> str | None:
        """Return the ``{"type": "presence", "online", "away"}`` message of the newest word, if any
        (under the lock)."""
        if self.seen is None:
            return None
        later = (time.monotonic() - self.seen_at) * 1000
        return dumpb({"type": "presence", "online": list(self.seen.online),
                      "away": self.seen.away(self.players, later)}).decode()

    # ---- an action, end to end ------------------------------------------------------------------

    def act(self, action: Action, actor: Viewer, *, known: State | None = None,
            expected_version: int | None = None, new_token: NewToken | None = None,
            remember: Remember | None = None, acting: tuple[str, dict[str, Any]] | None = None) -> Change:
        """Decide `action` through the rules, commit it, hand it to the sockets, and return it.

        It is decided on `known` (a state the caller just read), else on the newest state the room
        knows, else on the stored one: the commit's version check catches a state that turned out
        stale, which is then loaded and decided again. `new_token` may return a token (hash, role)
        to store in the same step (a join); `acting` is the acting token (hash, role), and the
        change is stored only while it still has that role.

        With `remember` (an Idempotency-Key) the first answer under the key is stored in the very
        step that stores the change, or that checks a refusal still stands (in place of the version
        check a refusal on a known state costs anyway): a request under a key makes the round trips
        of one without. A refusal, or a key that holds an answer already, raises Answered.

        Raises the rules' ShipmateError when the action is refused, Conflict when
        `expected_version` is stale, KeyError for an unknown game, Unavailable without Redis,
        Retired when a seat's hand-over retired the acting token, Answered as said.
        """
        store, code = self._store, self.code
        state = known if known is not None else self.newest()
        while True:
            fresh = state is None or (expected_version is not None and expected_version != state["version"])
            if fresh:
                state = store.load(code)
            if state is None:
                raise KeyError(code)
            if expected_version is not None and expected_version != state["version"]:
                stale = Conflict(state["version"])
                if remember is None:
                    raise stale
                self._refused(remember, stale, state["version"])
                state = None
                continue
            try:
                new_state, events = apply(state, action, actor)
            except ShipmateError as exc:
                # A known state may lag behind: refuse only when it is still the current one
                # (a refusal depends on the state alone, so its version is enough to tell).
                if remember is not None:
                    self._refused(remember, exc, state["version"])
                elif fresh or store.version(code) == state["version"]:
                    raise
                state = None
                continue
            change = Change(new_state, events)
            answer = None
            if remember is not None:
                # the answer is made of the update the sockets will be handed, made before the commit
                change = Change(new_state, events, update=self._update(new_state, events))
                stored = remember.success(change)
                change = replace(change, answer=stored)
                answer = (remember.name, stored)
            token = new_token(events) if new_token else None
            try:
                store.commit(code, state["version"], new_state, events, token, answer, acting)
            except Conflict:  # decided on a stale state: load the current one and decide again
                state = None
                continue
            handed = self.hand_out({"version": new_state["version"], "events": events, "state": new_state},
                                   change.update)
            return replace(change, update=handed)

    def refuse(self, remember: Remember, refusal: Exception) -> bytes:
        """Store a refusal of the request itself, which no change of the game alters (a malformed
        action, a retired token), under its Idempotency-Key; return the key's answer (this one, or
        the one it held already)."""
        answer = self._store.refuse(self.code, remember.name, remember.refusal(refusal), None)
        assert answer is not None  # stored at any version: the game cannot have moved on
        return answer

    def _refused(self, remember: Remember, refusal: Exception, version: int) -> None:
        """Store a refusal decided on `version` under its Idempotency-Key and raise Answered with the
        key's answer; return, storing nothing, when the game moved on since (decide again)."""
        answer = self._store.refuse(self.code, remember.name, remember.refusal(refusal), version)
        if answer is not None:
            raise Answered(answer)

    # ---- changes --------------------------------------------------------------------------------

    def _update(self, state: State, events: list[Event]) -> Update | None:
        """Make the update of a change about to be committed, for `hand_out`: an answer stored with
        the commit is then the very JSON the sockets receive. None when no socket here follows the
        game."""
        with self._lock:
            room = self._listed.get(self.code)
            if room is None:
                return None
            before = room.handed_out
        return Update({"version": state["version"], "events": events, "state": state}, self._show, before)

    def hand_out(self, message: dict[str, Any], made: Update | None = None) -> Update | None:
        """Hand a change ``{"version", "events", "state"}`` to the sockets of the game's room here (as
        `made`, when its update was made before its commit), unless they had it; return its update,
        or None when nothing was handed out."""
        with self._lock:
            room = self._listed.get(self.code)
            if room is None or message["version"] <= room.handed_version:
                return None
            update = made if made is not None else Update(message, self._show, room.handed_out)
            room.handed_out = update
            room.know(update.state)
            sockets = list(room.sockets)
        for sock in sockets:
            sock.deliver(update)
        return update

    def heard(self, seen: Seen) -> None:
        """Take the newest word on the game's presence; pass it on when who is online, or since when
        someone is away, changed."""
        with self._lock:
            if self.seen is not None and self.seen.now >= seen.now:
                return
            before = self.seen
            self.seen, self.seen_at = seen, time.monotonic()
            if before is not None and before.online == seen.online and all(
                    before.seen.get(p) == seen.seen.get(p) for p in self.players if p not in seen.online):
                return
            message = self.presence()
            sockets = list(self.sockets)
        assert message is not None
        for sock in sockets:
            sock.notify(message)
