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


def _wsproto_server_reads(wire: bytes) -> tuple[list[object], int | None]:
    """What wsproto's own server makes of `wire`: the messages and controls, and a close code it
    refused the wire with (None when it took it all)."""
    from wsproto.frame_protocol import FrameProtocol, ParseFailed

    reader = FrameProtocol(client=False, extensions=[])
    reader.receive_bytes(wire)
    got: list[object] = []
    text: list[str] = []
    try:
        for frame in reader.received_frames():
            if frame.opcode.name == "CLOSE":
                code, reason = frame.payload
                raw = b"" if code == 1005 else code.to_bytes(2, "big") + reason.encode()
                got.append(Control(OP_CLOSE, raw))
            elif frame.opcode.name in ("PING", "PONG"):
                got.append(Control(OP_PING if frame.opcode.name == "PING" else OP_PONG, frame.payload))
            else:
                text.append(frame.payload)
                if frame.message_finished:
                    got.append("".join(text) if isinstance(text[0], str) else b"".join(text))
                    text = []
    except ParseFailed as failed:
        return got, int(failed.code)
    return got, None


def _ours(wire: bytes) -> tuple[list[object], int | None]:
    reader = FrameReader(max_message=100_000)
    got: list[object] = []
    try:
        for start in range(0, len(wire), 5):
            got += reader.feed(wire[start:start + 5])
    except ProtocolError as refused:
        return got, refused.code
    return got, None


@pytest.mark.parametrize("payload", [
    b"", b"\x03", b"\x03\xe8", b"\x03\xe8fine", b"\x03\xe8\xff\xfe", b"\x03\xe8\xe2\x82",  # 1000
    *(code.to_bytes(2, "big") for code in (0, 999, 1004, 1005, 1006, 1012, 1014, 1015, 1016, 2000, 2999,
                                           3000, 3999, 4000, 4999, 5000, 65535)),
])
def test_a_close_frame_is_read_as_wsproto_reads_it(payload: bytes) -> None:
    """RFC 6455 5.5.1 and 7.4: one byte, a code no peer sends, a reason that is not UTF-8."""
    from wsproto.frame_protocol import FrameProtocol, Opcode

    wire = FrameProtocol(client=True, extensions=[])._serialize_frame(Opcode.CLOSE, payload)
    assert _ours(wire) == _wsproto_server_reads(wire)


def test_fragments_pings_and_bad_text_are_read_as_wsproto_reads_them() -> None:
    """Fragmented text with pings between its pieces, split across every boundary, then text that
    is not UTF-8 once joined: the same messages, and the same close code, as wsproto's."""
    from wsproto.frame_protocol import FrameProtocol, Opcode

    sender = FrameProtocol(client=True, extensions=[])
    wire = b"".join((
        sender._serialize_frame(Opcode.TEXT, "é".encode()[:1], fin=False),
        sender._serialize_frame(Opcode.PING, b"1"),
        sender._serialize_frame(Opcode.CONTINUATION, "é".encode()[1:] + b"x", fin=True),
        sender._serialize_frame(Opcode.PONG, b"2"),
        sender._serialize_frame(Opcode.BINARY, b"\x00", fin=False),
        sender._serialize_frame(Opcode.CONTINUATION, b"\x01", fin=True),
        sender._serialize_frame(Opcode.TEXT, b"\xc3", fin=False),
        sender._serialize_frame(Opcode.CONTINUATION, b"(", fin=True),
    ))
    assert _ours(wire) == _wsproto_server_reads(wire)
