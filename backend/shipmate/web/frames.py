"""The WebSocket fast path: each socket's frames read and written here, under simple-websocket.

simple-websocket makes the handshake and sends the close frame; everything between goes through
this module. Its own way reads each socket in a thread of its own, parses every frame with wsproto
and hands each message to the request's thread (for the one small frame of an action, two thread
switches and more Python than the action's rules), and frames every message it sends with wsproto,
one socket at a time. Here the request's own thread reads the client's frames (`FrameReader`,
RFC 6455 section 5: it refuses what a client must not send, with the close code the RFC gives), and
an update is framed once per viewer and written straight to each socket (`Wire`). In an alternated
A/B (bench/compare, 3 rounds of each, 10 s, 2026-12-01) simple-websocket's reading and writing
carried 12.5 % fewer actions/s at 10 games and 18.2 % fewer at 50, so this path stays; the tests
in tests/realtime/test_frames.py pin it to wsproto (the same messages, close codes and frames).
No WebSocket extension is negotiated: a browser's permessage-deflate offer is declined.
"""

from __future__ import annotations

import contextlib
import socket
import struct
from dataclasses import dataclass
from typing import Any

from simple_websocket import ConnectionClosed

OP_TEXT, OP_BINARY, OP_CONTINUATION, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


class ProtocolError(Exception):
    """The client broke the protocol; close the socket with `code`."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Control:
    """A control frame: close, ping or pong, with its payload."""

    opcode: int
    payload: bytes

    def close_code(self) -> int:
        """Return the status code of a close frame (1005 when it carries none)."""
        return int.from_bytes(self.payload[:2], "big") if len(self.payload) >= 2 else 1005


Message = str | bytes | Control


def unmask(payload: bytes, mask: bytes) -> bytes:
    """XOR `payload` with the 4-byte `mask`, repeated (section 5.3)."""
    size = len(payload)
    key = (mask * (size // 4 + 1))[:size]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(size, "little")


class FrameReader:
    """Turn the bytes a client sends into its messages and control frames, in order."""

    def __init__(self, max_message: int) -> None:
        self.max_message = max_message
        self._buffer = b""
        self._opcode: int | None = None  # the data message being reassembled from fragments
        self._parts: list[bytes] = []
        self._size = 0

    def feed(self, data: bytes) -> list[Message]:
        """Take more bytes; return every message and control frame they complete."""
        self._buffer += data
        out: list[Message] = []
        while (frame := self._frame()) is not None:
            fin, opcode, payload = frame
            if opcode >= OP_CLOSE:
                if opcode == OP_CLOSE:
                    check_close(payload)
                out.append(Control(opcode, payload))
                continue
            if opcode == OP_CONTINUATION:
                if self._opcode is None:
                    raise ProtocolError(1002, "continuation without a message")
            elif self._opcode is not None:
                raise ProtocolError(1002, "a new message inside a fragmented one")
            else:
                self._opcode = opcode
            self._size += len(payload)
            if self._size > self.max_message:
                raise ProtocolError(1009, "message too big")
            self._parts.append(payload)
            if fin:
                body, kind = b"".join(self._parts), self._opcode
                self._opcode, self._parts, self._size = None, [], 0
                if kind == OP_BINARY:
                    out.append(body)
                else:
                    try:
                        out.append(body.decode())
                    except UnicodeDecodeError:
                        raise ProtocolError(1007, "text that is not UTF-8") from None
        return out

    def _frame(self) -> tuple[bool, int, bytes] | None:
        buffer = self._buffer
        if len(buffer) < 2:
            return None
        first, second = buffer[0], buffer[1]
        fin, opcode, size = bool(first & 0x80), first & 0x0F, second & 0x7F
        if first & 0x70:
            raise ProtocolError(1002, "reserved bits set with no extension")
        if not second & 0x80:
            raise ProtocolError(1002, "a client frame must be masked")
        if opcode not in (OP_TEXT, OP_BINARY, OP_CONTINUATION, OP_CLOSE, OP_PING, OP_PONG):
            raise ProtocolError(1002, f"unknown opcode {opcode}")
        if opcode >= OP_CLOSE and (size > 125 or not fin):
            raise ProtocolError(1002, "control frames are short and whole")
        start = 2
        if size == 126:
            start = 4
            if len(buffer) < start:
                return None
            size = int.from_bytes(buffer[2:4], "big")
        elif size == 127:
            start = 10
            if len(buffer) < start:
                return None
            size = int.from_bytes(buffer[2:10], "big")
        if size > self.max_message:
            raise ProtocolError(1009, "message too big")
        end = start + 4 + size
        if len(buffer) < end:
            return None
        payload = unmask(buffer[start + 4:end], buffer[start:start + 4])
        self._buffer = buffer[end:]
        return fin, opcode, payload


CLOSE_CODES = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013})
"""The close codes below 3000 that a peer may send (section 7.4.1; 1004–1006 and 1015 are never sent)."""


def check_close(payload: bytes) -> None:
    """Refuse a close frame a client must not send: one byte, a code no peer sends, or a reason
    that is not UTF-8 (sections 5.5.1 and 7.4)."""
    if not payload:
        return
    if len(payload) == 1:
        raise ProtocolError(1002, "a close frame with one byte")
    code = int.from_bytes(payload[:2], "big")
    if code not in CLOSE_CODES and not 3000 <= code <= 4999:
        raise ProtocolError(1002, f"close code {code} is not one a peer sends")
    try:
        payload[2:].decode()
    except UnicodeDecodeError:
        raise ProtocolError(1007, "a close reason that is not UTF-8") from None


def control_frame(opcode: int, payload: bytes = b"") -> bytes:
    """Return an unmasked control frame as a server sends it (payload at most 125 bytes)."""
    return bytes((0x80 | opcode, len(payload))) + payload


def frame_header(size: int) -> bytes:
    """Return the header of an unmasked, unfragmented text frame of `size` bytes (RFC 6455, 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size)
    return struct.pack("!BBQ", 0x81, 127, size)


