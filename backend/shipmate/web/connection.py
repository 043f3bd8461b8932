"""One client's socket once its handshake is done: its snapshot, its updates, its messages, its writes.

The request's own thread reads the client's messages and runs its actions. Whoever hands a socket
something (the thread that fans a change out to a table, the reader answering its client) writes it
at once, without waiting; only a socket that cannot take it at once (its client reads slowly, or it
must catch up from the store) gets a writer thread of its own until its outbox is empty, so that a
slow reader holds up nobody but itself.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from ..codec import dumps, loads
from ..rules import Viewer, view_for
from ..store import Change, GameStore, Unavailable
from . import service
from .errors import LANGUAGES, ApiError, BadRequest, refusal
from .outbox import PING, Close, Item, Outbox, Ping, Resume
from .rooms import Rooms
from .service import Caller
from .transport import ConnectionClosed
from .update import Update

log = logging.getLogger(__name__)

SEAT_MOVED = 4401
"""The close code of a socket whose token was retired by a hand-over of its seat."""


class Connection:
    """One client's socket: its viewer, the version it has, and its outbox.

    One thread at a time drains the outbox (`_draining`, under `_turn`): the one that handed it an
    item, writing without waiting, or the writer thread it started for an item that must wait.
    """

    def __init__(self, ws: Any, code: str, caller: Caller, token: str | None, language: str, rooms: Rooms,
                 store: GameStore, config: Mapping[str, Any], *, patches: bool = False) -> None:
        self.ws = ws
        self.code = code
        self.caller = caller
        self.viewer = caller.viewer
        self.token_hash = caller.token_hash
        self.token = token
        self.rooms = rooms
        self.store = store
        self.language = language
        self.version = -1
        self.outbox = Outbox(int(config["WS_QUEUE_SIZE"]))
        self.close_grace = float(config["WS_CLOSE_GRACE"])
        self.ping_every = float(config["WS_PING_INTERVAL"])
        self.told_at = 0.0  # when the client was last sent a version (monotonic)
        self.patches = patches  # each change after the snapshot as a patch of the view before (RFC 6902)
        self._turn = threading.Lock()
        self._draining = False
        self._started = False  # the snapshot went out: what was queued meanwhile may follow

    def serve(self) -> None:
        """Send the snapshot, start the writer, then answer the client's messages until it leaves."""
        self.rooms.attach(self)
        try:
            try:
                self._catch_up(self.version)
                presence = self.rooms.presence(self.code)
                if presence is not None:
                    self.ws.send(presence)
            except Unavailable:
                self._send_unavailable()
                self.ws.close(1011, "unavailable")
                return
            except (ConnectionClosed, OSError):  # the client went away before its snapshot: normal
                return
            self.begin()
            self._read()
        finally:
            self.rooms.detach(self)
            self.outbox.finish(Close(1000, "bye"))
            self._drain()

    def begin(self) -> None:
        """The snapshot went out: write what was handed over meanwhile, and from now on at once."""
        self._started = True
        self._drain()

    def _read(self) -> None:
        """Take the client's messages until it leaves, or the writer closed the socket."""
        with contextlib.suppress(ConnectionClosed, OSError):
            while not self.outbox.finished:
                self._handle(self.ws.receive())

    # ---- what the room hands over (its thread: never blocks) -------------------------------------

    def deliver(self, update: Update) -> None:
        """Queue a change; a full outbox closes the socket with 1008 (it resumes later)."""
        self._queue(update)

    def notify(self, message: str) -> None:
        """Queue a message that is no change (presence); none before the snapshot, which is
        followed by the newest presence anyway."""
        if self.version >= 0:
            self._queue(message)

    def ping(self, version: int) -> None:
        """Queue the ping message, unless the socket was sent the newest version `version` within the
        last interval: what the ping would tell its client, it was just told (a full outbox is
        closing the socket anyway)."""
        if self.version >= version and time.monotonic() - self.told_at < self.ping_every:
            return
        if self.outbox.put(PING):
            self._drain()

    def retire(self, player: str) -> None:
        """Say that this socket's seat moved to another device, then close it (its token is retired)."""
        self._drop(Close(SEAT_MOVED, "seat moved", dumps({"type": "seat_moved", "player": player})))

    def _queue(self, item: Item) -> None:
        if self.outbox.put(item):
            self._drain()
        else:
            self._drop(Close(1008, "too many unread updates; resume"))

    def _drop(self, close: Close) -> None:
        self.outbox.finish(close)
        self._drain()
        # A writer stuck on a peer that reads nothing cannot send the close frame: cut it then.
        timer = threading.Timer(self.close_grace, self.ws.shutdown)
        timer.daemon = True
        timer.start()

    # ---- the client's messages (the request's thread) ------------------------------------------

    def _handle(self, raw: str | bytes) -> None:
        try:
            message = loads(raw)
        except ValueError as exc:
            self._refuse(None, BadRequest({"_body": [f"Malformed JSON: {exc}"]}))
            return
        if not isinstance(message, dict):
            self._refuse(None, BadRequest({"_body": ["The body must be a JSON object."]}))
            return
        kind, message_id = message.get("type"), message.get("id")
        if kind == "ping":
            self._queue(dumps({"type": "pong", "version": self._latest()}))
        elif kind == "resume":
            since = message.get("since")
            if isinstance(since, bool) or not isinstance(since, int):
                self._refuse(message_id, BadRequest({"since": ["Not a valid integer."]}))
            else:
                self._queue(Resume(since))
        elif kind == "action":
            # The change's update (handed to this socket by the fan-out) and the answer leave together.
            self.ws.cork()
            try:
                self._answer("result", message_id, self._act(message))
            finally:
                self.ws.uncork()
                self._drain()
        else:
            self._refuse(message_id, BadRequest({"type": ["Must be one of: action, resume, ping."]}))

    def _act(self, message: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        key = message.get("idempotency_key")
        # The app's language may not be the browser's (the handshake's Accept-Language): a frame
        # may name it, as an HTTP action's Accept-Language does.
        language = message["language"] if message.get("language") in LANGUAGES else self.language
        try:
            if key is not None and not isinstance(key, str):
                raise BadRequest({"idempotency_key": ["Not a valid string."]})
            return service.act(self.code, self.token, message.get("action"), key, language, self.caller,
                               self._shown)
        except (ApiError, Unavailable) as exc:
            return refusal(exc, language)

    def _shown(self, change: Change, viewer: Viewer) -> dict[str, Any]:
        shown = self.rooms.shown(self.code, change.state, viewer)
        return shown if shown is not None else service.update_body(change.state, change.events, viewer)

    def _refuse(self, message_id: Any, exc: Exception) -> None:
        self._answer("error", message_id, refusal(exc, self.language))

    def _answer(self, kind: str, message_id: Any, answer: tuple[int, dict[str, Any]]) -> None:
        status, body = answer
        self._queue(dumps({"type": kind, "id": message_id, "status": status, **body}))

    # ---- writing: at once by whoever hands an item over, by a writer thread only when it must wait

    def _drain(self) -> None:
        """Write what waits in the outbox without waiting, unless another thread is at it; hand
        the first item that cannot go at once to a writer thread, which takes over the outbox."""
        while self._started:
            with self._turn:
                if self._draining or not (self.outbox.waiting or self.ws.pending):
                    return
                self._draining = True
            try:
                held = self._write_at_once()
            except (ConnectionClosed, OSError):
                self.outbox.finish(Close(1006, "gone"))
                return  # the turn stays taken: nothing more is written to a socket that is gone
            except Exception:  # a fault in one socket's message must not stop the rest of the table's
                log.exception("could not write to a socket of game %s; closing it", self.code)
                self.outbox.finish(Close(1011, "internal error"))
                held = self.outbox.take()
            if held is not None or self.ws.pending:
                threading.Thread(target=self._write, args=(held,), name=f"ws-writer-{self.code}",
                                 daemon=True).start()
                return
            with self._turn:
                self._draining = False
            # an item handed over meanwhile found the turn taken: the loop looks again

    def _write_at_once(self) -> Item | Close | None:
        """Write items until the outbox is empty; return the first that has to wait for the socket
        or for the store (and, once one frame's end is left for the writer, the next item)."""
        while (item := self.outbox.take()) is not None:
            if isinstance(item, Close | Resume) or self.ws.pending:
                return item
            if isinstance(item, Update):
                if item.version <= self.version:
                    continue  # already in the snapshot or a resume
                if item.first > self.version + 1 or not self.ws.offer(self._update_text(item)):
                    return item
                self.version = item.version
                self.told_at = time.monotonic()
            elif isinstance(item, Ping):
                if not self.ws.offer(self._ping_text()):
                    return item
                self.told_at = time.monotonic()
            elif not self.ws.offer(item):
                return item
        return None

    def _write(self, held: Item | Close | None) -> None:
        """The writer thread: write `held` and everything after it, waiting on the socket as long as
        it takes; give the outbox back once it is empty."""
        try:
            self.ws.flush()
            while True:
                item = held if held is not None else self.outbox.take()
                held = None
                if item is None:
                    with self._turn:
                        if not self.outbox.waiting:
                            self._draining = False
                            return
                    continue
                if isinstance(item, Close):
                    with contextlib.suppress(ConnectionClosed, OSError):
                        if item.last is not None:
                            self.ws.send(item.last)
                        self.ws.close(item.code, item.reason)
                    return
                if isinstance(item, Update):
                    self._send_update(item)
                elif isinstance(item, Ping):
                    self._tell(self._ping_text())
                elif isinstance(item, Resume):
                    self._resume(item.since)
                else:
                    self.ws.send(item)
        except (ConnectionClosed, OSError):
            self.outbox.finish(Close(1006, "gone"))

    def _ping_text(self) -> str:
        return dumps({"type": "ping", "version": self._latest()})

    def _update_text(self, update: Update) -> str:
        """The update's message for this socket: a patch when it asked for patches and one fits."""
        patch = update.patch_for(self.viewer, self.version) if self.patches else None
        return patch if patch is not None else update.message_for(self.viewer, self.version)

    def _tell(self, message: str) -> None:
        """Send a message that tells the client a version (a snapshot, an update, a ping)."""
        self.ws.send(message)
        self.told_at = time.monotonic()

    def _latest(self) -> int:
        return max(self.rooms.latest(self.code), self.version)

    def _send_update(self, update: Update) -> None:
        """Send what brings this socket from its version to the update's: a patch when the socket
        asked for patches and one fits, else the whole update; a gap is fetched from the store."""
        if update.version <= self.version:
            return  # already in the snapshot or a resume
        if update.first > self.version + 1:  # changes went missing (a Redis restart): fetch them
            self._resume(self.version)
            return
        self._tell(self._update_text(update))
        self.version = update.version

    def _resume(self, since: int) -> None:
        try:
            self._catch_up(since)
        except Unavailable:
            self._send_unavailable()

    def _send_unavailable(self) -> None:
        status, body = refusal(Unavailable(), self.language)
        self.ws.send(dumps({"type": "error", "id": None, "status": status, **body}))

    def _catch_up(self, since: int) -> None:
        """Send every event after `since` and the current state; a snapshot when `since` is ahead."""
        state = self.store.load(self.code)
        if state is None:
            self.outbox.finish(Close(1000, "the game is gone"))
            return
        version = state["version"]
        if since < 0 or since > version:
            view = view_for(state, self.viewer)
            self._tell(dumps({"type": "snapshot", "version": version, "state": view}))
        else:
            events = [e for e in self.store.events_since(self.code, since) if e["version"] <= version]
            self._tell(dumps({"type": "update", **service.update_body(state, events, self.viewer)}))
        self.version = version
        self.rooms.saw(self.code, state)
