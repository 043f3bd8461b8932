"""Links the server hands out (join links, QR codes, the dice device's) carry an address that answers.

`site_url` decides from the bind address (BIND_HOST, which `shipmate serve --host` sets) and the
request's own host, in a real Flask request context; the servers of tests/cli show the same.
"""

from __future__ import annotations

import pytest
from flask import Flask

from shipmate.net import is_loopback, lan_address
from shipmate.web.config import DEFAULTS
from shipmate.web.urls import site_url


def links(bind: str, requested: str, public_url: str = "") -> str:
    """Return the base URL of the links a server bound to `bind` hands out for a request to `requested`."""
    app = Flask(__name__)
    app.config.update(DEFAULTS, BIND_HOST=bind, PUBLIC_URL=public_url)
    with app.test_request_context("/api/games", base_url=requested):
        return site_url()


def lan_or(requested: str) -> str:
    """Return `requested` with its host made this computer's LAN address (as is when on no network)."""
    lan = lan_address()
    return requested if is_loopback(lan) else requested.replace("127.0.0.1", lan).replace("localhost", lan)


@pytest.mark.parametrize(("bind", "requested"), [
    ("127.0.0.1", "http://127.0.0.1:8000"),
    ("127.0.0.1", "http://localhost:8000"),
    ("localhost", "http://localhost:8000"),
    ("::1", "http://[::1]:8000"),
    ("127.0.0.1", "https://127.0.0.1:8443"),
])
def test_a_server_on_loopback_hands_out_the_loopback_url_it_was_asked_by(bind: str, requested: str) -> None:
    assert links(bind, requested) == requested


@pytest.mark.parametrize("bind", ["0.0.0.0", "::", ""])
@pytest.mark.parametrize("requested", ["http://127.0.0.1:8000", "http://localhost:8000",
                                       "https://127.0.0.1:8443"])
def test_a_server_on_every_address_asked_over_loopback_hands_out_its_lan_address(
    bind: str, requested: str
) -> None:
    """"" is also a server whose bind address nobody told the app (gunicorn without `shipmate serve`)."""
    assert links(bind, requested) == lan_or(requested)


@pytest.mark.parametrize("bind", ["0.0.0.0", "::", ""])
def test_a_server_on_every_address_asked_by_a_phone_hands_out_the_address_the_phone_used(bind: str) -> None:
    assert links(bind, "http://192.168.1.20:8000") == "http://192.168.1.20:8000"
    assert links(bind, "http://laptop.local:8000") == "http://laptop.local:8000"


@pytest.mark.parametrize(("bind", "expected"), [
    ("192.168.1.20", "http://192.168.1.20:8000"),
    ("fd00::5", "http://[fd00::5]:8000"),
])
def test_a_server_on_one_address_hands_out_that_address(bind: str, expected: str) -> None:
    assert links(bind, "http://127.0.0.1:8000") == expected
    assert links(bind, "http://laptop.local:8000") == expected


@pytest.mark.parametrize("bind", ["127.0.0.1", "0.0.0.0", "192.168.1.20", ""])
def test_the_public_url_wins_over_every_bind_address(bind: str) -> None:
    assert links(bind, "http://127.0.0.1:8000", public_url="https://ship.example/") == "https://ship.example"
