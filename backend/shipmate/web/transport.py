"""One WebSocket on wsproto's sans-IO API, read by the request's own thread.

The handshake is wsproto's: it takes the upgrade request's headers as the server parsed them, and
its answer goes out on the connection's socket. After it, `receive` reads the socket,
feeds wsproto and acts on what it parses: it answers pings and closes, joins a message's fragments,
closes a message over the size limit (1009) and a protocol error (wsproto's code, 1002 or 1007),
and, when nothing has come for `keepalive` seconds, sends a ping; a client that sent nothing by
the next one is gone, and its socket is closed (1008). `send` and `close` may be called from
another thread (the socket's writer): a lock keeps wsproto's state and each frame's bytes whole.

`offer` sends a message without ever waiting, for the thread that hands a change to every socket of
a table: it writes what the socket's buffer takes at once and keeps the rest (`pending`), which
`flush` (or the next `send`) writes before anything else. Between `cork` and `uncork` offered
frames are held and then written in one go. It writes with the socket's timeout at
zero for that one call; under gevent, which serves the sockets, no other green thread runs between
the two `settimeout` calls, so the reader's wait on the same socket never sees it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.connection import Connection, ConnectionState
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Event,
    Ping,
    Request,
    TextMessage,
)
from wsproto.utilities import RemoteProtocolError

RECEIVE_BYTES = 65536
"""The most bytes one read takes off the socket (a whole action, and whatever came with it)."""

MESSAGE_TOO_BIG = 1009
POLICY_VIOLATION = 1008
GONE = 1006
"""No close frame came: the client went away (or its socket was cut)."""


class ConnectionClosed(Exception):
    """The socket is closed, or closing: nothing more is received or sent."""

    def __init__(self, code: int, reason: str | None = None) -> None:
        super().__init__(f"connection closed: {code} {reason or ''}")
        self.code = code
        self.reason = reason


def upgrade_headers(environ: Mapping[str, Any]) -> list[tuple[bytes, bytes]]:
    """Return the upgrade request's headers from a WSGI environ (its HTTP_* keys)."""
    return [(key[5:].replace("_", "-").lower().encode("latin-1"), str(value).encode("latin-1"))
            for key, value in environ.items() if key.startswith("HTTP_")]


