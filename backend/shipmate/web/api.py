"""The JSON API of docs/PROTOCOL.md: routes that parse the request, call the service and serialise."""

from __future__ import annotations

import io
from typing import Any

import segno
from flask import Blueprint, Response, jsonify, request

from ..codec import loads
from . import devices, service, urls
from .errors import LANGUAGES, BadRequest, Unauthorized, request_language
from .openapi import build_spec

bp = Blueprint("api", __name__)


def json_body() -> Any:
    """Return the request's JSON body, or raise 400 (413 when it is too large)."""
    return parse_json(request.get_data())


def parse_json(raw: str | bytes) -> Any:
    """Parse a client's JSON, or raise 400.

    orjson is strict where the standard library is lenient, which suits a public API: NaN and
    Infinity, lone surrogates, integers beyond 64 bits and nesting deeper than 1,024 are refused.
    """
    try:
        return loads(raw)
    except ValueError as exc:
        raise BadRequest({"_body": [f"Malformed JSON: {exc}"]}) from None


def bearer_token() -> str | None:
    """Return the token of ``Authorization: Bearer <token>``, None without one, 401 for another scheme."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized()
    return token.strip()


def _json(body: Any, status: int = 200) -> Response:
    response = jsonify(body)
    response.status_code = status
    return response


@bp.get("/healthz")
def healthz() -> Response:
    """Say whether this server and its Redis answer."""
    if service.store().ping():
        return _json({"ok": True, "redis": "ok"})
    return _json({"ok": False, "redis": "down"}, 503)


@bp.post("/api/games")
def create_game() -> Response:
    """Create a game; the answer holds the host's token (shown once)."""
    return _json(service.create_game(json_body()), 201)


@bp.post("/api/games/<code>/players")
def join(code: str) -> Response:
    """Join a game in its lobby; the answer holds the player's token (shown once)."""
    return _json(service.join(code, json_body()), 201)


@bp.post("/api/games/<code>/players/<player_id>/handover")
def handover(code: str, player_id: str) -> Response:
    """Hand a player's seat to another device (host, or the player): a one-time link for 10 minutes."""
    return _json(devices.hand_over(code, player_id, bearer_token()), 201)


@bp.post("/api/games/<code>/seat")
def seat(code: str) -> Response:
    """Take the seat of a hand-over link; every earlier token of that player answers 401 from now on."""
    return _json(devices.take_seat(code, json_body()), 201)


@bp.get("/api/games/<code>")
def state(code: str) -> Response:
    """Return the state view for the bearer's token, or the public view without one."""
    return _json(service.view(code, bearer_token()))


def _kept(body: bytes) -> Response:
    """A ruleset's JSON, which a game's options fix for its whole life: browsers keep it an hour."""
    response = Response(body, mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


def _texts_language() -> str | None:
    """The language `?lang=` asks a ruleset's texts in (a page shows one), or None for both."""
    language = request.args.get("lang")
    if language is not None and language not in LANGUAGES:
        raise BadRequest({"lang": [f"Must be one of: {', '.join(LANGUAGES)}."]})
    return language


@bp.get("/api/rulesets/<game>")
def default_ruleset(game: str) -> Response:
    """Return a game's ruleset with its house defaults, before any game is made (the create form's)."""
    language = _texts_language()
    return _kept(service.ruleset_json(service.default_state(game), language))


@bp.get("/api/rulesets/<game>/rules")
def default_rules(game: str) -> Response:
    """Return the rulebook's texts of a game with its house defaults (the rulebook page's)."""
    return _kept(service.rules_json(service.default_state(game)))


@bp.post("/api/games/<code>/dice-device")
def dice_device(code: str) -> Response:
    """Link a table device that rolls for whoever's turn it is (host only); the answer holds its link."""
    return _json(devices.link_dice_device(code, bearer_token()), 201)


@bp.get("/api/games/<code>/ruleset")
def ruleset(code: str) -> Response:
    """Return the ruleset data the game is played with (its texts in one language with `?lang=`)."""
    language = _texts_language()
    service.authenticate(code, bearer_token())
    return _kept(service.ruleset_json(service.load_state(code), language))


@bp.get("/api/games/<code>/rules")
def rules(code: str) -> Response:
    """Return the rulebook's texts of the game, its numbers filled in as it is played."""
    service.authenticate(code, bearer_token())
    return _kept(service.rules_json(service.load_state(code)))


@bp.post("/api/games/<code>/actions")
def act(code: str) -> Response:
    """Run an action for the bearer's token (idempotent under an Idempotency-Key)."""
    status, body = service.act(code, bearer_token(), json_body(), request.headers.get("Idempotency-Key"),
                               request_language())
    return _json(body, status)


@bp.get("/api/games/<code>/events")
def events(code: str) -> Response:
    """Return every event after version `since`, as the bearer may see them."""
    return _json(service.events(code, bearer_token(), request.args.to_dict()))


@bp.get("/api/games/<code>/qr.svg")
def qr(code: str) -> Response:
    """Return the join URL as a QR code."""
    service.authenticate(code, None)
    svg = io.BytesIO()
    segno.make(urls.join_url(code), error="m").save(svg, kind="svg", scale=8, border=2, dark="#000")
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    # The link inside holds this computer's address on its network (urls.site_url), which changes
    # when the laptop joins another Wi-Fi: a lobby shown again must not scan to the old one.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/openapi.json")
def openapi() -> Response:
    """Return the OpenAPI document of the API, made from the schemas that validate it."""
    return _json(build_spec())
