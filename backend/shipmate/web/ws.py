"""WS /ws/games/{code}?token=…: a snapshot, then every change as the socket's viewer may see it.

flask-sock speaks the protocol: the checks below answer a bad handshake as HTTP before the
upgrade, then the request's own thread serves the socket (web/connection.py) until it closes. The
library sends a protocol ping every WS_KEEPALIVE seconds and closes a client that has not answered
one by the next (1008), and closes a message over MAX_CONTENT_LENGTH (1009).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, g, request
from flask_sock import Sock

from . import service
from .connection import Connection
from .errors import ApiError, BadRequest, request_language

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

    def count_in(self, address: str) -> bool:
        """Count one more socket from `address`; False (nothing counted) past the cap."""
        with self._lock:
            if self._counts[address] >= self.most:
                return False
            self._counts[address] += 1
            return True

    def count_out(self, address: str) -> None:
        """Count a socket out again."""
        with self._lock:
            self._counts[address] -= 1
            self._counts = +self._counts


def init_app(app: Flask) -> None:
    """Attach this process's socket counts per address to `app`, and flask-sock's options."""
    app.extensions["shipmate.addresses"] = AddressCounts(int(app.config["WS_MAX_PER_ADDRESS"]))
    app.config["SOCK_SERVER_OPTIONS"] = {"ping_interval": float(app.config["WS_KEEPALIVE"]),
                                         "max_message_size": int(app.config["MAX_CONTENT_LENGTH"])}


def _check_upgrade() -> None:
    """Refuse a handshake that lacks what RFC 6455 asks of it (the router checked the Upgrade); any
    key is answered."""
    if not request.headers.get("Sec-WebSocket-Key"):
        raise BadRequest({"_handshake": ["Missing header, 'Sec-WebSocket-Key'"]})
    if request.headers.get("Sec-WebSocket-Version") != "13":
        raise BadRequest({"_handshake": ["Missing header, 'Sec-WebSocket-Version'"]})


@bp.before_request
def check_handshake() -> None:
    """Refuse a bad handshake before the upgrade.

    A handshake without its key or version is 400, a foreign Origin 403, an unknown game 404, an
    unknown token 401, and a socket past this process's cap for the game or the client's address 429.
    """
    _check_upgrade()
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc.lower() != request.host.lower():
        raise ForbiddenOrigin(origin)
    code = (request.view_args or {})["code"]
    if request.args.get("updates", "full") not in UPDATES:
        raise BadRequest({"updates": [f"One of: {', '.join(UPDATES)}."]})
    g.caller = service.authenticate(code, request.args.get("token"))
    address = request.remote_addr or "-"
    if not current_app.extensions["shipmate.addresses"].count_in(address):
        raise TooManySockets()
    g.address = address
    if not service.rooms().count_in(code, int(current_app.config["WS_MAX_PER_GAME"])):
        raise TooManySockets()
    g.room = code
    # Browsers offer permessage-deflate, and simple-websocket accepts any offer: the request comes
    # to the library without it. Compressed, a patch takes 64 bytes on the wire instead of 515, but
    # each socket keeps zlib's state (185 KiB of the worker per socket against 79 KiB) and compresses
    # the JSON its viewers share once per socket; a table's Wi-Fi has room, its server's memory less.
    request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)


@bp.teardown_request
def count_out(_: BaseException | None) -> None:
    """Count the socket out when its request ends (the socket closed, or the upgrade failed)."""
    address = g.pop("address", None)
    if address is not None:
        current_app.extensions["shipmate.addresses"].count_out(address)
    code = g.pop("room", None)
    if code is not None:
        service.rooms().count_out(code)


@bp.errorhandler(ConnectionError)
def client_gone(_: ConnectionError) -> tuple[str, int]:
    """Answer (to no one) a client that went away during the handshake: normal, so nothing is logged."""
    return "", 400


def game_socket(ws: Any, code: str) -> None:
    """Serve one socket until it closes; cut the connection of one whose writer is stuck."""
    connection = Connection(ws, code, g.caller, request.args.get("token"), request_language(),
                            service.rooms(), service.store(), current_app.config,
                            patches=request.args.get("updates") == "patch")
    connection.serve()
    raw = request.environ.get("gunicorn.socket")
    if connection.writer.is_alive() and raw is not None:
        # The writer waits on a client that takes nothing: end the connection under it (gunicorn's
        # socket, which the request carries), so that its send, and the socket, end now.
        with contextlib.suppress(OSError):
            raw.shutdown(socket.SHUT_RDWR)


sock = Sock()
sock.route("/ws/games/<code>", bp=bp)(game_socket)