def text_frame(payload: bytes) -> bytes:
    """Return `payload` as an unmasked, unfragmented WebSocket text frame, as a server sends it."""
    return frame_header(len(payload)) + payload


READ_SIZE = 65536
"""Bytes asked of the socket at once by a reader."""


class NoReader:
    """simple-websocket's reader thread (its `thread_class`), never started: `Wire` reads the socket."""

    def __init__(self, target: Any) -> None:
        self.name = "simple-websocket-reader"

    def start(self) -> None:
        """Nothing: the request's thread reads the socket (`Wire.recv`)."""


class Wire:
    """One socket under simple-websocket's `Server`, read and written directly.

    Writes from different threads are kept whole by the caller's lock. `answered` says whether the
    last protocol ping got its pong (the reader sets it).
    """

    def __init__(self, ws: Any) -> None:
        self._ws = ws
        self._sock: socket.socket = ws.sock
        # Under gevent a send may be tried without waiting (`send_now`).
        self.direct = type(self._sock).__module__.startswith("gevent")
        self.answered = True

    @property
    def open(self) -> bool:
        """Whether the socket may still be written to."""
        return bool(self._ws.connected)

    def recv(self) -> bytes:
        """Wait for the client's next bytes (b"" once it closed its side)."""
        try:
            return self._sock.recv(READ_SIZE)
        except OSError:
            self._ws.connected = False
            raise

    def send_now(self, frame: bytes) -> int:
        """Send what the kernel takes of `frame` at once, without waiting (gevent); return how much."""
        try:
            return self._sock.send(frame, 0, 0.0)  # type: ignore[call-arg]  # gevent's timeout 0
        except BlockingIOError:
            return 0

    def send(self, frame: bytes) -> None:
        """Send the whole frame (ConnectionClosed once the socket closed)."""
        if not self._ws.connected:
            raise ConnectionClosed(self._ws.close_reason, self._ws.close_message)
        sent = self._sock.send(frame)  # one call: gevent's sendall asks the socket for its buffer size first
        if sent < len(frame):
            self._sock.sendall(frame[sent:])

    def close(self, code: int, reason: str) -> None:
        """Send the close frame (simple-websocket's own `close`); ConnectionClosed if already closed."""
        self._ws.close(reason=code, message=reason)

    def cut(self) -> None:
        """Shut the connection down at once (a peer that reads nothing never gets a close frame)."""
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
