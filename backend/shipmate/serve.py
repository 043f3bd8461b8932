"""The table server: the Flask app under gunicorn, its QR code, and a TLS certificate.

`run` is what `shipmate serve` does; the embedded Redis around it is `cli.py`'s business. Nothing here
imports redis: the gunicorn master loads this module, and a master that imported redis (whose asyncio
client holds `ssl.SSLContext`) would make every gevent worker it forks warn that ssl was imported
before it was monkey-patched.
"""

from __future__ import annotations

import datetime
import errno
import gc
import io
import ipaddress
import os
import re
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import segno
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter
from gunicorn.workers.ggevent import GeventWorker

# One gevent process: a table is about seven sockets and a living room has one or two tables; one
# core serves hundreds of sockets (docs/PERFORMANCE.md). deploy/gunicorn.conf.py says why gevent.
DEFAULT_WORKERS = 1
DEFAULT_CONNECTIONS = 1000

CERT_DAYS = 397
CERT_RENEW_BEFORE = datetime.timedelta(days=30)

TLS_HANDSHAKE = b"\x16"
"""The first byte of every TLS connection (a handshake record); a plain HTTP request starts with a letter."""

FIRST_BYTES_TIMEOUT = 10.0
"""Seconds a new connection on the TLS port may take to send its first bytes and finish the handshake."""

REQUEST_HEAD_LIMIT = 8192
"""Bytes of a plain-HTTP request read to redirect it to HTTPS."""

HOST_HEADER = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
PATH = re.compile(r"/[\x21-\x7e]*")


def data_home() -> Path:
    """Return the user's data folder for Shipmate ($XDG_DATA_HOME/shipmate or ~/.local/share/shipmate)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "shipmate"


def port_problem(host: str, port: int) -> str | None:
    """Return why a server cannot listen on host:port (one line, naming the option to change), else None.

    The port is bound as gunicorn binds it (SO_REUSEADDR: a port that a stopped server left in
    TIME_WAIT is free) and released at once; gunicorn itself would retry a taken port for seconds.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        return f"--host {host} is not an address of this computer ({exc.strerror})"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"port {port} is already in use (another program, or a shipmate serve still "
                        f"running); start on another one with --port {port + 1 if port < 65535 else 8000}")
            if exc.errno == errno.EACCES:
                return f"port {port} needs administrator rights; use a port from 1024 up, e.g. --port 8000"
            return f"cannot listen on {host}:{port} ({exc.strerror}); check --host and --port"
    return None