class WebSocket:
    """A server's side of one WebSocket, over a connected socket."""

    def __init__(self, sock: socket.socket, environ: Mapping[str, Any], *, keepalive: float,
                 max_message_size: int) -> None:
        self.sock = sock
        self._lock = threading.Lock()
        self._max = max_message_size
        self._inbox: deque[str | bytes] = deque()
        self._parts: list[str | bytes] = []
        self._size = 0
        self._pinged = False  # a keep-alive ping went out and nothing has come since
        self._closed: ConnectionClosed | None = None
        self._keepalive = keepalive
        self._rest = memoryview(b"")  # the end of a frame `offer` could not write at once
        self._held: list[bytes] | None = None  # frames offered while corked (`cork`)
        # The server parsed the request already: wsproto takes its headers as they are.
        handshake = WSConnection(ConnectionType.SERVER)
        handshake.initiate_upgrade_connection(upgrade_headers(environ), environ.get("PATH_INFO", "/"))
        if not any(isinstance(event, Request) for event in handshake.events()):
            raise RemoteProtocolError("Not a WebSocket upgrade request.", event_hint=None)
        # No extension: compressing each small message would cost more than it saves.
        accept = handshake.send(AcceptConnection())
        # Only the WebSocket's own state is kept past the handshake, not the HTTP parser's (memory
        # for every open socket).
        assert handshake.connection is not None
        self._ws: Connection = handshake.connection
        self._write(accept)
        self.sock.settimeout(keepalive)

    def receive(self) -> str | bytes:
        """Return the client's next message; raise ConnectionClosed once the socket closes."""
        while not self._inbox:
            if self._closed is not None:
                raise self._closed
            try:
                data = self.sock.recv(RECEIVE_BYTES)
            except TimeoutError:
                self._keep_alive()
                continue
            except OSError:
                data = b""
            if not data:
                self._end(ConnectionClosed(GONE))
                continue
            self._pinged = False
            self._ws.receive_data(data)
            for event in self._ws.events():
                self._take(event)
        return self._inbox.popleft()

    def send(self, text: str) -> None:
        """Send one text message."""
        self._send(TextMessage(data=text))

    def offer(self, text: str) -> bool:
        """Send one text message without waiting: True once it is taken (written, or its end kept
        for `flush`), False when nothing was taken (another thread is writing, or the end of an
        earlier frame still waits)."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            if self._rest:
                return False
            if self._closed is not None or self._ws.state is not ConnectionState.OPEN:
                raise self._closed or ConnectionClosed(GONE)
            frame = self._ws.send(TextMessage(data=text))
            if self._held is not None:
                self._held.append(frame)
            else:
                self._rest = self._write_now(memoryview(frame))
            return True
        finally:
            self._lock.release()

    def cork(self) -> None:
        """Hold the frames offered from now on, to write them in one go at `uncork` (an action's
        update and its answer: one system call and one wake-up of the client, not two)."""
        with self._lock:
            if self._held is None:
                self._held = []

    def uncork(self) -> None:
        """Write the frames held since `cork` without waiting (what the socket cannot take at once
        is left `pending`)."""
        with self._lock:
            held, self._held = self._held, None
            if held:  # behind the end of an earlier frame, if one still waits
                self._rest = self._write_now(memoryview(b"".join([self._rest, *held])))

    @property
    def pending(self) -> bool:
        """Whether the end of an offered frame still waits to be written (`flush`)."""
        return bool(self._rest)

    def flush(self) -> None:
        """Write the end of an offered frame, waiting for the socket as long as it takes."""
        with self._lock:
            self._flush()

    def close(self, code: int, reason: str) -> None:
        """Send a close frame (the client answers with its own, and the socket ends)."""
        with self._lock:
            if self._ws.state is ConnectionState.OPEN:
                self._flush()
                self._write(self._ws.send(CloseConnection(code, reason)))

    def shutdown(self) -> None:
        """Cut the socket, whatever waits on it."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)

    def _write(self, data: bytes | memoryview) -> None:
        """Write all of `data` (socket.send in a loop: sendall asks the kernel for the send buffer's
        size first, a system call per frame)."""
        view = memoryview(data)
        while view:
            view = view[self.sock.send(view):]

    def _write_now(self, view: memoryview) -> memoryview:
        """Write what the socket takes of `view` without waiting; return the rest."""
        self.sock.settimeout(0.0)
        try:
            while view:
                view = view[self.sock.send(view):]
        except BlockingIOError:
            pass
        finally:
            self.sock.settimeout(self._keepalive)
        return view

    def _flush(self) -> None:
        """Write what waits, the end of an offered frame and then any held frames, before anything else."""
        rest, self._rest = self._rest, memoryview(b"")
        self._write(rest)
        if self._held:
            held, self._held = self._held, []
            self._write(b"".join(held))

    def _send(self, event: Event) -> None:
        with self._lock:
            if self._closed is not None or self._ws.state is not ConnectionState.OPEN:
                raise self._closed or ConnectionClosed(GONE)
            self._flush()
            self._write(self._ws.send(event))

    def _take(self, event: Event) -> None:
        if isinstance(event, TextMessage | BytesMessage):
            self._size += len(event.data)
            if self._size > self._max:
                self._refuse(MESSAGE_TOO_BIG, "Message is too big")
                return
            self._parts.append(event.data if isinstance(event.data, str) else bytes(event.data))
            if event.message_finished:
                parts, self._parts, self._size = self._parts, [], 0
                first = parts[0]
                if len(parts) == 1:
                    self._inbox.append(first)
                else:
                    self._inbox.append("".join(parts) if isinstance(first, str) else b"".join(parts))  # type: ignore[arg-type]
        elif isinstance(event, Ping):
            self._send(event.response())
        elif isinstance(event, CloseConnection):
            # The client's close (echoed), or wsproto's word on a frame that broke the protocol
            # (sent to the client); the answer to a close of ours needs no reply.
            with self._lock:
                if self._ws.state in (ConnectionState.OPEN, ConnectionState.REMOTE_CLOSING):
                    self._flush()
                    self._write(self._ws.send(event.response()))
            self._end(ConnectionClosed(event.code, event.reason))

    def _refuse(self, code: int, reason: str) -> None:
        self.close(code, reason)
        self._end(ConnectionClosed(code, reason))

    def _keep_alive(self) -> None:
        if self._pinged:
            self._refuse(POLICY_VIOLATION, "Ping/Pong timeout")
            return
        self._pinged = True
        self._send(Ping())

    def _end(self, closed: ConnectionClosed) -> None:
        if self._closed is None:
            self._closed = closed
