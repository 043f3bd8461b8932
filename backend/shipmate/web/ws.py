"""WS /ws/games/{code}?token=…: a snapshot, then every change as the socket's viewer may see it.

wsproto speaks the protocol (web/transport.py): the request's own thread makes the handshake, then
reads the client's messages and runs its actions; a keep-alive ping goes out when the client has
been silent for WS_KEEPALIVE seconds, and a client silent past the next one is closed. Whoever hands
a socket something (the thread that fans a change out to a table, the reader answering its client)
writes it at once, without waiting; only a socket that cannot take it at once (its client reads
slowly, or it must catch up from the store) gets a writer thread of its own until its outbox is
empty, so that a slow reader holds up nobody but itself.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request
from wsproto.utilities import RemoteProtocolError

from ..codec import dumps, loads
from ..rules import Viewer, view_for
from ..store import Change, GameStore, Unavailable
from . import service
from .errors import LANGUAGES, ApiError, BadRequest, refusal, request_language
from .outbox import PING, Close, Item, Outbox, Ping, Resume
from .rooms import Rooms
from .service import Caller
from .transport import ConnectionClosed, WebSocket
from .update import Update

bp = Blueprint("ws", __name__)
log = logging.getLogger(__name__)

UPDATES = ("full", "patch")
"""What a socket's changes come as (`?updates=`): the whole view, or a patch of the view before."""

SEAT_MOVED = 4401
"""The close code of a socket whose token was retired by a hand-over of its seat."""


class ForbiddenOrigin(ApiError):
    """A browser page of another site tried to open a socket."""

    status = 403
    code = "forbidden"

    def __init__(self, origin: str) -> None:
        super().__init__({
            "nl": f"Verbindingen vanaf {origin!r} zijn niet toegestaan.",
            "en": f"Connections from {origin!r} are not allowed.",
        })


class TooManySockets(ApiError):
    """The game, or the client's address, already has as many sockets here as it may."""

    status = 429
    code = "too_many_sockets"

    def __init__(self) -> None:
        super().__init__({
            "nl": "Te veel open verbindingen voor dit spel of dit adres; sluit er een.",
            "en": "Too many open connections for this game or this address; close one.",
        })


class AddressCounts:
    """This process's open sockets per client address, under one cap."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def claim(self, address: str) -> bool:
        """Count one more socket from `address`; False (nothing counted) past the cap."""
        with self._lock:
            if self._counts[address] >= self.most:
                return False
            self._counts[address] += 1
            return True

    def release(self, address: str) -> None:
        """Count a socket out again."""
        with self._lock:
            self._counts[address] -= 1
            self._counts = +self._counts


def init_app(app: Flask) -> None:
    """Attach this process's socket counts per address to `app`."""
    app.extensions["shipmate.addresses"] = AddressCounts(int(app.config["WS_MAX_PER_ADDRESS"]))


@bp.before_request
def check_handshake() -> None:
    """Refuse a bad handshake before the upgrade.

    A foreign Origin is 403, an unknown game 404, an unknown token 401, and a socket past this
    process's cap for the game or the client's address 429.
    """
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc.lower() != request.host.lower():
        raise ForbiddenOrigin(origin)
    code = (request.view_args or {})["code"]
    if request.args.get("updates", "full") not in UPDATES:
        raise BadRequest({"updates": [f"One of: {', '.join(UPDATES)}."]})
    g.caller = service.authenticate(code, request.args.get("token"))
    address = request.remote_addr or "-"
    if not current_app.extensions["shipmate.addresses"].claim(address):
        raise TooManySockets()
    g.address = address
    if not service.rooms().claim(code, int(current_app.config["WS_MAX_PER_GAME"])):
        raise TooManySockets()
    g.room = code


@bp.teardown_request
def release_claims(_: BaseException | None) -> None:
    """Count the socket out when its request ends (the socket closed, or the upgrade failed)."""
    address = g.pop("address", None)
    if address is not None:
        current_app.extensions["shipmate.addresses"].release(address)
    code = g.pop("room", None)
    if code is not None:
        service.rooms().release(code)


@bp.errorhandler(ConnectionError)
def client_gone(_: ConnectionError) -> tuple[str, int]:
    """Answer (to no one) a client that went away during the handshake: normal, so nothing is logged."""
    return "", 400


@bp.errorhandler(RemoteProtocolError)
def not_a_handshake(exc: RemoteProtocolError) -> tuple[Response, int]:
    """Refuse a GET whose WebSocket handshake headers are missing or wrong: the client's fault, 400."""
    status, body = refusal(BadRequest({"_handshake": [str(exc)]}), request_language())
    return jsonify(body), status


class Upgraded(Response):
    """What the socket's request returns once the socket has ended: nothing more to write.

    gunicorn's workers take a StopIteration from the response as "this connection was handled;
    close it" (flask-sock ends its sockets the same way).
    """

    def __call__(self, *_: Any) -> Any:
        raise StopIteration


@bp.route("/ws/games/<code>", websocket=True)
def game_socket(code: str) -> Response:
    """Serve one socket until it closes."""
    raw = request.environ.get("gunicorn.socket")
    if raw is None:
        raise RuntimeError("WebSockets are served under gunicorn (shipmate serve, deploy/gunicorn.conf.py)")
    config = current_app.config
    ws = WebSocket(raw, request.environ, keepalive=float(config["WS_KEEPALIVE"]),
                   max_message_size=int(config["MAX_CONTENT_LENGTH"]))
    try:
        Connection(ws, code, g.caller, request.args.get("token"), request_language(), service.rooms(),
                   service.store(), config, patches=request.args.get("updates") == "patch").serve()
    finally:
        ws.shutdown()
    return Upgraded()


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
