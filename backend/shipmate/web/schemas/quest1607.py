"""The API's bodies as marshmallow schemas: they validate requests and document the API (OpenAPI).

The schemas check shape, types and lengths; the rules check everything that depends on the game
(a known resource, an open offer, whose turn it is).
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from .errors import BadRequest

ID = validate.Length(min=1, max=32)
RESOURCE = validate.Regexp(r"^[a-z_]{1,24}$")
SHIP = validate.Range(min=1, max=9)


def _counts(low: int = 0) -> fields.Dict:
    """A map resource → count (the rules check that each resource exists)."""
    return fields.Dict(
        keys=fields.String(validate=RESOURCE),
        values=fields.Integer(strict=True, validate=validate.Range(min=low, max=999)),
        required=True,
    )


class Strict(Schema):
    """A body with no fields but its own: an unknown field is a 400."""

    class Meta:
        unknown = RAISE


# ---- requests --------------------------------------------------------------------------------


class OptionsSchema(Strict):
    """A new game's options (S6 and the house rules; the game checks the values)."""

    quests_per_level = fields.Integer(strict=True, validate=validate.Range(min=1, max=9))
    house_rules = fields.Dict(keys=fields.String(validate=validate.Length(max=40)))


class CreateGameSchema(Strict):
    """POST /api/games."""

    game = fields.String(load_default="quest1607", validate=validate.Length(min=1, max=40))
    options = fields.Nested(OptionsSchema, load_default=dict)


class JoinSchema(Strict):
    """POST /api/games/{code}/players: a name (1–24 characters) and a free character."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=24))
    character = fields.String(required=True, validate=ID)


class ActionSchema(Strict):
    """What every action has: its type, and the version the client saw (checked first: 409)."""

    type = fields.String(required=True)
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=0))


class StartSchema(ActionSchema):
    """`start` (host): seat the players in join order, or randomly."""

    random_order = fields.Boolean()


class NoParametersSchema(ActionSchema):
    """An action with no parameters: roll, fire, surrender, accept_surrender, end_turn, undo."""


class SailSchema(ActionSchema):
    """`sail {ship, squares}`: move a ship within the turn's allowance (T3)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    squares = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=99))


class OfferSchema(ActionSchema):
    """`offer {to, give, get}`: propose a trade with another player (M1)."""

    to = fields.String(required=True, validate=ID)
    give = _counts()
    get = _counts()


class OfferIdSchema(ActionSchema):
    """`accept`, `decline` (the receiver) and `withdraw` (the sender) of an open offer."""

    offer_id = fields.String(required=True, validate=ID)


class MarketSchema(ActionSchema):
    """`market {give, get}`: 4 of one resource for 1 of another (M2)."""

    give = fields.String(required=True, validate=RESOURCE)
    get = fields.String(required=True, validate=RESOURCE)


class BankSchema(ActionSchema):
    """`bank {give, get}`: any 5 resources for 1 of choice (M3)."""

    give = _counts()
    get = fields.String(required=True, validate=RESOURCE)


class UpgradeSchema(ActionSchema):
    """`upgrade {ship, part, pay_with?}` (U1, U3, U4)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    part = fields.String(required=True, validate=validate.OneOf(["sails", "cannons", "crew"]))
    pay_with = fields.String(validate=RESOURCE)


class BuyQuestSchema(ActionSchema):
    """`buy_quest {level}` (U5)."""

    level = fields.String(required=True, validate=validate.OneOf(["bronze", "silver", "gold"]))


class QuestStepSchema(ActionSchema):
    """`quest_step {quest_id, step, ship?}`: a requirement met on the board (Q3)."""

    quest_id = fields.String(required=True, validate=ID)
    step = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=99))
    ship = fields.Integer(strict=True, validate=SHIP)


class QuestIdSchema(ActionSchema):
    """`complete_quest {quest_id}` (Q1)."""

    quest_id = fields.String(required=True, validate=ID)


class AttackSchema(ActionSchema):
    """`attack {ship, target, target_ship}` (C1)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    target = fields.String(required=True, validate=ID)
    target_ship = fields.Integer(strict=True, required=True, validate=SHIP)


class ResourcesSchema(ActionSchema):
    """`keep {resources}` and `fish {resources}` after a sinking (C7)."""

    resources = _counts()


