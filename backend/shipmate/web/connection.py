"""One client's socket once its handshake is done: its snapshot, its updates, its messages, its writes.

The request's own thread sends the snapshot, then reads the client's messages and runs its actions.
Everything after the snapshot goes through the socket's outbox to its one writer, a thread (a
greenlet under gevent) of its own that alone sends on the socket, so that no two threads write one
socket and a phone that reads slowly holds up nobody but its own writer. Whoever hands the socket
something (the thread that fans a change out to a table, the reader answering its client) never
waits: a full outbox closes the socket with 1008, and the client resumes from its version.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from simple_websocket import ConnectionClosed

from ..codec import dumps, loads
from ..room import Change, Rooms, Update
from ..rules import Viewer, view_for
from ..store import GameStore, Unavailable
from . import service
from .errors import LANGUAGES, ApiError, BadRequest, refusal
from .outbox import PING, Close, Item, Outbox, Ping, Resume
from .service import Caller

log = logging.getLogger(__name__)

SEAT_MOVED = 4401
"""The close code of a socket whose token was retired by a hand-over of its seat."""

TOO_SLOW = Close(1008, "too many unread updates; resume")
"""How a socket that does not keep up is closed: its client comes back with its version."""


class Connection:
    """One client's socket: its viewer, the version it has, its outbox and its writer.

    `ws` is flask-sock's socket (simple-websocket's Server): `send`, `receive(timeout)`, `close`.
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
        self.sending_since = 0.0  # when the writer's send under way began (monotonic; 0: none)
        self.writer = threading.Thread(target=self._write, name=f"ws-writer-{code}", daemon=True)

    def serve(self) -> None:
        """Send the snapshot, start the writer, then answer the client's messages until it leaves.

        Returns once the socket closed, or once its writer is stuck on a client that reads nothing
        (`stuck`); the caller then cuts the connection.
        """
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
            self.writer.start()
            self._read()
        finally:
            self.rooms.detach(self)
            self.outbox.finish(Close(1000, "bye"))
            if self.writer.is_alive():
                self.writer.join(self.close_grace)

    @property
    def stuck(self) -> bool:
        """Whether the writer has waited longer than the grace for the client to take a frame."""
        since = self.sending_since
        return bool(since) and time.monotonic() - since > self.close_grace

    def _read(self) -> None:
        """Take the client's messages until it leaves, the socket is being closed, or it is stuck.

        The wait for a message wakes every grace period to see whether the writer is closing the
        socket or waits on a client that stopped reading (a phone put away mid-game).
        """
        while True:
            try:
                message = self.ws.receive(timeout=self.close_grace)
            except ConnectionClosed:
                return
            if message is not None:
                self._handle(message)
            elif self.outbox.finished:
                return
            elif self.stuck:
                self.outbox.finish(TOO_SLOW)
                return

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
        self.outbox.put(PING)

    def retire(self, player: str) -> None:
        """Say that this socket's seat moved to another device, then close it (its token is retired)."""
        self.outbox.finish(Close(SEAT_MOVED, "seat moved", dumps({"type": "seat_moved", "player": player})))

    def _queue(self, item: Item) -> None:
        if not self.outbox.put(item):
            self.outbox.finish(TOO_SLOW)

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
            self._queue(dumps({"type": "pong", "version": self._newest_version()}))
        elif kind == "resume":
            since = message.get("since")
            if isinstance(since, bool) or not isinstance(since, int):
                self._refuse(message_id, BadRequest({"since": ["Not a valid integer."]}))
            else:
                self._queue(Resume(since))
        elif kind == "action":
            # The change's update was handed to the outbox by the fan-out during the action: the
            # answer follows it.
            self._answer("result", message_id, self._act(message))
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
                               self._answer_body)
        except (ApiError, Unavailable) as exc:
            return refusal(exc, language)

    def _answer_body(self, change: Change, viewer: Viewer) -> dict[str, Any]:
        """The body of a success's answer: the JSON its update carried to the sockets, when the room
        handed one out. A patch socket gets the state in the patch the whole table gets (queued
        before this answer): its answer carries the version and the events alone."""
        if change.update is not None:
            return change.update.body_for(viewer, with_state=not self.patches)
        return service.update_body(change.state, change.events, viewer, with_state=not self.patches)

    def _refuse(self, message_id: Any, exc: Exception) -> None:
        self._answer("error", message_id, refusal(exc, self.language))

    def _answer(self, kind: str, message_id: Any, answer: tuple[int, dict[str, Any]]) -> None:
        status, body = answer
        self._queue(dumps({"type": kind, "id": message_id, "status": status, **body}))

    # ---- the writer: the only thread that sends on the socket once the snapshot went out ---------

    def _write(self) -> None:
        """Send what the outbox hands over, in order, until its Close."""
        while (item := self.outbox.take()) is not None:
            try:
                if isinstance(item, Close):
                    self._close(item)
                    return
                if isinstance(item, Update):
                    self._send_update(item)
                elif isinstance(item, Ping):
                    self._tell(self._ping_text())
                elif isinstance(item, Resume):
                    self._resume(item.since)
                else:
                    self._send(item)
            except (ConnectionClosed, OSError):
                self.outbox.finish(Close(1006, "gone"))
            except Exception:  # a fault in one socket's message must not stop the rest of the table's
                log.exception("could not write to a socket of game %s; closing it", self.code)
                self.outbox.finish(Close(1011, "internal error"))

    def _send(self, text: str) -> None:
        """Send one message, noting while it waits for the client (`stuck`)."""
        self.sending_since = time.monotonic()
        try:
            self.ws.send(text)
        finally:
            self.sending_since = 0.0

    def _close(self, close: Close) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            if close.last is not None:
                self._send(close.last)
            self.ws.close(close.code, close.reason)

    def _ping_text(self) -> str:
        return dumps({"type": "ping", "version": self._newest_version()})

    def _update_text(self, update: Update) -> str:
        """The update's message for this socket: a patch when it asked for patches and one fits."""
        patch = update.patch_for(self.viewer, self.version) if self.patches else None
        return patch if patch is not None else update.message_for(self.viewer, self.version)

    def _tell(self, message: str) -> None:
        """Send a message that tells the client a version (a snapshot, an update, a ping)."""
        self._send(message)
        self.told_at = time.monotonic()

    def _newest_version(self) -> int:
        return max(self.rooms.version(self.code), self.version)

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
        self._send(dumps({"type": "error", "id": None, "status": status, **body}))

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
            events = self.store.events_since(self.code, since, upto=version)
            self._tell(dumps({"type": "update", **service.update_body(state, events, self.viewer)}))
        self.version = version
        self.rooms.saw(self.code, state)
