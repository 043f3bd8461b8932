"""The table server: the Flask app under gunicorn, its LAN address and QR code, and a TLS certificate.

`run` is what `shipmate serve` does; the embedded Redis around it is `cli.py`'s business.
"""

from __future__ import annotations

import datetime
import gc
import io
import ipaddress
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import segno
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter

# One gevent process: a table is about seven sockets and a living room has one or two tables; one
# core serves hundreds of sockets (docs/PERFORMANCE.md). deploy/gunicorn.conf.py says why gevent.
DEFAULT_WORKERS = 1
DEFAULT_CONNECTIONS = 1000

CERT_DAYS = 397
CERT_RENEW_BEFORE = datetime.timedelta(days=30)


def data_home() -> Path:
    """Return the user's data folder for Shipmate ($XDG_DATA_HOME/shipmate or ~/.local/share/shipmate)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "shipmate"


def lan_address() -> str:
    """Return the IPv4 address this machine shows its network, else 127.0.0.1.

    Connecting a UDP socket only picks the route and the source address; no packet is sent.
    192.0.2.1 (TEST-NET-1) is never routed anywhere, so the default route is what gets picked.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return "127.0.0.1" if address.startswith("0.") else address


def phone_url(host: str, port: int, tls: bool, lan: str) -> str:
    """Return the URL phones on the table's Wi-Fi open for a server bound to `host`."""
    shown = lan if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'https' if tls else 'http'}://{shown}:{port}/"


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
        "worker_class": "gevent",
        "workers": options.workers,
        "worker_connections": options.connections,
        # Phones resume after a restart, so a stop need not wait long for open sockets.
        "graceful_timeout": 5,
        # The control socket's default path is shared by every gunicorn of the user.
        "control_socket_disable": True,
        "accesslog": None,
        "when_ready": when_ready,
        "post_worker_init": settle_worker,
    }
    if options.tls:
        settings["certfile"], settings["keyfile"] = map(str, options.tls)
    return settings


class _TableArbiter(Arbiter):  # type: ignore[misc]
    """Gunicorn's master, except that a hang-up (its terminal closed) stops it instead of reloading."""

    def handle_hup(self) -> None:
        """Stop, as on SIGTERM."""
        self.handle_term()


class TableServer(BaseApplication):  # type: ignore[misc]
    """The Flask app as a gunicorn application configured in code rather than by a file."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
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

    TableServer(gunicorn_settings(options, when_ready)).run()
