"""The client-frame reader of sockets without extensions, against the frames wsproto's client makes."""

from __future__ import annotations

import pytest
from wsproto.connection import Connection, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage

from shipmate.web.frames import (
    OP_CLOSE,
    OP_PING,
    OP_PONG,
    Control,
    FrameReader,
    ProtocolError,
    control_frame,
    unmask,
)


def client() -> Connection:
    return Connection(ConnectionType.CLIENT)


def test_messages_of_every_length_come_out_whole_whatever_the_pieces_they_arrive_in() -> None:
    sender, reader = client(), FrameReader(max_message=200_000)
    texts = ["", "a", "é" * 62, "x" * 125, "y" * 126, "z" * 65535, "w" * 65536, '{"type":"action"}']
    wire = b"".join(sender.send(TextMessage(data=text)) for text in texts)
    wire += sender.send(BytesMessage(data=b"\x00\xff"))
    got: list[object] = []
    for start in range(0, len(wire), 7):  # seven bytes at a time: every header cut somewhere
        got += reader.feed(wire[start:start + 7])
    assert got == [*texts, b"\x00\xff"]


def test_a_fragmented_message_is_joined_and_control_frames_in_between_pass_through() -> None:
    sender, reader = client(), FrameReader(max_message=1000)
    wire = sender.send(TextMessage(data="hel", message_finished=False))
    wire += sender.send(Ping(payload=b"p"))
    wire += sender.send(TextMessage(data="lo", message_finished=True))
    wire += sender.send(Pong(payload=b"q"))
    wire += sender.send(CloseConnection(code=1000, reason="bye"))
    got = reader.feed(wire)
    assert got == [Control(OP_PING, b"p"), "hello", Control(OP_PONG, b"q"), Control(OP_CLOSE, b"\x03\xe8bye")]
    assert isinstance(got[-1], Control) and got[-1].close_code() == 1000


@pytest.mark.parametrize(("wire", "code"), [
    (bytes((0x81, 0x02)) + b"hi", 1002),  # not masked
    (bytes((0xC1, 0x80)) + b"\x00" * 4, 1002),  # a reserved bit (compression) not negotiated
    (bytes((0x83, 0x80)) + b"\x00" * 4, 1002),  # an unknown opcode
    (bytes((0x80, 0x80)) + b"\x00" * 4, 1002),  # a continuation of nothing
    (bytes((0x09, 0x80)) + b"\x00" * 4, 1002),  # a fragmented ping
    (bytes((0x81, 0xFE, 0x04, 0x00)) + b"\x00" * 4 + b"a" * 1024, 1009),  # bigger than allowed
    (bytes((0x81, 0x82)) + b"\x00" * 4 + b"\xff\xfe", 1007),  # text that is not UTF-8
])
def test_what_a_client_must_not_send_is_refused_with_its_close_code(wire: bytes, code: int) -> None:
    with pytest.raises(ProtocolError) as refused:
        FrameReader(max_message=1000).feed(wire)
    assert refused.value.code == code


def test_masking_is_an_xor_with_the_key_repeated() -> None:
    assert unmask(b"\x00\x00\x00\x00\x00\x01", b"\x01\x02\x03\x04") == b"\x01\x02\x03\x04\x01\x03"
    assert control_frame(OP_PONG, b"ab") == b"\x8a\x02ab"
