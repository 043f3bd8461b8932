"""Which device holds what: the table's dice device, and a player's seat handed to another phone."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import segno
from flask import current_app

from ..rules import Forbidden, has_dice_device, text
from ..store import hash_token
from .errors import BadRequest, GameNotFound, LinkGone, PlayerNotFound, Unauthorized
from .schemas.common import SeatSchema, load
from .service import authenticate, limit, load_state, seats, store
from .urls import site_url


def link_dice_device(code: str, token: str | None) -> dict[str, str]:
    """Give the table a dice device: a new token that sees the public view and only rolls (T1).

    Only the host may hand the dice out; the link carries the token in its fragment, which a
    browser never sends to a server, so it stays out of every log on the way.
    """
    if not token:
        raise Unauthorized()
    caller = authenticate(code, token)
    if not caller.viewer.host:
        raise Forbidden(text("Alleen de gastheer koppelt een dobbelapparaat.",
                             "Only the host links a dice device."))
    state = load_state(code)
    if not has_dice_device(state):
        raise BadRequest({"game": [f"{state['game']} has no dice device."]})
    device_token = secrets.token_urlsafe(16)
    if not store().grant(code, hash_token(device_token), {"dice": True}):
        raise GameNotFound(code)
    url = f"{site_url()}/dice/{code}#device={device_token}"
    return {"token": device_token, "url": url,
            "qr": segno.make(url, error="m").svg_data_uri(scale=6, border=2, dark="#000")}


def hand_over(code: str, player: str, token: str | None) -> dict[str, Any]:
    """Offer a player's seat to another device: a link that works once, for HANDOVER_TTL seconds.

    The host may hand over any seat, a player only their own (a planned switch of phones). The
    link carries the secret in its fragment, which a browser never sends to a server.
    """
    if not token:
        raise Unauthorized()
    caller = authenticate(code, token)
    if player not in load_state(code)["players"]:
        raise PlayerNotFound(player)
    if not caller.viewer.host and caller.viewer.player != player:
        raise Forbidden(text("Alleen de gastheer of de speler zelf geeft een plaats door.",
                             "Only the host or the player themselves can hand a seat over."))
    secret = secrets.token_urlsafe(24)
    ttl = int(current_app.config["HANDOVER_TTL"])
    seats().offer(code, player, secret, ttl)
    expires = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=ttl)
    url = f"{site_url()}/join/{code}#handover={secret}"
    return {"url": url, "expires_at": expires.isoformat().replace("+00:00", "Z"), "expires_in": ttl,
            "qr": segno.make(url, error="m").svg_data_uri(scale=6, border=2, dark="#000")}


def take_seat(code: str, body: Any) -> dict[str, str]:
    """Make the device that opened a hand-over link the player it hands over (410 once used or
    expired); every earlier token of that player is retired in the same step."""
    limit("joins")
    secret = load(SeatSchema(), body)["handover"]
    load_state(code)  # 404 for an unknown game
    token = secrets.token_urlsafe(16)
    player = seats().claim(code, secret, hash_token(token))
    if player is None:
        raise LinkGone()
    return {"player_id": player, "token": token}

