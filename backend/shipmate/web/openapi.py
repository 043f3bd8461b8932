"""The OpenAPI document, generated from the very marshmallow schemas that validate the requests."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from .errors import LANGUAGES
from .schemas import DEFAULT_GAME, GAMES, common
from .schemas.common import ActionSchema, GameSchemas
from .service import CODE_ALPHABET, CODE_LENGTH, IDEMPOTENCY_KEY

ERRORS = {
    400: "Malformed body or unknown action (`fields`: each offending field's path to its messages)",
    401: "No token, a token the game does not know, or one retired by a seat's hand-over (`seat_moved`)",
    403: "Not allowed for this token (a host action, another player's ship or offer)",
    404: "No game with this code (or no such player)",
    409: "Stale `expected_version`, or a lobby conflict (a taken character, in `fields`; a started game)",
    413: "Body too large",
    422: "A rule of the game refuses the action (`rule` names it)",
    429: "Too many requests (see Retry-After)",
    503: "Redis cannot be reached right now",
}

CODE = {"name": "code", "in": "path", "required": True,
        "schema": {"type": "string", "pattern": f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$"}}
IDEMPOTENCY_KEY_HEADER = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "Retries with the same key (per token and game, kept 24 h) get the first answer; "
                   "1 to 128 visible ASCII characters",
    "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": IDEMPOTENCY_KEY.pattern},
}


WS_HANDSHAKE = [
    {"name": name, "in": "header", "required": True, "schema": {"type": "string", **schema}}
    for name, schema in (
        ("Upgrade", {"enum": ["websocket"]}),
        ("Connection", {"enum": ["Upgrade"]}),
        ("Sec-WebSocket-Version", {"enum": ["13"]}),
        ("Sec-WebSocket-Key", {"description": "16 random bytes in base64 (RFC 6455); any key is answered"}),
    )
]
"""The headers of a WebSocket handshake (RFC 6455); a GET without them is 400."""

WS_ACCEPTED = {
    name: {"required": True, "schema": {"type": "string", **schema}}
    for name, schema in (
        ("Upgrade", {"enum": ["websocket"]}),
        ("Connection", {"enum": ["Upgrade"]}),
        ("Sec-WebSocket-Accept", {"description": "base64 of the SHA-1 of the key and RFC 6455's GUID"}),
    )
}
"""The headers of the 101 that opens the socket (RFC 6455)."""


def _json(schema: Any, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[int, Any]:
    return {status: _json("Error", ERRORS[status]) for status in statuses}


def _ref(component: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{component}"}


class GameComponents(NamedTuple):
    """The names of one game's components: its creation body, the union of its actions, its view."""

    creation: str
    actions: str
    view: str


SHARED_ACTIONS = {schema for game in GAMES.values() for schema in game.actions.values()
                  if sum(schema in other.actions.values() for other in GAMES.values()) > 1}
"""The action schemas of more than one game (an action without parameters, an answer to an offer)."""


def _game_components(spec: APISpec, plugin: MarshmallowPlugin, game: GameSchemas) -> GameComponents:
    """Register one game's creation body, actions and view; return their components' names.

    Each action schema becomes `<Name>Action` (`<Game><Name>Action` when several games share it), its
    `type` one of the game's actions it takes, and `<Game>Action` is their union, told apart by `type`.
    """
    creation = f"Create{game.title}Game"
    spec.components.schema(creation, schema=game.creation)
    view = game.view.__name__.removesuffix("Schema")
    spec.components.schema(view, schema=game.view)
    kinds: dict[type[ActionSchema], list[str]] = {}
    for kind, schema in game.actions.items():
        kinds.setdefault(schema, []).append(kind)
    mapping: dict[str, str] = {}
    assert plugin.converter is not None  # made when the plugin joined the spec
    for schema, named in kinds.items():
        component = schema.__name__.removesuffix("Schema") + "Action"
        if schema in SHARED_ACTIONS:
            component = game.title + component
        body: dict[str, Any] = plugin.converter.schema2jsonschema(schema())  # type: ignore[no-untyped-call]
        body["properties"]["type"]["enum"] = named
        spec.components.schema(component, body)
        mapping |= dict.fromkeys(named, _ref(component)["$ref"])
    union = f"{game.title}Action"
    spec.components.schema(union, {
        "description": f"An action of a {game.name} game.",
        "oneOf": [{"$ref": ref} for ref in dict.fromkeys(mapping.values())],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    })
    return GameComponents(creation, union, view)


