"""WS /ws/games/{code}?token=…: a snapshot, then every change as the socket's viewer may see it.

Each socket has two threads: the request's (reads the client's frames, answers its protocol pings
and runs its actions) and its own writer (drains the socket's outbox, so that a slow reader holds
up nobody but itself). Under gevent the thread that fans a change out writes it itself when nothing
waits for the socket (`_write_now`). The hub's one timer has each socket send its ping message and
its keep-alive protocol ping. The socket is read and written through `frames.Wire` (the fast path,
and why it is kept, are described there); simple-websocket makes the handshake and the close frame.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request
from flask_sock import Sock
from simple_websocket import ConnectionClosed
from wsproto.utilities import RemoteProtocolError

from ..codec import dumpb, dumps
from ..rules import Viewer, view_for
from ..store import GameStore, Unavailable
from ..store.games import Change
from . import service
from .api import parse_json
from .config import DEFAULTS
from .errors import LANGUAGES, ApiError, BadRequest, refusal, request_language
from .frames import OP_PING, OP_PONG, Control, FrameReader, ProtocolError, Wire, control_frame, text_frame
from .hub import PING, PROBE, SEAT_MOVED, Close, Hub, Outbox, Ping, Probe, Resume, Update
from .service import Caller

bp = Blueprint("ws", __name__)
sock = Sock()

UPDATES = ("full", "patch")
"""What a socket's changes come as (`?updates=`): the whole view, or a patch of the view before."""

ECHOED_CLOSE_CODES = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011})
"""Close codes a client's close frame may carry that are answered with the same code."""


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


class SocketCounts:
    """This process's open sockets per game and per client address, each under its own cap."""

    def __init__(self, per_game: int, per_address: int) -> None:
        self.per_game = per_game
        self.per_address = per_address
        self._lock = threading.Lock()
        self._games: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()

    def claim(self, code: str, address: str) -> bool:
        """Count one more socket of `code` from `address`; False (nothing counted) past a cap."""
        with self._lock:
            if self._games[code] >= self.per_game or self._addresses[address] >= self.per_address:
                return False
            self._games[code] += 1
            self._addresses[address] += 1
            return True

    def release(self, code: str, address: str) -> None:
        """Count a socket out again."""
        with self._lock:
            self._games[code] -= 1
            self._addresses[address] -= 1
            self._games, self._addresses = +self._games, +self._addresses


def init_app(app: Flask) -> None:
    """Attach the socket counts of this process to `app`."""
    app.extensions["shipmate.sockets"] = SocketCounts(int(app.config["WS_MAX_PER_GAME"]),
                                                      int(app.config["WS_MAX_PER_ADDRESS"]))


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
    counts: SocketCounts = current_app.extensions["shipmate.sockets"]
    claim = (code, request.remote_addr or "-")
    if not counts.claim(*claim):
        raise TooManySockets()
    g.socket_claim = claim
    # No extension: a browser's permessage-deflate offer is declined (simple-websocket would accept
    # any offer it sees, and compressed sockets could not take the fast path, `frames`).
    request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)


@bp.teardown_request
def release_claim(_: BaseException | None) -> None:
    """Count the socket out when its request ends (the socket closed, or the upgrade failed)."""
    claim = g.pop("socket_claim", None)
    if claim is not None:
        current_app.extensions["shipmate.sockets"].release(*claim)


@bp.errorhandler(ConnectionError)
def client_gone(_: ConnectionError) -> tuple[str, int]:
    """Answer (to no one) a client that went away during the handshake: normal, so nothing is logged."""
    return "", 400


@bp.errorhandler(RemoteProtocolError)
def not_a_handshake(exc: RemoteProtocolError) -> tuple[Response, int]:
    """Refuse a GET whose WebSocket handshake headers are missing or wrong: the client's fault, 400."""
    status, body = refusal(BadRequest({"_handshake": [str(exc)]}), request_language())
    return jsonify(body), status


@sock.route("/ws/games/<code>", bp=bp)  # type: ignore[untyped-decorator]
def game_socket(ws: Any, code: str) -> None:
    """Serve one socket until it closes."""
    hub: Hub = current_app.extensions["shipmate.hub"]
    token, language = request.args.get("token"), request_language()
    Connection(Wire(ws), code, g.caller, token, language, hub, service.store(), current_app.config,
               patches=request.args.get("updates") == "patch").serve()


