"""WS /ws/games/{code}?token=…: a snapshot, then every change as the socket's viewer may see it.

wsproto speaks the protocol (web/transport.py): the request's own thread makes the handshake, then
serves the socket (web/connection.py) until it closes; a keep-alive ping goes out when the client
has been silent for WS_KEEPALIVE seconds, and a client silent past the next one is closed.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request
from wsproto.utilities import RemoteProtocolError

from . import service
from .connection import Connection
from .errors import ApiError, BadRequest, refusal, request_language
from .transport import WebSocket

bp = Blueprint("ws", __name__)

UPDATES = ("full", "patch")
"""What a socket's changes come as (`?updates=`): the whole view, or a patch of the view before."""


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