def _nullable_refs(node: Any) -> Any:
    """Return `node` with each nullable reference written so that only null is its alternative.

    apispec writes a Nested field that allows None as ``anyOf: [{type: object, nullable}, $ref]``,
    whose second branch accepts any object at all; ``allOf: [$ref], nullable`` accepts the
    referenced schema or null, and nothing else.
    """
    if isinstance(node, list):
        return [_nullable_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _nullable_refs(value) for key, value in node.items()}
    null = {"type": "object", "nullable": True}
    choices = node.get("anyOf")
    if isinstance(choices, list) and len(choices) == 2 and null in choices:
        ref = choices[1 - choices.index(null)]
        node = {key: value for key, value in node.items() if key != "anyOf"}
        node |= {"allOf": [ref], "nullable": True}
    return node


@cache
def build_spec() -> dict[str, Any]:
    """Return the OpenAPI 3 document of every route (WebSocket included, as its handshake)."""
    plugin = MarshmallowPlugin()
    spec = APISpec(title="Shipmate", version="1", openapi_version="3.0.3", plugins=[plugin],
                   info={"description": "The phone companion for sea-trading board games: "
                                        f"{', '.join(GAMES)} (docs/PROTOCOL.md)."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name in ("Error", "Health", "GameCreated", "Joined", "DiceDevice", "Event", "ActionResult",
                 "EventList", "Join", "HandOver", "Seat"):
        spec.components.schema(name, schema=getattr(common, f"{name}Schema"))
    games = {name: _game_components(spec, plugin, game) for name, game in GAMES.items()}
    spec.components.schema("CreateGame", {
        "description": f"`game` picks the game ({DEFAULT_GAME} when left out); the options are its own.",
        "oneOf": [_ref(game.creation) for game in games.values()],
    })
    spec.components.schema(common.GAME_STATE_VIEW, {
        "description": "The game's state view for the caller: a common header, then the game's own fields.",
        # anyOf: a view allows more fields, so a state may match several; `game` tells them apart
        "anyOf": [_ref(game.view) for game in games.values()],
        "discriminator": {"propertyName": "game",
                          "mapping": {name: _ref(game.view)["$ref"] for name, game in games.items()}},
    })
    actions = {
        "description": "The game at `code` decides which actions it knows: one union per game.",
        "anyOf": [_ref(game.actions) for game in games.values()],
    }
    bearer: list[dict[str, list[str]]] = [{"bearer": []}]
    optional_bearer: list[dict[str, list[str]]] = [{}, {"bearer": []}]

    spec.path(path="/healthz", operations={"get": {
        "summary": "Health of this server and its Redis",
        "responses": {200: _json("Health", "Up"), 503: _json("Health", "Redis is down")},
    }})
    spec.path(path="/api/games", operations={"post": {
        "summary": "Create a game",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "CreateGame"}}},
        "responses": {201: _json("GameCreated", "Created"), **_errors(400, 413, 429, 503)},
    }})
    spec.path(path="/api/games/{code}", parameters=[CODE], operations={"get": {
        "summary": "The state view for the bearer's token (public without one)",
        "security": optional_bearer,
        "responses": {200: _json(common.GAME_STATE_VIEW, "The state view"), **_errors(401, 404, 429, 503)},
    }})
    spec.path(path="/api/games/{code}/players", parameters=[CODE], operations={"post": {
        "summary": "Join the lobby",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Join"}}},
        "responses": {201: _json("Joined", "Joined"), **_errors(400, 404, 409, 413, 429, 503)},
    }})
    spec.path(path="/api/games/{code}/players/{player_id}/handover", parameters=[CODE, {
        "name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        operations={"post": {
            "summary": "Hand a player's seat to another device (the host, or that player): a link that "
                       "works once, for 10 minutes",
            "security": bearer,
            "responses": {201: _json("HandOver", "The link"), **_errors(401, 403, 404, 429, 503)},
        }})
    spec.path(path="/api/games/{code}/seat", parameters=[CODE], operations={"post": {
        "summary": "Take the seat of a hand-over link; every earlier token of that player answers 401",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Seat"}}},
        "responses": {201: _json("Joined", "Seated"), 410: _json("Error", "The link was used or expired"),
                      **_errors(400, 404, 413, 429, 503)},
    }})
    # A page shows one language: its ruleset's texts ({"nl", "en"}) in that one alone ({"en"}).
    texts_language = {"name": "lang", "in": "query", "required": False,
                      "schema": {"type": "string", "enum": list(LANGUAGES)},
                      "description": "every text of the ruleset in this language alone; both without it"}
    spec.path(path="/api/rulesets/{game}", parameters=[{
        "name": "game", "in": "path", "required": True, "schema": {"type": "string", "enum": list(GAMES)},
    }, texts_language], operations={"get": {
        "summary": "A game's ruleset with its house defaults, before any game is made",
        "responses": {200: _json({"type": "object"}, "The ruleset"), **_errors(400, 404)},
    }})
    spec.path(path="/api/rulesets/{game}/rules", parameters=[{
        "name": "game", "in": "path", "required": True, "schema": {"type": "string", "enum": list(GAMES)},
    }], operations={"get": {
        "summary": "The rulebook's texts of a game with its house defaults",
        "responses": {200: _json({"type": "object"}, "The rulebook"), **_errors(404)},
    }})
    spec.path(path="/api/games/{code}/dice-device", parameters=[CODE], operations={"post": {
        "summary": "Link a table device that rolls for whoever's turn it is (host only; games with dice)",
        "security": bearer,
        "responses": {201: _json("DiceDevice", "Linked"), **_errors(400, 401, 403, 404, 429, 503)},
    }})
    spec.path(path="/api/games/{code}/ruleset", parameters=[CODE, texts_language], operations={"get": {
        "summary": "The ruleset data the game is played with",
        "responses": {200: _json({"type": "object"}, "The ruleset"), **_errors(400, 401, 404, 429, 503)},
    }})
    spec.path(path="/api/games/{code}/rules", parameters=[CODE], operations={"get": {
        "summary": "The rulebook's texts of the game: its chapters and rules, numbers filled in",
        "responses": {200: _json({"type": "object"}, "The rulebook"), **_errors(401, 404, 429, 503)},
    }})
    actions_route = [CODE, IDEMPOTENCY_KEY_HEADER]
    spec.path(path="/api/games/{code}/actions", parameters=actions_route, operations={"post": {
        "summary": "Run an action",
        "security": bearer,
        "requestBody": {"required": True, "content": {"application/json": {"schema": actions}}},
        "responses": {200: _json("ActionResult", "Applied"),
                      **_errors(400, 401, 403, 404, 409, 413, 422, 429, 503)},
    }})
    spec.path(path="/api/games/{code}/events", parameters=[CODE], operations={"get": {
        "summary": "Every event after a version",
        "security": optional_bearer,
        "parameters": [{"name": "since", "in": "query", "required": False,
                        "schema": {"type": "integer", "minimum": -1, "maximum": common.SINCE_MAX,
                                   "default": -1}}],
        "responses": {200: _json("EventList", "The events"), **_errors(400, 401, 404, 429, 503)},
    }})
    spec.path(path="/api/games/{code}/qr.svg", parameters=[CODE], operations={"get": {
        "summary": "The join URL as a QR code",
        "responses": {200: {"description": "SVG",
                            "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                      **_errors(404, 429, 503)},
    }})
    spec.path(path="/api/openapi.json", operations={"get": {
        "summary": "This document", "responses": {200: {"description": "OpenAPI 3"}},
    }})
    spec.path(path="/ws/games/{code}", parameters=[CODE], operations={"get": {
        "summary": "WebSocket: a snapshot, then every change (docs/PROTOCOL.md)",
        "description": "Query `token` (optional: the public view). Server messages: snapshot, update, "
                       "patch, presence, seat_moved (then a close with 4401), ping, pong, result, error. "
                       "Client messages: resume {since}, ping, "
                       "action {id, action, idempotency_key?, language? (nl|en: refusals in it)}.",
        "parameters": [{"name": "token", "in": "query", "required": False, "schema": {"type": "string"}},
                       {"name": "updates", "in": "query", "required": False,
                        "description": "patch: each change as an RFC 6902 JSON Patch of the viewer's state; "
                                       "an action's result then carries version and events, not the state",
                        "schema": {"type": "string", "enum": ["full", "patch"], "default": "full"}},
                       *WS_HANDSHAKE],
        "responses": {101: {"description": "Switching protocols: the socket is open",
                            "headers": WS_ACCEPTED},
                      **_errors(401, 404, 429, 503),
                      400: _json("Error", "Not a WebSocket handshake (a plain GET, or a handshake without "
                                          "its key or version 13: `fields._handshake` names the missing "
                                          "header), or an `updates` that is neither full nor patch"),
                      403: _json("Error", "Another site's Origin")},
    }})
    document: dict[str, Any] = _nullable_refs(spec.to_dict())
    # Which characters a game has is the game's (its ruleset's `characters`); a join names one of them.
    # The path's code does not say the game, so the document gives each game's as one alternative;
    # they overlap (venice, spain), so any of them (anyOf), not exactly one.
    document["components"]["schemas"]["Join"]["properties"]["character"] = {
        "type": "string",
        "description": "one of the characters of the game at `code` (its ruleset's `characters`): "
                       + "; ".join(f"{name}: {', '.join(game.characters)}" for name, game in GAMES.items()),
        "anyOf": [{"title": name, "enum": list(game.characters)} for name, game in GAMES.items()],
    }
    return document