class Connection:
    """One client's socket: its viewer, the version it has, its outbox and its writer."""

    def __init__(self, wire: Wire, code: str, caller: Caller, token: str | None, language: str, hub: Hub,
                 store: GameStore, config: Mapping[str, Any], *, patches: bool = False) -> None:
        self.wire = wire
        self.code = code
        self.caller = caller
        self.viewer = caller.viewer
        self.token_hash = caller.token_hash
        self.token = token
        self.hub = hub
        self.store = store
        self.language = language
        self.version = -1
        self.outbox = Outbox(int(config["WS_QUEUE_SIZE"]))
        self.close_grace = float(config["WS_CLOSE_GRACE"])
        self._max_message = int(config.get("MAX_CONTENT_LENGTH", DEFAULTS["MAX_CONTENT_LENGTH"]))
        self._write_lock = threading.Lock()
        self.patches = patches  # each change after the snapshot as a patch of the view before (RFC 6902)

    def serve(self) -> None:
        """Send the snapshot, start the writer, then answer the client's messages until it leaves."""
        self.hub.attach(self)
        try:
            try:
                self._catch_up(self.version)
                presence = self.hub.presence(self.code)
                if presence is not None:
                    self._send_frame(text_frame(presence))
            except Unavailable:
                self._send_unavailable()
                self.wire.close(1011, "unavailable")
                return
            except OSError:  # the client went away before its snapshot (a reset, a broken pipe): normal
                return
            threading.Thread(target=self._write, name=f"ws-writer-{self.code}", daemon=True).start()
            self._read_frames()
        finally:
            self.hub.detach(self)
            self.outbox.finish(Close(1000, "bye"))

    def _read_frames(self) -> None:
        """Read the client's frames in this thread (`frames.FrameReader`) until it leaves."""
        reader = FrameReader(self._max_message)
        try:
            while not self.outbox.finished:
                data = self.wire.recv()
                if not data:
                    break
                for message in reader.feed(data):
                    if not isinstance(message, Control):
                        self._handle(message)
                    elif message.opcode == OP_PING:
                        pong = control_frame(OP_PONG, message.payload)
                        if not self._send_now(pong):
                            self._queue(pong)
                    elif message.opcode == OP_PONG:
                        self.wire.answered = True
                    else:  # the client closes: answer with its code, as the RFC asks
                        code = message.close_code()
                        self._close_now(Close(code if code in ECHOED_CLOSE_CODES else 1000, ""))
                        return
        except ProtocolError as exc:
            self._close_now(Close(exc.code, exc.reason))
        except OSError:
            pass  # the client went away (`Wire.recv` marked the socket closed)

    def _close_now(self, close: Close) -> None:
        """Send the close frame from this thread, before the request ends (and closes with 1000)."""
        self.outbox.finish(close)
        with contextlib.suppress(ConnectionClosed, OSError), self._write_lock:
            self.wire.close(close.code, close.reason)

    def deliver(self, update: Update) -> None:
        """Send or queue a change (the fan-out's thread); a full outbox closes the socket with 1008."""
        if self.wire.direct and self._write_now(update):
            return
        if not self.outbox.put(update):
            self._overflow()

    def _write_now(self, update: Update) -> bool:
        """Write an update at once when nothing waits for this socket; False to queue it instead.

        Waking the socket's writer costs more than the write, and it is one more turn through a
        busy event loop before the phone has the change. So the thread that fans a change out
        writes it itself when the outbox is empty and its writer between items (`_send_now`).
        """
        if not self.outbox.idle or update.first > self.version + 1:  # a gap: the writer resumes
            return False
        if update.version <= self.version:
            return True
        if not self._send_now(self._frame_of(update)):
            return False
        self.version = update.version
        return True

    def _send_now(self, frame: bytes) -> bool:
        """Send a frame without waiting, when nothing waits for the socket; False to queue it.

        The socket's send buffer takes what it can at once; the rest goes to the writer, ahead of
        anything later, so a slow reader never holds up the thread that sends. This relies on
        gevent: nothing here yields, so no writer can start an item meanwhile.
        """
        if not self.wire.direct or not self.outbox.idle or not self.wire.open:
            return False
        try:
            sent = self.wire.send_now(frame)
        except OSError:
            self.outbox.finish(Close(1006, "gone"))
            return True
        if sent < len(frame):
            self._queue(frame[sent:])
        return True

    def notify(self, message: bytes) -> None:
        """Send or queue a message that is no change (presence, from the hub's thread); none before
        the snapshot, which is followed by the newest presence anyway."""
        if self.version < 0:
            return
        if not self._send_now(text_frame(message)):
            self._queue(message.decode())

    def retire(self, player: str) -> None:
        """Say that this socket's seat moved to another device, then close it (its token is retired)."""
        self.outbox.finish(Close(SEAT_MOVED, "seat moved", dumps({"type": "seat_moved", "player": player})))
        self._cut_later()

    def tick(self) -> None:
        """Queue a ping message (the hub's timer); a full outbox is closing the socket anyway."""
        self.outbox.put(PING)

    def probe(self) -> None:
        """Close the socket when the last protocol ping went unanswered; else queue the next one.

        A phone that vanished without closing is noticed within two keep-alive intervals.
        """
        if not self.wire.answered:
            self._drop(Close(1008, "ping/pong timeout"))
            return
        self.wire.answered = False  # the reader sets it again on the pong
        self.outbox.put(PROBE)

    def _queue(self, item: Update | Resume | str | bytes) -> None:
        if not self.outbox.put(item):
            self._overflow()

    def _overflow(self) -> None:
        self._drop(Close(1008, "too many unread updates; resume"))

    def _drop(self, close: Close) -> None:
        self.outbox.finish(close)
        # A writer stuck on a peer that reads nothing cannot send the close frame: cut it then.
        self._cut_later()

    def _cut_later(self) -> None:
        timer = threading.Timer(self.close_grace, self._cut)
        timer.daemon = True
        timer.start()

    def _cut(self) -> None:
        self.wire.cut()

    # ---- the client's messages (the request's thread) ------------------------------------------

    def _handle(self, raw: str | bytes) -> None:
        try:
            message = parse_json(raw)
        except BadRequest as exc:
            self._refuse(None, exc)
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
            self._send_answer("result", message_id, self._act(message))
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
        shown = self.hub.shown(self.code, change.state, viewer)
        return shown if shown is not None else service.update_body(change.state, change.events, viewer)

    def _refuse(self, message_id: Any, exc: Exception) -> None:
        self._send_answer("error", message_id, refusal(exc, self.language))

    def _send_answer(self, kind: str, message_id: Any, answer: tuple[int, dict[str, Any]]) -> None:
        status, body = answer
        payload = dumpb({"type": kind, "id": message_id, "status": status, **body})
        if not self._send_now(text_frame(payload)):
            self._queue(payload.decode())

    # ---- the writer thread ----------------------------------------------------------------------

    def _write(self) -> None:
        self.outbox.done()  # the snapshot is out: updates may be written directly from now on
        try:
            while True:
                item = self.outbox.get()
                if isinstance(item, Close):
                    with contextlib.suppress(ConnectionClosed, OSError), self._write_lock:
                        if item.last is not None:
                            self.wire.send(text_frame(item.last.encode()))
                        self.wire.close(item.code, item.reason)
                    self._cut_later()  # a reader waiting on a peer that never answers ends then
                    return
                if isinstance(item, Update):
                    self._send_update(item)
                elif isinstance(item, Ping):
                    self._send(dumps({"type": "ping", "version": self._latest()}))
                elif isinstance(item, Probe):
                    self._send_frame(control_frame(OP_PING))
                elif isinstance(item, Resume):
                    self._resume(item.since)
                elif isinstance(item, str):
                    self._send(item)
                elif isinstance(item, bytes):  # the rest of a frame `_write_now` began
                    self._send_frame(item)
                self.outbox.done()
        except (ConnectionClosed, OSError):
            self.outbox.finish(Close(1006, "gone"))

    def _send(self, text: str) -> None:
        self._send_frame(text_frame(text.encode()))

    def _send_frame(self, frame: bytes) -> None:
        with self._write_lock:
            self.wire.send(frame)

    def _latest(self) -> int:
        return max(self.hub.latest(self.code), self.version)

    def _send_update(self, update: Update) -> None:
        if update.version <= self.version:
            return  # already in the snapshot or a resume
        if update.first > self.version + 1:  # changes went missing (a Redis restart): fetch them
            self._resume(self.version)
            return
        self._send_frame(self._frame_of(update))
        self.version = update.version

    def _frame_of(self, update: Update) -> bytes:
        """Return the frame that brings this socket from its version to the update's: a patch when
        the socket asked for patches and one fits, else the whole update."""
        patch = update.patch_frame_for(self.viewer, self.version) if self.patches else None
        return patch if patch is not None else update.frame_for(self.viewer, self.version)

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
            self._send(dumps({"type": "snapshot", "version": version, "state": view_for(state, self.viewer)}))
        else:
            events = [e for e in self.store.events_since(self.code, since) if e["version"] <= version]
            self._send(dumps({"type": "update", **service.update_body(state, events, self.viewer)}))
        self.version = version
        self.hub.saw(self.code, state)
