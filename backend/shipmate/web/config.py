"""Configuration: defaults, then the environment, then a test's own settings."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, Any] = {
    # The Redis that holds every game; required (the CLI passes it).
    "REDIS_URL": "",
    # Seconds a game is kept after its last change.
    "IDLE_TTL": 30 * 24 * 3600,
    # Largest request body (bytes); a bigger one answers 413.
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # Base URL of join links and QR codes ("https://ship.example/"); empty: the request's host URL.
    "PUBLIC_URL": "",
    # The address the server listens on (`shipmate serve --host` sets it), so that links carry an
    # address that answers: a loopback bind hands out the request's own (loopback) host, one address
    # that address, every address ("0.0.0.0", "::") the LAN address for a loopback request;
    # empty: unknown, handled as every address. PUBLIC_URL wins over it.
    "BIND_HOST": "",
    # The installable web app served at the site root; missing is fine (API only).
    "PWA_DIR": str(Path(__file__).resolve().parents[3] / "pwa"),
    # Fixed-window rate limits per client address: game creations, joins, and requests that name
    # a game without a valid token (so join codes cannot be guessed by brute force).
    "RATE_WINDOW": 60,
    "RATE_LIMIT_GAMES": 30,
    "RATE_LIMIT_JOINS": 30,
    "RATE_LIMIT_LOOKUPS": 300,
    # Reverse proxies in front of the server whose X-Forwarded-* headers are trusted (0: none).
    "PROXY_COUNT": 0,
    # WebSocket: updates queued for a socket before it is closed with 1008 (it resumes later).
    "WS_QUEUE_SIZE": 256,
    # WebSocket: seconds between {"type": "ping", "version"} messages (the contract: at most 25).
    "WS_PING_INTERVAL": 20.0,
    # WebSocket: seconds between protocol pings (flask-sock's `ping_interval`); a socket that misses
    # a pong is closed, so a phone that vanished without closing is noticed within two intervals: with
    # the presence grace, it is shown away within 2 × 20 + 15 = 55 s, within the minute of the contract.
    "WS_KEEPALIVE": 20,
    # WebSocket: open sockets this process accepts per game and per client address (then 429).
    "WS_MAX_PER_GAME": 64,
    "WS_MAX_PER_ADDRESS": 32,
    # WebSocket: seconds a socket's send may wait on a client that reads nothing before the socket
    # is cut (1008; it resumes later), and a closing socket may take to say goodbye.
    "WS_CLOSE_GRACE": 5.0,
    # Seconds a seat's hand-over link works (once).
    "HANDOVER_TTL": 600,
    # Presence: seconds between a server's renewals of its word that a player has a socket here, and
    # how long that word lasts; a server that stopped without a word is swept after one lease.
    "PRESENCE_REFRESH": 20.0,
    "PRESENCE_LEASE": 60.0,
    # Presence: seconds a player whose last socket closed stays online (a reload, a page change, a
    # look at the rulebook are not news to the table); then the table is told they are away.
    "PRESENCE_GRACE": 15.0,
    # Seconds this process's Redis subscription (store/subscription.py) may stay silent before it pings
    # Redis to check the connection; no pong within as long again is a lost connection (then it
    # reconnects and catches up). A quiet table is not a lost one: the subscription stays for hours.
    "SUBSCRIPTION_IDLE_CHECK": 30.0,
}


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """Return the settings the environment overrides, each parsed as the type of its default."""
    settings: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        if name in environ:
            value = environ[name]
            settings[name] = type(default)(value)
    return settings


def load(test_config: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the whole configuration: defaults, environment, then `test_config`."""
    config = {**DEFAULTS, **from_environment(os.environ), **(test_config or {})}
    if not config["REDIS_URL"]:
        raise RuntimeError("REDIS_URL is required (shipmate serve sets it)")
    return config
