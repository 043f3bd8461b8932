"""Quest 1607's options, actions and state view (docs/PROTOCOL.md), as marshmallow schemas."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from ...games.quest1607.ruleset import BASE
from .common import (
    ID,
    ActionSchema,
    GameSchemas,
    NoParametersSchema,
    OfferIdSchema,
    Strict,
    StrictBoolean,
    whole,
)
from .quest1607_view import StateViewSchema

SHIP = validate.Range(min=1, max=7)
"""A ship's number: a fleet has at most 7 ships (house rule `caps.ships`; the rules check the player's)."""

PLAYER = validate.Regexp(r"^p[1-6]$", error="A player id is p1 to p6.")
"""A player's id: p1, p2, … in join order (the rules check that the player is seated)."""

RESOURCES = [resource["id"] for resource in BASE["resources"]]
RESOURCE = validate.OneOf(RESOURCES)


def _resource_counts(low: int, name: str) -> type[Schema]:
    """A map resource → count from `low` to 999: only the game's resources, each at most once."""
    count = validate.Range(min=low, max=999)
    return Strict.from_dict({resource: fields.Integer(strict=True, validate=count) for resource in RESOURCES},
                            name=name)


CountsSchema = _resource_counts(0, "CountsSchema")
SignedCountsSchema = _resource_counts(-999, "SignedCountsSchema")


def _counts(low: int = 0) -> fields.Nested:
    """A required map resource → count (negative counts from -999 with `low` below 0)."""
    return fields.Nested(SignedCountsSchema if low < 0 else CountsSchema, required=True)


class CapsSchema(Strict):
    """House rule `caps` (U2, U4): the most cannons, sails and ships."""

    cannons = whole(1, 7)
    sails = whole(1, 7)
    ships = whole(1, 7)


SIDES = [str(n) for n in range(1, 8)]
"""A ship's cannons (K) and sails (B) in the hit table (C4), as the table's keys."""

HitRowSchema = Strict.from_dict({side: whole(1, 6) for side in SIDES}, name="HitRowSchema")
HitTableSchema = Strict.from_dict({side: fields.Nested(HitRowSchema) for side in SIDES},
                                  name="HitTableSchema")

_BOUNDS = BASE["hit_bounds"]
HIT_BOUNDS = [
    {}, *({"min": low} for low in range(1, _BOUNDS["max"] + 1)),
    *({"max": high} for high in range(_BOUNDS["min"], 7)),
    *({"min": low, "max": high} for low in range(1, 7) for high in range(low, 7)),
]
"""Every allowed `hit_bounds`: each from 1 to 6, and the lowest roll that hits at most the highest
once merged with the ruleset's own (C4). Listed, because a document cannot compare two fields."""


def _hit_bounds(value: dict[str, Any]) -> None:
    """Refuse a `hit_bounds` that is not one of HIT_BOUNDS (true is no 1)."""
    if value not in HIT_BOUNDS or any(isinstance(bound, bool) for bound in value.values()):
        raise ValidationError("min and max are each 1 to 6, and min is at most max (the ruleset's: "
                              f"min {_BOUNDS['min']}, max {_BOUNDS['max']}).")


class HouseRulesSchema(Strict):
    """The house defaults a game may change (the ruleset file's `house_defaults`)."""

    caps = fields.Nested(CapsSchema)
    hit_table = fields.Nested(HitTableSchema, metadata={"description": "K → B → lowest roll that hits"})
    hit_bounds = fields.Dict(validate=_hit_bounds,
                             metadata={"enum": HIT_BOUNDS,
                                       "description": "the lowest and highest roll a hit may need (C4)"})
    sunk_crew = whole(1, 6)
    offers_lapse = StrictBoolean()
    trade_with_active_player = StrictBoolean()
    surrender_by = fields.String(validate=validate.OneOf(["either", "defender"]))
    keep_divisor = whole(1, 4)


class OptionsSchema(Strict):
    """A new game's options (S6 and the house rules; the game checks the values again)."""

    quests_per_level = fields.Integer(strict=True,
                                      validate=validate.OneOf(BASE["quests_per_level"]["allowed"]))
    house_rules = fields.Nested(HouseRulesSchema)


# ---- actions ---------------------------------------------------------------------------------


class StartSchema(ActionSchema):
    """`start` (host): seat the players in join order, or randomly."""

    random_order = StrictBoolean()


class SailSchema(ActionSchema):
    """`sail {ship, squares}`: move a ship within the turn's allowance (T3)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    squares = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=99))


class OfferSchema(ActionSchema):
    """`offer {to, give, get}`: propose a trade with another player (M1)."""

    to = fields.String(required=True, validate=PLAYER)
    give = _counts()
    get = _counts()


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
    pay_with = fields.String(validate=validate.OneOf(BASE["costs"]["crew"]["choice"]["of"]),
                             metadata={"description": "crew only: which of them pays (U1)"})


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
    target = fields.String(required=True, validate=PLAYER)
    target_ship = fields.Integer(strict=True, required=True, validate=SHIP)


class ResourcesSchema(ActionSchema):
    """`keep {resources}` and `fish {resources}` after a sinking (C7)."""

    resources = _counts()


class ShipSchema(ActionSchema):
    """`reach_edge {ship}`: sail off the map to win (V1)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)


class AdjustSchema(ActionSchema):
    """`adjust {player, resources, reason}` (host): add counts, which may be negative."""

    player = fields.String(required=True, validate=PLAYER)
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


SCHEMAS = GameSchemas("quest1607", options=OptionsSchema, actions=ACTIONS, view=StateViewSchema,
                      characters=[c["id"] for c in BASE["characters"]], default=True)
