"""What every game's API shares: the strict base, the generic actions and bodies, the responses.

The schemas check shape, types and lengths; the rules check everything that depends on the game
(a known resource, an open offer, whose turn it is).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema
from marshmallow.exceptions import SCHEMA

from ...codec import dumps, loads
from ...rules.core import UNDO_REASON_MAX
from ...rules.table import NAME_MAX
from ..errors import BadRequest, Fields

ID = validate.Length(min=1, max=32)
RULESET_ID = validate.Regexp(r"^[a-z_]{1,24}$")
"""An id from a game's ruleset file: a resource, a good, a port, a sea area."""

LARGEST = 2**53
"""The largest whole number a parameter may hold: every client counts it exactly (a JavaScript number
is exact up to here), and the JSON parser refuses a number beyond 64 bits anyway."""

SINCE_MAX = LARGEST
"""The largest `since` of GET /api/games/{code}/events (a version no game reaches)."""

GAME_STATE_VIEW = "GameStateView"
"""The OpenAPI component that openapi.py makes of every game's state view."""


def game_field(name: str, **options: Any) -> fields.String:
    """Return the `game` field of a body or view that belongs to the game called `name`."""
    return fields.String(validate=validate.OneOf([name]), **options)


def whole(low: int, high: int | None = None, **options: Any) -> fields.Integer:
    """A whole number from `low` to `high` (a bool, a float or a text is not one).

    Without `high` it is at most LARGEST, checked on its own: a number below `low` is told only that.
    """
    bounds = [validate.Range(min=low), validate.Range(max=LARGEST)] if high is None else [
        validate.Range(min=low, max=high)]
    return fields.Integer(strict=True, validate=bounds, **options)


