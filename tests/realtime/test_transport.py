"""web/transport.py on a real socket: a message offered to a full socket is never waited for, and
nothing offered is lost or torn once the client reads again."""

from __future__ import annotations

import socket
import threading

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Request, TextMessage

from shipmate.web.transport import WebSocket

KEEPALIVE = 5.0  # a send that waited would fail the test with a timeout instead of hanging it


def opened() -> tuple[WebSocket, socket.socket, WSConnection]:
    """A server's WebSocket and its client (a wsproto client on the other end of a socket pair),
    handshake done; both socket buffers as small as the kernel allows."""
    server_sock, client_sock = socket.socketpair()
    server_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    client_sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client = WSConnection(ConnectionType.CLIENT)
    request = client.send(Request(host="table.local", target="/ws/games/K7QX2M"))
    lines = request.decode("latin-1").split("\r\n")[1:]
    environ = {"HTTP_" + name.upper().replace("-", "_"): value.strip()
               for name, value in (line.split(":", 1) for line in lines if ":" in line)}
    ws = WebSocket(server_sock, environ, keepalive=KEEPALIVE, max_message_size=1 << 20)
    client.receive_data(client_sock.recv(65536))
    assert any(isinstance(event, AcceptConnection) for event in client.events())
    client_sock.settimeout(KEEPALIVE)
    return ws, client_sock, client


def test_an_offer_to_a_full_socket_keeps_its_end_and_takes_nothing_more_until_flushed() -> None:
    ws, client_sock, client = opened()
    texts = [f"{n:04d}" + "x" * 20_000 for n in range(64)]
    taken = []
    for text in texts:  # the client reads nothing: the buffers fill within a few messages
        if not ws.offer(text):
            break
        taken.append(text)
    assert taken and len(taken) < len(texts), "the socket never filled"
    assert ws.pending  # the last one taken is half written
    assert not ws.offer("too soon") and ws.pending  # nothing is taken behind a half-written frame

    received: list[str] = []
    parts: list[str] = []

    def read() -> None:
        while len(received) < len(taken) + 1:
            client.receive_data(client_sock.recv(65536))
            for event in client.events():
                if isinstance(event, TextMessage):
                    parts.append(event.data)
                    if event.message_finished:
                        received.append("".join(parts))
                        parts.clear()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    ws.flush()
    assert not ws.pending
    ws.send("after")
    reader.join(KEEPALIVE * 2)
    assert received == [*taken, "after"]  # in order, whole, once each
    ws.shutdown()
    client_sock.close()
    ws.sock.close()


def test_an_offer_to_a_socket_with_room_is_written_at_once() -> None:
    ws, client_sock, client = opened()
    assert ws.offer('{"type":"ping","version":3}') and not ws.pending
    client.receive_data(client_sock.recv(65536))
    assert [event.data for event in client.events() if isinstance(event, TextMessage)] == [
        '{"type":"ping","version":3}']
    ws.shutdown()
    client_sock.close()
    ws.sock.close()


def test_frames_offered_while_corked_are_held_and_then_written_together_in_order() -> None:
    ws, client_sock, client = opened()
    ws.cork()
    assert ws.offer('{"type":"patch","version":8}') and ws.offer('{"type":"result","id":"a1"}')
    client_sock.setblocking(False)
    try:
        client_sock.recv(1)
        raise AssertionError("a held frame was written before uncork")
    except BlockingIOError:
        pass
    client_sock.setblocking(True)
    client_sock.settimeout(KEEPALIVE)
    ws.uncork()
    assert not ws.pending
    client.receive_data(client_sock.recv(65536))
    assert [event.data for event in client.events() if isinstance(event, TextMessage)] == [
        '{"type":"patch","version":8}', '{"type":"result","id":"a1"}']
    ws.shutdown()
    client_sock.close()
    ws.sock.close()
