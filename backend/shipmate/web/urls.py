"""The addresses a game hands out: the site phones open, and a game's join link."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from flask import current_app, request

from ..net import link_host


def join_url(code: str) -> str:
    """Return the URL that lets a phone join the game."""
    return f"{site_url()}/join/{code}"


def site_url() -> str:
    """Return the base URL that phones open: PUBLIC_URL, else this request's host URL with the host
    that answers phones (`net.link_host`: the bind address BIND_HOST decides).

    A host who opened a server on every address from the laptop itself (http://localhost:8000)
    hands out the computer's address on its network instead, on the same port; a server bound to
    loopback hands out loopback links, for nothing else could reach it.
    """
    base: str = current_app.config["PUBLIC_URL"]
    if base:
        return base.rstrip("/")
    url = urlsplit(request.host_url)
    host = link_host(current_app.config["BIND_HOST"], url.hostname or "")
    if host != url.hostname:
        shown = f"[{host}]" if ":" in host else host
        url = url._replace(netloc=f"{shown}:{url.port}" if url.port else shown)
    return urlunsplit(url).rstrip("/")