class StrictBoolean(fields.Boolean):
    """A JSON true or false, and nothing that merely reads as one ("true", 1)."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class QueryInteger(fields.Integer):
    """A whole number in a URL's query: an optional minus, then ASCII digits ("٣" and "1_0" are none)."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> int:
        if not isinstance(value, str) or not re.fullmatch(r"-?[0-9]+", value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class Strict(Schema):
    """A body with no fields but its own: an unknown field is a 400."""

    class Meta:
        unknown = RAISE

    error_messages = {"type": "Not a valid mapping type."}  # noqa: RUF012 (marshmallow's); as a Dict says it


def load(schema: Schema, body: Any) -> dict[str, Any]:
    """Validate a request body with `schema`, or raise BadRequest with every field's messages."""
    if not isinstance(body, dict):
        raise BadRequest({"_body": ["The body must be a JSON object."]})
    try:
        data: dict[str, Any] = schema.load(body)
    except ValidationError as exc:
        raise BadRequest(field_messages(schema, exc.messages)) from None
    return data


def field_messages(schema: Schema, messages: Any) -> Fields:
    """Return marshmallow's messages for a body of `schema` as each field's path to its messages.

    Marshmallow nests them as the body nests (``{"give": {"wood": [...]}}``), puts a nested object's
    own messages under ``_schema`` and a map's under ``key`` and ``value``; the answer names each
    field by its path instead (``{"give.wood": [...]}``, see errors.Fields).
    """
    found: Fields = {}
    _schema_messages(schema, messages if isinstance(messages, dict) else {SCHEMA: messages}, "", found)
    return found


def _path(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _schema_messages(schema: Schema, messages: dict[Any, Any], path: str, found: Fields) -> None:
    by_key = {field.data_key or name: field for name, field in schema.fields.items()}
    for key, value in messages.items():
        if key == SCHEMA:
            _field_messages(None, value, path or "_body", found)
        else:
            _field_messages(by_key.get(key), value, _path(path, key), found)


def _field_messages(field: fields.Field[Any] | None, messages: Any, path: str, found: Fields) -> None:
    if not isinstance(messages, dict):
        found.setdefault(path, []).extend(
            str(m) for m in (messages if isinstance(messages, list) else [messages]))
    elif isinstance(field, fields.Nested):
        _schema_messages(field.schema, messages, path, found)
    elif isinstance(field, fields.List):
        for index, item in messages.items():
            _field_messages(field.inner, item, _path(path, index), found)
    elif isinstance(field, fields.Dict):
        for key, parts in messages.items():
            for part, inner in (("key", field.key_field), ("value", field.value_field)):
                if part in parts:
                    _field_messages(inner, parts[part], _path(path, key), found)
    else:  # a field that nests nothing, whose validator named parts of it
        for key, inner in messages.items():
            _field_messages(None, inner, _path(path, key), found)


# ---- requests every game shares -------------------------------------------------------------


class JoinSchema(Strict):
    """POST /api/games/{code}/players: a name (1 to NAME_MAX characters) and a free character."""

    name = fields.String(required=True, validate=[
        validate.Length(min=1, max=NAME_MAX),
        # the rules take the name without its surrounding spaces: something must be left
        validate.Regexp(r"^\s*\S", error="A name is not only spaces."),
    ])
    character = fields.String(required=True, validate=ID)


class SeatSchema(Strict):
    """POST /api/games/{code}/seat: the secret of a hand-over link (its fragment's `handover`)."""

    handover = fields.String(required=True, validate=validate.Length(min=16, max=128))


class EventsQuerySchema(Strict):
    """The query of GET /api/games/{code}/events: every event of the versions after `since`."""

    since = QueryInteger(load_default=-1, validate=validate.Range(min=-1, max=SINCE_MAX))


class ActionSchema(Strict):
    """What every action has: its type, and the version the client saw (checked first: 409)."""

    type = fields.String(required=True)
    expected_version = whole(0)


class NoParametersSchema(ActionSchema):
    """An action with no parameters (e.g. roll, end_turn, finish_phase, agree)."""


class UndoSchema(ActionSchema):
    """`undo {reason?}` (host): take back the latest change; the reason is told in the table's story."""

    reason = fields.String(validate=validate.Length(max=UNDO_REASON_MAX), metadata={
        "description": "why the host takes it back (told in the table's story); blank says none"})


class OfferIdSchema(ActionSchema):
    """An answer to an open offer by its id: accept, decline or withdraw it."""

    offer_id = fields.String(required=True, validate=ID)


class GuideSchema(ActionSchema):
    """`guide` (host): tick a step of the first evening's guide (`done` false unticks it), or skip it."""

    step = fields.String(validate=ID, metadata={"description": "a step of the ruleset's rules.guide"})
    done = StrictBoolean(load_default=True)
    skip = StrictBoolean(metadata={"description": "true: the table knows the game; the guide goes"})

    @validates_schema
    def one_of_them(self, data: dict[str, Any], **_: Any) -> None:
        """A step to tick, or the whole guide to skip."""
        if ("step" in data) == bool(data.get("skip")):
            raise ValidationError("Give a 'step', or 'skip': true.", "step")


CORE_ACTIONS: dict[str, type[ActionSchema]] = {"undo": UndoSchema, "guide": GuideSchema}
"""The actions the core decides for every game (the host takes back the latest change, or ticks
the first evening's guide)."""


class GameSchemas:
    """One game's request schemas (options and actions) and the schema that documents its view.

    The core's actions (undo) join the game's own; the `default` game is the one POST /api/games
    creates when the body names none. `characters` are the ids a player may join as (the rules
    check them; the document lists them).
    """

    def __init__(self, name: str, *, options: type[Strict], actions: Mapping[str, type[ActionSchema]],
                 view: type[Schema], characters: Sequence[str], default: bool = False) -> None:
        self.name = name
        self.characters = tuple(characters)
        self.title = name.capitalize()
        self.default = default
        self.view = view
        self.actions: dict[str, type[ActionSchema]] = {**actions, **CORE_ACTIONS}
        game = game_field(name, load_default=name) if default else game_field(name, required=True)
        self.creation = Strict.from_dict(
            {"game": game, "options": fields.Nested(options, load_default=dict)},
            name=f"Create{self.title}GameSchema",
        )
        self._loaders = {kind: schema() for kind, schema in self.actions.items()}
        self._valid: dict[bytes, tuple[str, int | None]] = {}

    def load_creation(self, body: Any) -> dict[str, Any]:
        """Validate POST /api/games for this game: return its options."""
        options: dict[str, Any] = load(self.creation(), body)["options"]
        return options

    def load_action(self, body: Any) -> tuple[dict[str, Any], int | None]:
        """Validate an action body: return the action for the rules and its `expected_version`.

        Validation is a pure function of the body, and a table sends the same few bodies again and
        again (`{"type": "roll"}`), so the result of each small valid body is remembered as JSON
        and handed out as a fresh copy: the same answer without running marshmallow again.
        """
        if not isinstance(body, dict):
            raise BadRequest({"_body": ["The body must be a JSON object."]})
        key = _memo_key(body)
        known = self._valid.get(key) if key is not None else None
        if known is not None:
            return loads(known[0]), known[1]
        kind = body.get("type")
        loader = self._loaders.get(kind) if isinstance(kind, str) else None
        if loader is None:
            raise BadRequest({"type": [f"Unknown action {kind!r}. Known: {', '.join(self.actions)}."]})
        action = load(loader, body)
        expected = action.pop("expected_version", None)
        if key is not None:
            if len(self._valid) >= MEMO_SIZE:
                self._valid.clear()
            self._valid[key] = (dumps(action), expected)
        return action, expected


MEMO_SIZE = 4096
"""Valid action bodies each game's schemas remember before starting afresh."""

MEMO_BODY = 256
"""The largest body (bytes of JSON) whose validation is remembered."""


def _memo_key(body: dict[str, Any]) -> bytes | None:
    """Return the body as JSON when it is small enough to remember, else None."""
    try:
        key = orjson.dumps(body)
    except (orjson.JSONEncodeError, TypeError):
        return None
    return key if len(key) <= MEMO_BODY else None


# ---- responses (documentation; the state view is the game's) -----------------------------------


class StateHeaderSchema(Schema):
    """The fields every game's state view opens with; the rest is the game's own."""

    class Meta:
        unknown = "include"

    code = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(["lobby", "playing", "finished"]))
    host = fields.Boolean(required=True, metadata={"description": "true in the host token's view"})
    you = fields.String(required=True, allow_none=True,
                        metadata={"description": "the viewer's player id; null for the host and screen"})
    players = fields.List(fields.Dict(), required=True, metadata={"description": "in seating order"})
    seed_hash = fields.String(required=True)
    seed = fields.String(required=True, allow_none=True,
                         metadata={"description": "null until the game is finished"})
    guide = fields.Dict(required=True, metadata={
        "description": "how far the table is through the first evening's guide: "
                       "{\"done\": [step ids], \"skipped\": bool}"})
    can_undo = fields.Boolean(required=True, metadata={
        "description": "whether this viewer may take the last change back: in the host's view, whether "
        "the last change can be undone (one step back, never a roll); false in every other view"})


class ErrorSchema(Schema):
    """Every refusal: a code, a message in the caller's language, and details."""

    error = fields.String(required=True, metadata={"example": "rule_violation"})
    message = fields.String(required=True)
    fields_ = fields.Dict(
        data_key="fields", keys=fields.String(), values=fields.List(fields.String()),
        metadata={"description": "400 (and 409 for a taken character): each offending field's path "
                                 "to its messages in the caller's language; a nested field's path "
                                 "joins the names with dots (`give.wood`, `cards.0.id`, "
                                 "`options.house_rules.caps.cannons`); the body itself is `_body`",
                  "example": {"give.wood": ["Must be greater than or equal to 0 and less than or "
                                            "equal to 999."]}},
    )
    rule = fields.String(metadata={"description": "422: the rule's ID in the ruleset", "example": "U3"})
    version = fields.Integer(metadata={"description": "409 stale_version: the game's version"})
    retry_after = fields.Integer(metadata={"description": "429: seconds to wait"})


class HealthSchema(Schema):
    """GET /healthz."""

    ok = fields.Boolean(required=True)
    redis = fields.String(required=True, validate=validate.OneOf(["ok", "down"]))


class GameCreatedSchema(Schema):
    """201 of POST /api/games."""

    code = fields.String(required=True, metadata={"example": "K7QX2M"})
    host_token = fields.String(required=True)
    join_url = fields.String(required=True)


class DiceDeviceSchema(Schema):
    """201 of POST /api/games/{code}/dice-device: the link that makes a device the table's dice."""

    token = fields.String(required=True, metadata={"description": "sees the public view; only rolls (T1)"})
    url = fields.String(required=True, metadata={"description": "/dice/{code}#device={token}"})
    qr = fields.String(required=True, metadata={"description": "the url as a QR code (an SVG data: URI)"})


class HandOverSchema(Schema):
    """201 of POST /api/games/{code}/players/{player_id}/handover: a link that gives the seat once."""

    url = fields.String(required=True, metadata={"description": "/join/{code}#handover={secret}"})
    expires_at = fields.String(required=True, metadata={"description": "when the link stops working (UTC)",
                                                        "example": "2026-12-01T10:00:00Z"})
    expires_in = fields.Integer(required=True, metadata={"description": "seconds the link works",
                                                         "example": 600})
    qr = fields.String(required=True, metadata={"description": "the url as a QR code (an SVG data: URI)"})


class JoinedSchema(Schema):
    """201 of POST /api/games/{code}/players, and of POST /api/games/{code}/seat."""

    player_id = fields.String(required=True, metadata={"example": "p1"})
    token = fields.String(required=True)


class EventSchema(Schema):
    """An event: a past-tense fact of one change, filtered for the viewer."""

    class Meta:
        unknown = "include"

    type = fields.String(required=True, metadata={"example": "SailsUpgraded"})
    version = fields.Integer(required=True)


class ActionResultSchema(Schema):
    """200 of POST /api/games/{code}/actions."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    state = fields.Raw(required=True,
                       metadata={"allOf": [{"$ref": f"#/components/schemas/{GAME_STATE_VIEW}"}]})


class EventListSchema(Schema):
    """GET /api/games/{code}/events."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
