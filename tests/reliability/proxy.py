"""A local TCP proxy for fault tests: it forwards both ways until told to lose a reply or to freeze."""

from __future__ import annotations

import contextlib
import socket
import threading


class Proxy:
    """Listen on 127.0.0.1 and forward every connection to `target` (host, port).

    `lose_reply_to(marker)`: the next request holding `marker` reaches the server, but its reply is
    dropped and the connection cut, as when a network fails at the worst moment. `freeze()`: from then
    on nothing passes in either direction and connections stay open, like a phone that vanished from
    the Wi-Fi; `server_closed` is set once the server side closes a frozen connection. `hold(marker)`:
    every request holding `marker` (and whatever follows on its connection) stops here, so the caller
    waits, as on a server whose next step never reaches the network; `held` counts those requests.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self.server_closed = threading.Event()
        self._frozen = threading.Event()
        self._marker: bytes | None = None
        self._held: bytes | None = None
        self.held = 0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []

    def start(self) -> Proxy:
        """Start accepting connections."""
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def lose_reply_to(self, marker: bytes) -> None:
        """Drop the reply to the next request that contains `marker`, and cut its connection."""
        with self._lock:
            self._marker = marker

    def hold(self, marker: bytes) -> None:
        """From now on, keep every request that holds `marker` from reaching the server."""
        with self._lock:
            self._held = marker

    def freeze(self) -> None:
        """Pass nothing more in either direction, keeping every connection open."""
        self._frozen.set()

    def close(self) -> None:
        """Stop listening and close every connection."""
        with self._lock:
            for sock in [self._listener, *self._sockets]:
                with contextlib.suppress(OSError):
                    sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self._lock:
                self._sockets += [client, server]
            cut = threading.Event()
            threading.Thread(target=self._requests, args=(client, server, cut), daemon=True).start()
            threading.Thread(target=self._replies, args=(server, client, cut), daemon=True).start()

    def _requests(self, client: socket.socket, server: socket.socket, cut: threading.Event) -> None:
        held = False
        with contextlib.suppress(OSError):
            while chunk := client.recv(65536):
                with self._lock:
                    marked = self._held is not None and self._held in chunk
                    self.held += marked
                    held = held or marked
                if self._frozen.is_set() or held:
                    continue
                with self._lock:
                    if self._marker is not None and self._marker in chunk:
                        self._marker = None
                        cut.set()
                server.sendall(chunk)
        with contextlib.suppress(OSError):
            server.shutdown(socket.SHUT_WR)

    def _replies(self, server: socket.socket, client: socket.socket, cut: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while chunk := server.recv(65536):
                if cut.is_set():  # the server has done the work; its answer is lost on the way
                    break
                if not self._frozen.is_set():
                    client.sendall(chunk)
        if self._frozen.is_set():
            self.server_closed.set()
        for sock in (client, server):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
