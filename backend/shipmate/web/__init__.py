"""The Flask application: the JSON API, the WebSocket and the web app, over one Redis."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import games  # noqa: F401  (importing the package registers every game)
from ..room import Rooms
from ..store import GameStore, Presence, Seats, client_for
from . import api, config, errors, pwa, ws

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the app: configuration from defaults, the environment and `test_config`."""
    app = Flask(__name__)
    app.config.update(config.load(test_config))
    if app.config["PROXY_COUNT"]:
        count = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)  # type: ignore[method-assign]

    client = client_for(app.config["REDIS_URL"], socket_connect_timeout=2, socket_timeout=10)
    server = secrets.token_hex(8)  # this process, to presence and to the game channels' listeners
    store = GameStore(client, idle_ttl=int(app.config["IDLE_TTL"]), server=server)
    app.extensions["shipmate.store"] = store
    app.extensions["shipmate.seats"] = Seats(client)
    presence = Presence(client, server, int(app.config["IDLE_TTL"]), float(app.config["PRESENCE_LEASE"]),
                        float(app.config["PRESENCE_GRACE"]))
    app.extensions["shipmate.rooms"] = Rooms(
        app.config["REDIS_URL"], store, presence, pings=float(app.config["WS_PING_INTERVAL"]),
        presence_refresh=float(app.config["PRESENCE_REFRESH"]),
        idle_check=float(app.config["SUBSCRIPTION_IDLE_CHECK"]))

    errors.init_app(app)
    ws.init_app(app)
    app.after_request(_secure)
    app.register_blueprint(api.bp)
    app.register_blueprint(ws.bp)
    app.register_blueprint(pwa.bp)
    return app


def _secure(response: Response) -> Response:
    """Add the security headers to every response."""
    response.headers.update(SECURITY_HEADERS)
    return response
