"""Quest 1607's options, actions and state view (DESIGN.md), as marshmallow schemas."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .common import (
    ID,
    RULESET_ID,
    ActionSchema,
    GameSchemas,
    NoParametersSchema,
    OfferIdSchema,
    StateHeaderSchema,
    Strict,
    game_field,
)

SHIP = validate.Range(min=1, max=9)


def _counts(low: int = 0) -> fields.Dict:
    """A map resource → count (the rules check that each resource exists)."""
    return fields.Dict(
        keys=fields.String(validate=RULESET_ID),
        values=fields.Integer(strict=True, validate=validate.Range(min=low, max=999)),
        required=True,
    )


class OptionsSchema(Strict):
    """A new game's options (S6 and the house rules; the game checks the values)."""

    quests_per_level = fields.Integer(strict=True, validate=validate.Range(min=1, max=9))
    house_rules = fields.Dict(keys=fields.String(validate=validate.Length(max=40)))


# ---- actions ---------------------------------------------------------------------------------


class StartSchema(ActionSchema):
    """`start` (host): seat the players in join order, or randomly."""

    random_order = fields.Boolean()


class SailSchema(ActionSchema):
    """`sail {ship, squares}`: move a ship within the turn's allowance (T3)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    squares = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=99))


class OfferSchema(ActionSchema):
    """`offer {to, give, get}`: propose a trade with another player (M1)."""

    to = fields.String(required=True, validate=ID)
    give = _counts()
    get = _counts()


class MarketSchema(ActionSchema):
    """`market {give, get}`: 4 of one resource for 1 of another (M2)."""

    give = fields.String(required=True, validate=RULESET_ID)
    get = fields.String(required=True, validate=RULESET_ID)


class BankSchema(ActionSchema):
    """`bank {give, get}`: any 5 resources for 1 of choice (M3)."""

    give = _counts()
    get = fields.String(required=True, validate=RULESET_ID)


class UpgradeSchema(ActionSchema):
    """`upgrade {ship, part, pay_with?}` (U1, U3, U4)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    part = fields.String(required=True, validate=validate.OneOf(["sails", "cannons", "crew"]))
    pay_with = fields.String(validate=RULESET_ID)


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
    "adjust": AdjustSchema,
}


# ---- the state view (documentation) ----------------------------------------------------------


class PlayerViewSchema(Schema):
    """One player in the state view (fields may be added)."""

    class Meta:
        unknown = "include"

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


class StateViewSchema(StateHeaderSchema):
    """DESIGN.md's Quest 1607 state view, as the caller may see it (fields may be added)."""

    game = game_field("quest1607", required=True)
    round = fields.Integer(required=True)
    turn = fields.Dict(required=True, allow_none=True)
    players = fields.List(fields.Nested(PlayerViewSchema), required=True)
    offers = fields.List(fields.Dict(), required=True)
    combat = fields.Dict(required=True, allow_none=True)
    event = fields.Dict(required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)


SCHEMAS = GameSchemas("quest1607", options=OptionsSchema, actions=ACTIONS, view=StateViewSchema,
                      default=True)