class ShipSchema(ActionSchema):
    """`reach_edge {ship}`: sail off the map to win (V1)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)


class AdjustSchema(ActionSchema):
    """`adjust {player, resources, reason}` (host): add counts, which may be negative."""

    player = fields.String(required=True, validate=ID)
    resources = _counts(low=-999)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


ACTIONS: dict[str, type[ActionSchema]] = {
    "start": StartSchema,
    "roll": NoParametersSchema,
    "sail": SailSchema,
    "offer": OfferSchema,
    "accept": OfferIdSchema,
    "decline": OfferIdSchema,
    "withdraw": OfferIdSchema,
    "market": MarketSchema,
    "bank": BankSchema,
    "upgrade": UpgradeSchema,
    "buy_quest": BuyQuestSchema,
    "quest_step": QuestStepSchema,
    "complete_quest": QuestIdSchema,
    "attack": AttackSchema,
    "fire": NoParametersSchema,
    "surrender": NoParametersSchema,
    "accept_surrender": NoParametersSchema,
    "keep": ResourcesSchema,
    "fish": ResourcesSchema,
    "end_turn": NoParametersSchema,
    "reach_edge": ShipSchema,
    "undo": NoParametersSchema,
    "adjust": AdjustSchema,
}

_LOADERS = {name: schema() for name, schema in ACTIONS.items()}


def load(schema: Schema, body: Any) -> dict[str, Any]:
    """Validate a request body with `schema`, or raise BadRequest with every field's messages."""
    if not isinstance(body, dict):
        raise BadRequest({"_body": ["The body must be a JSON object."]})
    try:
        data: dict[str, Any] = schema.load(body)
    except ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {"_body": exc.messages}
        raise BadRequest(messages) from None
    return data


def load_action(body: Any) -> tuple[dict[str, Any], int | None]:
    """Validate an action body: return the action for the rules and its `expected_version`."""
    kind = body.get("type") if isinstance(body, dict) else None
    loader = _LOADERS.get(kind) if isinstance(kind, str) else None
    if loader is None:
        if not isinstance(body, dict):
            raise BadRequest({"_body": ["The body must be a JSON object."]})
        raise BadRequest({"type": [f"Unknown action {kind!r}. Known: {', '.join(ACTIONS)}."]})
    action = load(loader, body)
    expected = action.pop("expected_version", None)
    return action, expected


# ---- responses (documentation; the state view is the game's) -----------------------------------


class ErrorSchema(Schema):
    """Every refusal: a code, a message in the caller's language, and details."""

    error = fields.String(required=True, metadata={"example": "rule_violation"})
    message = fields.String(required=True)
    fields_ = fields.Dict(
        data_key="fields", keys=fields.String(), values=fields.List(fields.String()),
        metadata={"description": "400: the messages of each offending field"},
    )
    rule = fields.String(metadata={"description": "422: the rule's ID in RULES.md", "example": "U3"})
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


class JoinedSchema(Schema):
    """201 of POST /api/games/{code}/players."""

    player_id = fields.String(required=True, metadata={"example": "p1"})
    token = fields.String(required=True)


class PlayerViewSchema(Schema):
    """One player in the state view."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    character = fields.String(required=True)
    land_resource = fields.String(required=True)
    resources = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    ships = fields.List(fields.Dict(), required=True)
    level = fields.String(required=True)
    completed = fields.Dict(required=True)
    quest_count = fields.Integer(required=True)
    quests = fields.List(fields.Dict(), required=True, allow_none=True,
                         metadata={"description": "only in the owner's view; null elsewhere"})
    skip_turns = fields.Integer(required=True)


class StateViewSchema(Schema):
    """DESIGN.md's Quest 1607 state view, as the caller may see it (fields may be added)."""

    class Meta:
        unknown = "include"

    code = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(["lobby", "playing", "finished"]))
    round = fields.Integer(required=True)
    seed_hash = fields.String(required=True)
    seed = fields.String(required=True, allow_none=True)
    host = fields.Boolean(required=True)
    you = fields.String(required=True, allow_none=True)
    turn = fields.Dict(required=True, allow_none=True)
    players = fields.List(fields.Nested(PlayerViewSchema, unknown="include"), required=True)
    offers = fields.List(fields.Dict(), required=True)
    combat = fields.Dict(required=True, allow_none=True)
    event = fields.Dict(required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)


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
    state = fields.Nested(StateViewSchema, required=True)


class EventListSchema(Schema):
    """GET /api/games/{code}/events."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class EventsQuerySchema(Strict):
    """The query of GET /api/games/{code}/events: every event of the versions after `since`."""

    since = fields.Integer(load_default=-1, validate=validate.Range(min=-1))