def qr_code(text: str) -> str:
    """Return `text` as a compact QR code drawn with block characters for a terminal."""
    out = io.StringIO()
    segno.make(text, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def certificate(folder: Path, addresses: list[str]) -> tuple[Path, Path]:
    """Return (certificate, key) files of a self-signed certificate for localhost and `addresses`.

    The pair in `folder` is reused while it covers every address and is not about to expire (a
    phone that once accepted it need not accept a new one); otherwise a new pair replaces it.
    """
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    wanted = {ipaddress.ip_address(a) for a in ["127.0.0.1", *addresses]}
    if cert_file.exists() and key_file.exists():
        cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
        sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        fresh = cert.not_valid_after_utc - datetime.datetime.now(datetime.UTC) > CERT_RENEW_BEFORE
        if fresh and wanted <= set(sans.get_values_for_type(x509.IPAddress)):
            return cert_file, key_file
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Shipmate table server")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CERT_DAYS))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), *(x509.IPAddress(a) for a in sorted(wanted, key=str))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    key_file.touch(mode=0o600)
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_file, key_file


def settle_worker(_worker: Any) -> None:
    """Tune a worker's garbage collector once the app is loaded (gunicorn's post_worker_init).

    Everything loaded so far (the app, the rules, the rulesets) lives as long as the process, so
    it is frozen out of every future collection; and a collection waits for 100,000 new objects
    instead of 700. Each action parses and renders a few thousand short-lived, acyclic objects
    that reference counting frees anyway, while every collection of the oldest generation walked
    every socket's greenlets and buffers: the profile charged it to whatever allocated next.
    """
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def redirect_to_https(head: bytes) -> bytes:
    """Return the answer to a plain-HTTP request that came to the TLS port: the same URL over HTTPS.

    307 rather than 301: a browser keeps a permanent redirect, and the same port may serve plain
    HTTP again when the server is next started without --tls.
    """
    request_line, *headers = head.decode("latin-1").split("\r\n")
    method_path_version = request_line.split(" ")
    host = next((line.split(":", 1)[1].strip() for line in headers if line.lower().startswith("host:")), "")
    if (len(method_path_version) != 3 or not PATH.fullmatch(method_path_version[1])
            or not HOST_HEADER.fullmatch(host)):
        return b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    return (f"HTTP/1.1 307 Temporary Redirect\r\nLocation: https://{host}{method_path_version[1]}\r\n"
            "Content-Length: 0\r\nConnection: close\r\n\r\n").encode("latin-1")


def _request_head(client: socket.socket) -> bytes:
    """Read a request's head (up to its blank line, at most REQUEST_HEAD_LIMIT bytes)."""
    head = b""
    while b"\r\n\r\n" not in head and len(head) < REQUEST_HEAD_LIMIT:
        chunk = client.recv(REQUEST_HEAD_LIMIT - len(head))
        if not chunk:
            break
        head += chunk
    return head.split(b"\r\n\r\n", 1)[0]


class TableWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, with TLS of its own and a quit that happens once.

    gevent's server would make the TLS handshake before the worker sees a connection, so a phone
    that typed http:// got a reset and every refused handshake printed a traceback. This worker
    looks at the first byte: a TLS handshake is wrapped here (a refusal, such as a phone that has
    not accepted the certificate yet, is one debug line), and a plain-HTTP request is redirected to
    the same URL over HTTPS. gunicorn itself serves the connection as plain TCP (no certfile in its
    settings, no sendfile under TLS), so the worker tells each request that it came over HTTPS.
    """

    tls: ssl.SSLContext | None = None
    _quitting = False

    def run(self) -> None:
        """Make the TLS context (after the worker monkey-patched ssl, so it cooperates), then serve."""
        files: tuple[Path, Path] | None = getattr(self.app, "tls", None)
        if files is not None:
            self.tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            self.tls.load_cert_chain(*map(str, files))
        super().run()

    def handle(self, listener: socket.socket, client: socket.socket, addr: Any) -> None:
        """Serve a connection; on the TLS port, only once it is TLS."""
        if self.tls is None:
            super().handle(listener, client, addr)
            return
        secure = self._secure(client, addr)
        if secure is not None:
            super().handle(listener, secure, addr)

    def _secure(self, client: socket.socket, addr: Any) -> ssl.SSLSocket | None:
        """Return the connection wrapped in TLS; None when it was plain HTTP (redirected) or failed."""
        assert self.tls is not None
        client.settimeout(FIRST_BYTES_TIMEOUT)
        try:
            first = client.recv(1, socket.MSG_PEEK)
            if first == TLS_HANDSHAKE:
                return self.tls.wrap_socket(client, server_side=True)
            if first:
                client.sendall(redirect_to_https(_request_head(client)))
        except OSError as exc:  # ssl.SSLError too: a certificate refused, a client gone or silent
            self.log.debug("no TLS connection with %s: %s", addr, exc)
        client.close()
        return None

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """Serve one request, marked HTTPS on the TLS port (gunicorn knows of no TLS here)."""
        if self.tls is not None:
            req.scheme = "https"
        return super().handle_request(listener_name, req, sock, addr)

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        """Quit, once.

        Ctrl-C reaches the worker twice: from the terminal (SIGINT to the whole process group) and
        from the master (SIGQUIT). A second quit raised SystemExit again while the first was already
        shutting the interpreter down, and gevent printed it as a traceback.
        """
        if self._quitting:
            return
        self._quitting = True
        super().handle_quit(sig, frame)


@dataclass(frozen=True, slots=True)
class Options:
    """What `shipmate serve` was asked for."""

    host: str
    port: int
    workers: int
    connections: int
    tls: tuple[Path, Path] | None


def gunicorn_settings(options: Options, when_ready: Callable[[Arbiter], None]) -> dict[str, Any]:
    """Return the gunicorn settings of a table server."""
    settings: dict[str, Any] = {
        "bind": [f"[{options.host}]:{options.port}" if ":" in options.host else
                 f"{options.host}:{options.port}"],
        "worker_class": TableWorker,
        "workers": options.workers,
        "worker_connections": options.connections,
        # Phones resume after a restart, so a stop need not wait long for open sockets.
        "graceful_timeout": 5,
        # The control socket's default path is shared by every gunicorn of the user.
        "control_socket_disable": True,
        # A phone reuses its connection for its next request; gunicorn's 2 s default closes an idle one
        # just as that request may be on its way (a busy server reads it late), and the phone then
        # sees a reset instead of an answer. 75 s outlasts the phones' own idle timeouts.
        "keepalive": 75,
        "accesslog": None,
        # The banner says what a host needs; gunicorn's own lines (booting, signals) only when wrong.
        "loglevel": "warning",
        "when_ready": when_ready,
        "post_worker_init": settle_worker,
    }
    if options.tls:
        # TableWorker makes the TLS connections; sendfile would write a file past the encryption.
        settings["sendfile"] = False
    return settings


class _TableArbiter(Arbiter):  # type: ignore[misc]
    """Gunicorn's master, except that a hang-up (its terminal closed) stops it instead of reloading."""

    def handle_hup(self) -> None:
        """Stop, as on SIGTERM."""
        self.handle_term()


class TableServer(BaseApplication):  # type: ignore[misc]
    """The Flask app as a gunicorn application configured in code rather than by a file."""

    def __init__(self, settings: dict[str, Any], tls: tuple[Path, Path] | None = None) -> None:
        self.settings = settings
        self.tls = tls  # the certificate and key that TableWorker serves HTTPS with
        super().__init__(prog="shipmate serve")

    def load_config(self) -> None:
        """Apply the settings."""
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        """Create the Flask app (in each worker; REDIS_URL is in the environment by now)."""
        from .web import create_app  # here, so that only the workers load the web layer

        return create_app()

    def run(self) -> None:
        """Run the master until it stops; it exits the process through SystemExit."""
        _TableArbiter(self).run()


def run(options: Options, banner: str) -> None:
    """Serve until stopped, printing `banner` once the port is bound."""

    def when_ready(_arbiter: Arbiter) -> None:
        print(banner, flush=True)

    TableServer(gunicorn_settings(options, when_ready), options.tls).run()
