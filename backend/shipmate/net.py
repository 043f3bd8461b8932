"""Where phones find the server: this computer's LAN address, loopback names, and the host links carry.

Imported by the CLI (the banner) and the web app (the links it hands out); it imports neither.
"""

from __future__ import annotations

import ipaddress
import socket

EVERY_ADDRESS = ("0.0.0.0", "::", "")
"""The bind addresses that mean every interface: phones reach such a server on its LAN address."""


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


def is_loopback(host: str) -> bool:
    """Return whether `host` (a name or an address) names this computer only: no phone can open it."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def link_host(bind: str, requested: str) -> str:
    """Return the host that links carry for a server bound to `bind`, asked for as `requested`.

    A server bound to one address hands out that address, and one bound to loopback the name it was
    asked by (only this computer can open its links, as only this computer reaches it). One bound to
    every address ("" also when the bind address is unknown) hands out the requested host, except
    that a loopback name becomes the LAN address: a host who opened http://localhost:8000 on the
    laptop hands out links that phones can open (unless the laptop is on no network at all).
    """
    if bind not in EVERY_ADDRESS:
        return requested if is_loopback(bind) else bind
    if is_loopback(requested):
        lan = lan_address()
        if not is_loopback(lan):
            return lan
    return requested


def phone_url(host: str, port: int, tls: bool, lan: str) -> str:
    """Return the URL phones on the table's Wi-Fi open for a server bound to `host`."""
    shown = lan if host in EVERY_ADDRESS else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'https' if tls else 'http'}://{shown}:{port}/"
